import FlowCore
import Foundation
import GRDB

/// Writes the change batches of a store bound to one diagram: each batch in one
/// transaction, its history row and the rows of the nodes and edges it touched. A batch
/// made after another writer (another process, or another Workspace on the file) wrote
/// the diagram is rebased onto their batches when it still applies, as in PostgreSQL
/// (`BatchFootprint`, docs/collaboration.md "Rebase"), and refused naming the conflict
/// when it does not; `catchUp` (`Workspace.sync`) applies their batches to the store.
final class DiagramWriter {
    private weak var workspace: Workspace?
    let diagram: Int64
    /// When the diagram was created: with `diagram`, what tells it from a diagram another
    /// writer created after deleting this one (SQLite may give the new one the same id).
    let created: Double
    private(set) var name: String
    weak var store: Workspace.Store?
    /// Every batch up to this number is in the store.
    private(set) var applied: Int
    /// This store's batches above `applied` (written after others' it has not applied).
    private var own: Set<Int> = []
    /// A batch was rebased onto others' additions with new order numbers: the store
    /// reloads at the next sync to number them as the file does.
    private var needsReload = false
    /// Applying others' batches: the store's batches are theirs, not to be written.
    private var applyingRemote = false
    /// What others' batches above `applied` touched, oldest first (read when a batch of
    /// this store is written after them; kept until the store applies them).
    private var others: [(n: Int, name: String, footprint: BatchFootprint)] = []

    init(workspace: Workspace, diagram: Int64, created: Double, name: String, applied: Int) {
        self.workspace = workspace
        self.diagram = diagram
        self.created = created
        self.name = name
        self.applied = applied
    }

    func detach() { workspace = nil }

    /// The store's sink: nil when the batch is on disk.
    func write(_ batch: FlowBatch<JSONValue>) -> FlowError? {
        if applyingRemote { return nil }
        guard let ws = workspace, !ws.isClosed else {
            return FlowError(.invalidState, operation: "", message: "the workspace of this store is closed; the change was undone")
        }
        do throws(FlowError) {
            let last = try ws.transaction("workspace") { db in try commit(batch, db) }
            if last == applied && own.isEmpty { applied = last + 1 } else { own.insert(last + 1) }
            return nil
        } catch {
            return WorkspaceError.refused(error)
        }
    }

    /// The largest batch number: a writer stops one short, so a number never overflows.
    static let lastNumber = Int.max

    /// Writes `batch` as the diagram's next one inside the write's transaction (which holds
    /// the file's write lock): rebased onto the batches others wrote since `applied`, or
    /// refused (throws) when it conflicts with one of them. Returns the number it follows.
    private func commit(_ batch: FlowBatch<JSONValue>, _ db: Database) throws -> Int {
        let last = try newest(db)
        guard last < Self.lastNumber - 1 else {
            throw FlowError(.invalidState, operation: "workspace", message: "diagram '\(name)' has no batch number left for another change")
        }
        var b = batch
        if needsReload { b = try rebaseSeqs(batch, db) }
        if last > applied + own.count {
            let mine = BatchFootprint(batch)
            for other in try othersSinceApplied(db) {
                if let why = mine.conflict(with: other.footprint, number: other.n, name: other.name, of: "another writer") {
                    throw FlowError(
                        .invalidState, operation: "workspace",
                        message: "the change conflicts with diagram '\(name)' as the file holds it: \(why); sync (ws:sync) or reload (ws:reload) and make the change again")
                }
            }
            if !needsReload { b = try rebaseSeqs(batch, db) }
        }
        try Self.write(b, number: last + 1, diagram: diagram, store: store, db)
        return last
    }

    /// The diagram's newest batch number, after checking that it was not deleted (nor
    /// deleted and another created under its id, which writing would write into).
    private func newest(_ db: Database) throws -> Int {
        let row = try Row.fetchOne(
            db, sql: "SELECT created, (SELECT max(n) FROM batch WHERE diagram = ?) FROM diagram WHERE id = ?",
            arguments: [diagram, diagram])
        let file = FileValue("workspace", diagram: name)
        guard let row, (try? file.real(row[0], "creation time")) == created else {
            throw FlowError(.invalidState, operation: "workspace", message: "diagram '\(name)' was deleted by another writer")
        }
        return (row[1] as DatabaseValue).isNull ? 0 : try file.integer(row[1], "newest batch number")
    }

    /// The batches of others above `applied` (inside the write's transaction: up to the newest).
    private func othersSinceApplied(_ db: Database) throws -> [(n: Int, name: String, footprint: BatchFootprint)] {
        others.removeAll { $0.n <= applied }
        let read = max(applied, others.last?.n ?? 0, own.max() ?? 0)
        let file = FileValue("workspace", diagram: name)
        let rows = try Row.fetchAll(
            db, sql: "SELECT n, name, actions FROM batch WHERE diagram = ? AND n > ? ORDER BY n", arguments: [diagram, read])
        for r in rows {
            let n = try file.integer(r[0], "batch number")
            if own.contains(n) { continue }
            let text = try file.text(r[2], "batch \(n)")
            let theirs = try FlowBatch<JSONValue>(json: JSONValue.parse(text, operation: "workspace"), operation: "workspace")
            others.append((n, try file.text(r[1], "batch name"), BatchFootprint(theirs)))
        }
        return others
    }

    /// `batch` with its additions' order numbers moved past the file's when another writer
    /// took one of them (both added at once); the store reloads at the next sync.
    private func rebaseSeqs(_ batch: FlowBatch<JSONValue>, _ db: Database) throws -> FlowBatch<JSONValue> {
        let (nodeSeqs, edgeSeqs) = batch.addedSeqs
        func shift(_ table: String, _ seqs: [Int]) throws -> Int {
            guard let low = seqs.min() else { return 0 }
            let list = seqs.map(String.init).joined(separator: ",")
            let taken = try Int.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE diagram = ? AND seq IN (\(list)) LIMIT 1", arguments: [diagram])
            if taken == nil { return 0 }
            let top = try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), -1) FROM \(table) WHERE diagram = ?", arguments: [diagram]) ?? -1
            // order numbers past 10^15 are refused when read (FlowAction's JSON form)
            guard top < Int64(Self.lastSeq - seqs.count) else {
                throw FlowError(
                    .invalidDocument, operation: "workspace",
                    message: "diagram '\(name)' has \(table) order number \(top): no number is left for another addition")
            }
            return Int(top) + 1 - low
        }
        let dn = try shift("node", nodeSeqs), de = try shift("edge", edgeSeqs)
        if dn == 0 && de == 0 { return batch }
        needsReload = true
        return batch.shiftingSeqs(nodes: dn, edges: de)
    }

    /// Order numbers stay below this (FlowAction's JSON form refuses larger ones).
    static let lastSeq = 1_000_000_000_000_000

    // MARK: Others' batches

    /// Applies to the store the batches others wrote since `applied` (their change events
    /// follow; the store's undo history starts afresh), or reloads the diagram when this
    /// store's batches were renumbered. Returns how many it applied.
    func catchUp(_ operation: String) throws(FlowError) -> Int {
        guard let ws = workspace, let store else { return 0 }
        if needsReload { return try reloadInOrder(store, ws, operation) }
        let file = FileValue(operation, diagram: name)
        let texts = try ws.snapshot(operation) { db -> [(Int, String)] in
            do { _ = try newest(db) } catch let e as FlowError { throw e.reported(as: operation) }
            let rows = try Row.fetchAll(
                db, sql: "SELECT n, actions FROM batch WHERE diagram = ? AND n > ? ORDER BY n", arguments: [diagram, applied])
            return try rows.map { r in
                let n = try file.integer(r[0], "batch number")
                return (n, try file.text(r[1], "batch \(n)"))
            }
        }
        guard let last = texts.last?.0 else { return 0 }
        var theirs: [FlowBatch<JSONValue>] = []
        for (n, text) in texts where !own.contains(n) {
            theirs.append(try FlowBatch(json: JSONValue.parse(text, operation: operation), operation: operation))
        }
        if !theirs.isEmpty {
            applyingRemote = true
            let applies = store.applyOthers(theirs)
            applyingRemote = false
            if !applies {
                try ws.reload(name)  // converge anyway
                return theirs.count
            }
        }
        applied = last
        own.removeAll()
        others.removeAll()
        return theirs.count
    }

    /// Loads the diagram as the file holds it into the store, the rows with their own order
    /// numbers (as every other writer numbers them), writing nothing; a file whose rows do
    /// not replay (another program's) is reloaded as `reload` does. Returns how many
    /// batches of others that brought.
    private func reloadInOrder(_ store: Workspace.Store, _ ws: Workspace, _ operation: String) throws(FlowError) -> Int {
        let before = applied, mine = own.count
        let recorder = store.actionRecorder
        applyingRemote = true
        defer { applyingRemote = false }
        do throws(FlowError) {
            let last = try ws.readInOrder(self, into: store, operation)
            store.actionRecorder = recorder
            applied = last
        } catch {
            store.actionRecorder = recorder
            applyingRemote = false
            try ws.reload(name)
            return max(0, ws.appliedNumber(of: name) - before - mine)
        }
        own.removeAll()
        others.removeAll()
        needsReload = false
        return max(0, applied - before - mine)
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
