import FlowCore
import GRDB

/// Several writers of one diagram of a file (other processes, other Workspaces on the
/// file): a store's batch made behind theirs is rebased onto them when it still applies
/// (`DiagramWriter`), and `sync` brings theirs into the store.
extension Workspace {
    /// Applies to each bound store the batches other writers wrote since it last looked;
    /// a store whose own batches were renumbered by a rebase loads the diagram afresh.
    /// Returns how many batches of others it applied.
    public func sync() throws(FlowError) -> Int {
        if isClosed { throw FlowError(.invalidState, operation: "sync", message: "the workspace is closed") }
        var applied = 0
        for name in bound.keys.sorted() {
            guard isBound(name), let writer = bound[name] else { continue }
            applied += try writer.catchUp("sync")
        }
        return applied
    }

    /// The newest batch the store bound to diagram `name` holds (0 when none is bound).
    func appliedNumber(of name: String) -> Int { bound[name]?.applied ?? 0 }

    /// Reads the diagram of `writer` as the file holds it now into `store` (no recorder,
    /// empty history), in one snapshot: its style sheet and look, then its rows added with
    /// their own order numbers (a replay of their additions). Returns its newest batch
    /// number. Throws, leaving the store's content as it was (its recorder unset), when the
    /// rows do not replay.
    func readInOrder(_ writer: DiagramWriter, into store: Store, _ operation: String) throws(FlowError) -> Int {
        let file = FileValue(operation, diagram: writer.name)
        let (text, classes, look, last) = try snapshot(operation) { db -> (String, String, String, Int) in
            let row = try Row.fetchOne(
                db, sql: "SELECT classes, look, created, (SELECT max(n) FROM batch WHERE diagram = ?) FROM diagram WHERE id = ?",
                arguments: [writer.diagram, writer.diagram])
            guard let row, (try? file.real(row[2], "creation time")) == writer.created else {
                throw FlowError(.invalidState, operation: operation, message: "diagram '\(writer.name)' was deleted by another writer")
            }
            let last = (row[3] as DatabaseValue).isNull ? 0 : try file.integer(row[3], "newest batch number")
            var text = "{\"name\":\"Open\",\"actions\":["
            var count = 0
            for (table, op) in [("node", "addNode"), ("edge", "addEdge")] {
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT seq, body FROM \(table) WHERE diagram = ? ORDER BY seq", arguments: [writer.diagram])
                while let r = try rows.next() {
                    text += (count > 0 ? "," : "") + "{\"op\":\"\(op)\",\"\(table)\":\(try file.text(r[1], table)),\"seq\":\(try file.integer(r[0], "\(table) order number"))}"
                    count += 1
                }
            }
            return (text + "]}", try file.text(row[0], "style sheet"), try file.text(row[1], "look"), last)
        }
        let adds = try FlowBatch<JSONValue>(json: JSONValue.parse(text, operation: operation), operation: operation)
        let sheet = try FlowDocument<JSONValue>.classes(json: JSONValue.parse(classes, operation: operation), operation: operation)
        let doc = FlowDocument<JSONValue>(classes: sheet, look: try LookText.look(look, operation))
        // one replay: all of it or, when the rows do not fit, nothing
        store.actionRecorder = nil
        try store.replay([FlowBatch(name: adds.name, actions: [.load(doc)] + adds.actions)])
        store.clearHistory()
        return last
    }
}
