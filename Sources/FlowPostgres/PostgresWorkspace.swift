import FlowCore
import FlowStorage
@preconcurrency import Glibc

/// A workspace in a PostgreSQL database (`postgresql://user@host:port/db`): the API of the
/// SQLite `Workspace`, shared by any number of sessions (docs/collaboration.md).
///
/// Each change batch of a bound store is committed as the call returns, in the database's
/// order (the diagram's row is locked while a batch is written). A batch made against an
/// older version than the database's is rebased onto what others committed when it still
/// applies, and refused as a whole, naming the conflict, when it does not. `sync()`
/// applies what others committed (announced with NOTIFY) to the bound stores. While the
/// database is out of reach the stores keep working and their batches are kept, to be
/// written when it is back.
public final class PostgresWorkspace: DiagramWorkspace {
    public typealias Store = FlowStore<JSONValue>

    let url: DatabaseURL
    var db: PGConnection?
    /// The diagrams bound to a store of this workspace, by name.
    var bound: [String: PGDiagram] = [:]
    /// Whether the database is out of reach (changes are kept locally).
    public private(set) var isOffline = false
    private var lastAttempt = 0.0
    /// The least time between two attempts to reconnect, in seconds.
    public var reconnectInterval = 1.0
    /// Where the workspace says what happens to a session's changes (lost connection,
    /// reconnected, batches it could not write). Standard error by default.
    public var notice: (String) -> Void = { message in
        fputs("workspace: \(message)\n", stderr)
        fflush(stderr)
    }
    /// A test seam, not API: run by `sync()` after it found the connection up and before it
    /// asks the database for others' batches, so that a test can drop the connection at
    /// exactly that moment (otherwise a race with a server restart).
    var afterSyncCheck: (() -> Void)?

    /// Whether `location` names a PostgreSQL database (else it is a file).
    public static func isDatabaseURL(_ location: String) -> Bool { DatabaseURL.isDatabaseURL(location) }

    /// Connects to the database at `url`, creating the tables when missing.
    public init(url: String) throws(FlowError) {
        self.url = DatabaseURL(url)
        let c = try PGConnection(self.url, "workspace")
        try PGSchema.prepare(c, display: self.url.display)
        db = c
        Self.sessions.append(Weak(self))
    }

    deinit { close() }

    public var location: String { url.display }
    public var isClosed: Bool { db == nil }
    /// The connection's socket: readable when another session committed (for poll).
    public var socket: Int32 { db?.socket ?? -1 }

    public func close() {
        for d in bound.values { d.detach() }
        bound = [:]
        db?.close()
        db = nil
    }

    // MARK: Statements

    func connection(_ operation: String) throws(FlowError) -> PGConnection {
        guard let db else { throw FlowError(.invalidState, operation: operation, message: "the workspace is closed") }
        return db
    }

    @discardableResult
    func query(_ sql: String, _ params: [String?] = [], _ operation: String) throws(FlowError) -> [[String?]] {
        let c = try connection(operation)
        do {
            return try c.query(sql, params, operation)
        } catch {
            if PGConnection.isLost(error) { lost(error) }
            throw error
        }
    }

    /// Runs `statements` in order, at once when libpq can (`PGConnection.pipeline`).
    @discardableResult
    func pipeline(_ statements: [PGConnection.Statement], _ operation: String) throws(FlowError) -> [[[String?]]] {
        let c = try connection(operation)
        do {
            return try c.pipeline(statements, operation)
        } catch {
            if PGConnection.isLost(error) { lost(error) }
            throw error
        }
    }

    /// A transaction in two round trips: BEGIN and `first` at once, then `body` (given the
    /// rows of `first`, it may run more statements) returns the statements to write, sent
    /// at once with the COMMIT. All of it or nothing; returns what `body` gives beside them.
    func transaction<T>(
        _ operation: String, first: PGConnection.Statement,
        _ body: ([[String?]]) throws(FlowError) -> ([PGConnection.Statement], T)
    ) throws(FlowError) -> T {
        do throws(FlowError) {
            let rows = try pipeline([("BEGIN", []), first], operation)[1]
            let (writes, r) = try body(rows)
            try pipeline(writes + [("COMMIT", [])], operation)
            return r
        } catch {
            _ = try? db?.query("ROLLBACK", [], operation)
            throw error
        }
    }

    /// Runs `body` in one transaction: all of it or nothing.
    func transaction<T>(_ operation: String, isolation: String = "", _ body: () throws(FlowError) -> T) throws(FlowError) -> T {
        try query("BEGIN" + isolation, [], operation)
        do throws(FlowError) {
            let r = try body()
            try query("COMMIT", [], operation)
            return r
        } catch {
            _ = try? db?.query("ROLLBACK", [], operation)
            throw error
        }
    }

    /// The id of diagram `name`, or throws naming `operation`.
    func diagramID(_ name: String, _ operation: String, lock: Bool = false) throws(FlowError) -> Int64 {
        guard let id = try query("SELECT id FROM flow_diagram WHERE name = $1" + (lock ? " FOR UPDATE" : ""), [name], operation).first?[0].flatMap({ Int64($0) }) else {
            throw FlowError(.invalidValue, operation: operation, message: "no diagram named '\(name)' in the workspace")
        }
        return id
    }

    func requireFree(_ name: String, _ operation: String) throws(FlowError) {
        if try !query("SELECT 1 FROM flow_diagram WHERE name = $1", [name], operation).isEmpty {
            throw FlowError(.invalidValue, operation: operation, message: "a diagram named '\(name)' exists")
        }
    }

    static func checkName(_ name: String, _ operation: String) throws(FlowError) {
        if name.isEmpty { throw FlowError(.invalidValue, operation: operation, message: "a diagram name must not be empty") }
    }

    static var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    // MARK: Connection

    /// The connection broke: keep working locally and say so, once.
    func lost(_ error: FlowError) {
        guard !isOffline else { return }
        isOffline = true
        lastAttempt = Self.monotonic
        notice("\(error.message); working locally: changes are kept and written when the database is back")
    }

    /// Tries to reconnect (at most once a second); true when the connection is up.
    func reconnectIfNeeded() -> Bool {
        guard isOffline else { return db != nil }
        guard let db, Self.monotonic - lastAttempt >= reconnectInterval else { return false }
        lastAttempt = Self.monotonic
        guard db.reconnect(), (try? db.query("LISTEN \(PGSchema.channel)", [], "workspace")) != nil else { return false }
        isOffline = false
        let kept = bound.values.reduce(0) { $0 + $1.pending.count }
        notice("reconnected to \(url.display)" + (kept > 0 ? "; writing \(kept) kept \(kept == 1 ? "change" : "changes")" : ""))
        for d in bound.values { d.flushPending() }
        return !isOffline
    }

    static var monotonic: Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    // MARK: Sessions

    /// The workspaces of this process, for `syncAll` (flowrepl syncs before each prompt).
    nonisolated(unsafe) static var sessions: [Weak] = []

    struct Weak {
        weak var workspace: PostgresWorkspace?
        init(_ w: PostgresWorkspace) { workspace = w }
    }

    /// Syncs every open PostgreSQL workspace of the process (nothing to do when none is
    /// open); errors are given as notices. Returns how many batches of others it applied.
    @discardableResult
    public static func syncAll() -> Int {
        if sessions.isEmpty { return 0 }
        sessions.removeAll { $0.workspace == nil || $0.workspace!.isClosed }
        var applied = 0
        for w in sessions.compactMap(\.workspace) {
            do throws(FlowError) { applied += try w.sync() } catch { w.notice(error.description) }
        }
        return applied
    }

    /// The sockets of the open workspaces whose connection is up (offline ones are left
    /// out: a broken socket is always readable): readable when another session committed.
    public static var sockets: [Int32] {
        sessions.compactMap(\.workspace).filter { !$0.isClosed && !$0.isOffline && !$0.bound.isEmpty }.map(\.socket).filter { $0 >= 0 }
    }

    /// Whether an open workspace with bound diagrams lost its connection.
    public static var anyOffline: Bool {
        sessions.contains { w in w.workspace.map { !$0.isClosed && $0.isOffline && !$0.bound.isEmpty } ?? false }
    }

    /// Applies what others committed to every bound store; writes kept changes when the
    /// database is back. Returns how many batches of others it applied.
    public func sync() throws(FlowError) -> Int {
        guard db != nil else { throw FlowError(.invalidState, operation: "sync", message: "the workspace is closed") }
        if isOffline && !reconnectIfNeeded() { return 0 }
        // The notifications only wake a waiting host (`socket`): a sync asks the database
        // anyway (one query per bound diagram), so it applies everything committed
        // before it was called, even a batch whose NOTIFY is still on its way.
        guard db?.notifications() != nil else {
            lost(FlowError(.io, operation: "sync", message: "\(PGConnection.lostMarker) (\(url.display))"))
            return 0
        }
        afterSyncCheck?()
        var applied = 0
        for d in bound.values.sorted(by: { $0.name < $1.name }) {
            do throws(FlowError) {
                applied += try d.catchUp("sync")
            } catch {
                // lost between the two (a server restart): offline now (`query` said so)
                if PGConnection.isLost(error) { return applied }
                throw error
            }
        }
        return applied
    }
}
