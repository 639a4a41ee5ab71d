// Rectangle selection (store-semantics §4.5, §4.6 with D3, D22).

extension FlowStore {
    /// Replaces the selection with every node whose frame intersects `rect` (closed: a
    /// touching edge counts) and every edge whose path comes within 1 of it (D22); edges
    /// whose handles cannot be resolved are deselected. Canvas coordinates; a rectangle
    /// with negative size is standardized. Events only for items whose selection changed
    /// (one node batch, then one edge batch, store order); focus is kept. Does nothing and
    /// returns false when multi-selection is disabled; otherwise returns whether the
    /// selection changed. The cost follows what lies near the rectangle, not the store size.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func selectInRect(_ rect: Rect) throws(FlowError) -> Bool {
        try requireFiniteRect(rect, "selectInRect")
        guard configuration.multiSelectionEnabled else { return false }
        return perform("Select") { () -> Bool in
            let (nodes, edges) = itemsInRect(rect.standardized)
            let changed = nodes != marks.selectedNodes || edges != marks.selectedEdges
            setSelection(nodes: nodes, edges: edges)
            return changed
        }
    }

    /// The same as `selectInRect(_:)`.
    @discardableResult
    public func selectNodesInRect(_ rect: Rect) throws(FlowError) -> Bool {
        try selectInRect(rect)
    }

    /// Ids of the nodes and edges a selection rectangle `r` (standardized) takes.
    func itemsInRect(_ r: Rect) -> (nodes: Set<String>, edges: Set<String>) {
        var nodes = Set<String>()
        refreshNodeIndex()
        for s in spatial.candidates(in: r) where nodeTable[slot: s].frame.intersects(r) {
            nodes.insert(nodeTable[slot: s].id)
        }
        var edges = Set<String>()
        refreshEdgeIndex()
        for s in edgeSpatial.candidates(in: r.insetBy(dx: -1, dy: -1)) {
            let e = edgeTable[slot: s]
            guard let g = edgeGeometry(of: e), g.isInSelectionRect(r) else { continue }
            edges.insert(e.id)
        }
        return (nodes, edges)
    }

    func requireFiniteRect(_ r: Rect, _ op: String) throws(FlowError) {
        guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite else {
            throw .invalidValue(op, "rectangle must be finite numbers")
        }
    }
}
