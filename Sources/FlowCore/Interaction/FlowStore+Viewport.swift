extension FlowStore {
    /// Screen point → canvas point (`(p − offset) / max(zoom, 0.01)`).
    public func screenToCanvas(_ p: Point) -> Point { viewport.screenToCanvas(p) }

    /// Canvas point → screen point (`p · zoom + offset`).
    public func canvasToScreen(_ p: Point) -> Point { viewport.canvasToScreen(p) }

    /// Sets the viewport immediately; the zoom is clamped to the limits and the offset kept.
    /// Cancels viewport animations. Returns whether anything changed.
    @discardableResult
    public func setViewport(_ v: Viewport) throws(FlowError) -> Bool {
        guard v.offset.x.isFinite, v.offset.y.isFinite, v.zoom.isFinite, v.zoom > 0 else {
            throw .invalidValue("setViewport", "offset must be finite and zoom a positive number")
        }
        cancelViewportAnimations()
        let new = Viewport(offset: v.offset, zoom: configuration.clampZoom(v.zoom))
        defer { viewport = new }
        return new != viewport
    }

    /// Pans by `delta` screen units. Returns false (doing nothing) when panning is disabled.
    @discardableResult
    public func pan(by delta: Point) throws(FlowError) -> Bool {
        try requireFinite(delta, "pan", "delta")
        guard configuration.panEnabled else { return false }
        cancelViewportAnimations(offsetOnly: true)
        viewport.offset = viewport.offset + delta
        return delta != .zero
    }

    /// Zooms by `factor` around the screen point `anchor`, which stays fixed; the zoom is
    /// clamped to the limits. Returns false when zooming is disabled.
    @discardableResult
    public func zoom(by factor: Double, anchor: Point) throws(FlowError) -> Bool {
        guard factor.isFinite, factor > 0 else {
            throw .invalidValue("zoom", "factor must be a positive number")
        }
        try requireFinite(anchor, "zoom", "anchor")
        guard configuration.zoomEnabled, viewport.zoom > 0 else { return false }
        cancelViewportAnimations()
        let target = zoomTarget(by: factor, anchor: anchor)
        defer { viewport = target }
        return target != viewport
    }

    /// The viewport `zoom(by:anchor:)` produces.
    func zoomTarget(by factor: Double, anchor: Point) -> Viewport {
        let z0 = viewport.zoom
        let z1 = configuration.clampZoom(z0 * factor)
        let s = z1 / z0
        return Viewport(offset: anchor - (anchor - viewport.offset) * s, zoom: z1)
    }

    /// Fits all nodes into a canvas of `canvasSize` with `padding` (store-semantics §4.9):
    /// never zooms in past 1, centres the unpadded bounds. Returns false when there are no
    /// nodes (or the padded bounds are empty).
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func fitToContent(canvasSize: Size, padding: Double = 50) throws(FlowError) -> Bool {
        guard let target = try fitTarget(canvasSize: canvasSize, padding: padding, "fitToContent") else {
            return false
        }
        cancelViewportAnimations()
        viewport = target
        return true
    }

    /// The viewport `fitToContent` produces, or nil when there is nothing to fit.
    func fitTarget(canvasSize: Size, padding: Double, _ op: String) throws(FlowError) -> Viewport? {
        try validateFit(canvasSize: canvasSize, padding: padding, op)
        guard nodeCount > 0 else { return nil }
        return fitTarget(nodeBounds(), canvasSize: canvasSize, padding: padding)
    }

    /// Throws when a canvas size or padding cannot be fitted to.
    func validateFit(canvasSize: Size, padding: Double, _ op: String) throws(FlowError) {
        guard canvasSize.width.isFinite, canvasSize.height.isFinite, canvasSize.width > 0,
            canvasSize.height > 0
        else { throw .invalidValue(op, "canvas size must be positive numbers") }
        guard padding.isFinite else { throw .invalidValue(op, "padding must be a finite number") }
    }

    /// The viewport that shows `b` with `padding` around it centred in a canvas of
    /// `canvasSize` (validated), never zoomed in past 1; nil when the padded rect is empty.
    func fitTarget(_ b: Rect, canvasSize: Size, padding: Double) -> Viewport? {
        let cw = b.width + 2 * padding, ch = b.height + 2 * padding
        guard cw > 0, ch > 0 else { return nil }
        let fitted = min(canvasSize.width / cw, canvasSize.height / ch)
        let zoom = configuration.clampZoom(min(1.0, fitted))
        let offset = Point(
            -b.minX * zoom + (canvasSize.width - b.width * zoom) / 2,
            -b.minY * zoom + (canvasSize.height - b.height * zoom) / 2)
        return Viewport(offset: offset, zoom: zoom)
    }

    /// Stops the interaction engine's viewport animations (only the offset ones, and the
    /// zoom anchor link, when `offsetOnly`): the viewport is set at once.
    func cancelViewportAnimations(offsetOnly: Bool = false) {
        interaction.stopViewportAnimations(offsetOnly: offsetOnly)
    }
}
