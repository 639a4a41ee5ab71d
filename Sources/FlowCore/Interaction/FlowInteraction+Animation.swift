// The animation API of the interaction engine (store-semantics §4.10, §14 with D14;
// lua-api §5, §14): viewport and node animations, which set the store's viewport and move
// nodes unrecorded until they settle. Time moves only through `tick(_:)`; there is no wall
// clock.

/// The running viewport animations: offset x and y, zoom, and the anchor that ties the
/// offset to the zoom during an anchored zoom or an animated fit.
struct ViewportAnimation {
    var x: PropertyAnimation?
    var y: PropertyAnimation?
    var zoom: PropertyAnimation?
    var link: ZoomLink?

    var isRunning: Bool { x != nil || y != nil || zoom != nil }
}

/// While the zoom animates, `offset = anchor − (anchor − initialOffset) · zoom/initialZoom`
/// keeps the canvas point under `anchor` fixed. `landing` is the exact offset to end on
/// (an animated fit), so rounding in the formula never shows in the result.
struct ZoomLink {
    var anchor: Point
    var initialOffset: Point
    var initialZoom: Double
    var landing: Point?
}

/// The two animated coordinates of a node position.
struct NodeAnimation {
    var x: PropertyAnimation
    var y: PropertyAnimation

    var settled: Bool { x.settled && y.settled }
    var target: Point { Point(x.target, y.target) }
}

extension FlowInteraction {
    /// Whether a viewport or node animation is running. Animated (dashed) edges do not
    /// count, so `while try store.tick(1.0 / 60) {}` ends.
    public var isAnimating: Bool { viewportAnimation.isRunning || !nodeAnimations.isEmpty }

    /// Ids of the nodes whose position is animating, in store order.
    public var animatingNodeIDs: [String] { store.nodeOrder(nodeAnimations.keys) }

    // MARK: Viewport

    /// Animates the viewport to `v` (zoom clamped to the limits, offset kept); nil
    /// `animation` sets it at once. Not gated by the pan/zoom flags. Running viewport
    /// animations are retargeted. Returns whether the viewport is animating (or changed).
    @discardableResult
    public func setViewport(_ v: Viewport, animation: FlowAnimation?) throws(FlowError) -> Bool {
        let store = store
        guard let animation else { return try store.setViewport(v) }
        let op = "setViewport"
        guard v.offset.x.isFinite, v.offset.y.isFinite, v.zoom.isFinite, v.zoom > 0 else {
            throw .invalidValue(op, "offset must be finite and zoom a positive number")
        }
        try validate(animation, op)
        let target = Viewport(offset: v.offset, zoom: store.configuration.clampZoom(v.zoom))
        let viewport = store.viewport
        viewportAnimation.link = nil
        animate(&viewportAnimation.x, from: viewport.offset.x, to: target.offset.x, animation)
        animate(&viewportAnimation.y, from: viewport.offset.y, to: target.offset.y, animation)
        animate(&viewportAnimation.zoom, from: viewport.zoom, to: target.zoom, animation)
        return viewportAnimation.isRunning
    }

    /// Animates a zoom by `factor` around the screen point `anchor` (which stays fixed
    /// while the zoom moves). The target is computed from the current zoom, even in the
    /// middle of another zoom animation. Returns false when zooming is disabled; nil
    /// `animation` zooms at once.
    @discardableResult
    public func zoom(by factor: Double, anchor: Point, animation: FlowAnimation?) throws(FlowError) -> Bool {
        let store = store
        guard let animation else { return try store.zoom(by: factor, anchor: anchor) }
        let op = "zoom"
        guard factor.isFinite, factor > 0 else { throw .invalidValue(op, "factor must be a positive number") }
        try store.requireFinite(anchor, op, "anchor")
        try validate(animation, op)
        let viewport = store.viewport
        guard store.configuration.zoomEnabled, viewport.zoom > 0 else { return false }
        let target = store.configuration.clampZoom(viewport.zoom * factor)
        startLinkedZoom(
            to: target, link: ZoomLink(anchor: anchor, initialOffset: viewport.offset, initialZoom: viewport.zoom),
            animation)
        return viewportAnimation.zoom != nil
    }

    /// Animates to the viewport `fitToContent(canvasSize:padding:)` would set, landing on it
    /// exactly. Returns false when there are no nodes; nil `animation` fits at once.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func fitToContent(
        canvasSize: Size, padding: Double = 50, animation: FlowAnimation?
    ) throws(FlowError) -> Bool {
        let store = store
        guard let animation else { return try store.fitToContent(canvasSize: canvasSize, padding: padding) }
        let op = "fitToContent"
        try validate(animation, op)
        guard let target = try store.fitTarget(canvasSize: canvasSize, padding: padding, op) else { return false }
        let z0 = store.viewport.zoom, o0 = store.viewport.offset
        let ratio = z0 > 0 ? target.zoom / z0 : 1
        if abs(ratio - 1) < 1e-9 {
            return try setViewport(target, animation: animation)
        }
        // The fixed point of the zoom that maps the current offset onto the target one.
        let anchor = (target.offset - o0 * ratio) / (1 - ratio)
        startLinkedZoom(
            to: target.zoom,
            link: ZoomLink(anchor: anchor, initialOffset: o0, initialZoom: z0, landing: target.offset),
            animation)
        return true
    }

    /// Animates the zoom with the offset tied to it by `link` (the offset animations stop).
    private func startLinkedZoom(to zoom: Double, link: ZoomLink, _ animation: FlowAnimation) {
        viewportAnimation.x = nil
        viewportAnimation.y = nil
        viewportAnimation.link = link
        animate(&viewportAnimation.zoom, from: store.viewport.zoom, to: zoom, animation)
        if viewportAnimation.zoom == nil {
            if let landing = link.landing { store.viewport.offset = landing }
            viewportAnimation.link = nil
        }
    }

    /// Retargets a running animation, or starts one from `from` (none when already there).
    private func animate(
        _ slot: inout PropertyAnimation?, from: Double, to: Double, _ animation: FlowAnimation
    ) {
        if var running = slot {
            running.retarget(to)
            slot = running.settled ? nil : running
        } else {
            let new = PropertyAnimation(from: from, to: to, animation: animation)
            slot = new.settled ? nil : new
        }
    }

    private func validate(_ animation: FlowAnimation, _ op: String) throws(FlowError) {
        try animation.validate(op)
    }

    /// Stops viewport animations (only the offset ones, and the zoom anchor link, when
    /// `offsetOnly`: a running zoom then continues without moving the offset).
    func stopViewportAnimations(offsetOnly: Bool) {
        if offsetOnly {
            viewportAnimation.x = nil
            viewportAnimation.y = nil
            viewportAnimation.link = nil
        } else {
            viewportAnimation = ViewportAnimation()
        }
    }

    // MARK: Node positions

    /// Moves nodes to new positions (applied in list order, like `moveNode` each: targets
    /// are snapped and descendants follow by the node's actual delta; a later entry wins).
    /// Without `animation` this happens at once: one undo step "Move", one batch of
    /// `position` events, and running animations of those nodes stop. With `animation` the
    /// nodes animate there (running animations are retargeted); frames emit nothing, and
    /// when the last node animation settles its `position` events are emitted and one undo
    /// step "Move" is recorded from the positions before the animations started. Throws for
    /// unknown ids or non-finite points. Returns whether anything moved or started moving.
    @discardableResult
    public func setNodePositions(
        _ positions: [(String, Point)], animation: FlowAnimation? = nil
    ) throws(FlowError) -> Bool {
        let op = "setNodePositions"
        let store = store
        for (id, p) in positions {
            _ = try store.requireNode(id, op)
            try store.requireFinite(p, op, "position")
        }
        guard let animation else {
            return store.perform("Move") { () -> Bool in
                cancelNodeAnimations(positions.map(\.0))
                let targets = nodeTargets(positions) { store.node($0)?.position }
                var moved = false
                for id in store.nodeOrder(targets.keys) {
                    guard let p = targets[id] else { continue }
                    if store.moveUnrecorded(id, to: p, event: .position) { moved = true }
                }
                return moved
            }
        }
        try validate(animation, op)
        // A drag that moves these nodes ends first (its moves become their own step), so
        // the animation starts from recorded positions.
        abandonDrag(ifItMoves: Set(positions.map(\.0)))
        let targets = nodeTargets(positions) { id in nodeAnimations[id]?.target ?? store.node(id)?.position }
        var started = false
        for id in store.nodeOrder(targets.keys) {
            guard let n = store.node(id), let p = targets[id] else { continue }
            if var running = nodeAnimations[id] {
                running.x.retarget(p.x)
                running.y.retarget(p.y)
                nodeAnimations[id] = running
                started = true
            } else if p != n.position {
                nodeAnimations[id] = NodeAnimation(
                    x: PropertyAnimation(from: n.position.x, to: p.x, animation: animation),
                    y: PropertyAnimation(from: n.position.y, to: p.y, animation: animation))
                if nodeAnimationOrigins[id] == nil { nodeAnimationOrigins[id] = n.position }
                started = true
            }
        }
        return started
    }

    /// Final positions of `positions` applied in order like `moveNode`: each target is
    /// snapped, and the node's descendants move by its delta. `base` gives a node's
    /// position before this call.
    private func nodeTargets(
        _ positions: [(String, Point)], base: (String) -> Point?
    ) -> [String: Point] {
        var result: [String: Point] = [:]
        func current(_ id: String) -> Point? { result[id] ?? base(id) }
        for (id, p) in positions {
            guard let from = current(id) else { continue }
            let target = store.snapping.snapped(p)
            let delta = target - from
            result[id] = target
            if delta == .zero { continue }
            for d in store.descendantIDs(of: id) {
                if let q = current(d) { result[d] = q + delta }
            }
        }
        return result
    }

    /// Stops the animations of `ids` and of their descendants (a node moved at once takes
    /// its subtree along). What they moved so far is recorded by the current operation, so
    /// its undo returns to where they were before the animation.
    func stopNodeAnimations(_ ids: some Sequence<String>) {
        guard !nodeAnimationOrigins.isEmpty || !nodeAnimations.isEmpty else { return }
        let idSet = Set(ids)
        guard !idSet.isEmpty else { return }
        let affected = Set(nodeAnimationOrigins.keys).union(nodeAnimations.keys).filter { id in
            idSet.contains(id) || store.hasAncestor(id, in: idSet)
        }
        guard !affected.isEmpty else { return }
        var origins: [String: Point] = [:]
        for id in affected {
            nodeAnimations[id] = nil
            if let o = nodeAnimationOrigins.removeValue(forKey: id) { origins[id] = o }
        }
        store.recordUnrecordedMoves(from: origins)
    }

    // MARK: Time

    /// Advances every animation by `dt` seconds (viewport and node animations by at most
    /// 1/30 s per call, the dash phase of animated edges by the whole `dt`). Returns
    /// `isAnimating` after the step. Throws for a negative or non-finite `dt`.
    @discardableResult
    public func tick(_ dt: Double) throws(FlowError) -> Bool {
        guard dt.isFinite, dt >= 0 else {
            throw .invalidValue("tick", "dt must be a finite number that is not negative")
        }
        let step = min(dt, PropertyAnimation.maximumSpringStep)
        tickViewport(step)
        if !nodeAnimations.isEmpty || !nodeAnimationOrigins.isEmpty { tickNodes(step) }
        if store.hasAnimatedEdges {
            let period = store.configuration.edgeStyle.animatedDashPattern.reduce(0, +)
            var phase = edgeDashPhase + dt * 30
            if period > 0, period.isFinite { phase = phase.truncatingRemainder(dividingBy: period) }
            edgeDashPhase = phase
        }
        return isAnimating
    }

    private func tickViewport(_ dt: Double) {
        guard viewportAnimation.isRunning else { return }
        let store = store
        var a = viewportAnimation
        if var x = a.x {
            x.tick(dt)
            store.viewport.offset.x = x.current
            a.x = x.settled ? nil : x
        }
        if var y = a.y {
            y.tick(dt)
            store.viewport.offset.y = y.current
            a.y = y.settled ? nil : y
        }
        if var z = a.zoom {
            z.tick(dt)
            let zoom = store.configuration.clampZoom(z.current)
            store.viewport.zoom = zoom
            if let link = a.link {
                store.viewport.offset = link.anchor - (link.anchor - link.initialOffset) * (zoom / link.initialZoom)
            }
            if z.settled {
                if let landing = a.link?.landing { store.viewport.offset = landing }
                a.link = nil
                a.zoom = nil
            } else {
                a.zoom = z
            }
        }
        viewportAnimation = a
    }

    /// One frame of the node animations (no events, no undo); when the last one settles,
    /// the whole animation becomes one "Move" step with its `position` events.
    private func tickNodes(_ dt: Double) {
        let store = store
        store.perform("Move") { () -> Void in
            for id in Array(nodeAnimations.keys) where store.node(id) == nil { nodeAnimations[id] = nil }
            let mark = store.journalMark
            for id in store.nodeOrder(nodeAnimations.keys) {
                guard var a = nodeAnimations[id], store.node(id) != nil else { continue }
                a.x.tick(dt)
                a.y.tick(dt)
                nodeAnimations[id] = a.settled ? nil : a
                _ = store.moveUnrecorded(id, to: Point(a.x.current, a.y.current), event: .none)
            }
            store.discardHistory(since: mark)
            guard nodeAnimations.isEmpty else { return }
            let origins = nodeAnimationOrigins
            nodeAnimationOrigins = [:]
            var changes: [(start: Node, final: Node, event: NodeEvent)] = []
            for id in store.nodeOrder(origins.keys) {
                guard let current = store.node(id), let o = origins[id] else { continue }
                var start = current
                start.position = o
                changes.append((start, current, .position))
            }
            store.journalNetChange(changes)
        }
    }
}
