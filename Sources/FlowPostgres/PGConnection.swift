import CLibPQ
import FlowCore
@preconcurrency import Glibc

/// One libpq connection, used synchronously (the Lua API is synchronous): each statement
/// is one round trip. Errors become `FlowError`s of the workspace function that ran them,
/// with the URL's password taken out.
final class PGConnection {
    private var conn: UnsafeMutableRawPointer?
    let url: DatabaseURL

    /// Thrown (as the FlowError's message prefix) when the server could not be reached or
    /// the connection broke: the workspace keeps working locally then.
    static let lostMarker = "the connection to the database was lost"

    init(_ url: DatabaseURL, _ operation: String) throws(FlowError) {
        self.url = url
        if let missing = fpq_load() {
            throw FlowError(.io, operation: operation, message: String(cString: missing))
        }
        let c = fpq_connect(url.connectionString)
        guard fpq_ok(c) != 0 else {
            let message = url.redact(String(cString: fpq_error(c)))
            fpq_finish(c)
            throw FlowError(.io, operation: operation, message: "cannot connect to \(url.display): \(Self.oneLine(message))")
        }
        conn = c
    }

    deinit { close() }

    func close() {
        fpq_finish(conn)
        conn = nil
    }

    var isOpen: Bool { conn != nil && fpq_ok(conn) != 0 }
    var socket: Int32 { fpq_socket(conn) }

    /// Reconnects a broken connection; true when it is up again.
    func reconnect() -> Bool {
        guard let conn else { return false }
        return fpq_reset(conn) != 0
    }

    /// How many notifications arrived (nil when the connection is broken).
    func notifications() -> Int? {
        let n = fpq_notifications(conn)
        return n < 0 ? nil : Int(n)
    }

    /// Runs `sql` with `params` ($1, $2, ...; nil is NULL); returns the rows as text.
    @discardableResult
    func query(_ sql: String, _ params: [String?] = [], _ operation: String) throws(FlowError) -> [[String?]] {
        guard let conn else { throw FlowError(.invalidState, operation: operation, message: "the workspace is closed") }
        let copies = params.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let result: UnsafeMutableRawPointer? = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            fpq_exec(conn, sql, Int32(params.count), buffer.baseAddress)
        }
        defer { fpq_clear(result) }
        return try rows(of: result, conn, operation)
    }

    /// One statement: its SQL and its parameters ($1, $2, ...; nil is NULL).
    typealias Statement = (sql: String, params: [String?])

    /// Whether `pipeline` sends its statements at once (libpq 14 and later).
    var pipelines: Bool { fpq_can_pipeline() != 0 }

    /// Runs `statements` in order and returns the rows of each: at once, in one round trip
    /// (a pipeline of up to `pipelineLength` statements) when libpq can, else one by one.
    /// The first statement that fails throws; those after it in its pipeline are not run.
    @discardableResult
    func pipeline(_ statements: [Statement], _ operation: String) throws(FlowError) -> [[[String?]]] {
        guard let conn else { throw FlowError(.invalidState, operation: operation, message: "the workspace is closed") }
        guard pipelines else {
            var all: [[[String?]]] = []
            for s in statements { all.append(try query(s.sql, s.params, operation)) }
            return all
        }
        var all: [[[String?]]] = []
        var start = 0
        while start < statements.count {
            let part = statements[start..<min(start + Self.pipelineLength, statements.count)]
            all += try send(Array(part), conn, operation)
            start += part.count
        }
        return all
    }

    /// The most statements sent before their results are read (a longer pipeline could
    /// fill both sockets' buffers, each side waiting for the other to read).
    static let pipelineLength = 200

    private func send(_ part: [Statement], _ conn: UnsafeMutableRawPointer, _ operation: String) throws(FlowError) -> [[[String?]]] {
        let sqls = part.map { strdup($0.sql) }
        let values: [UnsafeMutablePointer<UnsafePointer<CChar>?>] = part.map { s in
            let v = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(1, s.params.count))
            for (i, p) in s.params.enumerated() { v[i] = p.map { UnsafePointer(strdup($0)) } }
            return v
        }
        defer {
            sqls.forEach { free($0) }
            for (v, s) in zip(values, part) {
                for i in 0..<s.params.count { free(UnsafeMutableRawPointer(mutating: v[i])) }
                v.deallocate()
            }
        }
        var results = [UnsafeMutableRawPointer?](repeating: nil, count: part.count)
        let counts = part.map { Int32($0.params.count) }
        // its status is not needed: what came back tells (below)
        _ = sqls.map { UnsafePointer($0) }.withUnsafeBufferPointer { q in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
                fpq_pipeline(conn, Int32(part.count), q.baseAddress, counts, v.baseAddress, &results)
            }
        }
        defer { results.forEach { fpq_clear($0) } }
        var all: [[[String?]]] = []
        for r in results where fpq_aborted(r) == 0 {
            guard let r else { break }
            all.append(try rows(of: r, conn, operation))  // the first failure throws
        }
        // every statement came back: done, even when the sync after them did not (a
        // COMMIT answered is committed; a broken connection shows at the next statement)
        if all.count < part.count {
            throw FlowError(.io, operation: operation, message: "\(Self.lostMarker) (\(url.display)): \(Self.oneLine(url.redact(String(cString: fpq_error(conn)))))")
        }
        return all
    }

    /// The rows of `result` as text, or throws its error (a lost connection with `lostMarker`).
    private func rows(of result: UnsafeMutableRawPointer?, _ conn: UnsafeMutableRawPointer, _ operation: String) throws(FlowError) -> [[String?]] {
        switch fpq_status(result) {
        case 0: return []
        case 1:
            var rows: [[String?]] = []
            let count = fpq_rows(result)
            let columns = Int32(columnCount(result))
            rows.reserveCapacity(Int(count))
            for r in 0..<count {
                rows.append((0..<columns).map { c in fpq_is_null(result, r, c) != 0 ? nil : String(cString: fpq_value(result, r, c)) })
            }
            return rows
        default:
            let state = String(cString: fpq_sqlstate(result))
            let message = url.redact(Self.oneLine(String(cString: fpq_result_error(result))))
            if fpq_ok(conn) == 0 || state.hasPrefix("08") || state == "57P01" {
                throw FlowError(.io, operation: operation, message: "\(Self.lostMarker) (\(url.display)): \(message)")
            }
            throw FlowError(.io, operation: operation, message: "\(url.display): \(message)" + (state.isEmpty ? "" : " (SQLSTATE \(state))"))
        }
    }

    private func columnCount(_ result: UnsafeMutableRawPointer?) -> Int { Int(fpq_columns(result)) }

    static func oneLine(_ s: String) -> String {
        var t = s.split(whereSeparator: \.isNewline).map { $0.trimmingPrefixSpaces() }.joined(separator: " ")
        while t.hasSuffix(".") || t.hasSuffix(" ") { t.removeLast() }
        return t
    }

    /// Whether `error` says the connection was lost (the change can be kept locally).
    static func isLost(_ error: FlowError) -> Bool { error.message.hasPrefix(lostMarker) }
}

extension Substring {
    fileprivate func trimmingPrefixSpaces() -> Substring { drop { $0 == " " || $0 == "\t" } }
}
