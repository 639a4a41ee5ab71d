// The minimap (store-semantics §9): its layout from the store's nodes and viewport, and
// the pan a click in it makes.

extension FlowInteraction {
    /// The minimap layout of the current nodes (back to front, selected ones highlighted)
    /// and viewport, for a canvas of `canvasSize` and a minimap of `size`.
    public func miniMap(
        canvasSize: Size, size: Size = MiniMapGeometry.defaultSize
    ) throws(FlowError) -> MiniMapGeometry {
        try requireMiniMapSizes(canvasSize, size, "miniMap")
        let drawOrder = store.nodes.enumerated().sorted { a, b in
            a.element.zIndex != b.element.zIndex ? a.element.zIndex < b.element.zIndex : a.offset < b.offset
        }
        return MiniMapGeometry(
            nodes: drawOrder.map { MiniMapGeometry.Node(frame: $0.element.frame, isSelected: $0.element.isSelected) },
            viewport: store.viewport, canvasSize: canvasSize, size: size)
    }

    /// A click or drag at `miniMapPoint` in the minimap: pans so that the canvas point
    /// drawn there becomes the centre of the view. Returns false when panning is disabled
    /// (or the view is already centred there).
    @discardableResult
    public func miniMapPan(
        to miniMapPoint: Point, canvasSize: Size, size: Size = MiniMapGeometry.defaultSize
    ) throws(FlowError) -> Bool {
        let op = "miniMapPan"
        let store = store
        try requireMiniMapSizes(canvasSize, size, op)
        try store.requireFinite(miniMapPoint, op, "point")
        guard store.configuration.panEnabled else { return false }
        // The world bounds only depend on the union of the node frames.
        let nodes = store.nodeCount > 0 ? [MiniMapGeometry.Node(frame: store.nodeBounds())] : []
        let geometry = MiniMapGeometry(nodes: nodes, viewport: store.viewport, canvasSize: canvasSize, size: size)
        let delta = geometry.panDelta(forMiniMapPoint: miniMapPoint)
        guard delta.x.isFinite, delta.y.isFinite else { return false }
        return try store.pan(by: delta)
    }

    private func requireMiniMapSizes(_ canvasSize: Size, _ size: Size, _ op: String) throws(FlowError) {
        try store.requireSize(canvasSize, op)
        try store.requireSize(size, op)
        guard size.width > 0, size.height > 0 else {
            throw .invalidValue(op, "minimap size must be positive")
        }
    }
}
