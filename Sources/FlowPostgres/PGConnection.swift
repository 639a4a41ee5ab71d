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
