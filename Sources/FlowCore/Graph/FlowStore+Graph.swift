/// The nodes and edges of a store as a `Digraph`: vertex `i` is the `i`-th node and edge `j`
/// the `j`-th edge in store order. A snapshot: valid until the store changes.
struct StoreGraph {
    let graph: Digraph
    /// The node slot of each vertex.
    let vertexSlots: [Int32]
    /// The vertex of each node slot (-1 for free slots).
    let slotVertices: [Int32]
    /// The edge slot of each edge.
    let edgeSlots: [Int32]
}

extension FlowStore {
    /// The graph of the store, built in O(nodes + edges) without looking up an id: one pass
    /// over the nodes in store order, which finds each edge's endpoints through the nodes'
    /// links (an edge is in the links of both its nodes, a self-loop once), and one over
    /// the edges in store order.
    func graphSnapshot() -> StoreGraph {
        // Local copies (a retain each): a non-mutating call on a table kept in the class
        // may copy the whole table on every call.
        let nodes = nodeTable, edges = edgeTable
        var slotVertices = [Int32](repeating: -1, count: nodes.slotCapacity)
        var vertexSlots: [Int32] = []
        vertexSlots.reserveCapacity(nodes.count)
        // the endpoints of each edge slot, as vertices
        var from = [Int32](repeating: -1, count: edges.slotCapacity)
        var to = [Int32](repeating: -1, count: edges.slotCapacity)
        nodes.forEachSlot { s in
            let v = Int32(vertexSlots.count)
            slotVertices[Int(s)] = v
            vertexSlots.append(s)
            let id = nodes.id(slot: s)
            for es in nodes.extra(s).links.edges {
                edges.withElement(slot: es) { e in
                    if e.sourceNodeID == id { from[Int(es)] = v }
                    if e.targetNodeID == id { to[Int(es)] = v }
                }
            }
        }
        var sources: [Int32] = [], targets: [Int32] = [], edgeSlots: [Int32] = []
        sources.reserveCapacity(edges.count)
        targets.reserveCapacity(edges.count)
        edgeSlots.reserveCapacity(edges.count)
        edges.forEachSlot { s in
            sources.append(from[Int(s)])
            targets.append(to[Int(s)])
            edgeSlots.append(s)
        }
        return StoreGraph(
            graph: Digraph(vertexCount: vertexSlots.count, sources: sources, targets: targets),
            vertexSlots: vertexSlots, slotVertices: slotVertices, edgeSlots: edgeSlots)
    }

    /// The vertex of node `id` in `g`, or throws `unknownNode` for `op`.
    private func vertex(_ id: String, in g: StoreGraph, _ op: String) throws(FlowError) -> Int {
        guard let s = nodeTable.slot(of: id) else { throw .unknownNode(op, id) }
        return Int(g.slotVertices[Int(s)])
    }

    private func nodeIDs(_ vertices: [Int], in g: StoreGraph) -> [String] {
        let nodes = nodeTable  // see graphSnapshot
        return vertices.map { nodes.id(slot: g.vertexSlots[$0]) }
    }

    // MARK: Neighbours (no snapshot: the store's links, O(degree · log degree))

    /// The nodes that an edge from `id` leads to, each once, in store order (`id` itself
    /// when it has a self-loop).
    public func successors(_ id: String) throws(FlowError) -> [String] {
        try neighbours(id, "successors") { $0.sourceNodeID == id ? $0.targetNodeID : nil }
    }

    /// The nodes with an edge to `id`, each once, in store order.
    public func predecessors(_ id: String) throws(FlowError) -> [String] {
        try neighbours(id, "predecessors") { $0.targetNodeID == id ? $0.sourceNodeID : nil }
    }

    private func neighbours(_ id: String, _ op: String, _ other: (FlowEdge) -> String?) throws(FlowError) -> [String] {
        guard let s = nodeTable.slot(of: id) else { throw .unknownNode(op, id) }
        let edges = edgeTable  // see graphSnapshot
        var found = Set<String>()
        for e in nodeTable.extra(s).links.edges {
            if let o = edges.withElement(slot: e, other) { found.insert(o) }
        }
        return nodeOrder(found)
    }

    // MARK: Whole-graph queries (a snapshot, O(nodes + edges))

    /// Every node reachable from `id` along one or more edges, in store order. `id` itself
    /// is included only when it lies on a cycle (or has a self-loop).
    @_specialize(exported: true, where Data == JSONValue)
    public func reachable(_ id: String) throws(FlowError) -> [String] {
        let g = graphSnapshot()
        return nodeIDs(g.graph.reachable(from: try vertex(id, in: g, "reachable")), in: g)
    }

    /// A path with the fewest edges from `from` to `to`: its edges in order (empty when
    /// `from == to`), or nil when `to` cannot be reached. Deterministic: breadth-first,
    /// each node's outgoing edges in store order.
    @_specialize(exported: true, where Data == JSONValue)
    public func path(from: String, to: String) throws(FlowError) -> [String]? {
        let g = graphSnapshot()
        let a = try vertex(from, in: g, "path"), b = try vertex(to, in: g, "path")
        let edges = edgeTable  // see graphSnapshot
        return g.graph.shortestPath(from: a, to: b)?.map { edges.id(slot: g.edgeSlots[$0]) }
    }

    /// The strongly connected components that contain a cycle (two or more nodes, or one
    /// with a self-loop): each in store order, ordered by their first node.
    @_specialize(exported: true, where Data == JSONValue)
    public func cycles() -> [[String]] {
        let g = graphSnapshot()
        return g.graph.cyclicComponents().map { nodeIDs($0, in: g) }
    }

    /// Every node, each after the nodes with an edge to it; among the nodes free to come
    /// next, the first in store order. Throws `cycle` naming one when there is a cycle.
    @_specialize(exported: true, where Data == JSONValue)
    public func topologicalOrder() throws(FlowError) -> [String] {
        let g = graphSnapshot()
        switch g.graph.topologicalOrder() {
        case .order(let order): return nodeIDs(order, in: g)
        case .cycle(let cycle): throw .cycle("topologicalOrder", nodeIDs(cycle, in: g))
        }
    }

    /// The weakly connected components (edges in either direction): each in store order,
    /// ordered by their first node. A node without edges is a component of its own.
    @_specialize(exported: true, where Data == JSONValue)
    public func components() -> [[String]] {
        let g = graphSnapshot()
        return g.graph.weaklyConnectedComponents().map { nodeIDs($0, in: g) }
    }

    /// The nodes no edge arrives at, in store order.
    @_specialize(exported: true, where Data == JSONValue)
    public func sourceNodeIDs() -> [String] {
        let g = graphSnapshot()
        return nodeIDs(g.graph.sources(), in: g)
    }

    /// The nodes no edge leaves, in store order.
    public func sinkNodeIDs() -> [String] {
        let g = graphSnapshot()
        return nodeIDs(g.graph.sinks(), in: g)
    }
}
