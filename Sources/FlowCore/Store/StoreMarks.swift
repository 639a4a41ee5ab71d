/// The marks interaction puts on a store's items: selection, keyboard focus, hover, drop
/// targets and animated edges. Not document content: no undo (selection is journaled only
/// so that rollback restores it), not exported. Owned by `FlowStore` (`marks`).
///
/// Invariant (checked by `FlowStore.invariantViolations()`): an item's derived flags
/// (`isSelected`, `isHovered`, `isDropTarget`) agree with these marks; the store keeps them
/// in step through its primitives and `setHover`/`setDropNode`/`setDropEdge`, and removals
/// clear the marks of removed items.
struct StoreMarks {
    var selectedNodes: Set<String> = []
    var selectedEdges: Set<String> = []
    /// Keyboard focus, with canonical ids (D24).
    var focusedTarget: FlowFocusTarget?
    /// The node under the pointer.
    var hoveredNodeID: String?
    /// The node highlighted as a drop target.
    var dropTargetNodeID: String?
    /// The edge highlighted as a drop target.
    var dropTargetEdgeID: String?
    var animatedEdges: Set<String> = []

    /// Sets the derived flags of a node from the marks, in place.
    @inline(__always)
    func setFlags<D>(_ n: inout FlowNode<D>) {
        if selectedNodes.isEmpty && hoveredNodeID == nil && dropTargetNodeID == nil {
            if n.isSelected { n.isSelected = false }
            if n.isHovered { n.isHovered = false }
            if n.isDropTarget { n.isDropTarget = false }
            return
        }
        n.isSelected = selectedNodes.contains(n.id)
        n.isHovered = hoveredNodeID == n.id
        n.isDropTarget = dropTargetNodeID == n.id
    }

    /// The node with its derived flags set (`setFlags` on a copy, made only when a flag
    /// changes while no node is marked).
    @inline(__always)
    func withFlags<D>(_ n: FlowNode<D>) -> FlowNode<D> {
        if selectedNodes.isEmpty && hoveredNodeID == nil && dropTargetNodeID == nil
            && !n.isSelected && !n.isHovered && !n.isDropTarget
        {
            return n
        }
        var n = n
        setFlags(&n)
        return n
    }

    /// Sets the derived flags of an edge from the marks, in place.
    @inline(__always)
    func setFlags(_ e: inout FlowEdge) {
        if selectedEdges.isEmpty && dropTargetEdgeID == nil {
            if e.isSelected { e.isSelected = false }
            if e.isDropTarget { e.isDropTarget = false }
            return
        }
        e.isSelected = selectedEdges.contains(e.id)
        e.isDropTarget = dropTargetEdgeID == e.id
    }
}
