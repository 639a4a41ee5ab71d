import FlowCore

/// A workspace, whatever keeps it: an SQLite file (`Workspace`) or a PostgreSQL database
/// (`PostgresWorkspace` in FlowPostgres). The Lua binding and flowrepl use this one API
/// for both (docs/workspaces.md, docs/collaboration.md).
public protocol DiagramWorkspace: AnyObject {
    /// Where the workspace is: the file's path, or the database URL without its password.
    var location: String { get }
    var isClosed: Bool { get }
    /// Closes the workspace; stores bound to it refuse further changes.
    func close()
    func list() throws(FlowError) -> [String]
    /// Creates diagram `name` and binds `store` to it (what it holds is the first batch).
    func create(_ name: String, into store: FlowStore<JSONValue>) throws(FlowError)
    /// Loads diagram `name` into `store` and binds the store to it.
    func open(_ name: String, into store: FlowStore<JSONValue>) throws(FlowError)
    /// Batches 1 through `version` of diagram `name`, decoded (errors name `operation`).
    func history(_ name: String, upTo version: Int, _ operation: String) throws(FlowError) -> [FlowBatch<JSONValue>]
    /// Copies diagram `name` (at `version`, else as it is) with its history as `newName`.
    func fork(_ name: String, at version: Int?, as newName: String, into store: FlowStore<JSONValue>) throws(FlowError)
    func rename(_ old: String, to new: String) throws(FlowError)
    /// Deletes diagram `name` with its history. A diagram bound to a store is deleted only
    /// with `closing`, which gets the store once it is unbound (the Lua binding closes it);
    /// without, the error says to close the store first.
    func delete(_ name: String, closing: ((FlowStore<JSONValue>) -> Void)?) throws(FlowError)
    func versions(_ name: String) throws(FlowError) -> [WorkspaceVersion]
    /// Loads what the workspace holds now into the store bound to diagram `name`.
    func reload(_ name: String) throws(FlowError)
    /// Applies to the bound stores what other sessions committed since they last looked,
    /// and writes changes kept while the database was out of reach. Returns how many
    /// batches of others it applied.
    func sync() throws(FlowError) -> Int
}

extension DiagramWorkspace {
    /// Deletes diagram `name`, which no store holds open.
    public func delete(_ name: String) throws(FlowError) { try delete(name, closing: nil) }

    /// Loads diagram `name` as it was after batch `version` into `store`, which is not
    /// bound: its changes are refused ("fork it to change it").
    public func open(_ name: String, at version: Int, into store: FlowStore<JSONValue>) throws(FlowError) {
        try store.replayHistory(try history(name, upTo: version, "open"))
        store.refuseChanges(diagram: name, version: version)
    }
}

extension Workspace: DiagramWorkspace {
    public var location: String { path }
}

extension FlowStore where Data == JSONValue {
    /// Makes the store hold what `batches` make from an empty document, with no recorder
    /// and an empty undo history (opening a version, forking).
    public func replayHistory(_ batches: [FlowBatch<JSONValue>]) throws(FlowError) {
        actionRecorder = nil
        _ = try load(FlowDocument())
        try replay(batches)
        clearHistory()
    }

    /// Applies batches other writers committed (their change events follow; the undo
    /// history starts afresh). False when they do not replay, leaving the store as it was:
    /// not expected (every batch was checked as it was written), the caller reloads.
    public func applyOthers(_ batches: [FlowBatch<JSONValue>]) -> Bool {
        guard (try? replay(batches)) != nil else { return false }
        clearHistory()
        return true
    }

    /// Makes the store refuse changes: it shows diagram `name` at `version`.
    public func refuseChanges(diagram name: String, version: Int) {
        actionRecorder = FlowActionRecorder(keepsJournal: false) { _ in
            FlowError(.invalidState, operation: "", message: "diagram '\(name)' at version \(version) is read-only (fork it to change it)")
        }
    }
}
