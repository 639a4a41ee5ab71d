import Testing
@testable import FlowCore

/// Node drag sessions and move/resize completion (store-semantics §4.6, §4.7; D6, D7, D10).
@Suite("Node drag") struct DragTests {
    /// Grid 10, zoom 2, a (3,3) and b (100,100) both selected: the §4.7 worked example.
    func workedExampleStore() throws -> Store {
        var cfg = FlowConfiguration()
        cfg.snapToGrid = true
        cfg.gridSize = 10
        let s = Store(configuration: cfg)
        try s.addNode(node("a", 3, 3))
        try s.addNode(node("b", 100, 100))
        try s.setViewport(Viewport(offset: .zero, zoom: 2))
        try s.selectNode("a")
        try s.selectNode("b", exclusive: false)
        return s
    }

    func steps(_ s: Store) -> Int { s.log.undoLog.count }

    @Test func workedExample() throws {
        let s = try workedExampleStore()
        let log = EventLog(s)
        let before = steps(s)
        #expect(try s.interaction.beginNodeDrag("a"))
        #expect(s.interaction.isNodeDragging)
        #expect(s.interaction.draggedNodeIDs == ["a", "b"])
        #expect(s.interaction.activeInteraction == .draggingNodes(["a", "b"]))
        #expect(try s.interaction.updateNodeDrag(translation: Point(31, -9)))
        #expect(s.node("a")?.position == Point(20, 0))
        #expect(s.node("a")?.position.y.sign == .plus)  // never -0
        #expect(s.node("b")?.position == Point(120, 100))
        #expect(log.take() == ["N[position(a (20, 0)), position(b (120, 100))]"])
        #expect(steps(s) == before)  // updates record nothing
        #expect(s.interaction.endNodeDrag())
        #expect(log.take().isEmpty)
        #expect(!s.interaction.isNodeDragging && s.interaction.activeInteraction == nil)
        #expect(steps(s) == before + 1)
        #expect(s.undoActionName == "Move")
        #expect(s.checkInvariants().isEmpty)

        // Undo restores the exact start positions (no re-snapping, D6); redo is exact too.
        #expect(try s.undo())
        #expect(s.node("a")?.position == Point(3, 3))
        #expect(s.node("b")?.position == Point(100, 100))
        #expect(log.take() == ["N[position(a (3, 3)), position(b (100, 100))]"])
        #expect(try s.redo())
        #expect(s.node("a")?.position == Point(20, 0))
        #expect(s.node("b")?.position == Point(120, 100))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func translationIsCumulativeAndEachUpdateIsOneBatch() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        let log = EventLog(s)
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(10, 0))
        try s.interaction.updateNodeDrag(translation: Point(25, 5))
        #expect(s.node("a")?.position == Point(25, 5))
        #expect(try s.interaction.updateNodeDrag(translation: Point(25, 5)) == false)  // nothing moved
        #expect(log.take() == ["N[position(a (10, 0))]", "N[position(a (25, 5))]"])
        #expect(s.interaction.endNodeDrag())
        try s.undo()
        #expect(s.node("a")?.position == .zero)
        #expect(!s.canUndo || s.undoActionName == "Add")
    }

    @Test func cancelRestoresStartPositionsAndRecordsNothing() throws {
        let s = try workedExampleStore()
        try s.addNode(node("c", 500, 500))
        try s.undo()  // leaves a redo step that a cancelled drag must keep
        let before = StoreState(s)
        let undoCount = steps(s), redoCount = s.log.redoLog.count
        let log = EventLog(s)
        try s.interaction.beginNodeDrag("b")
        try s.interaction.updateNodeDrag(translation: Point(40, 40))
        _ = log.take()
        #expect(s.interaction.cancelNodeDrag())
        #expect(log.take() == ["N[position(a (3, 3)), position(b (100, 100))]"])
        #expect(StoreState(s) == before)
        #expect(steps(s) == undoCount && s.log.redoLog.count == redoCount)
        #expect(!s.interaction.cancelNodeDrag())
        #expect(!s.interaction.endNodeDrag())
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func endWithoutMovementDoesNotReparent() throws {
        let s = Store()
        try s.addNode(node("g", 0, 0, 300, 300, container: true))
        try s.addNode(node("a", 10, 10, 50, 20))
        let count = steps(s)
        try s.interaction.beginNodeDrag("a")
        #expect(!s.interaction.endNodeDrag())  // D10
        #expect(s.node("a")?.parentID == nil)
        #expect(steps(s) == count)
        // Dragged away and back: nothing moved in the end, nothing recorded.
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(500, 0))
        try s.interaction.updateNodeDrag(translation: .zero)
        #expect(!s.interaction.endNodeDrag())
        #expect(s.node("a")?.parentID == nil && steps(s) == count)
    }

    @Test func droppingIntoAContainerReparentsInOneStep() throws {
        let s = Store()
        try s.addNode(node("back", 0, 0, 300, 300, container: true))
        try s.addNode(node("front", 100, 100, 300, 300, container: true, z: 1))
        try s.addNode(node("plain", 0, 400, 300, 300))
        try s.addNode(node("a", 1000, 1000, 50, 20))
        let before = StoreState(s)
        let log = EventLog(s)
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(-850, -850))  // centre (175, 160): in both
        _ = log.take()
        #expect(s.interaction.endNodeDrag())
        #expect(s.node("a")?.parentID == "front")
        #expect(log.take() == ["N[replace(a)]"])
        #expect(s.undoActionName == "Move")
        let after = StoreState(s)
        try s.undo()
        #expect(StoreState(s) == before)
        #expect(log.take() == ["N[replace(a)]"])
        try s.redo()
        #expect(StoreState(s) == after)

        // Over a plain node: not a container, so the node goes to the root.
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(0, 400))
        #expect(s.interaction.endNodeDrag())
        #expect(s.node("a")?.parentID == nil)
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func descendantsFollowAndOnlyRootsAreReparented() throws {
        let s = Store()
        try s.addNode(node("g", 0, 0, 200, 200, container: true))
        var child = node("c", 20, 20, 50, 20, parent: "g")
        child.isDraggable = false
        try s.addNode(child)
        try s.addNode(node("h", 1000, 0, 400, 400, container: true))
        try s.interaction.beginNodeDrag("g")
        #expect(s.interaction.draggedNodeIDs == ["g", "c"])  // descendants even when not draggable
        try s.interaction.updateNodeDrag(translation: Point(1100, 100))
        #expect(s.node("g")?.position == Point(1100, 100))
        #expect(s.node("c")?.position == Point(1120, 120))
        s.interaction.endNodeDrag()
        #expect(s.node("g")?.parentID == "h")
        #expect(s.node("c")?.parentID == "g")
        // Dragging the child alone out of its group takes it to the root.
        try s.updateNode("c") { $0.isDraggable = true }
        try s.interaction.beginNodeDrag("c")
        try s.interaction.updateNodeDrag(translation: Point(-1000, 500))
        s.interaction.endNodeDrag()
        #expect(s.node("c")?.parentID == nil)
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func dragSetFollowsTheSelection() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 200, 0))
        var fixed = node("f", 400, 0)
        fixed.isDraggable = false
        try s.addNode(fixed)
        try s.addNode(node("x", 600, 0))
        for id in ["a", "b", "f"] { try s.selectNode(id, exclusive: false) }
        try s.interaction.beginNodeDrag("a")
        #expect(s.interaction.draggedNodeIDs == ["a", "b"])  // not draggable: left out
        s.interaction.cancelNodeDrag()
        try s.interaction.beginNodeDrag("x")  // not selected: alone
        #expect(s.interaction.draggedNodeIDs == ["x"])
        // A second begin ends the open drag first (nothing moved: no step).
        #expect(try s.interaction.beginNodeDrag("a"))
        #expect(s.interaction.draggedNodeIDs == ["a", "b"])
        #expect(try s.interaction.beginNodeDrag("f") == false)  // not draggable: no session
        #expect(!s.interaction.isNodeDragging)
        #expect(throws: FlowError.self) { try s.interaction.beginNodeDrag("nope") }
        #expect(throws: FlowError.self) { try s.interaction.updateNodeDrag(translation: Point(.nan, 0)) }
        #expect(try s.interaction.updateNodeDrag(translation: Point(5, 5)) == false)  // no session
    }

    @Test func beginningAnotherDragRecordsTheOpenOne() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(10, 10))
        let count = steps(s)
        try s.interaction.beginNodeDrag("b")
        #expect(steps(s) == count + 1)
        try s.interaction.updateNodeDrag(translation: Point(5, 0))
        s.interaction.endNodeDrag()
        try s.undo()
        #expect(s.node("b")?.position == Point(300, 0) && s.node("a")?.position == Point(10, 10))
        try s.undo()
        #expect(s.node("a")?.position == .zero)
    }

    @Test func removingADraggedNodeEndsTheSessionAndUndoRestoresAll() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        try s.addEdge(edge("e", "a", "b"))
        try s.selectNode("a")
        try s.selectNode("b", exclusive: false)
        let before = StoreState(s)
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(50, 50))
        try s.removeNode("b")
        #expect(!s.interaction.isNodeDragging && s.interaction.activeInteraction == nil)
        #expect(s.node("a")?.position == Point(50, 50))
        #expect(s.checkInvariants().isEmpty)
        try s.undo()  // the removal, with the moves made so far
        #expect(StoreState(s) == before)
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func otherEditsDuringADragStayExact() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        let before = StoreState(s)
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(40, 0))
        try s.updateNode("a") { $0.data = .string("renamed") }
        try s.interaction.updateNodeDrag(translation: Point(80, 0))
        #expect(s.interaction.endNodeDrag())
        try s.undo()  // the drag
        #expect(s.node("a")?.position == .zero && s.node("a")?.data == .string("renamed"))
        try s.undo()  // the rename
        #expect(StoreState(s) == before)

        // Moving a dragged node at once ends the drag; its move so far joins that step.
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(40, 0))
        try s.moveNode("a", to: Point(500, 500))
        #expect(!s.interaction.isNodeDragging)
        try s.undo()
        #expect(s.node("a")?.position == .zero)

        // Undo during a drag cancels the drag first, then undoes the previous step.
        try s.moveNode("b", to: Point(300, 300))
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(40, 0))
        let log = EventLog(s)
        try s.undo()
        #expect(!s.interaction.isNodeDragging)
        #expect(s.node("a")?.position == .zero && s.node("b")?.position == Point(300, 0))
        #expect(log.take() == ["N[position(a (0, 0)), position(b (300, 0))]"])
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func completeMoveNodesRecordsExactStarts() throws {
        var cfg = FlowConfiguration()
        cfg.snapToGrid = true
        cfg.gridSize = 10
        let s = Store(configuration: cfg)
        try s.addNode(node("a", 3, 3))
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(40, 0))
        let count = steps(s)
        let log = EventLog(s)
        #expect(try s.completeMoveNodes(from: ["a": Point(3, 3)]))
        #expect(log.take().isEmpty)
        #expect(steps(s) == count + 1 && s.undoActionName == "Move")
        s.interaction.cancelNodeDrag()
        try s.moveNode("a", to: Point(40, 0))
        try s.undo()
        try s.undo()
        #expect(s.node("a")?.position == Point(3, 3))  // not re-snapped to (0, 0)
        #expect(try s.completeMoveNodes(from: ["a": Point(3, 3)]) == false)
        #expect(throws: FlowError.self) { try s.completeMoveNodes(from: ["a": Point(0, 0), "zz": .zero]) }
        #expect(s.node("a")?.position == Point(3, 3))
    }

    @Test func completeResizeNodesIsOneResizeStep() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.addNode(node("b", 200, 0, 100, 50))
        s.isUndoEnabled = false
        try s.updateNodeSize("a", to: Size(120, 60))
        try s.updateNode("b") { $0.position = Point(190, -10); $0.size = Size(110, 60) }
        s.isUndoEnabled = true
        let log = EventLog(s)
        #expect(try s.completeResizeNodes(from: ["a": Rect(0, 0, 100, 50), "b": Rect(200, 0, 100, 50)]))
        #expect(log.take().isEmpty)
        #expect(s.undoActionName == "Resize")
        try s.undo()
        #expect(s.node("a")?.frame == Rect(0, 0, 100, 50))
        #expect(s.node("b")?.frame == Rect(200, 0, 100, 50))
        #expect(log.take() == ["N[replace(b), dimensions(a 100x50)]"])
        try s.redo()
        #expect(s.node("b")?.frame == Rect(190, -10, 110, 60))
        #expect(try s.completeResizeNodes(from: ["a": Rect(0, 0, 120, 60)]) == false)
        #expect(throws: FlowError.self) { try s.completeResizeNodes(from: ["a": Rect(0, 0, -1, 5)]) }
    }

    @Test func resizeAndTextEditingInteractions() throws {
        let s = Store()
        try s.addNode(node("a"))
        try s.addNode(node("b"))
        #expect(try s.interaction.beginResizeNodes(["b", "a"]))
        #expect(s.interaction.activeInteraction == .resizingNodes(["a", "b"]))
        #expect(throws: FlowError.self) { try s.interaction.beginResizeNodes(["a", "x"]) }
        #expect(s.interaction.activeInteraction == .resizingNodes(["a", "b"]))
        #expect(try s.interaction.beginResizeNodes([]))
        #expect(s.interaction.activeInteraction == nil)
        #expect(!s.interaction.endResizeNodes())
        try s.interaction.beginResizeNodes(["a"])
        #expect(s.interaction.endResizeNodes())

        #expect(try s.interaction.beginTextEditing(nodeID: "a"))
        #expect(s.interaction.activeInteraction == .editingText("a") && s.focusedTarget == .node("a"))
        #expect(try s.interaction.endTextEditing(nodeID: "b") == false)
        #expect(s.interaction.activeInteraction == .editingText("a"))
        #expect(try s.interaction.endTextEditing())
        #expect(s.interaction.activeInteraction == nil && s.focusedTarget == .node("a"))  // focus kept
        #expect(throws: FlowError.self) { try s.interaction.beginTextEditing(nodeID: "x") }
        #expect(throws: FlowError.self) { try s.interaction.endTextEditing(nodeID: "x") }
        #expect(!s.canUndo || s.undoActionName == "Add")
    }

    @Test func dragInsideATransactionIsOneStepAndRollsBack() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        let before = StoreState(s)
        let count = steps(s)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try s.transaction { () throws(Boom) in
                _ = try? s.interaction.beginNodeDrag("a")
                _ = try? s.interaction.updateNodeDrag(translation: Point(30, 0))
                s.interaction.endNodeDrag()
                throw Boom()
            }
        }
        #expect(StoreState(s) == before && steps(s) == count)
        try s.transaction { () throws(FlowError) in
            try s.interaction.beginNodeDrag("a")
            try s.interaction.updateNodeDrag(translation: Point(30, 0))
            try s.interaction.updateNodeDrag(translation: Point(60, 0))
            s.interaction.endNodeDrag()
        }
        #expect(steps(s) == count + 1)
        try s.undo()
        #expect(StoreState(s) == before)
        try s.redo()
        #expect(s.node("a")?.position == Point(60, 0))
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func aFailedTransactionPutsAnOpenDragAndAnimationsBack() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        try s.interaction.beginNodeDrag("a")
        try s.interaction.updateNodeDrag(translation: Point(40, 0))
        try s.interaction.setNodePositions([("b", Point(300, 300))], animation: .default)
        for _ in 0..<10 { try s.interaction.tick(1.0 / 120) }
        try s.interaction.zoom(by: 2, anchor: .zero, animation: .default)
        let state = StoreState(s), viewport = s.viewport, b = s.node("b")!.position
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try s.transaction { () throws(Boom) in
                s.interaction.endNodeDrag()
                _ = try? s.moveNode("b", to: Point(9, 9))
                _ = try? s.interaction.tick(1)
                throw Boom()
            }
        }
        #expect(StoreState(s) == state && s.viewport == viewport)
        #expect(s.interaction.isNodeDragging && s.interaction.draggedNodeIDs == ["a"])
        #expect(s.interaction.animatingNodeIDs == ["b"] && s.interaction.isAnimating)
        #expect(s.node("b")?.position == b)
        // Both go on as if nothing had happened.
        try s.interaction.updateNodeDrag(translation: Point(60, 0))
        #expect(s.interaction.endNodeDrag())
        while try s.interaction.tick(1.0 / 120) {}
        #expect(s.node("a")?.position == Point(60, 0) && s.node("b")?.position == Point(300, 300))
        try s.undo()
        try s.undo()
        #expect(s.node("a")?.position == .zero && s.node("b")?.position == Point(300, 0))
        #expect(s.checkInvariants().isEmpty)
    }
}
