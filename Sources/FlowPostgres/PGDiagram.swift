import FlowCore
import FlowStorage

/// A diagram bound to a store of this session: writes the store's batches (rebasing them
/// onto what others committed), applies others' batches to the store (`catchUp`), and
/// keeps batches while the database is out of reach.
final class PGDiagram {
    typealias Store = FlowStore<JSONValue>
    private weak var workspace: PostgresWorkspace?
    let id: Int64
    var name: String
    weak var store: Store?
    /// Every batch up to this number is in the store.
    private(set) var applied: Int
    /// This session's batches above `applied` (written after others' it has not applied).
    private var own: Set<Int> = []
    /// A batch was rebased onto others' additions with new order numbers: the store
    /// reloads at the next sync to number them as the database does.
    private var needsReload = false
    /// Applying others' batches: the store's batches are theirs, not to be written.
    private var applyingRemote = false
    /// Batches made while the database was out of reach, oldest first.
    private(set) var pending: [FlowBatch<JSONValue>] = []
    /// What kept batches that could not be written touched (later ones touching it fail too).
    private var refused: [BatchFootprint] = []

    init(workspace: PostgresWorkspace, id: Int64, name: String, applied: Int) {
        self.workspace = workspace
        self.id = id
        self.name = name
        self.applied = applied
    }

    func detach() { workspace = nil }

    /// The store's sink: nil when the batch is committed (or kept while offline).
    func accept(_ batch: FlowBatch<JSONValue>) -> FlowError? {
        if applyingRemote { return nil }
        guard let ws = workspace, !ws.isClosed else {
            return FlowError(.invalidState, operation: "", message: "the workspace of this store is closed; the change was undone")
        }
        if ws.isOffline { _ = ws.reconnectIfNeeded() }
        if ws.isOffline || !pending.isEmpty {
            pending.append(batch)
            return nil
        }
        do throws(FlowError) {
            if refused.contains(where: { $0.overlaps(BatchFootprint(batch)) }) {
                throw FlowError(
                    .invalidState, operation: "workspace",
                    message: "it builds on a change kept while offline that could not be written; sync (ws:sync) to take the database's version")
            }
            try commit(batch)
            return nil
        } catch {
            if PGConnection.isLost(error) {
                pending.append(batch)
                return nil
            }
            return WorkspaceError.refused(error)
        }
    }

    /// Writes `batch` as the diagram's next one, in one transaction that holds the
    /// diagram's row: rebased onto the batches others committed since `applied`, or
    /// refused (throws) when it conflicts with one of them. Two round trips when no one
    /// else wrote meanwhile: the lock, then the rows with the commit.
    private func commit(_ batch: FlowBatch<JSONValue>) throws(FlowError) {
        guard let ws = workspace else { return }
        let key = "\(id)"
        let lock: PGConnection.Statement = ("SELECT head FROM flow_diagram WHERE id = $1 FOR UPDATE", [key])
        let head = try ws.transaction("workspace", first: lock) { rows throws(FlowError) -> ([PGConnection.Statement], Int) in
            guard let row = rows.first else {
                throw FlowError(.invalidState, operation: "workspace", message: "diagram '\(name)' was deleted by another session")
            }
            let head = Int(row[0]!)!  // invariant: NOT NULL
            try Self.checkNumberLeft(head, name, "workspace")
            var b = batch
            if needsReload { b = try rebaseSeqs(batch, key, ws) }
            if head > applied + own.count {
                let mine = BatchFootprint(batch)
                for other in try othersSinceApplied(key, ws) {
                    if let why = mine.conflict(with: other.footprint, number: other.n, name: other.name) {
                        throw FlowError(
                            .invalidState, operation: "workspace",
                            message: "the change conflicts with the database's version of diagram '\(name)': \(why); sync (ws:sync) and make the change again")
                    }
                }
                if !needsReload { b = try rebaseSeqs(batch, key, ws) }
            }
            let writes = try Self.statements(b, number: head + 1, diagram: id, store: store)
                + [("SELECT pg_notify($1, $2)", [PGSchema.channel, key])]
            return (writes, head)
        }
        if head == applied && own.isEmpty { applied = head + 1 } else { own.insert(head + 1) }
    }

    /// What others' batches above `applied` touched, oldest first (read when a batch of this
    /// session is written after them; kept until the store applies them, so that each
    /// write reads and decodes only those that came since the last).
    private var others: [(n: Int, name: String, footprint: BatchFootprint)] = []

    /// The batches of others above `applied` (inside the write's transaction: up to the head).
    private func othersSinceApplied(_ key: String, _ ws: PostgresWorkspace) throws(FlowError) -> [(n: Int, name: String, footprint: BatchFootprint)] {
        others.removeAll { $0.n <= applied }
        let read = max(applied, others.last?.n ?? 0, own.max() ?? 0)
        for r in try ws.query("SELECT n, name, actions FROM flow_batch WHERE diagram = $1 AND n > $2 ORDER BY n", [key, "\(read)"], "workspace") {
            let n = Int(r[0]!)!  // invariant: NOT NULL
            if own.contains(n) { continue }
            let theirs = try FlowBatch<JSONValue>(json: JSONValue.parse(r[2]!, operation: "workspace"), operation: "workspace")
            others.append((n, r[1]!, BatchFootprint(theirs)))
        }
        return others
    }

    /// `batch` with its additions' order numbers moved past the database's when another
    /// session took one of them (both added at once); the store reloads at the next sync.
    private func rebaseSeqs(_ batch: FlowBatch<JSONValue>, _ key: String, _ ws: PostgresWorkspace) throws(FlowError) -> FlowBatch<JSONValue> {
        let (nodeSeqs, edgeSeqs) = batch.addedSeqs
        func shift(_ table: String, _ seqs: [Int]) throws(FlowError) -> Int {
            guard let low = seqs.min() else { return 0 }
            let list = "{" + seqs.map(String.init).joined(separator: ",") + "}"
            let taken = try ws.query("SELECT 1 FROM \(table) WHERE diagram = $1 AND seq = ANY($2::bigint[]) LIMIT 1", [key, list], "workspace")
            if taken.isEmpty { return 0 }
            let top = Int(try ws.query("SELECT coalesce(max(seq), -1) FROM \(table) WHERE diagram = $1", [key], "workspace")[0][0]!)!
            // order numbers past 10^15 are refused when read (FlowAction's JSON form): one
            // put there by another program leaves no room for this batch's
            guard top < Self.lastSeq - seqs.count else {
                throw FlowError(
                    .invalidDocument, operation: "workspace",
                    message: "diagram '\(name)' has \(table == "flow_node" ? "node" : "edge") order number \(top): no number is left for another addition")
            }
            return top + 1 - low
        }
        let dn = try shift("flow_node", nodeSeqs), de = try shift("flow_edge", edgeSeqs)
        if dn == 0 && de == 0 { return batch }
        needsReload = true
        return batch.shiftingSeqs(nodes: dn, edges: de)
    }

    /// Order numbers stay below this (FlowAction's JSON form refuses larger ones).
    static let lastSeq = 1_000_000_000_000_000

    /// Throws when the diagram's newest batch number `head` (read from the database, where
    /// another program may have put anything) leaves no number for another batch.
    static func checkNumberLeft(_ head: Int, _ name: String, _ operation: String) throws(FlowError) {
        guard head < Int.max else {
            throw FlowError(
                .invalidDocument, operation: operation,
                message: "diagram '\(name)' has batch number \(head): no number is left for another change")
        }
    }

    // MARK: Others' batches

    /// Applies to the store the batches others committed since `applied` (their change
    /// events follow; the store's undo history starts afresh), or reloads the diagram
    /// when this session's batches were renumbered. Returns how many it applied.
    func catchUp(_ operation: String) throws(FlowError) -> Int {
        guard let ws = workspace, let store else { return 0 }
        if needsReload {
            let before = applied
            try reload(into: store, operation)
            return max(0, applied - before - own.count)
        }
        let rows = try ws.query("SELECT n, actions FROM flow_batch WHERE diagram = $1 AND n > $2 ORDER BY n", ["\(id)", "\(applied)"], operation)
        if rows.isEmpty {
            if try ws.query("SELECT 1 FROM flow_diagram WHERE id = $1", ["\(id)"], operation).isEmpty {
                ws.notice("diagram '\(name)' was deleted by another session; its store keeps its changes in memory only")
                ws.unbind(name)
            }
            return 0
        }
        var theirs: [FlowBatch<JSONValue>] = []
        var last = applied
        for r in rows {
            let n = Int(r[0]!)!  // invariant: NOT NULL
            last = n
            if own.contains(n) { continue }
            theirs.append(try FlowBatch(json: JSONValue.parse(r[1]!, operation: operation), operation: operation))
        }
        if !theirs.isEmpty {
            applyingRemote = true
            let applies = store.applyOthers(theirs)
            applyingRemote = false
            if !applies {
                try reload(into: store, operation)  // converge anyway
                return theirs.count
            }
        }
        applied = last
        own.removeAll()
        return theirs.count
    }

    /// Loads the diagram as the database holds it into `store`, keeping the binding.
    func reload(into store: Store, _ operation: String) throws(FlowError) {
        guard let ws = workspace else { return }
        let recorder = store.actionRecorder
        do throws(FlowError) {
            let (_, head) = try ws.read(name, into: store, operation)
            applied = head
            own.removeAll()
            needsReload = false
            refused.removeAll()
            others.removeAll()
            store.actionRecorder = recorder
        } catch {
            store.actionRecorder = recorder
            throw error
        }
    }

    /// Writes the batches kept while offline, oldest first; those that conflict with what
    /// others committed meanwhile (and those building on them) are reported and left out,
    /// and the store reloads at the next sync to take the database's version.
    func flushPending() {
        guard let ws = workspace, !pending.isEmpty else { return }
        var written = 0
        var failures: [String] = []
        while !pending.isEmpty {
            let b = pending[0]
            let footprint = BatchFootprint(b)
            do throws(FlowError) {
                if refused.contains(where: { $0.overlaps(footprint) }) {
                    throw FlowError(.invalidState, operation: "workspace", message: "it builds on a change that could not be written")
                }
                try commit(b)
                written += 1
            } catch {
                if PGConnection.isLost(error) { break }
                refused.append(footprint)
                failures.append("'\(b.name)': \(error.message)")
            }
            pending.removeFirst()
        }
        if !failures.isEmpty {
            needsReload = true
            ws.notice("diagram '\(name)': wrote \(written) kept \(written == 1 ? "change" : "changes"); could not write \(failures.count): " + failures.joined(separator: "; "))
        } else if pending.isEmpty {
            ws.notice("diagram '\(name)': wrote \(written) kept \(written == 1 ? "change" : "changes")")
        }
    }

    // MARK: Rows

    /// Writes batch `number` of `diagram` inside the caller's transaction: its history
    /// row and the rows of the nodes and edges it touched.
    static func write(
        _ batch: FlowBatch<JSONValue>, number: Int, diagram: Int64, store: Store?, _ ws: PostgresWorkspace, _ op: String
    ) throws(FlowError) {
        try ws.pipeline(try statements(batch, number: number, diagram: diagram, store: store), op)
    }

    /// The statements that write batch `number` of `diagram`: its history row, the rows of
    /// the nodes and edges it touched, and the diagram's new head.
    static func statements(
        _ batch: FlowBatch<JSONValue>, number: Int, diagram: Int64, store: Store?
    ) throws(FlowError) -> [PGConnection.Statement] {
        let d = "\(diagram)"
        var out: [PGConnection.Statement] = [(
            "INSERT INTO flow_batch (diagram, n, time, name, summary, actions) VALUES ($1, $2, $3, $4, $5, $6)",
            [d, "\(number)", "\(PostgresWorkspace.now)", batch.name, batch.summary, try batch.jsonText()]
        )]
        for a in batch.actions {
            switch a {
            case .addNode(let n, let seq):
                out.append(insert("flow_node", n.id, seq, try FlowDocument.nodeText(n), d))
            case .updateNode(let n):
                out.append(update("flow_node", n.id, try FlowDocument.nodeText(n), d))
            case .moveNode(let id, let p):
                // The document text leaves out the selection and hover flags.
                guard var n = store?.node(id) else { continue }
                n.position = p
                out.append(update("flow_node", id, try FlowDocument.nodeText(n), d))
            case .removeNode(let id):
                out.append(("DELETE FROM flow_node WHERE diagram = $1 AND id = $2", [d, id]))
            case .addEdge(let e, let seq):
                out.append(insert("flow_edge", e.id, seq, try FlowDocument<JSONValue>.edgeText(e), d))
            case .updateEdge(let e):
                out.append(update("flow_edge", e.id, try FlowDocument<JSONValue>.edgeText(e), d))
            case .removeEdge(let id):
                out.append(("DELETE FROM flow_edge WHERE diagram = $1 AND id = $2", [d, id]))
            case .setClasses(let sheet):
                out.append(classes(sheet, d))
            case .load(let doc):
                out.append(("DELETE FROM flow_node WHERE diagram = $1", [d]))
                out.append(("DELETE FROM flow_edge WHERE diagram = $1", [d]))
                for (i, n) in doc.nodes.enumerated() { out.append(insert("flow_node", n.id, i, try FlowDocument.nodeText(n), d)) }
                for (i, e) in doc.edges.enumerated() { out.append(insert("flow_edge", e.id, i, try FlowDocument<JSONValue>.edgeText(e), d)) }
                out.append(classes(doc.classes, d))
                out.append(("UPDATE flow_diagram SET look = $1 WHERE id = $2", [LookText.text(doc.look), d]))
            }
        }
        out.append(("UPDATE flow_diagram SET head = $1 WHERE id = $2", ["\(number)", d]))
        return out
    }

    static func insert(_ table: String, _ id: String, _ seq: Int, _ body: String, _ d: String) -> PGConnection.Statement {
        ("INSERT INTO \(table) (diagram, id, seq, body) VALUES ($1, $2, $3, $4)", [d, id, "\(seq)", body])
    }

    private static func update(_ table: String, _ id: String, _ body: String, _ d: String) -> PGConnection.Statement {
        ("UPDATE \(table) SET body = $1 WHERE diagram = $2 AND id = $3", [body, d, id])
    }

    private static func classes(_ sheet: [String: FlowClass], _ d: String) -> PGConnection.Statement {
        ("UPDATE flow_diagram SET classes = $1 WHERE id = $2", [FlowDocument<JSONValue>.classesJSON(sheet).serialized(pretty: false), d])
    }
}
