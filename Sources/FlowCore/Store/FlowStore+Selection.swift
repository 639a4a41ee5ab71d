extension FlowStore {
    /// Selected node ids in store order.
    public var selectedNodeIDs: [String] { nodeOrder(marks.selectedNodes) }
    /// Selected edge ids in store order.
    public var selectedEdgeIDs: [String] { edgeOrder(marks.selectedEdges) }

    /// Selects a node and focuses it. Exclusive (the default, and always when multi-selection
    /// is off) deselects everything else first. Events only for real changes (D3).
    /// Returns whether the selection or focus changed.
    @discardableResult
    public func selectNode(_ id: String, exclusive: Bool = true) throws(FlowError) -> Bool {
        try perform("Select") { () throws(FlowError) -> Bool in
            _ = try requireNode(id, "selectNode")
            let before = (marks.selectedNodes, marks.selectedEdges, focusedTarget)
            if exclusive || !configuration.multiSelectionEnabled {
                selectOnly(node: id)
            } else {
                pSelectNode(id, true)
            }
            focusedTarget = .node(id)
            return before != (marks.selectedNodes, marks.selectedEdges, focusedTarget)
        }
    }

    /// Selects an edge and focuses it; exclusive deselects everything else first.
    @discardableResult
    public func selectEdge(_ id: String, exclusive: Bool = true) throws(FlowError) -> Bool {
        try perform("Select") { () throws(FlowError) -> Bool in
            _ = try requireEdge(id, "selectEdge")
            let before = (marks.selectedNodes, marks.selectedEdges, focusedTarget)
            if exclusive || !configuration.multiSelectionEnabled {
                selectOnly(edge: id)
            } else {
                pSelectEdge(id, true)
            }
            focusedTarget = .edge(id)
            return before != (marks.selectedNodes, marks.selectedEdges, focusedTarget)
        }
    }

    /// Deselects a node (clearing focus if it had it). Returns whether anything changed.
    @discardableResult
    public func deselectNode(_ id: String) throws(FlowError) -> Bool {
        try perform("Select") { () throws(FlowError) -> Bool in
            _ = try requireNode(id, "deselectNode")
            var changed = marks.selectedNodes.contains(id)
            pSelectNode(id, false)
            if focusedTarget == .node(id) { focusedTarget = nil; changed = true }
            return changed
        }
    }

    /// Deselects an edge (clearing focus if it had it).
    @discardableResult
    public func deselectEdge(_ id: String) throws(FlowError) -> Bool {
        try perform("Select") { () throws(FlowError) -> Bool in
            _ = try requireEdge(id, "deselectEdge")
            var changed = marks.selectedEdges.contains(id)
            pSelectEdge(id, false)
            if focusedTarget == .edge(id) { focusedTarget = nil; changed = true }
            return changed
        }
    }

    /// Deselects everything (focus is kept). Returns whether anything was selected.
    @discardableResult
    public func clearSelection() -> Bool {
        perform("Select") { () -> Bool in
            let changed = !marks.selectedNodes.isEmpty || !marks.selectedEdges.isEmpty
            for id in nodeOrder(marks.selectedNodes) { pSelectNode(id, false) }
            for id in edgeOrder(marks.selectedEdges) { pSelectEdge(id, false) }
            return changed
        }
    }

    /// Replaces the selection with exactly these ids (events only for changes, store order).
    func setSelection(nodes: Set<String>, edges: Set<String>) {
        for id in nodeOrder(marks.selectedNodes.subtracting(nodes).union(nodes.subtracting(marks.selectedNodes))) {
            pSelectNode(id, nodes.contains(id))
        }
        for id in edgeOrder(marks.selectedEdges.subtracting(edges).union(edges.subtracting(marks.selectedEdges))) {
            pSelectEdge(id, edges.contains(id))
        }
    }

    func selectOnly(node id: String) { setSelection(nodes: [id], edges: []) }
    func selectOnly(edge id: String) { setSelection(nodes: [], edges: [id]) }

    /// Removes the selected nodes (with their descendants), the selected edges, and every
    /// edge touching a removed node. Returns false when nothing was selected. Undo step
    /// "Delete" restores everything, including the selection.
    @discardableResult
    public func deleteSelection() -> Bool {
        perform("Delete") { () -> Bool in
            if marks.selectedNodes.isEmpty && marks.selectedEdges.isEmpty { return false }
            removeNodes(withRoots: nodeOrder(marks.selectedNodes), alsoEdges: edgeOrder(marks.selectedEdges))
            return true
        }
    }

    // MARK: Focus, hover, drop targets (no events, no undo)

    /// Focuses a node.
    @discardableResult
    public func focusNode(_ id: String) throws(FlowError) -> Bool {
        _ = try requireNode(id, "focusNode")
        defer { focusedTarget = .node(id) }
        return focusedTarget != .node(id)
    }

    /// Focuses an edge.
    @discardableResult
    public func focusEdge(_ id: String) throws(FlowError) -> Bool {
        _ = try requireEdge(id, "focusEdge")
        defer { focusedTarget = .edge(id) }
        return focusedTarget != .edge(id)
    }

    /// Clears the focus. Returns whether something was focused.
    @discardableResult
    public func clearFocus() -> Bool {
        defer { focusedTarget = nil }
        return focusedTarget != nil
    }

    /// Sets (or clears, with nil) the hovered node. Unknown ids are an error.
    @discardableResult
    public func setHoveredNode(_ id: String?) throws(FlowError) -> Bool {
        if let id { _ = try requireNode(id, "setHoveredNode") }
        defer { setHover(id) }
        return hoveredNodeID != id
    }

    /// Sets (or clears) the node drop target. Unknown ids are an error.
    @discardableResult
    public func setDropTargetNode(_ id: String?) throws(FlowError) -> Bool {
        if let id { _ = try requireNode(id, "setDropTargetNode") }
        defer { setDropNode(id) }
        return dropTargetNodeID != id
    }

    /// Sets (or clears) the edge drop target. Unknown ids are an error.
    @discardableResult
    public func setDropTargetEdge(_ id: String?) throws(FlowError) -> Bool {
        if let id { _ = try requireEdge(id, "setDropTargetEdge") }
        defer { setDropEdge(id) }
        return dropTargetEdgeID != id
    }
}
