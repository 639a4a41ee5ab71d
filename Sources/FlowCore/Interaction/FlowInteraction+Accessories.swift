// Accessory placement (store-semantics §12, lua-api §9): where the interaction engine puts
// accessory views next to a node or an edge, asking `nodeAccessoryPlacement` for a side.

/// What an accessory view is attached to.
public enum AccessoryAnchor: Hashable, Sendable {
    case node(String)
    case edge(String)
}

extension FlowInteraction {
    /// Where an accessory of `size` goes next to a node or an edge, in screen coordinates,
    /// on a canvas of `canvasSize`: its centre, and the side actually used after flipping
    /// away from a clipped side. A node anchors at its centre with its size times the zoom;
    /// an edge at its label point with size zero. The side is `placement` when given, else
    /// for a node what `nodeAccessoryPlacement` returns (`.top` when it is unset, returns
    /// nil or throws), else `.top`. Throws for an unknown id, an edge whose handles cannot
    /// be resolved, or invalid sizes.
    public func accessoryPosition(
        for anchor: AccessoryAnchor, size: Size, canvasSize: Size,
        placement: AccessoryPlacement? = nil, spacing: Double = 8, margin: Double = 8
    ) throws(FlowError) -> (center: Point, placement: AccessoryPlacement) {
        let op = "accessoryPosition"
        let store = store
        try store.requireSize(size, op)
        try store.requireSize(canvasSize, op)
        guard spacing.isFinite, margin.isFinite else {
            throw .invalidValue(op, "spacing and margin must be finite numbers")
        }
        let center: Point, anchorSize: Size, side: AccessoryPlacement
        switch anchor {
        case .node(let id):
            let n = try store.requireNode(id, op)
            center = store.canvasToScreen(n.frame.center)
            let zoom = store.viewport.zoom
            anchorSize = Size(n.size.width * zoom, n.size.height * zoom)
            side = placement ?? preferredAccessoryPlacement(of: n)
        case .edge(let id):
            let e = try store.requireEdge(id, op)
            guard let g = store.edgeGeometry(of: e) else {
                throw .invalidHandle(op, "the handles of edge '\(id)' cannot be resolved")
            }
            center = store.canvasToScreen(g.labelPosition)
            anchorSize = .zero
            side = placement ?? .top
        }
        return accessoryCenter(
            anchor: center, anchorSize: anchorSize, accessorySize: size, canvasSize: canvasSize,
            placement: side, spacing: spacing, margin: margin)
    }

    /// The accessory to show: one entry when exactly one item (node or edge) is selected in
    /// total, else none (nor for an edge whose handles cannot be resolved).
    public func accessories(
        size: Size, canvasSize: Size
    ) throws(FlowError) -> [(anchor: AccessoryAnchor, center: Point, placement: AccessoryPlacement)] {
        let op = "accessories"
        let store = store
        try store.requireSize(size, op)
        try store.requireSize(canvasSize, op)
        guard store.marks.selectedNodes.count + store.marks.selectedEdges.count == 1 else { return [] }
        let anchor: AccessoryAnchor
        if let id = store.marks.selectedNodes.first {
            anchor = .node(id)
        } else if let id = store.marks.selectedEdges.first, let e = store.edge(id), store.edgeGeometry(of: e) != nil {
            anchor = .edge(id)
        } else {
            return []
        }
        let r = try accessoryPosition(for: anchor, size: size, canvasSize: canvasSize)
        return [(anchor, r.center, r.placement)]
    }

    /// The side `nodeAccessoryPlacement` asks for; `.top` when it is unset, returns nil or
    /// throws.
    func preferredAccessoryPlacement(of n: Node) -> AccessoryPlacement {
        guard let choose = nodeAccessoryPlacement else { return .top }
        do {
            return try choose(n) ?? .top
        } catch {
            return .top
        }
    }
}
