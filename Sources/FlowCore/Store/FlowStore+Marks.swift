// The marks interaction puts on items (selection, hover, drop targets) as they show in the
// items' derived flags.

extension FlowStore {
    /// Sets the derived flags of a node from the selection, hover and drop-target state,
    /// in place.
    @inline(__always)
    func setFlags(_ n: inout Node) {
        if selectedNodeSet.isEmpty && hoveredNodeID == nil && dropTargetNodeID == nil {
            if n.isSelected { n.isSelected = false }
            if n.isHovered { n.isHovered = false }
            if n.isDropTarget { n.isDropTarget = false }
            return
        }
        n.isSelected = selectedNodeSet.contains(n.id)
        n.isHovered = hoveredNodeID == n.id
        n.isDropTarget = dropTargetNodeID == n.id
    }

    /// The node with its derived flags set (`setFlags` on a copy).
    @inline(__always)
    func withFlags(_ n: Node) -> Node {
        if selectedNodeSet.isEmpty && hoveredNodeID == nil && dropTargetNodeID == nil {
            if !n.isSelected && !n.isHovered && !n.isDropTarget { return n }
            var n = n
            n.isSelected = false
            n.isHovered = false
            n.isDropTarget = false
            return n
        }
        var n = n
        n.isSelected = selectedNodeSet.contains(n.id)
        n.isHovered = hoveredNodeID == n.id
        n.isDropTarget = dropTargetNodeID == n.id
        return n
    }

    @inline(__always)
    func withFlags(_ e: FlowEdge) -> FlowEdge {
        var e = e
        setFlags(&e)
        return e
    }

    /// Sets the derived flags of an edge from the selection and drop-target state, in place.
    @inline(__always)
    func setFlags(_ e: inout FlowEdge) {
        if selectedEdgeSet.isEmpty && dropTargetEdgeID == nil {
            if e.isSelected { e.isSelected = false }
            if e.isDropTarget { e.isDropTarget = false }
            return
        }
        e.isSelected = selectedEdgeSet.contains(e.id)
        e.isDropTarget = dropTargetEdgeID == e.id
    }

    // MARK: Derived-flag setters for hover and drop targets (not journaled)

    func setHover(_ id: String?) {
        guard hoveredNodeID != id else { return }
        if let old = hoveredNodeID { nodeTable.modify(old) { $0.isHovered = false } }
        hoveredNodeID = canonicalID(id)
        if let id { nodeTable.modify(id) { $0.isHovered = true } }
    }

    func setDropNode(_ id: String?) {
        guard dropTargetNodeID != id else { return }
        if let old = dropTargetNodeID { nodeTable.modify(old) { $0.isDropTarget = false } }
        dropTargetNodeID = canonicalID(id)
        if let id { nodeTable.modify(id) { $0.isDropTarget = true } }
    }

    func setDropEdge(_ id: String?) {
        guard dropTargetEdgeID != id else { return }
        if let old = dropTargetEdgeID { edgeTable.modify(old) { $0.isDropTarget = false } }
        dropTargetEdgeID = canonicalID(id)
        if let id { edgeTable.modify(id) { $0.isDropTarget = true } }
    }
}
