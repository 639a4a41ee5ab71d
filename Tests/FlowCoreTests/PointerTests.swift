import TestSupport
import Testing
@testable import FlowCore

/// The pointer state machine (store-semantics §11 with D3, D16; lua-api §7, §14).
@Suite("Pointer input") struct PointerTests {
    /// Viewport offset (10, 20), zoom 2. a (0,0,100,50), b (200,0,100,50), c (0,300,100,50);
    /// a straight edge e from a's centre (50,25) to b's centre (250,25).
    func store(_ configure: (inout FlowConfiguration) -> Void = { _ in }) throws -> Store {
        var cfg = FlowConfiguration()
        configure(&cfg)
        let s = Store(configuration: cfg)
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.addNode(node("b", 200, 0, 100, 50))
        try s.addNode(node("c", 0, 300, 100, 50))
        var e = edge("e", "a", "b")
        e.pathType = .straight
        try s.addEdge(e)
        try s.setViewport(Viewport(offset: Point(10, 20), zoom: 2))
        return s
    }

    /// The screen point of canvas point (x, y) in `store()`.
    func scr(_ x: Double, _ y: Double) -> Point { Point(x * 2 + 10, y * 2 + 20) }

    func drag(_ s: Store, from a: Point, to b: Point, modifiers: PointerModifiers = []) throws {
        try s.interaction.pointerDown(at: a, modifiers: modifiers)
        try s.interaction.pointerMove(to: Point((a.x + b.x) / 2, (a.y + b.y) / 2))
        try s.interaction.pointerMove(to: b)
        try s.interaction.pointerUp(at: b)
    }

    // MARK: Taps

    @Test func tapSelectsAndCommandTapToggles() throws {
        let s = try store()
        let log = EventLog(s)
        #expect(try s.interaction.tap(at: scr(50, 25)))
        #expect(s.selectedNodeIDs == ["a"] && s.focusedTarget == .node("a"))
        #expect(try s.interaction.tap(at: scr(250, 25), modifiers: .command))
        #expect(s.selectedNodeIDs == ["a", "b"])
        try s.interaction.tap(at: scr(50, 25), modifiers: .command)
        #expect(s.selectedNodeIDs == ["b"])
        #expect(log.take() == ["N[select(a,true)]", "N[select(b,true)]", "N[select(a,false)]"])
        try s.interaction.tap(at: scr(150, 27))  // on the edge, between the nodes
        #expect(s.selectedNodeIDs.isEmpty && s.selectedEdgeIDs == ["e"])
        #expect(log.take() == ["N[select(b,false)]", "E[select(e,true)]"])
        try s.interaction.tap(at: scr(500, 500), modifiers: .command)  // toggle on canvas: nothing
        #expect(s.selectedEdgeIDs == ["e"])
        #expect(try s.interaction.tap(at: scr(500, 500)))
        #expect(s.selectedEdgeIDs.isEmpty && s.focusedTarget == nil)
        try s.interaction.advanceClock(by: 1)  // not a double tap
        #expect(try s.interaction.tap(at: scr(500, 500)) == false)
        #expect(!s.canUndo || s.undoActionName != "Move")
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func lessThanThreePointsIsATap() throws {
        let s = try store()
        try s.interaction.pointerDown(at: scr(50, 25))
        #expect(s.interaction.pointerGesture == .pressed)
        #expect(try s.interaction.pointerMove(to: scr(50, 25) + Point(2, 2)) == false)
        #expect(try s.interaction.pointerUp(at: scr(50, 25) + Point(2.9, 0)))
        #expect(s.selectedNodeIDs == ["a"] && s.node("a")?.position == .zero)
        #expect(s.interaction.pointerGesture == nil)
        // Exactly 3 points is a drag: the node moves by 1.5 canvas units.
        try s.interaction.pointerDown(at: scr(50, 25))
        try s.interaction.pointerUp(at: scr(50, 25) + Point(3, 0))
        #expect(s.node("a")?.position == Point(1.5, 0))
    }

    @Test func doubleTapsWithTheVirtualClock() throws {
        let s = try store { $0.selectionEnabled = false }
        var nodes: [String] = [], edges: [String] = [], canvas: [Point] = []
        s.interaction.onNodeDoubleTap = { nodes.append($0) }
        s.interaction.onEdgeDoubleTap = { edges.append($0) }
        s.interaction.onCanvasDoubleTap = { canvas.append($0) }
        try s.interaction.tap(at: scr(50, 25))
        try s.interaction.advanceClock(by: 0.29)
        #expect(try s.interaction.tap(at: scr(60, 30)))
        #expect(nodes == ["a"])
        #expect(s.selectedNodeIDs.isEmpty)  // selection disabled, double taps still fire
        try s.interaction.tap(at: scr(50, 25))
        try s.interaction.advanceClock(by: 0.3)
        #expect(try s.interaction.tap(at: scr(50, 25)) == false)  // 0.3 s is too late (strict)
        #expect(nodes == ["a"])
        // That late tap started a new sequence: a quick one now completes it.
        try s.interaction.tap(at: scr(50, 25))
        #expect(nodes == ["a", "a"])
        // A third tap starts a new sequence.
        try s.interaction.tap(at: scr(50, 25))
        #expect(nodes == ["a", "a"])
        try s.interaction.tap(at: scr(50, 25))
        #expect(nodes == ["a", "a", "a"])
        // Three steps of 0.1 s are not less than 0.3 s.
        try s.interaction.tap(at: scr(50, 25))
        for _ in 0..<3 { try s.interaction.advanceClock(by: 0.1) }
        try s.interaction.tap(at: scr(50, 25))
        #expect(nodes == ["a", "a", "a"])
        #expect(abs(s.interaction.clock - 0.89) < 1e-12)
        // Another target, or a command tap in between, breaks the sequence.
        try s.interaction.tap(at: scr(250, 25))
        try s.interaction.tap(at: scr(50, 25))
        try s.interaction.tap(at: scr(50, 25), modifiers: .command)
        try s.interaction.tap(at: scr(50, 25))
        #expect(nodes == ["a", "a", "a"])
        // Edges and the canvas (the canvas point of the second tap).
        try s.interaction.tap(at: scr(150, 25))
        try s.interaction.tap(at: scr(160, 25))
        #expect(edges == ["e"])
        try s.interaction.tap(at: scr(500, 500))
        try s.interaction.advanceClock(by: 0.1)
        try s.interaction.tap(at: scr(600, 400))
        #expect(canvas == [Point(600, 400)])
        #expect(throws: FlowError.self) { try s.interaction.advanceClock(by: -1) }
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func doubleTapCallbacksRunAfterTheTapsEventsAndMayUseTheStore() throws {
        let s = try store()
        let log = EventLog(s)
        s.interaction.onNodeDoubleTap = { id in
            try? s.removeNode(id)
            _ = try? s.undo()
        }
        try s.interaction.tap(at: scr(50, 25))
        try s.interaction.tap(at: scr(50, 25))
        #expect(log.take() == ["N[select(a,true)]", "N[remove(a)]", "E[remove(e)]", "N[add(a), select(a,true)]", "E[add(e)]"])
    }

    @Test func selectionCallsOfPointerInput() throws {
        let s = try store()
        let log = EventLog(s)
        #expect(try s.selectNodeFromPointer("a", mode: .replace))
        #expect(try s.selectNodeFromPointer("b", mode: .toggle))
        #expect(try s.selectEdgeFromPointer("e", mode: .toggle))
        #expect(s.selectedNodeIDs == ["a", "b"] && s.selectedEdgeIDs == ["e"] && s.focusedTarget == .edge("e"))
        #expect(try s.selectEdgeFromPointer("e", mode: .toggle))
        #expect(s.selectedEdgeIDs.isEmpty && s.focusedTarget == nil)
        #expect(log.take() == ["N[select(a,true)]", "N[select(b,true)]", "E[select(e,true)]", "E[select(e,false)]"])
        // Pressing a selected node keeps the selection and focuses it; toggle does nothing.
        #expect(try s.interaction.beginNodeDragFromPointer("b", mode: .toggle) == false)
        #expect(!s.interaction.isNodeDragging)
        #expect(try s.interaction.beginNodeDragFromPointer("b", mode: .replace))
        #expect(s.selectedNodeIDs == ["a", "b"] && s.focusedTarget == .node("b"))
        #expect(s.interaction.draggedNodeIDs == ["a", "b"])
        s.interaction.cancelNodeDrag()
        try s.updateNode("c") { $0.isDraggable = false }
        #expect(try s.interaction.beginNodeDragFromPointer("c", mode: .replace) == false)
        #expect(s.selectedNodeIDs == ["c"])  // still selected
        #expect(s.selectCanvasFromPointer(mode: .toggle) == false)
        #expect(s.selectCanvasFromPointer(mode: .replace))
        #expect(s.selectedNodeIDs.isEmpty && s.focusedTarget == nil)
        #expect(s.selectCanvasFromPointer(mode: .replace) == false)
        #expect(throws: FlowError.self) { try s.selectNodeFromPointer("zz", mode: .replace) }
        #expect(throws: FlowError.self) { try s.interaction.beginNodeDragFromPointer("zz", mode: .toggle) }
    }

    // MARK: Dragging nodes

    @Test func draggingANodeIsOneStep() throws {
        let s = try store()
        try s.selectNode("c")
        let before = StoreState(s)
        let count = s.log.undoLog.count
        let log = EventLog(s)
        try s.interaction.pointerDown(at: scr(50, 25))
        try s.interaction.pointerMove(to: scr(50, 25) + Point(40, 20))
        #expect(s.interaction.pointerGesture == .movingNodes)
        #expect(log.take() == ["N[select(a,true), select(c,false), position(a (20, 10))]"])
        try s.interaction.pointerMove(to: scr(50, 25) + Point(100, 0))
        #expect(try s.interaction.pointerUp(at: scr(50, 25) + Point(100, 60)))
        #expect(s.node("a")?.position == Point(50, 30))
        #expect(s.log.undoLog.count == count + 1 && s.undoActionName == "Move")
        try s.undo()
        #expect(s.node("a")?.position == .zero)
        #expect(StoreState(s).nodes.map(\.position) == before.nodes.map(\.position))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func draggingASelectedNodeMovesTheSelectionAndDescendants() throws {
        let s = try store { $0.snapToGrid = true; $0.gridSize = 10 }
        try s.addNode(node("g", 500, 500, 200, 200, container: true))
        try s.addNode(node("k", 510, 510, 50, 20, parent: "g"))
        try s.addNode(node("box", 0, 600, 800, 400, container: true))
        try s.selectNode("a")
        try s.selectNode("g", exclusive: false)
        let count = s.log.undoLog.count
        try drag(s, from: scr(20, 25), to: scr(20, 25) + Point(33, 151))  // 16.5, 75.5 canvas
        #expect(s.node("a")?.position == Point(20, 80))
        #expect(s.node("g")?.position == Point(520, 580))
        #expect(s.node("k")?.position == Point(530, 590))
        #expect(s.selectedNodeIDs == ["a", "g"])
        #expect(s.node("g")?.parentID == "box" && s.node("a")?.parentID == nil)  // g's centre (620, 680)
        #expect(s.log.undoLog.count == count + 1)
        try s.undo()
        #expect(s.node("g")?.position == Point(500, 500) && s.node("g")?.parentID == nil)
        #expect(s.node("k")?.position == Point(510, 510))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func pointerCancelRestoresADragAndRecordsNothing() throws {
        let s = try store()
        let count = s.log.undoLog.count
        try s.interaction.pointerDown(at: scr(50, 25))
        try s.interaction.pointerMove(to: scr(80, 25))
        let log = EventLog(s)
        #expect(s.interaction.pointerCancel())
        #expect(log.take() == ["N[position(a (0, 0))]"])
        #expect(s.node("a")?.position == .zero && s.log.undoLog.count == count)
        #expect(s.interaction.pointerGesture == nil && !s.interaction.isNodeDragging)
        #expect(try s.interaction.pointerUp(at: scr(80, 25)) == false)  // the pointer is up
        #expect(!s.interaction.pointerCancel())
    }

    @Test func nonDraggableAndCommandDrags() throws {
        let s = try store()
        try s.updateNode("a") { $0.isDraggable = false }
        try drag(s, from: scr(50, 25), to: scr(90, 45))
        #expect(s.selectedNodeIDs == ["a"] && s.node("a")?.position == .zero)
        try s.selectNode("c")
        let state = StoreState(s), viewport = s.viewport
        try s.interaction.pointerDown(at: scr(250, 25), modifiers: .command)
        try s.interaction.pointerMove(to: scr(290, 45))
        #expect(s.interaction.pointerGesture == .ignored)
        try s.interaction.pointerUp(at: scr(290, 45))
        #expect(StoreState(s) == state && s.viewport == viewport)
    }

    // MARK: Canvas drags

    @Test func draggingEmptyCanvasPans() throws {
        let s = try store()
        let state = StoreState(s)
        try drag(s, from: scr(500, 500), to: scr(500, 500) + Point(30, -12))
        #expect(s.viewport.offset == Point(40, 8))
        try drag(s, from: Point(900, 900), to: Point(910, 900), modifiers: .command)
        #expect(s.viewport.offset == Point(50, 8))
        // Over an edge counts as empty canvas for drags.
        try drag(s, from: s.canvasToScreen(Point(150, 25)), to: s.canvasToScreen(Point(150, 25)) + Point(0, 10))
        #expect(s.viewport.offset == Point(50, 18))
        #expect(StoreState(s) == state)
        // The pan covers the whole way from the press, also what moved before it was a drag.
        try s.interaction.pointerDown(at: Point(900, 900))
        try s.interaction.pointerMove(to: Point(902, 900))
        try s.interaction.pointerMove(to: Point(910, 900))
        try s.interaction.pointerUp(at: Point(910, 900))
        #expect(s.viewport.offset == Point(60, 18))
        try s.pan(by: Point(-10, 0))
        // pointerCancel keeps the pan made so far.
        try s.interaction.pointerDown(at: Point(900, 900))
        try s.interaction.pointerMove(to: Point(880, 900))
        #expect(s.interaction.pointerGesture == .panning)
        s.interaction.pointerCancel()
        #expect(s.viewport.offset == Point(30, 18))
        s.configuration.panEnabled = false
        try drag(s, from: Point(900, 900), to: Point(800, 800))
        #expect(s.viewport.offset == Point(30, 18))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func shiftDragSelectsByRectangle() throws {
        let s = try store()
        try s.selectNode("c")
        let log = EventLog(s)
        try s.interaction.pointerDown(at: scr(-10, -10), modifiers: .shift)
        try s.interaction.pointerMove(to: scr(60, 10))
        #expect(s.interaction.pointerGesture == .selectingRect && s.interaction.activeInteraction == .selectingRect)
        #expect(s.interaction.selectionRect == Rect(-10, -10, 70, 20))
        #expect(s.selectedNodeIDs == ["a"])  // live
        #expect(log.take() == ["N[select(a,true), select(c,false)]"])
        try s.interaction.pointerMove(to: scr(210, 30))
        #expect(s.selectedNodeIDs == ["a", "b"] && s.selectedEdgeIDs == ["e"])
        try s.interaction.pointerUp(at: scr(210, 30))
        #expect(s.interaction.selectionRect == nil && s.interaction.activeInteraction == nil)
        #expect(s.selectedNodeIDs == ["a", "b"])
        #expect(s.viewport.offset == Point(10, 20))
        // pointerCancel keeps the selection made so far.
        try s.interaction.pointerDown(at: scr(-10, 280), modifiers: .shift)
        try s.interaction.pointerMove(to: scr(20, 320))
        s.interaction.pointerCancel()
        #expect(s.selectedNodeIDs == ["c"] && s.interaction.selectionRect == nil)
        // shift+drag starting on a node drags it.
        try drag(s, from: scr(20, 325), to: scr(30, 325), modifiers: .shift)  // away from its handles
        #expect(s.node("c")?.position == Point(10, 300))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func shiftDragPansWhenSelectionByRectangleIsOff() throws {
        for off in [\FlowConfiguration.selectionEnabled, \FlowConfiguration.multiSelectionEnabled] {
            let s = try store { $0[keyPath: off] = false }
            try drag(s, from: scr(-10, -10), to: scr(60, 10), modifiers: .shift)
            #expect(s.selectedNodeIDs.isEmpty)
            #expect(s.viewport.offset == Point(150, 60))
        }
    }

    @Test func selectionDisabledLeavesProgrammaticSelection() throws {
        let s = try store { $0.selectionEnabled = false }
        try s.interaction.tap(at: scr(50, 25))
        #expect(s.selectedNodeIDs.isEmpty)
        try s.selectNode("b")  // D3: programmatic calls still work
        try s.interaction.tap(at: scr(500, 500))
        #expect(s.selectedNodeIDs == ["b"])
        try drag(s, from: scr(50, 25), to: scr(60, 25))  // moves without selecting
        #expect(s.node("a")?.position == Point(10, 0) && s.selectedNodeIDs == ["b"])  // 20 screen points
    }

    // MARK: Connections

    /// a (0,0,100,50) has its source handle at (50,50); d (0,200,100,50) its target at (50,200).
    func connectionStore() throws -> Store {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.addNode(node("d", 0, 200, 100, 50))
        return s
    }

    @Test func draggingFromAHandleConnects() throws {
        let s = try connectionStore()
        var proposals: [ConnectionProposal] = []
        var rejected = 0
        s.onConnect = { proposals.append($0) }
        s.onConnectionRejected = { _ in rejected += 1 }
        try s.interaction.pointerDown(at: Point(50, 55))
        try s.interaction.pointerMove(to: Point(50, 120))
        #expect(s.interaction.pointerGesture == .connecting)
        #expect(s.interaction.connectionDraft?.currentPoint == Point(50, 120) && s.interaction.connectionDraft?.targetNodeID == nil)
        #expect(s.selectedNodeIDs == ["a"])
        try s.interaction.pointerMove(to: Point(60, 170))
        #expect(s.interaction.connectionDraft?.targetNodeID == "d" && s.interaction.connectionDraft?.targetHandleID == "target")
        try s.interaction.pointerUp(at: Point(55, 190))
        #expect(proposals == [ConnectionProposal(sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "d", targetHandleID: "target")])
        #expect(s.interaction.connectionDraft == nil && s.interaction.activeInteraction == nil)
        // From a target handle the proposal is turned around.
        try drag(s, from: Point(50, 195), to: Point(50, 60))
        #expect(proposals.last == ConnectionProposal(sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "d", targetHandleID: "target"))
        #expect(proposals.count == 2 && rejected == 0 && s.edgeCount == 0)
    }

    @Test func releasingOverNothingCancelsWithoutCallbacks() throws {
        let s = try connectionStore()
        var calls = 0
        s.onConnect = { _ in calls += 1 }
        s.onConnectionRejected = { _ in calls += 1 }
        try drag(s, from: Point(50, 50), to: Point(400, 400))
        #expect(calls == 0 && s.interaction.connectionDraft == nil && s.interaction.pointerGesture == nil)
        try s.interaction.pointerDown(at: Point(50, 50))
        try s.interaction.pointerMove(to: Point(50, 190))
        #expect(s.interaction.pointerCancel())
        #expect(calls == 0 && s.interaction.connectionDraft == nil)
    }

    @Test func withoutAHandlerTheStoreAddsTheEdgeAsOneStep() throws {
        let s = try connectionStore()
        s.configuration.defaultEdgePathType = .smoothStep
        let log = EventLog(s)
        try drag(s, from: Point(50, 50), to: Point(50, 199))
        #expect(s.edges.map(\.id) == ["e1"] && s.edges.first?.pathType == .smoothStep)
        #expect(s.undoActionName == "Add Edge")
        #expect(log.take() == ["N[select(a,true)]", "E[add(e1)]"])
        try s.undo()
        #expect(s.edgeCount == 0)
        #expect(s.checkInvariants().isEmpty)
    }

    // MARK: Hover, scroll, magnify

    @Test func hoverScrollAndMagnify() throws {
        let s = try store()
        #expect(try s.interaction.pointerMove(to: scr(50, 25)))  // no press: hover only
        #expect(s.hoveredNodeID == "a" && s.node("a")?.isHovered == true)
        #expect(s.interaction.pointerGesture == nil && s.selectedNodeIDs.isEmpty)
        #expect(try s.interaction.pointerMove(to: scr(60, 25)) == false)
        #expect(try s.hover(at: scr(250, 25)))
        #expect(s.hoveredNodeID == "b")
        #expect(try s.hover(at: scr(500, 500)))
        #expect(s.hoveredNodeID == nil)
        try s.hover(at: scr(50, 25))
        #expect(s.hoverExit() && s.hoveredNodeID == nil)
        #expect(try s.interaction.pointerUp(at: .zero) == false)

        #expect(try s.scroll(by: Point(3.5, -2)))
        #expect(s.viewport.offset == Point(13.5, 18))
        #expect(try s.magnify(by: 2, at: Point(100, 50)))
        #expect(s.viewport == Viewport(offset: Point(100 - (100 - 13.5) * 2, 50 - (50 - 18) * 2), zoom: 4))
        s.configuration.panEnabled = false
        s.configuration.zoomEnabled = false
        #expect(try s.scroll(by: Point(1, 1)) == false)
        #expect(try s.magnify(by: 0.5, at: .zero) == false)
        #expect(throws: FlowError.self) { try s.interaction.pointerDown(at: Point(.nan, 0)) }
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func removingTheDraggedNodeMidGesture() throws {
        let s = try store()
        try s.interaction.pointerDown(at: scr(50, 25))
        try s.interaction.pointerMove(to: scr(80, 25))
        try s.removeNode("a")
        #expect(try s.interaction.pointerMove(to: scr(90, 25)) == false)
        #expect(try s.interaction.pointerUp(at: scr(90, 25)))
        #expect(s.checkInvariants().isEmpty)
        try s.undo()
        #expect(s.node("a")?.position == .zero)
    }
}

/// Random interleavings of gestures, animations, edits and undo/redo keep every invariant,
/// and undoing everything restores the document exactly (and redoing everything the end).
@Suite("Property: random interaction sequences") struct InteractionPropertyTests {
    static func randomStep(_ s: Store, _ rng: inout SplitMix64) {
        func pick() -> String? { s.nodes.randomElement(using: &rng)?.id }
        func coord() -> Double { Double(Int.random(in: -40...400, using: &rng)) }
        func screen() -> Point { Point(coord() * 2, coord() * 2) }
        let mods: [PointerModifiers] = [[], [], [], .command, .shift]
        switch Int.random(in: 0..<26, using: &rng) {
        case 22: if let id = pick() { _ = try? s.ungroupNode(id) }
        case 23: _ = s.deleteSelection()
        case 24: if let id = pick() { _ = try? s.interaction.setNodePositions([(id, Point(coord(), coord()))]) }
        case 25:
            // A transaction that fails after a few steps changes nothing.
            struct Abort: Error {}
            let before = DocumentState(s)
            var inner = rng
            _ = try? s.transaction { () throws(Abort) in
                for _ in 0..<3 { randomStep(s, &inner) }
                throw Abort()
            }
            rng = inner
            #expect(InteractionPropertyTests.differences(DocumentState(s), before).isEmpty)
        case 0:
            let id = s.nextNodeID()
            let container = Int.random(in: 0..<3, using: &rng) == 0
            _ = try? s.addNode(node(id, coord(), coord(), container ? 200 : 60, container ? 150 : 30, container: container))
        case 1: if let id = pick() { _ = try? s.removeNode(id) }
        case 2: if let id = pick() { _ = try? s.moveNode(id, to: Point(coord(), coord())) }
        case 3: if let id = pick() { _ = try? s.updateNode(id) { $0.data = .string("label \(Int.random(in: 0..<5, using: &rng))") } }
        case 4: if let id = pick() { _ = try? s.setParent(id, to: pick()) }
        case 5:
            let ids = (0..<Int.random(in: 1...3, using: &rng)).compactMap { _ in pick() }
            let animation: FlowAnimation = Int.random(in: 0..<2, using: &rng) == 0 ? .default : .easeInOut(duration: 0.2)
            _ = try? s.interaction.setNodePositions(ids.map { ($0, Point(coord(), coord())) }, animation: animation)
        case 6, 7: for _ in 0..<Int.random(in: 1...20, using: &rng) { _ = try? s.interaction.tick(1.0 / 60) }
        case 8: try? s.interaction.pointerDown(at: screen(), modifiers: mods.randomElement(using: &rng)!)
        case 9, 10: _ = try? s.interaction.pointerMove(to: screen())
        case 11: _ = try? s.interaction.pointerUp(at: screen())
        case 12: _ = s.interaction.pointerCancel()
        case 13: _ = try? s.interaction.tap(at: screen(), modifiers: mods.randomElement(using: &rng)!)
        case 14: if let id = pick() { _ = try? s.interaction.beginNodeDrag(id) }
        case 15: _ = try? s.interaction.updateNodeDrag(translation: screen())
        case 16: _ = Int.random(in: 0..<2, using: &rng) == 0 ? s.interaction.endNodeDrag() : s.interaction.cancelNodeDrag()
        case 17: _ = try? s.undo()
        case 18: _ = try? s.redo()
        case 19: if let a = pick(), let b = pick() { _ = try? s.addEdge(edge(s.nextEdgeID(), a, b)) }
        case 20: _ = try? s.selectInRect(Rect(coord(), coord(), coord(), coord()))
        default: _ = try? s.interaction.advanceClock(by: 0.1)
        }
    }

    /// A short description of how two documents differ (empty when equal).
    static func differences(_ a: DocumentState, _ b: DocumentState) -> [String] {
        var out: [String] = []
        if a.nodes.map(\.id) != b.nodes.map(\.id) { out.append("node ids \(a.nodes.map(\.id)) vs \(b.nodes.map(\.id))") }
        for (x, y) in zip(a.nodes, b.nodes) where x != y {
            out.append("\(x.id): \(x.position) \(x.parentID ?? "-") \(x.data) vs \(y.position) \(y.parentID ?? "-") \(y.data)")
        }
        if a.edges != b.edges { out.append("edges \(a.edges.map(\.id)) vs \(b.edges.map(\.id))") }
        return out
    }

    @Test(arguments: 0..<60) func undoAllRedoAllAreExact(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var cfg = FlowConfiguration()
        cfg.snapToGrid = seed % 2 == 0
        cfg.gridSize = 10
        let s = Store(configuration: cfg)
        s.onConnect = { p in
            _ = try? s.addEdge(FlowEdge(id: s.nextEdgeID(), sourceNodeID: p.sourceNodeID, sourceHandleID: p.sourceHandleID,
                                        targetNodeID: p.targetNodeID, targetHandleID: p.targetHandleID))
        }
        for i in 0..<6 { try s.addNode(node("s\(i)", Double(i) * 120, Double(i % 2) * 100, 80, 40, container: i == 0)) }
        try s.setViewport(Viewport(offset: Point(5, 7), zoom: 2))
        s.clearHistory()
        let initial = DocumentState(s)
        for _ in 0..<200 {
            Self.randomStep(s, &rng)
            #expect(s.checkInvariants().isEmpty)
        }
        s.interaction.pointerCancel()
        s.interaction.cancelNodeDrag()
        while try s.interaction.tick(1.0 / 60) {}
        while try s.redo() {}  // steps the sequence itself undid come back first
        let final = DocumentState(s)
        while try s.undo() {}
        #expect(Self.differences(DocumentState(s), initial).isEmpty)
        while try s.redo() {}
        #expect(Self.differences(DocumentState(s), final).isEmpty)
        #expect(s.checkInvariants().isEmpty)
    }
}
