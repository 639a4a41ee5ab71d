// Event delivery: the batches queued by the primitives go to the listeners when a
// top-level operation ends.

extension FlowStore {
    /// Delivers the queued node batch, then the edge batch.
    func deliverEvents() {
        if log.pendingNodeChanges.isEmpty && log.pendingEdgeChanges.isEmpty {
            if !log.replacedNodes.isEmpty { log.replacedNodes = [:] }
            if !log.replacedEdges.isEmpty { log.replacedEdges = [:] }
            return
        }
        let n = log.pendingNodeChanges, e = log.pendingEdgeChanges
        let oldNodes = log.replacedNodes, oldEdges = log.replacedEdges
        log.pendingNodeChanges = []
        log.pendingEdgeChanges = []
        log.replacedNodes = [:]
        log.replacedEdges = [:]
        if !n.isEmpty {
            listeners.onNodesChange?(n)
            for o in listeners.observers { o.nodes(n, oldNodes) }
        }
        if !e.isEmpty {
            listeners.onEdgesChange?(e)
            for o in listeners.observers { o.edges(e, oldEdges) }
        }
        for o in listeners.batchObservers { o.body(n, e) }
    }
}
