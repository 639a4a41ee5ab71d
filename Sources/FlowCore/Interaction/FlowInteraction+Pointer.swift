// Pointer input: the gesture state machine of the interaction engine, which turns presses,
// moves and releases in screen coordinates into the store's selection, drag, connection and
// viewport calls (store-semantics §11 with D3, D16; lua-api §7 and §14).

/// Modifier keys held during a pointer press or tap.
public struct PointerModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The additive modifier: a tap toggles; a drag on a node does nothing.
    public static let command = PointerModifiers(rawValue: 1 << 0)
    /// A drag on empty canvas draws a selection rectangle.
    public static let shift = PointerModifiers(rawValue: 1 << 1)
}

/// What the pointer is doing while it is pressed.
public enum PointerGesture: String, Hashable, Sendable, CaseIterable {
    /// Pressed, not yet moved 3 points: releasing now is a tap.
    case pressed
    /// Dragging nodes (one undo step at release).
    case movingNodes
    /// Dragging a connection out of a handle.
    case connecting
    /// Panning the canvas.
    case panning
    /// Drawing a selection rectangle.
    case selectingRect
    /// A drag that does nothing (command+drag on a node, a node that is not draggable).
    case ignored
}

/// A pointer press being tracked (screen coordinates).
struct PointerPress {
    var start: Point
    var last: Point
    var modifiers: PointerModifiers
    var gesture: PointerGesture = .pressed
    /// Canvas corner where a selection rectangle started.
    var rectOrigin: Point = .zero
}

/// What a tap hit, for double-tap detection (node "a", edge "a" and the canvas differ).
enum TapTarget: Hashable {
    case node(String)
    case edge(String)
    case canvas
}

/// The last tap that can be the first half of a double tap, and the clock time since.
struct RecordedTap {
    var target: TapTarget
    var elapsed: Double
}

extension FlowInteraction {
    /// Longest clock time between two taps of a double tap (strictly less counts).
    public static var doubleTapInterval: Double { 0.3 }
    /// Movement (screen points) from which a press becomes a drag instead of a tap.
    public static var dragThreshold: Double { 3 }

    // MARK: Drags started by pointer input

    /// The start of a drag on a node: with `replace`, a selected node keeps the selection
    /// (and gets the focus), another node is selected alone; then a drag session begins.
    /// `toggle` does nothing. Returns `isNodeDragging` (false for a node that is not
    /// draggable, which is still selected). Throws for an unknown id.
    @discardableResult
    public func beginNodeDragFromPointer(_ id: String, mode: FlowSelectionMode) throws(FlowError) -> Bool {
        let store = store
        return try store.perform("Move") { () throws(FlowError) -> Bool in
            _ = try store.requireNode(id, "beginNodeDragFromPointer")
            guard mode == .replace else { return false }
            if store.marks.selectedNodes.contains(id) { try store.focusNode(id) } else { try store.selectNode(id) }
            try beginNodeDrag(id)
            return isNodeDragging
        }
    }

    // MARK: The gesture state machine (screen coordinates)

    /// What the pressed pointer is doing, or nil while it is up.
    public var pointerGesture: PointerGesture? { pointerPress?.gesture }

    /// Presses the pointer at the screen point `p`. Nothing happens until it moves 3 points
    /// or is released. A press while the pointer is already down cancels the first one.
    public func pointerDown(at p: Point, modifiers: PointerModifiers = []) throws(FlowError) {
        try store.requireFinite(p, "pointerDown", "point")
        if pointerPress != nil { pointerCancel() }
        pointerPress = PointerPress(start: p, last: p, modifiers: modifiers)
    }

    /// Moves the pointer to the screen point `p`. Without a press it only hovers. Once a
    /// press has moved 3 points from where it started, the gesture is decided from the
    /// start point: a handle starts a connection; a node is dragged (with the other
    /// selected nodes; command+drag on a node does nothing); empty canvas pans, or with
    /// shift draws a selection rectangle (which pans instead when selection or
    /// multi-selection is disabled). Returns whether anything changed.
    @discardableResult
    public func pointerMove(to p: Point) throws(FlowError) -> Bool {
        try store.requireFinite(p, "pointerMove", "point")
        guard pointerPress != nil else { return store.hoverNode(atScreenPoint: p) }
        return try store.perform("Move") { () throws(FlowError) -> Bool in try dragPointer(to: p) }
    }

    /// Releases the pointer at the screen point `p`. A press that moved less than 3 points
    /// is a tap (see `tap(at:modifiers:)`); a node drag ends as one undo step, re-parenting
    /// nodes dropped into a container; a connection ends on the nearest compatible handle,
    /// or is cancelled without callbacks over nothing; a rectangle keeps its selection.
    /// Returns false when the pointer was not pressed.
    @discardableResult
    public func pointerUp(at p: Point) throws(FlowError) -> Bool {
        try store.requireFinite(p, "pointerUp", "point")
        guard pointerPress != nil else { return false }
        _ = try releasePointer(at: p)
        return true
    }

    /// A tap at the screen point `p`: selects what is under it (node, else edge, else
    /// canvas; handles are ignored), toggling with command, unless selection is disabled.
    /// A second tap without command on the same target within 0.3 s of clock time calls
    /// `onNodeDoubleTap`, `onEdgeDoubleTap` or `onCanvasDoubleTap` (also when selection is
    /// disabled); a third tap starts a new sequence. Returns whether the selection or focus
    /// changed or a double tap was reported.
    @discardableResult
    public func tap(at p: Point, modifiers: PointerModifiers = []) throws(FlowError) -> Bool {
        try pointerDown(at: p, modifiers: modifiers)
        return try releasePointer(at: p)
    }

    /// Ends any gesture; the pointer is up afterwards. A node drag moves the nodes back and
    /// records nothing; a connection is cancelled without callbacks; a selection rectangle
    /// keeps the selection made so far; a pan keeps the pan made so far. Returns false when
    /// the pointer was not pressed.
    @discardableResult
    public func pointerCancel() -> Bool {
        guard let press = pointerPress else { return false }
        pointerPress = nil
        store.perform("Move") { () -> Void in
            switch press.gesture {
            case .movingNodes: cancelNodeDrag()
            case .connecting: cancelConnection()
            case .selectingRect: endSelectionRect()
            case .pressed, .panning, .ignored: break
            }
        }
        return true
    }

    /// Advances the virtual clock used for double taps by `seconds`.
    public func advanceClock(by seconds: Double) throws(FlowError) {
        guard seconds.isFinite, seconds >= 0 else {
            throw .invalidValue("advanceClock", "seconds must be a finite number that is not negative")
        }
        clock += seconds
        lastTap?.elapsed += seconds
    }

    /// The move part of the state machine (call inside `perform`).
    private func dragPointer(to p: Point) throws(FlowError) -> Bool {
        guard var press = pointerPress else { return false }
        let store = store
        var changed = false
        if press.gesture == .pressed {
            guard p.distance(to: press.start) >= Self.dragThreshold else {
                pointerPress?.last = p
                return false
            }
            let before = (store.marks.selectedNodes, store.marks.selectedEdges, store.focusedTarget)
            let gesture = try startDrag(&press)
            press.gesture = gesture
            press.last = press.start  // a pan follows the pointer from where it was pressed
            changed = before != (store.marks.selectedNodes, store.marks.selectedEdges, store.focusedTarget)
            pointerPress = press
        }
        switch press.gesture {
        case .movingNodes:
            changed = try updateNodeDrag(translation: p - press.start) || changed
        case .connecting:
            if connectionDraft != nil {
                try updateConnection(to: store.screenToCanvas(p))
                changed = true
            }
        case .panning:
            changed = try store.pan(by: p - press.last) || changed
        case .selectingRect:
            let rect = Rect(corner: press.rectOrigin, corner: store.screenToCanvas(p))
            try updateSelectionRect(rect)
            changed = try store.selectInRect(rect) || changed
        case .pressed, .ignored:
            break
        }
        pointerPress?.last = p
        return changed
    }

    /// Decides what a drag does from where it started, and starts it.
    private func startDrag(_ press: inout PointerPress) throws(FlowError) -> PointerGesture {
        let store = store
        let c = store.screenToCanvas(press.start)
        let selectionEnabled = store.configuration.selectionEnabled
        if let h = store.hitTestHandle(at: c) {
            cancelConnection()
            if selectionEnabled {
                try beginConnection(nodeID: h.nodeID, handleID: h.handleID)
            } else if let info = store.handleInfo(nodeID: h.nodeID, handleID: h.handleID) {
                // Selection by pointer is off: the same draft, without selecting the node.
                connectionDraft = ConnectionDraft(
                    sourceNodeID: h.nodeID, sourceHandleID: h.handleID, sourceHandleType: info.type,
                    sourceHandlePosition: info.position, currentPoint: info.point)
                activeInteraction = .connecting(sourceNodeID: h.nodeID, sourceHandleID: h.handleID)
            }
            return .connecting
        }
        if let n = store.hitTestNode(at: c) {
            if press.modifiers.contains(.command) { return .ignored }
            if selectionEnabled {
                return try beginNodeDragFromPointer(n.id, mode: .replace) ? .movingNodes : .ignored
            }
            return try beginNodeDrag(n.id) ? .movingNodes : .ignored
        }
        if press.modifiers.contains(.shift) && selectionEnabled && store.configuration.multiSelectionEnabled
        {
            beginSelectionRect()
            press.rectOrigin = c
            return .selectingRect
        }
        return .panning
    }

    /// Releases the press: the final move, then the end of the gesture or a tap. Returns
    /// whether anything changed.
    private func releasePointer(at p: Point) throws(FlowError) -> Bool {
        var tapped: (target: TapTarget, canvasPoint: Point, additive: Bool)?
        let store = store
        let changed = try store.perform(releaseStepName(at: p)) { () throws(FlowError) -> Bool in
            var changed = try dragPointer(to: p)
            guard let press = pointerPress else { return changed }
            pointerPress = nil
            switch press.gesture {
            case .pressed:
                let c = store.screenToCanvas(press.start)
                let target = tapTarget(at: c)
                tapped = (target, c, press.modifiers.contains(.command))
                if store.configuration.selectionEnabled {
                    changed = try tapSelect(target, mode: press.modifiers.contains(.command) ? .toggle : .replace)
                }
            case .movingNodes:
                changed = endNodeDrag() || changed
            case .connecting:
                if connectionDraft != nil {
                    try endConnection()
                    changed = true
                }
            case .selectingRect:
                endSelectionRect()
            case .panning, .ignored:
                break
            }
            return changed
        }
        // Double taps are reported after the tap's own events, outside the operation, so
        // the callbacks may do anything (even undo).
        guard let tapped else { return changed }
        return recordTap(tapped.target, at: tapped.canvasPoint, additive: tapped.additive) || changed
    }

    /// The undo step a release records: "Add Edge" when it ends a connection (the store may
    /// add the edge itself), else "Move".
    private func releaseStepName(at p: Point) -> String {
        guard let press = pointerPress else { return "Move" }
        switch press.gesture {
        case .connecting: return "Add Edge"
        case .pressed where p.distance(to: press.start) >= Self.dragThreshold:
            return store.hitTestHandle(at: store.screenToCanvas(press.start)) != nil ? "Add Edge" : "Move"
        default: return "Move"
        }
    }

    private func tapTarget(at c: Point) -> TapTarget {
        if let n = store.hitTestNode(at: c) { return .node(n.id) }
        if let e = store.hitTestEdge(at: c) { return .edge(e.id) }
        return .canvas
    }

    private func tapSelect(_ target: TapTarget, mode: FlowSelectionMode) throws(FlowError) -> Bool {
        switch target {
        case .node(let id): return try store.selectNodeFromPointer(id, mode: mode)
        case .edge(let id): return try store.selectEdgeFromPointer(id, mode: mode)
        case .canvas: return store.selectCanvasFromPointer(mode: mode)
        }
    }

    /// Double-tap detection; returns whether a double tap was reported.
    private func recordTap(_ target: TapTarget, at c: Point, additive: Bool) -> Bool {
        if additive {
            lastTap = nil
            return false
        }
        guard let last = lastTap, last.target == target, last.elapsed < Self.doubleTapInterval else {
            lastTap = RecordedTap(target: target, elapsed: 0)
            return false
        }
        lastTap = nil
        switch target {
        case .node(let id): onNodeDoubleTap?(id)
        case .edge(let id): onEdgeDoubleTap?(id)
        case .canvas: onCanvasDoubleTap?(c)
        }
        return true
    }
}
