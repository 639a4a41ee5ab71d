import Testing
@testable import FlowCore

/// The store's animation API (store-semantics §4.10, §14, D14; lua-api §5, §14).
@Suite("Store animations") struct StoreAnimationTests {
    let frame = 1.0 / 120

    /// Ticks until nothing animates; returns the number of ticks (nil past `limit`).
    func run(_ s: Store, dt: Double = 1.0 / 120, limit: Int = 10_000) throws -> Int? {
        for n in 1...limit where try !s.interaction.tick(dt) { return n }
        return nil
    }

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 5e-5) -> Bool { abs(a - b) <= tolerance }

    @Test func animatedSetViewportLandsExactly() throws {
        let s = Store()
        try s.addNode(node("a"))
        let log = EventLog(s)
        let count = s.log.undoLog.count
        #expect(try s.interaction.setViewport(Viewport(offset: Point(100, 50), zoom: 2), animation: .easeInOut(duration: 0.3)))
        #expect(s.interaction.isAnimating)
        #expect(s.viewport == Viewport())  // nothing moves before the first tick
        #expect(try run(s) == 36)
        #expect(s.viewport == Viewport(offset: Point(100, 50), zoom: 2))
        #expect(!s.interaction.isAnimating)
        #expect(log.take().isEmpty && s.log.undoLog.count == count)
        // The target zoom is clamped; the flags do not gate it.
        s.configuration.panEnabled = false
        s.configuration.zoomEnabled = false
        try s.interaction.setViewport(Viewport(offset: .zero, zoom: 100), animation: .default)
        _ = try run(s)
        #expect(s.viewport == Viewport(offset: .zero, zoom: 4))
        #expect(try s.interaction.setViewport(Viewport(offset: .zero, zoom: 4), animation: .default) == false)
        #expect(throws: FlowError.self) { try s.interaction.setViewport(Viewport(offset: .zero, zoom: 0), animation: .default) }
        #expect(throws: FlowError.self) {
            try s.interaction.setViewport(Viewport(offset: .zero, zoom: 1), animation: .easeInOut(duration: .nan))
        }
    }

    @Test func animatedZoomKeepsTheAnchorAndEndsLikeTheImmediateZoom() throws {
        let s = Store()
        #expect(try s.interaction.zoom(by: 2, anchor: Point(100, 50), animation: .default))
        #expect(try s.interaction.tick(frame))
        let mid = s.screenToCanvas(Point(100, 50))
        #expect(close(mid.x, 100, 1e-9) && close(mid.y, 50, 1e-9))
        #expect(try run(s).map { $0 + 1 } == 72)  // the §14 quirk: 72 ticks for 1 → 2
        #expect(s.viewport == Viewport(offset: Point(-100, -50), zoom: 2))
        s.configuration.zoomEnabled = false
        #expect(try s.interaction.zoom(by: 2, anchor: .zero, animation: .default) == false)
        #expect(!s.interaction.isAnimating)
        #expect(throws: FlowError.self) { try s.interaction.zoom(by: -1, anchor: .zero, animation: .default) }
    }

    @Test func animatedZoomTargetsFromTheCurrentZoom() throws {
        let s = Store()
        try s.interaction.zoom(by: 2, anchor: .zero, animation: .easeInOut(duration: 1))
        for _ in 0..<60 { try s.interaction.tick(frame) }
        let z = s.viewport.zoom
        try s.interaction.zoom(by: 2, anchor: .zero, animation: .easeInOut(duration: 1))
        _ = try run(s)
        #expect(close(s.viewport.zoom, z * 2, 1e-12))
    }

    @Test func animatedFitLandsExactlyOnTheTarget() throws {
        func store() throws -> Store {
            let s = Store()
            try s.addNode(node("a", 0, 0, 100, 50))
            try s.addNode(node("b", 500, 400, 100, 50))
            try s.setViewport(Viewport(offset: Point(13, -7), zoom: 1.7))
            return s
        }
        let immediate = try store()
        try immediate.fitToContent(canvasSize: Size(300, 200))
        let s = try store()
        #expect(try s.interaction.fitToContent(canvasSize: Size(300, 200), animation: .default))
        _ = try run(s)
        #expect(s.viewport == immediate.viewport)
        #expect(s.viewport.zoom == 200.0 / 550)

        // Same zoom: an animated setViewport to the target.
        let t = Store()
        try t.addNode(node("a", 0, 0, 100, 50))
        try t.addNode(node("b", 200, 100, 100, 50))
        #expect(try t.interaction.fitToContent(canvasSize: Size(800, 600), padding: 50, animation: .smooth))
        _ = try run(t)
        #expect(t.viewport == Viewport(offset: Point(250, 225), zoom: 1))
        #expect(try Store().interaction.fitToContent(canvasSize: Size(800, 600), animation: .default) == false)
    }

    @Test func immediateCallsCancelViewportAnimations() throws {
        let s = Store()
        try s.interaction.zoom(by: 2, anchor: Point(100, 100), animation: .default)
        for _ in 0..<10 { try s.interaction.tick(frame) }
        // A pan stops the offset animations and the anchor link; the zoom goes on alone.
        try s.pan(by: Point(5, 5))
        let offset = s.viewport.offset
        #expect(s.interaction.isAnimating)
        _ = try run(s)
        #expect(s.viewport.offset == offset && s.viewport.zoom == 2)
        try s.interaction.setViewport(Viewport(offset: Point(300, 0), zoom: 1), animation: .default)
        try s.interaction.tick(frame)
        try s.setViewport(Viewport())
        #expect(!s.interaction.isAnimating && s.viewport == Viewport())
        try s.interaction.setViewport(Viewport(offset: Point(300, 0), zoom: 1), animation: .default)
        try s.zoom(by: 1.5, anchor: .zero)
        #expect(!s.interaction.isAnimating)
    }

    @Test func immediateSetNodePositions() throws {
        var cfg = FlowConfiguration()
        cfg.snapToGrid = true
        cfg.gridSize = 10
        let s = Store(configuration: cfg)
        try s.addNode(node("g", 0, 0, 300, 300, container: true))
        try s.addNode(node("c", 13, 13, 50, 20, parent: "g"))
        try s.addNode(node("x", 500, 0))
        let before = StoreState(s)
        let log = EventLog(s)
        #expect(try s.interaction.setNodePositions([("x", Point(601, 4)), ("g", Point(104, 96))]))
        #expect(s.node("g")?.position == Point(100, 100))
        #expect(s.node("c")?.position == Point(113, 113))  // follows by the delta, not snapped
        #expect(s.node("x")?.position == Point(600, 0))
        #expect(log.take() == ["N[position(g (100, 100)), position(c (113, 113)), position(x (600, 0))]"])
        #expect(s.undoActionName == "Move")
        try s.undo()
        #expect(StoreState(s) == before)
        #expect(throws: FlowError.self) { try s.interaction.setNodePositions([("x", Point(0, 0)), ("zz", Point(1, 1))]) }
        #expect(StoreState(s) == before)
        #expect(try s.interaction.setNodePositions([("x", Point(499, 1))]) == false)  // snaps to where it is
    }

    @Test func settledNodeAnimationIsOneStepWithItsEvents() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 0, 200))
        let before = StoreState(s)
        let log = EventLog(s)
        let count = s.log.undoLog.count
        #expect(try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .default))
        #expect(s.interaction.animatingNodeIDs == ["a"])
        #expect(try s.interaction.tick(frame))
        #expect(close(s.node("a")!.position.x, 0.9063))
        #expect(s.hitTestNode(at: Point(150.5, 1))?.id == "a")  // the index follows the frames
        #expect(log.take().isEmpty && s.log.undoLog.count == count)
        #expect(try run(s).map { $0 + 1 } == 136)
        #expect(s.node("a")?.position == Point(100, 0))
        #expect(log.take() == ["N[position(a (100, 0))]"])
        #expect(s.log.undoLog.count == count + 1 && s.undoActionName == "Move")
        let after = StoreState(s)
        try s.undo()
        #expect(StoreState(s) == before)
        #expect(log.take() == ["N[position(a (0, 0))]"])
        try s.redo()
        #expect(StoreState(s) == after)
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func referenceNumbersThroughTheStore() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .spring(response: 0.55, dampingFraction: 0.5))
        var peak = 0.0, ticks = 0
        while try s.interaction.tick(frame) {
            ticks += 1
            peak = max(peak, s.node("a")!.position.x)
        }
        #expect(ticks + 1 == 149 && close(peak, 115.364, 5e-4))
        try s.interaction.setNodePositions([("a", Point(100, 100))], animation: .smooth)
        #expect(try run(s) == 125)
        try s.interaction.setNodePositions([("a", Point(100, 200))], animation: .easeInOut(duration: 1))
        for _ in 0..<60 { try s.interaction.tick(frame) }
        #expect(close(s.node("a")!.position.y, 150, 1e-9))

        // spring(0.5, 1) 1 → 2 with a single dt of 5 s (clamped to 1/30), then 60 more ticks.
        let v = Store()
        try v.interaction.setViewport(Viewport(offset: .zero, zoom: 2), animation: .smooth)
        try v.interaction.tick(5)
        #expect(close(v.viewport.zoom, 1.17546))
        #expect(close(v.interaction.viewportAnimation.zoom?.velocity ?? 0, 5.26379))
        #expect(try run(v) == 60)
        #expect(v.viewport.zoom == 2)
    }

    @Test func retargetingContinuesTheSameStep() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 0, 200))
        let count = s.log.undoLog.count
        try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .default)
        for _ in 0..<30 { try s.interaction.tick(frame) }
        try s.interaction.setNodePositions([("a", Point(200, 50)), ("b", Point(10, 200))], animation: .default)
        let log = EventLog(s)
        _ = try run(s)
        #expect(log.take() == ["N[position(a (200, 50)), position(b (10, 200))]"])
        #expect(s.log.undoLog.count == count + 1)
        try s.undo()
        #expect(s.node("a")?.position == .zero && s.node("b")?.position == Point(0, 200))
    }

    @Test func descendantsAnimateAlong() throws {
        let s = Store()
        try s.addNode(node("g", 0, 0, 300, 300, container: true))
        try s.addNode(node("c", 10, 10, 50, 20, parent: "g"))
        let before = StoreState(s)
        try s.interaction.setNodePositions([("g", Point(100, 0))], animation: .easeInOut(duration: 0.5))
        #expect(s.interaction.animatingNodeIDs == ["g", "c"])
        _ = try run(s)
        #expect(s.node("c")?.position == Point(110, 10))
        try s.undo()
        #expect(StoreState(s) == before)
    }

    @Test func movingOrRemovingAnAnimatedNodeStopsItAndUndoGoesBackToTheOrigin() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .default)
        for _ in 0..<20 { try s.interaction.tick(frame) }
        let log = EventLog(s)
        try s.moveNode("a", to: Point(500, 500))
        #expect(!s.interaction.isAnimating)
        #expect(log.take() == ["N[position(a (500, 500))]"])
        #expect(try s.interaction.tick(frame) == false)
        try s.undo()
        #expect(s.node("a")?.position == .zero)

        try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .default)
        for _ in 0..<20 { try s.interaction.tick(frame) }
        try s.removeNode("a")
        #expect(!s.interaction.isAnimating && s.interaction.nodeAnimationOrigins.isEmpty)
        try s.undo()
        #expect(s.node("a")?.position == .zero)
        #expect(s.checkInvariants().isEmpty)

        // A drag takes over: what the animation moved becomes its own step.
        try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .default)
        for _ in 0..<20 { try s.interaction.tick(frame) }
        let count = s.log.undoLog.count
        try s.interaction.beginNodeDrag("a")
        #expect(!s.interaction.isAnimating && s.log.undoLog.count == count + 1)
        try s.interaction.updateNodeDrag(translation: Point(0, 50))
        s.interaction.endNodeDrag()
        try s.undo()
        try s.undo()
        #expect(s.node("a")?.position == .zero)
    }

    @Test func editsDuringAnAnimationAndUndoStayExact() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 0, 200))
        let before = StoreState(s)
        try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .default)
        for _ in 0..<20 { try s.interaction.tick(frame) }
        try s.updateNode("a") { $0.data = .string("renamed") }  // its own step, data only
        _ = try run(s)
        try s.undo()  // the animation
        #expect(s.node("a")?.position == .zero && s.node("a")?.data == .string("renamed"))
        try s.undo()  // the rename leaves the position alone
        #expect(StoreState(s) == before)

        // Undo while an animation runs: the animation is dropped (the node goes back to
        // where it started, without events) and the previous step is undone.
        try s.redo()
        try s.redo()
        try s.moveNode("b", to: Point(50, 250))
        try s.interaction.setNodePositions([("a", Point(300, 0))], animation: .default)
        for _ in 0..<20 { try s.interaction.tick(frame) }
        let log = EventLog(s)
        try s.undo()
        #expect(!s.interaction.isAnimating)
        #expect(s.node("a")?.position == Point(100, 0) && s.node("b")?.position == Point(0, 200))
        #expect(log.take() == ["N[position(b (0, 200))]"])
        try s.redo()
        #expect(s.node("a")?.position == Point(100, 0) && s.node("b")?.position == Point(50, 250))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func longStepsAreClampedAndDashPhaseUsesRawTime() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        try s.addEdge(edge("e", "a", "b"))
        try s.interaction.setViewport(Viewport(offset: Point(90, 0), zoom: 1), animation: .easeInOut(duration: 0.3))
        #expect(try run(s, dt: 1) == 9)  // 1/30 s per tick at most
        try s.setEdgeAnimated("e", true)
        #expect(try s.interaction.tick(0.1) == false)  // animated edges alone do not count
        #expect(close(s.interaction.edgeDashPhase, 3, 1e-12))
        try s.interaction.tick(0.3)
        #expect(close(s.interaction.edgeDashPhase, 2, 1e-12))  // 12 wrapped by the pattern sum 10
        s.configuration.edgeStyle.animatedDashPattern = []
        try s.interaction.tick(1)
        #expect(close(s.interaction.edgeDashPhase, 32, 1e-12))
        #expect(throws: FlowError.self) { try s.interaction.tick(-1) }
        #expect(throws: FlowError.self) { try s.interaction.tick(.nan) }
    }

    @Test func resetEndsEverythingWithoutEvents() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        try s.addEdge(edge("e", "a", "b"))
        try s.setEdgeAnimated("e", true)
        try s.interaction.setNodePositions([("a", Point(100, 0))], animation: .default)
        try s.interaction.zoom(by: 2, anchor: .zero, animation: .default)
        try s.interaction.tick(frame)
        try s.interaction.beginNodeDrag("b")
        try s.interaction.pointerDown(at: Point(1000, 1000))
        let log = EventLog(s)
        s.interaction.resetInteractionState()
        #expect(!s.interaction.isAnimating && !s.interaction.isNodeDragging && s.interaction.pointerGesture == nil)
        #expect(s.interaction.edgeDashPhase == 0 && s.interaction.selectionRect == nil)
        #expect(log.take().isEmpty)
    }
}
