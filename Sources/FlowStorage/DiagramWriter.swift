import FlowCore
import Foundation
import GRDB

/// Writes the change batches of a store bound to one diagram: each batch in one
/// transaction, its history row and the rows of the nodes and edges it touched.
final class DiagramWriter {
    private weak var workspace: Workspace?
    let diagram: Int64
    /// When the diagram was created: with `diagram`, what tells it from a diagram another
    /// writer created after deleting this one (SQLite may give the new one the same id).
    let created: Double
    private(set) var name: String
    /// The number the next batch gets (batches count from 1).
    private(set) var next: Int
    weak var store: Workspace.Store?

    init(workspace: Workspace, diagram: Int64, created: Double, name: String, next: Int) {
        self.workspace = workspace
        self.diagram = diagram
        self.created = created
        self.name = name
        self.next = next
    }

    func detach() { workspace = nil }

    /// The store's sink: nil when the batch is on disk.
    func write(_ batch: FlowBatch<JSONValue>) -> FlowError? {
        guard let ws = workspace, !ws.isClosed else {
            return FlowError(.invalidState, operation: "", message: "the workspace of this store is closed; the change was undone")
        }
        do throws(FlowError) {
            let n = next
            guard n < Self.lastNumber else {
                throw FlowError(.invalidState, operation: "workspace", message: "diagram '\(name)' has no batch number left for another change")
            }
            try ws.transaction("workspace") { db in
                try checkUnchanged(number: n, db)
                try Self.write(batch, number: n, diagram: diagram, store: store, db)
            }
            next += 1
            return nil
        } catch {
            return WorkspaceError.refused(error)
        }
    }

    /// The largest batch number: the writer stops one short, so `next` never overflows.
    static let lastNumber = Int.max

    /// Checks, inside the write's transaction, that the diagram is as this store last saw
    /// it: no one else wrote a batch (another process, or another Workspace on the file)
    /// and it was not deleted (nor deleted and another created under its id). Else writing
    /// would fail on the file's keys ("UNIQUE constraint failed"), lose their change or
    /// write into another diagram; the store must reload first.
    private func checkUnchanged(number n: Int, _ db: Database) throws {
        let row = try Row.fetchOne(
            db, sql: "SELECT created, (SELECT max(n) FROM batch WHERE diagram = ?) FROM diagram WHERE id = ?",
            arguments: [diagram, diagram])
        let file = FileValue("workspace", diagram: name)
        guard let row, (try? file.real(row[0], "creation time")) == created else {
            throw FlowError(.invalidState, operation: "workspace", message: "diagram '\(name)' was deleted by another writer")
        }
        let last = (row[1] as DatabaseValue).isNull ? 0 : try file.integer(row[1], "newest batch number")
        guard last == n - 1 else {
            throw FlowError(
                .invalidState, operation: "workspace",
                message: "the diagram '\(name)' was changed by another writer; reload it (ws:reload) and make the change again")
        }
    }

    /// Writes batch `number` of `diagram` inside the caller's transaction.
    static func write(_ batch: FlowBatch<JSONValue>, number: Int, diagram: Int64, store: Workspace.Store?, _ db: Database) throws {
        let actions = try batch.jsonText()
        try db.cachedStatement(sql: "INSERT INTO batch (diagram, n, time, name, summary, actions) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [diagram, number, Date().timeIntervalSince1970, batch.name, batch.summary, actions])
        for a in batch.actions {
            switch a {
            case .addNode(let n, let seq):
                try insert("node", n.id, seq, FlowDocument.nodeText(n), diagram, db)
            case .updateNode(let n):
                try update("node", n.id, FlowDocument.nodeText(n), diagram, db)
            case .moveNode(let id, let p):
                // The document text leaves out the selection and hover flags.
                guard var n = store?.node(id) else { continue }
                n.position = p
                try update("node", id, FlowDocument.nodeText(n), diagram, db)
            case .removeNode(let id):
                try db.cachedStatement(sql: "DELETE FROM node WHERE diagram = ? AND id = ?").execute(arguments: [diagram, id])
            case .addEdge(let e, let seq):
                try insert("edge", e.id, seq, FlowDocument<JSONValue>.edgeText(e), diagram, db)
            case .updateEdge(let e):
                try update("edge", e.id, FlowDocument<JSONValue>.edgeText(e), diagram, db)
            case .removeEdge(let id):
                try db.cachedStatement(sql: "DELETE FROM edge WHERE diagram = ? AND id = ?").execute(arguments: [diagram, id])
            case .setClasses(let sheet):
                try writeClasses(sheet, diagram, db)
            case .load(let doc):
                try db.execute(sql: "DELETE FROM node WHERE diagram = ?", arguments: [diagram])
                try db.execute(sql: "DELETE FROM edge WHERE diagram = ?", arguments: [diagram])
                for (i, n) in doc.nodes.enumerated() { try insert("node", n.id, i, FlowDocument.nodeText(n), diagram, db) }
                for (i, e) in doc.edges.enumerated() { try insert("edge", e.id, i, FlowDocument<JSONValue>.edgeText(e), diagram, db) }
                try db.execute(
                    sql: "UPDATE diagram SET classes = ?, look = ? WHERE id = ?",
                    arguments: [FlowDocument<JSONValue>.classesJSON(doc.classes).serialized(pretty: false), LookText.text(doc.look), diagram])
            }
        }
    }

    static func insert(_ table: String, _ id: String, _ seq: Int, _ body: String, _ diagram: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO \(table) (diagram, id, seq, body) VALUES (?, ?, ?, ?)")
            .execute(arguments: [diagram, id, seq, body])
    }

    private static func update(_ table: String, _ id: String, _ body: String, _ diagram: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE \(table) SET body = ? WHERE diagram = ? AND id = ?")
            .execute(arguments: [body, diagram, id])
    }

    private static func writeClasses(_ sheet: [String: FlowClass], _ diagram: Int64, _ db: Database) throws {
        let text = FlowDocument<JSONValue>.classesJSON(sheet).serialized(pretty: false)
        try db.execute(sql: "UPDATE diagram SET classes = ? WHERE id = ?", arguments: [text, diagram])
    }
}
