// The marks interaction puts on items (selection, hover, drop targets) as they show in the
// items' derived flags.

extension FlowStore {
    /// Sets the derived flags of a node from the marks, in place.
    @inline(__always)
    func setFlags(_ n: inout Node) { marks.setFlags(&n) }

    /// The node with its derived flags set (`setFlags` on a copy).
    @inline(__always)
    func withFlags(_ n: Node) -> Node { marks.withFlags(n) }

    /// The edge with its derived flags set.
    @inline(__always)
    func withFlags(_ e: FlowEdge) -> FlowEdge {
        var e = e
        marks.setFlags(&e)
        return e
    }

    /// Sets the derived flags of an edge from the marks, in place.
    @inline(__always)
    func setFlags(_ e: inout FlowEdge) { marks.setFlags(&e) }

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
