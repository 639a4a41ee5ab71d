// Batch adds (docs/store.md, "Batch adds"): many nodes or edges in one call, one operation.

extension FlowStore {
    /// Adds `nodes` at the end of the store order, in list order, as one operation: one
    /// undo step "Add Nodes" and one batch of `add` events in list order. Each entry is
    /// checked as `addNode` checks it, against the store and the entries before it (an id
    /// the list uses twice is a duplicate; a parent may be an earlier entry). An invalid
    /// entry throws `addNodes: item <i>: <what addNode would say>` (i from 1) and nothing
    /// of the list is added. Returns the number of nodes added.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func addNodes(_ nodes: [Node]) throws(FlowError) -> Int {
        try addNodes(nodes, generatingIDs: false)
    }

    /// `addNodes(_:)`; with `generatingIDs`, an entry with an empty id gets the id `addNode`
    /// would generate at its turn (`nextNodeID()`, the entries before it added), as a
    /// script's `addNode{}` without an id does. (`nextNodeID()`'s body is written out: a
    /// call of it from this specialised function left its exported specialisation
    /// undefined in release builds.)
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    package func addNodes(_ nodes: [Node], generatingIDs: Bool) throws(FlowError) -> Int {
        try addNodes(count: nodes.count, generatingIDs: generatingIDs) { nodes[$0] }
    }

    /// `addNodes(_:generatingIDs:)` of the initialised nodes in `nodes`, each moved into the
    /// store instead of copied (the Lua binding's batch adds). Whether it returns or throws,
    /// every element has been moved out or deinitialised; the memory stays the caller's.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    package func addNodes(moving nodes: UnsafeMutableBufferPointer<Node>, generatingIDs: Bool) throws(FlowError) -> Int {
        // written out rather than through a shared helper of closures: that one cost a
        // further move of every item (callgrind)
        var taken = 0
        defer { Self.deinitialize(nodes, from: taken) }
        return try addNodes(count: nodes.count, generatingIDs: generatingIDs) { i in
            taken = i + 1
            return (nodes.baseAddress! + i).move()
        }
    }

    /// The batch add of nodes 0..<count, each asked of `take` once, in order.
    @inline(__always)
    private func addNodes(count: Int, generatingIDs: Bool, _ take: (Int) -> Node) throws(FlowError) -> Int {
        let op = "addNodes"
        if count == 0 { return 0 }
        return try perform("Add Nodes") { () throws(FlowError) -> Int in
            reserveBatch(nodes: count, edges: 0)
            for i in 0..<count {
                var node = take(i)
                if generatingIDs && node.id.isEmpty { node = node.withID(nodeIDs.next { nodeTable.contains($0) || $0.isEmpty }) }
                do throws(FlowError) {
                    let key = try checkNew(&node, op)
                    let (id, seq, _) = insertNode(consume node, seq: nil, key: key, emit: true)
                    log.journal.append(.insertNode(id, seq: seq))
                } catch {
                    throw error.item(i + 1)
                }
            }
            return count
        }
    }

    /// Adds `edges` in list order as one operation: one undo step "Add Edges" and one batch
    /// of `add` events in list order. Each entry is checked as `addEdge` checks it, against
    /// the store and the entries before it (an id the list uses twice is a duplicate). An
    /// invalid entry throws `addEdges: item <i>: <what addEdge would say>` (i from 1) and
    /// nothing of the list is added. Returns the number of edges added.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func addEdges(_ edges: [FlowEdge]) throws(FlowError) -> Int {
        try addEdges(edges, generatingIDs: false)
    }

    /// `addEdges(_:)`; with `generatingIDs`, an entry with an empty id gets the id `addEdge`
    /// would generate at its turn (`nextEdgeID()`).
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    package func addEdges(_ edges: [FlowEdge], generatingIDs: Bool) throws(FlowError) -> Int {
        try addEdges(count: edges.count, generatingIDs: generatingIDs) { edges[$0] }
    }

    /// `addEdges(_:generatingIDs:)` of the initialised edges in `edges`, each moved into the
    /// store instead of copied (as `addNodes(moving:generatingIDs:)`).
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    package func addEdges(moving edges: UnsafeMutableBufferPointer<FlowEdge>, generatingIDs: Bool) throws(FlowError) -> Int {
        var taken = 0
        defer { Self.deinitialize(edges, from: taken) }
        return try addEdges(count: edges.count, generatingIDs: generatingIDs) { i in
            taken = i + 1
            return (edges.baseAddress! + i).move()
        }
    }

    /// The batch add of edges 0..<count, each asked of `take` once, in order.
    @inline(__always)
    private func addEdges(count: Int, generatingIDs: Bool, _ take: (Int) -> FlowEdge) throws(FlowError) -> Int {
        let op = "addEdges"
        if count == 0 { return 0 }
        return try perform("Add Edges") { () throws(FlowError) -> Int in
            reserveBatch(nodes: 0, edges: count)
            for i in 0..<count {
                var edge = take(i)
                if generatingIDs && edge.id.isEmpty { edge = edge.withID(edgeIDs.next { edgeTable.contains($0) || $0.isEmpty }) }
                do throws(FlowError) {
                    let (key, ends) = try checkNew(edge, op)
                    let (id, seq, _) = insertEdge(consume edge, seq: nil, key: key, ends: ends, emit: true)
                    log.journal.append(.insertEdge(id, seq: seq))
                } catch {
                    throw error.item(i + 1)
                }
            }
            return count
        }
    }

    /// Deinitialises the elements of `items` from `start` on (those a batch add did not take).
    private static func deinitialize<T>(_ items: UnsafeMutableBufferPointer<T>, from start: Int) {
        if start < items.count { (items.baseAddress! + start).deinitialize(count: items.count - start) }
    }

    // MARK: Shared with the single adds and with loading

    /// What `addNode` checks before a node goes in (its id, fields and parent), and the
    /// title-fitted size of an auto-sized node; returns the key of its id.
    @inline(__always)
    func checkNew(_ node: inout Node, _ op: String) throws(FlowError) -> (IDKey, UInt32) {
        let key = try nodeTable.newKey(node.id, op, kind: "node", duplicate: FlowError.duplicateNode)
        try validateFields(node, op)
        if let p = node.parentID { try validateParent(p, for: node.id, op) }
        if node.autoSize {
            let size = fittedSize(node)
            if size != node.size { node.size = size }
        }
        return key
    }

    /// What `addEdge` checks before an edge goes in; returns the key of its id and the
    /// slots of its end nodes.
    @inline(__always)
    func checkNew(_ edge: borrowing FlowEdge, _ op: String) throws(FlowError) -> ((IDKey, UInt32), EdgeEndSlots) {
        let key = try edgeTable.newKey(edge.id, op, kind: "edge", duplicate: FlowError.duplicateEdge)
        return (key, try validateEdge(edge, op))
    }

    /// Makes room for a batch about to go in (batch adds and `load`): the tables' arrays
    /// and id indexes grow once, and the journal once.
    func reserveBatch(nodes: Int, edges: Int) {
        if nodes > 0 { nodeTable.reserve(nodes) }
        if edges > 0 { edgeTable.reserve(edges) }
        let extra = nodes + edges
        if log.journal.count + extra > log.journal.capacity {
            log.journal.reserveCapacity(max(log.journal.count + extra, 2 * log.journal.capacity))
        }
    }
}

extension FlowError {
    /// The error of item `index` (from 1) of a batch call: `addEdges: item 3: source node
    /// 'x' does not exist`.
    package func item(_ index: Int) -> FlowError {
        FlowError(code, operation: operation, message: "item \(index): \(message)")
    }
}
