extension FlowStore {
    /// The edges with `id` as source or target, in store order (a self-loop once).
    public func edgesForNode(_ id: String) throws(FlowError) -> [FlowEdge] {
        _ = try requireNode(id, "edgesForNode")
        return edgeOrder(edgesByNode[id] ?? []).compactMap { edgeTable[$0] }
    }

    /// The union of all node frames, `(0, 0, 0, 0)` when there are none. O(1) amortised.
    public func nodeBounds() -> Rect {
        spatial.bounds() ?? .zero
    }

    /// The canvas point, side and type of a handle; nil handle id means the node centre
    /// (type source). Nil when the node or handle does not exist.
    public func handleInfo(
        nodeID: String, handleID: String?
    ) -> (point: Point, position: HandlePosition, type: HandleType)? {
        guard let n = nodeTable[nodeID] else { return nil }
        guard let hid = handleID else { return (HandlePosition.center.point(in: n.frame), .center, .source) }
        guard let h = n.handle(hid) else { return nil }
        return (h.position.point(in: n.frame), h.position, h.type)
    }
}
