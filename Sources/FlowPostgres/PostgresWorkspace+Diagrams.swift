import FlowCore
import FlowStorage

extension PostgresWorkspace {
    public func list() throws(FlowError) -> [String] {
        try query("SELECT name FROM flow_diagram ORDER BY name COLLATE \"C\"", [], "list").compactMap { $0[0] }
    }

    public func create(_ name: String, into store: Store) throws(FlowError) {
        try Self.checkName(name, "create")
        let initial = Workspace.initialBatch(of: store)
        let id = try transaction("create") { () throws(FlowError) -> Int64 in
            try requireFree(name, "create")
            let rows = try query(
                "INSERT INTO flow_diagram (name, created) VALUES ($1, $2) RETURNING id", [name, "\(Self.now)"], "create")
            let id = Int64(rows[0][0]!)!  // invariant: RETURNING gives the new id
            if let initial { try PGDiagram.write(initial, number: 1, diagram: id, store: store, self, "create") }
            return id
        }
        bind(store, PGDiagram(workspace: self, id: id, name: name, applied: initial == nil ? 0 : 1))
    }

    public func open(_ name: String, into store: Store) throws(FlowError) {
        if bound[name] != nil {
            throw FlowError(.invalidState, operation: "open", message: "diagram '\(name)' is already open (bound to a store)")
        }
        let (id, head) = try read(name, into: store, "open")
        bind(store, PGDiagram(workspace: self, id: id, name: name, applied: head))
    }

    public func reload(_ name: String) throws(FlowError) {
        guard let d = bound[name], let store = d.store else {
            throw FlowError(.invalidState, operation: "reload", message: "diagram '\(name)' is not open (bound to a store)")
        }
        try d.reload(into: store, "reload")
    }

    /// Reads diagram `name` as the database holds it now into `store` (no recorder, empty
    /// history), in one snapshot; returns its id and newest batch number. The rows are
    /// added with their own order numbers (a replay of their additions), so that the store
    /// numbers its nodes and edges as every other session does, after a `load` of the
    /// style sheet and the look (whose rank sets name the nodes added after it).
    func read(_ name: String, into store: Store, _ operation: String) throws(FlowError) -> (Int64, Int) {
        let (id, head, batch, classes, lookText) = try transaction(operation, isolation: " ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            () throws(FlowError) -> (Int64, Int, FlowBatch<JSONValue>, String, String) in
            guard let row = try query("SELECT id, head, classes, look FROM flow_diagram WHERE name = $1", [name], operation).first else {
                throw FlowError(.invalidValue, operation: operation, message: "no diagram named '\(name)' in the workspace")
            }
            let id = Int64(row[0]!)!, head = Int(row[1]!)!  // invariant: NOT NULL columns
            try PGDiagram.checkNumberLeft(head, name, operation)
            let nodes = try query("SELECT seq, body FROM flow_node WHERE diagram = $1 ORDER BY seq", ["\(id)"], operation)
            let edges = try query("SELECT seq, body FROM flow_edge WHERE diagram = $1 ORDER BY seq", ["\(id)"], operation)
            var text = "{\"name\":\"Open\",\"actions\":["
            for (i, r) in nodes.enumerated() { text += (i > 0 ? "," : "") + "{\"op\":\"addNode\",\"node\":\(r[1]!),\"seq\":\(r[0]!)}" }
            for (i, r) in edges.enumerated() { text += (i + nodes.count > 0 ? "," : "") + "{\"op\":\"addEdge\",\"edge\":\(r[1]!),\"seq\":\(r[0]!)}" }
            let batch = try FlowBatch<JSONValue>(json: JSONValue.parse(text + "]}", operation: operation), operation: operation)
            return (id, head, batch, row[2] ?? "{}", row[3] ?? "{}")
        }
        let sheet = try FlowDocument<JSONValue>.classes(json: JSONValue.parse(classes, operation: operation), operation: operation)
        let look = try LookText.look(lookText, operation)
        store.actionRecorder = nil
        _ = try store.load(FlowDocument(classes: sheet))
        try store.replay([FlowBatch(name: batch.name, actions: [.load(FlowDocument(classes: sheet, look: look))] + batch.actions)])
        store.clearHistory()
        return (id, head)
    }

    public func fork(_ name: String, at version: Int?, as newName: String, into store: Store) throws(FlowError) {
        try Self.checkName(newName, "fork")
        var upTo = version ?? 0
        if version == nil {
            let id = try diagramID(name, "fork")
            upTo = Int(try query("SELECT head FROM flow_diagram WHERE id = $1", ["\(id)"], "fork")[0][0]!)!  // invariant: NOT NULL
        }
        try store.replayHistory(try history(name, upTo: upTo, "fork"))
        let id = try transaction("fork") { () throws(FlowError) -> Int64 in
            let old = try diagramID(name, "fork")
            try requireFree(newName, "fork")
            let classes = FlowDocument<JSONValue>.classesJSON(store.classStyles).serialized(pretty: false)
            let id = Int64(try query(
                "INSERT INTO flow_diagram (name, created, classes, head, look) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                [newName, "\(Self.now)", classes, "\(upTo)", LookText.text(store.diagramLook)], "fork")[0][0]!)!  // invariant: RETURNING gives the new id
            try query(
                "INSERT INTO flow_batch SELECT $1, n, time, name, summary, actions FROM flow_batch WHERE diagram = $2 AND n <= $3",
                ["\(id)", "\(old)", "\(upTo)"], "fork")
            let d = "\(id)"
            var rows: [PGConnection.Statement] = []
            for n in store.nodes {
                rows.append(PGDiagram.insert("flow_node", n.id, store.sequenceNumber(ofNode: n.id) ?? 0, try FlowDocument.nodeText(n), d))
            }
            for e in store.edges {
                rows.append(PGDiagram.insert("flow_edge", e.id, store.sequenceNumber(ofEdge: e.id) ?? 0, try FlowDocument<JSONValue>.edgeText(e), d))
            }
            try pipeline(rows, "fork")
            return id
        }
        bind(store, PGDiagram(workspace: self, id: id, name: newName, applied: upTo))
    }

    public func versions(_ name: String) throws(FlowError) -> [WorkspaceVersion] {
        let id = try diagramID(name, "versions")
        return try query("SELECT n, time, name, summary FROM flow_batch WHERE diagram = $1 ORDER BY n", ["\(id)"], "versions").map {
            WorkspaceVersion(number: Int($0[0]!)!, time: Double($0[1]!)!, name: $0[2]!, summary: $0[3]!)  // invariant: NOT NULL
        }
    }

    /// Batches 1 through `version` of diagram `name`, decoded.
    public func history(_ name: String, upTo version: Int, _ operation: String) throws(FlowError) -> [FlowBatch<JSONValue>] {
        let id = try diagramID(name, operation)
        let head = Int(try query("SELECT head FROM flow_diagram WHERE id = $1", ["\(id)"], operation)[0][0]!)!  // invariant: NOT NULL
        guard version >= 0 && version <= head else {
            throw FlowError(.invalidValue, operation: operation, message: "diagram '\(name)' has versions 0 to \(head) (got \(version))")
        }
        let texts = try query("SELECT actions FROM flow_batch WHERE diagram = $1 AND n <= $2 ORDER BY n", ["\(id)", "\(version)"], operation)
        var batches: [FlowBatch<JSONValue>] = []
        for t in texts { batches.append(try FlowBatch(json: JSONValue.parse(t[0]!, operation: operation), operation: operation)) }
        return batches
    }

    public func rename(_ old: String, to new: String) throws(FlowError) {
        try Self.checkName(new, "rename")
        try transaction("rename") { () throws(FlowError) in
            let id = try diagramID(old, "rename")
            try requireFree(new, "rename")
            try query("UPDATE flow_diagram SET name = $1 WHERE id = $2", [new, "\(id)"], "rename")
        }
        if let d = bound.removeValue(forKey: old) {
            d.name = new
            bound[new] = d
        }
    }

    public func delete(_ name: String, closing: ((Store) -> Void)?) throws(FlowError) {
        if bound[name]?.store == nil { bound.removeValue(forKey: name)?.detach() }
        if bound[name] != nil && closing == nil {
            throw FlowError(
                .invalidState, operation: "delete",
                message: "diagram '\(name)' is open (bound to a store): close the store first")
        }
        try transaction("delete") { () throws(FlowError) in
            let id = try diagramID(name, "delete", lock: true)
            try query("DELETE FROM flow_diagram WHERE id = $1", ["\(id)"], "delete")
            try query("SELECT pg_notify($1, $2)", [PGSchema.channel, "\(id)"], "delete")
        }
        guard let d = bound.removeValue(forKey: name) else { return }
        d.detach()
        if let store = d.store { closing?(store) }
    }

    func bind(_ store: Store, _ d: PGDiagram) {
        d.store = store
        store.actionRecorder = FlowActionRecorder<JSONValue>(keepsJournal: true) { [weak d] batch in
            guard let d else {
                return FlowError(.invalidState, operation: "", message: "the store is no longer bound to its workspace; the change was undone")
            }
            return d.accept(batch)
        }
        bound[d.name] = d
    }

    /// Unbinds the store of diagram `name` (its later changes stay in memory only).
    public func unbind(_ name: String) {
        bound.removeValue(forKey: name)?.detach()
    }
}
