// Event delivery: the batches queued by the primitives go to the listeners when a
// top-level operation ends.

extension FlowStore {
    /// Delivers the queued node batch, then the edge batch.
    func deliverEvents() {
        if pendingNodeChanges.isEmpty && pendingEdgeChanges.isEmpty {
            if !replacedNodes.isEmpty { replacedNodes = [:] }
            if !replacedEdges.isEmpty { replacedEdges = [:] }
            return
        }
        let n = pendingNodeChanges, e = pendingEdgeChanges
        let oldNodes = replacedNodes, oldEdges = replacedEdges
        pendingNodeChanges = []
        pendingEdgeChanges = []
        replacedNodes = [:]
        replacedEdges = [:]
        if !n.isEmpty {
            onNodesChange?(n)
            for o in observers { o.nodes(n, oldNodes) }
        }
        if !e.isEmpty {
            onEdgesChange?(e)
            for o in observers { o.edges(e, oldEdges) }
        }
        for o in batchObservers { o.body(n, e) }
    }
}
