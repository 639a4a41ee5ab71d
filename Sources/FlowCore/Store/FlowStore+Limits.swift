extension FlowStore {
    /// The first limit the committing journal leaves the store beyond, as the error the
    /// call fails with; nil when it keeps to all (`StoreLimits`). The operation is left
    /// empty: a host names the call the script made (the Lua binding does).
    func violation(of l: StoreLimits) -> FlowError? {
        guard log.journal.contains(where: { $0.isDocumentChange }) else { return nil }
        if let e = Self.countViolation(l, nodes: nodeCount, edges: edgeCount) { return e }
        guard l.labelBytes > 0 else { return nil }
        func tooLong(_ text: String) -> Bool { text.utf8.count > l.labelBytes }
        for entry in log.journal {
            let id: String
            let isNode: Bool
            switch entry {
            case .insertNode(let i, _): (id, isNode) = (i, true)
            case .replaceNode(_, let new): (id, isNode) = (new.id, true)
            case .insertEdge(let i, _): (id, isNode) = (i, false)
            case .replaceEdge(_, let new): (id, isNode) = (new.id, false)
            default: continue
            }
            if isNode, let n = nodeTable[id], tooLong(n.data.title(nodeID: n.id)) { return Self.longTitle(n.id, l) }
            if !isNode, let label = edgeTable[id]?.label, tooLong(label) { return Self.longLabel(id, l) }
        }
        return nil
    }

    /// The first limit a document about to be loaded goes past.
    func violation(of l: StoreLimits, loading nodes: [Node], _ edges: [FlowEdge]) -> FlowError? {
        if let e = Self.countViolation(l, nodes: nodes.count, edges: edges.count) { return e }
        guard l.labelBytes > 0 else { return nil }
        for n in nodes where n.data.title(nodeID: n.id).utf8.count > l.labelBytes { return Self.longTitle(n.id, l) }
        for e in edges where (e.label?.utf8.count ?? 0) > l.labelBytes { return Self.longLabel(e.id, l) }
        return nil
    }

    private static func refused(_ what: String) -> FlowError {
        FlowError(.invalidState, operation: "", message: "\(what) (a limit of this store); nothing was changed")
    }

    private static func countViolation(_ l: StoreLimits, nodes: Int, edges: Int) -> FlowError? {
        func most(_ n: Int, _ noun: String) -> FlowError {
            refused("the store may hold at most \(n) \(noun)\(n == 1 ? "" : "s")")
        }
        if l.nodes > 0 && nodes > l.nodes { return most(l.nodes, "node") }
        if l.edges > 0 && edges > l.edges { return most(l.edges, "edge") }
        return nil
    }

    private static func longTitle(_ id: String, _ l: StoreLimits) -> FlowError {
        refused("node '\(FlowError.shown(id))' has a title longer than \(l.labelBytes) bytes")
    }

    private static func longLabel(_ id: String, _ l: StoreLimits) -> FlowError {
        refused("edge '\(FlowError.shown(id))' has a label longer than \(l.labelBytes) bytes")
    }
}
