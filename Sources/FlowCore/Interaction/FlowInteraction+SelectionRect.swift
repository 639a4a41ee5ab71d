// The selection rectangle being drawn (store-semantics §4.6 with D3): engine state; what
// it selects is the store's `selectInRect`.

extension FlowInteraction {
    /// Starts drawing a selection rectangle (`activeInteraction = .selectingRect`).
    public func beginSelectionRect() {
        activeInteraction = .selectingRect
    }

    /// Stores the rectangle being drawn (canvas coordinates, standardized). It does not
    /// select by itself; call the store's `selectInRect` for that.
    public func updateSelectionRect(_ rect: Rect) throws(FlowError) {
        try store.requireFiniteRect(rect, "updateSelectionRect")
        selectionRect = rect.standardized
    }

    /// Stops drawing: the rectangle is cleared, and a `.selectingRect` interaction ends.
    /// The selection stays. Returns whether a rectangle or interaction was active.
    @discardableResult
    public func endSelectionRect() -> Bool {
        var changed = selectionRect != nil
        selectionRect = nil
        if activeInteraction == .selectingRect {
            activeInteraction = nil
            changed = true
        }
        return changed
    }
}
