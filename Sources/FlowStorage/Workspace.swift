import FlowCore
import Foundation
import GRDB

/// A workspace: an SQLite file holding named diagrams, each with its nodes, edges, style
/// sheet and the history of its change batches (docs/workspaces.md).
///
/// A store bound to a diagram (`create`, `open`) writes each change batch to the file in
/// one transaction as the batch commits, in WAL mode: a process killed at any moment
/// reopens with every batch whose call had returned. A batch the file refuses (locked,
/// read-only, full) is rolled back in the store and the call throws.
public final class Workspace {
    public typealias Store = FlowStore<JSONValue>

    /// Options for opening a workspace.
    public struct Options: Sendable {
        /// Open the file without writing to it (no create, no bound stores).
        public var readOnly = false
        /// How long a write waits for another connection's lock, in seconds.
        public var busyTimeout = 1.0
        /// Limits the file to this many pages (`PRAGMA max_page_count`): a write beyond it
        /// fails as on a full disk. For tests of that case.
        public var maxPages: Int?

        public init(readOnly: Bool = false, busyTimeout: Double = 1.0, maxPages: Int? = nil) {
            self.readOnly = readOnly
            self.busyTimeout = busyTimeout
            self.maxPages = maxPages
        }
    }

    public let path: String
    public let options: Options
    private var queue: DatabaseQueue?
    /// Signalled when the connection's last object is freed (`RetiredConnections`).
    private var released: DispatchSemaphore?
    /// The diagrams bound to a store of this process, by name.
    var bound: [String: DiagramWriter] = [:]
    /// The file's schema (`WorkspaceSchema`): this version's, or an older one of a file
    /// opened read-only (which is not upgraded).
    private(set) var schema = WorkspaceSchema.version

    /// Opens the workspace at `path`, creating the file when it does not exist (unless
    /// read-only). Throws when the file is not a workspace, was written by a newer
    /// version, or cannot be opened.
    public init(path: String, options: Options = Options()) throws(FlowError) {
        self.path = path
        self.options = options
        var config = Configuration()
        config.readonly = options.readOnly
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(options.busyTimeout)
        config.journalMode = options.readOnly ? .default : .wal
        let maxPages = options.maxPages
        let released = RetiredConnections.watch(&config)
        RetiredConnections.makeRoom()
        config.prepareDatabase { db in
            // Durable against a killed process: a committed transaction is in the WAL
            // file before the commit returns (only a power loss could lose the newest).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if let maxPages { _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(maxPages)") }
        }
        var opened: DatabaseQueue?
        do {
            let q = try DatabaseQueue(path: path, configuration: config)
            opened = q
            try q.inDatabase { db in
                if options.readOnly {
                    guard try Int.fetchOne(db, sql: "PRAGMA application_id") == Int(WorkspaceSchema.applicationID) else {
                        throw FlowError(.invalidDocument, operation: "workspace", message: "'\(path)' is not a workspace")
                    }
                }
                schema = try WorkspaceSchema.prepare(db, path: path, readOnly: options.readOnly)
            }
            queue = q
            self.released = released
        } catch {
            if let opened {
                try? opened.close()
                RetiredConnections.retire(opened, released)
            }
            throw WorkspaceError.from(error, "workspace", path: path)
        }
    }

    deinit { close() }

    /// Whether `close()` was called.
    public var isClosed: Bool { queue == nil }

    /// Closes the file. Stores bound to it refuse further changes (their calls throw).
    public func close() {
        for w in bound.values { w.detach() }
        bound = [:]
        if let q = queue {
            try? q.close()
            // kept, not released: releasing it would leave work on another thread
            RetiredConnections.retire(q, released!)  // invariant: set with `queue`
        }
        queue = nil
    }

    /// Runs `body` on the connection; errors become `FlowError`s of `operation`.
    func database<T>(_ operation: String, _ body: (Database) throws -> T) throws(FlowError) -> T {
        guard let q = queue else { throw FlowError(.invalidState, operation: operation, message: "the workspace is closed") }
        do {
            return try q.inDatabase(body)
        } catch {
            throw WorkspaceError.from(error, operation, path: path)
        }
    }

    /// Runs `body` in one deferred transaction: its reads see one state of the file, even
    /// while another process writes (reading a diagram's rows and its newest number).
    func snapshot<T>(_ operation: String, _ body: (Database) throws -> T) throws(FlowError) -> T {
        try database(operation) { db in
            var result: T?
            try db.inTransaction(.deferred) {
                result = try body(db)
                return .commit
            }
            return result!  // invariant: set by the committed body
        }
    }

    /// Runs `body` in one immediate transaction (all of it or nothing).
    func transaction<T>(_ operation: String, _ body: (Database) throws -> T) throws(FlowError) -> T {
        if options.readOnly {
            throw FlowError(.io, operation: operation, message: "the workspace '\(path)' was opened read-only")
        }
        return try database(operation) { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!  // invariant: set by the committed body
        }
    }

    // MARK: Diagrams

    /// The diagrams' names, sorted.
    public func list() throws(FlowError) -> [String] {
        try database("list") { db in try String.fetchAll(db, sql: "SELECT name FROM diagram ORDER BY name") }
    }

    /// The id of diagram `name`, or throws naming `operation`.
    func diagramID(_ db: Database, _ name: String, _ operation: String) throws -> Int64 {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM diagram WHERE name = ?", arguments: [name]) else {
            throw FlowError(.invalidValue, operation: operation, message: "no diagram named '\(name)' in the workspace")
        }
        return id
    }

    static func checkName(_ name: String, _ operation: String) throws(FlowError) {
        if name.isEmpty { throw FlowError(.invalidValue, operation: operation, message: "a diagram name must not be empty") }
    }

    /// Renames a diagram.
    public func rename(_ old: String, to new: String) throws(FlowError) {
        try Self.checkName(new, "rename")
        try transaction("rename") { db in
            let id = try diagramID(db, old, "rename")
            if try Int64.fetchOne(db, sql: "SELECT id FROM diagram WHERE name = ?", arguments: [new]) != nil {
                throw FlowError(.invalidValue, operation: "rename", message: "a diagram named '\(new)' exists")
            }
            try db.execute(sql: "UPDATE diagram SET name = ? WHERE id = ?", arguments: [new, id])
        }
        if let w = bound.removeValue(forKey: old) { bound[new] = w }
    }

    /// Deletes a diagram with its nodes, edges and history. A diagram bound to a store of
    /// this process is deleted only with `closing`: once the file no longer holds it, the
    /// store is unbound and given to `closing` (the Lua binding closes it); without, the
    /// error says so. When the delete fails, the store stays bound, as it was.
    public func delete(_ name: String, closing: ((Store) -> Void)?) throws(FlowError) {
        if isBound(name) && closing == nil {
            throw FlowError(
                .invalidState, operation: "delete",
                message: "diagram '\(name)' is open (bound to a store): close the store first")
        }
        try transaction("delete") { db in
            let id = try diagramID(db, name, "delete")
            try db.execute(sql: "DELETE FROM diagram WHERE id = ?", arguments: [id])
        }
        guard let writer = bound.removeValue(forKey: name) else { return }
        writer.detach()
        if let store = writer.store { closing?(store) }
    }

    /// Whether diagram `name` is bound to a store that is still alive (a store dropped or
    /// closed unbinds it).
    func isBound(_ name: String) -> Bool {
        guard let writer = bound[name] else { return false }
        if writer.store != nil { return true }
        bound.removeValue(forKey: name)
        return false
    }
}
