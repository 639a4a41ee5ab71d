// The selection calls a canvas makes for pointer input (store-semantics §4.5), hover, and
// the scroll and pinch calls: store operations without gesture state. The gesture state
// machine that makes these calls is the interaction engine's (FlowInteraction+Pointer.swift).

extension FlowStore {
    /// A click on a node: `replace` selects it alone; `toggle` deselects it when selected,
    /// else adds it. Returns whether the selection or focus changed. Throws for an unknown id.
    @discardableResult
    public func selectNodeFromPointer(_ id: String, mode: FlowSelectionMode) throws(FlowError) -> Bool {
        try perform("Select") { () throws(FlowError) -> Bool in
            _ = try requireNode(id, "selectNodeFromPointer")
            switch mode {
            case .replace: return try selectNode(id)
            case .toggle:
                return marks.selectedNodes.contains(id) ? try deselectNode(id) : try selectNode(id, exclusive: false)
            }
        }
    }

    /// A click on an edge, like `selectNodeFromPointer`.
    @discardableResult
    public func selectEdgeFromPointer(_ id: String, mode: FlowSelectionMode) throws(FlowError) -> Bool {
        try perform("Select") { () throws(FlowError) -> Bool in
            _ = try requireEdge(id, "selectEdgeFromPointer")
            switch mode {
            case .replace: return try selectEdge(id)
            case .toggle:
                return marks.selectedEdges.contains(id) ? try deselectEdge(id) : try selectEdge(id, exclusive: false)
            }
        }
    }

    /// A click on empty canvas: `replace` clears the selection and the focus; `toggle` does
    /// nothing. Returns whether anything changed.
    @discardableResult
    public func selectCanvasFromPointer(mode: FlowSelectionMode) -> Bool {
        guard mode == .replace else { return false }
        return perform("Select") { () -> Bool in
            let cleared = clearSelection()
            return clearFocus() || cleared
        }
    }

    /// Hovers the pointer at the screen point `p`: the front-most node under it becomes the
    /// hovered node (none over empty canvas). Returns whether the hovered node changed.
    @discardableResult
    public func hover(at p: Point) throws(FlowError) -> Bool {
        try requireFinite(p, "hover", "point")
        return hoverNode(atScreenPoint: p)
    }

    /// Clears the hovered node (the pointer left the canvas). Returns whether one was set.
    @discardableResult
    public func hoverExit() -> Bool {
        defer { setHover(nil) }
        return hoveredNodeID != nil
    }

    /// A scroll: pans by exactly `delta` screen points. False when panning is disabled.
    @discardableResult
    public func scroll(by delta: Point) throws(FlowError) -> Bool {
        try pan(by: delta)
    }

    /// A pinch: zooms by `factor` around the screen point `p`. False when zooming is
    /// disabled.
    @discardableResult
    public func magnify(by factor: Double, at p: Point) throws(FlowError) -> Bool {
        try zoom(by: factor, anchor: p)
    }

    /// Hovers the front-most node under the screen point `p`; returns whether the hovered
    /// node changed (also for the interaction engine's pointer moves without a press).
    func hoverNode(atScreenPoint p: Point) -> Bool {
        let id = hitTestNode(at: screenToCanvas(p))?.id
        defer { setHover(id) }
        return hoveredNodeID != id
    }
}
