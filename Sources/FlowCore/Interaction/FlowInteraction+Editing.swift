// Resizing and text editing (store-semantics §4.7): interaction state only, kept by the
// interaction engine (`activeInteraction`); text editing also focuses the node.

extension FlowInteraction {
    // MARK: Resizing and text editing (interaction state only)

    /// Marks nodes as being resized (`activeInteraction = .resizingNodes`). An empty list
    /// ends a resize interaction. Throws for unknown ids. Returns whether anything changed.
    @discardableResult
    public func beginResizeNodes(_ ids: [String]) throws(FlowError) -> Bool {
        for id in ids { _ = try store.requireNode(id, "beginResizeNodes") }
        if ids.isEmpty { return endResizeNodes() }
        let new = FlowActiveInteraction.resizingNodes(store.nodeOrder(Set(ids)))
        defer { activeInteraction = new }
        return activeInteraction != new
    }

    /// Ends a resize interaction. Returns false when none was active.
    @discardableResult
    public func endResizeNodes() -> Bool {
        guard case .resizingNodes = activeInteraction else { return false }
        activeInteraction = nil
        return true
    }

    /// Starts editing the text of a node: focuses it and sets `activeInteraction =
    /// .editingText`. Throws for an unknown id.
    @discardableResult
    public func beginTextEditing(nodeID: String) throws(FlowError) -> Bool {
        let store = store
        _ = try store.requireNode(nodeID, "beginTextEditing")
        let changed = store.focusedTarget != .node(nodeID) || activeInteraction != .editingText(nodeID)
        store.focusedTarget = .node(nodeID)
        activeInteraction = .editingText(nodeID)
        return changed
    }

    /// Ends text editing (of `nodeID` only, when given); focus is kept. Returns false when
    /// no such editing was active. Throws for an unknown id.
    @discardableResult
    public func endTextEditing(nodeID: String? = nil) throws(FlowError) -> Bool {
        if let nodeID { _ = try store.requireNode(nodeID, "endTextEditing") }
        guard case .editingText(let editing) = activeInteraction else { return false }
        if let nodeID, nodeID != editing { return false }
        activeInteraction = nil
        return true
    }
}
