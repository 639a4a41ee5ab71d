import Testing
@testable import FlowCore

@Suite("Nodes") struct StoreNodeTests {
    @Test func addAssignsDefaultsAndEmitsAdd() throws {
        let s = Store()
        let log = EventLog(s)
        let n = try s.addNode(FlowNode(id: "a", position: Point(1, 2), data: .null))
        #expect(n.size == Size(150, 60))
        #expect(n.handles == HandleDeclaration.defaults)
        #expect(log.take() == ["N[add(a)]"])
        #expect(s.canUndo && s.undoActionName == "Add")
    }

    @Test func duplicateIdThrowsAndChangesNothing() throws {
        let s = Store()
        try s.addNode(node("a"))
        let log = EventLog(s)
        #expect(throws: FlowError.duplicateNode("addNode", "a")) { try s.addNode(node("a", 5, 5)) }
        #expect(s.node("a")?.position == .zero)
        #expect(log.take().isEmpty)
        #expect("\(FlowError.duplicateNode("addNode", "a"))" == "addNode: node 'a' already exists")
    }

    @Test func slotsAreDenseStableAndReusedAfterRemoval() throws {
        let s = Store()
        #expect(try s.add(node("a")) == 0)
        #expect(try s.add(node("b")) == 1)
        #expect(try s.add(node("c")) == 2)
        #expect(s.nodeSlot("b") == 1 && s.nodeSlot("z") == nil)
        #expect(Array("c".utf8).withUnsafeBytes { s.nodeSlot(utf8: $0) } == 2)
        try s.moveNode("b", to: Point(5, 5))
        #expect(s.nodeSlot("b") == 1)
        try s.removeNode("b")
        #expect(s.nodeSlot("b") == nil)
        #expect(try s.add(node("d")) == 1)
        // a failed add takes no slot
        #expect(throws: FlowError.duplicateNode("addNode", "d")) { try s.add(node("d")) }
        #expect(try s.add(node("e")) == 3)
        // inside a transaction (the journaled path) too
        let slot = try s.transaction { () throws(FlowError) -> Int32 in try s.add(node("f")) }
        #expect(slot == 4 && s.nodeSlot("f") == 4)
    }

    @Test func everyWayANodeLeavesReportsItsSlot() throws {
        let s = Store()
        var freed: [Int32] = []
        s.onNodeSlotFreed = { freed.append($0) }
        try s.add(node("a"))
        try s.add(node("b", container: true))
        try s.add(node("c", parent: "b"))
        try s.removeNode("a")
        #expect(freed == [0])
        freed = []
        try s.removeNode("b")  // and its child
        #expect(freed.sorted() == [1, 2])
        freed = []
        try s.undo()  // b and c back
        #expect(freed.isEmpty)
        try s.undo()  // a back
        let d = try s.add(node("d"))
        try s.undo()  // the add of d
        #expect(freed == [d] && s.nodeSlot("d") == nil)
        freed = []
        try s.redo()  // d again
        #expect(freed.isEmpty && s.nodeSlot("d") != nil)
        let dAgain = s.nodeSlot("d")!
        try s.removeNode("d")
        try s.undo()
        freed = []
        try s.redo()  // the removal of d, redone
        #expect(freed == [dAgain] && s.nodeSlot("d") == nil)
        freed = []
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try s.transaction { () throws(Stop) in
                try? s.add(node("t"))
                try? s.removeNode("a")
                throw Stop()
            }
        }
        #expect(freed.count == 2 && s.nodeSlot("t") == nil && s.nodeSlot("a") != nil)
        freed = []
        let doc = s.document()
        let live = Set(["a", "b", "c"].compactMap { s.nodeSlot($0) })
        _ = try s.load(doc)
        #expect(Set(freed) == live)
        s.onNodeSlotFreed = nil
        freed = []
        try s.removeNode("a")
        #expect(freed.isEmpty && s.nodeSlot("a") == nil)
    }

    @Test func generatedIdsAreTheSmallestFree() throws {
        let s = Store()
        #expect(s.nextNodeID() == "n1")
        try s.addNode(node("n1"))
        try s.addNode(node("n2"))
        try s.addNode(node("n3"))
        #expect(s.nextNodeID() == "n4")
        try s.removeNode("n2")
        #expect(s.nextNodeID() == "n2")
    }

    @Test func moveNodeSnapsAndMovesDescendantsByTheActualDelta() throws {
        var cfg = FlowConfiguration()
        cfg.snapToGrid = true
        cfg.gridSize = 10
        let s = Store(configuration: cfg)
        try s.addNode(node("g", 0, 0, container: true))
        try s.addNode(node("c", 3, 3, parent: "g"))
        let log = EventLog(s)
        #expect(try s.moveNode("g", to: Point(13, 27)))
        #expect(s.node("g")?.position == Point(10, 30))
        #expect(s.node("c")?.position == Point(13, 33))
        #expect(log.take() == ["N[position(g (10, 30)), position(c (13, 33))]"])
        #expect(try s.moveNode("g", to: Point(12, 28)) == false)
        #expect(log.take().isEmpty)
    }

    @Test func snappingExamples() {
        var cfg = FlowConfiguration()
        cfg.snapToGrid = true
        cfg.gridSize = 10
        let pairs: [(Double, Double)] = [(13, 10), (27, 30), (15, 20), (-15, -20), (25, 30), (4.9, 0), (-5, -10)]
        for (v, want) in pairs {
            #expect(cfg.snapped(Point(v, 0)).x == want)
        }
        let z = cfg.snapped(Point(-0.15, -1.5))
        #expect(z.x == 0 && z.x.sign == .plus)
        #expect(z.y == -0.0 || z.y == 0)
    }

    @Test func removeNodeCascadesAndUndoRestoresExactly() throws {
        let s = Store()
        try s.addNode(node("c1", 10, 10, parent: nil))
        try s.addNode(node("g", 0, 0, container: true))
        try s.updateNode("c1") { $0.parentID = "g" }
        try s.addNode(node("x", 300, 0))
        try s.addEdge(edge("e1", "c1", "x"))
        try s.addEdge(edge("e2", "x", "g"))
        try s.selectNode("c1")
        try s.selectEdge("e2", exclusive: false)
        let before = StoreState(s)
        let log = EventLog(s)
        try s.removeNode("g")
        #expect(log.take() == ["N[remove(c1), remove(g)]", "E[remove(e1), remove(e2)]"])
        #expect(s.nodes.map(\.id) == ["x"])
        #expect(try s.undo())
        #expect(StoreState(s) == before)
        #expect(log.take() == [
            "N[add(c1), add(g), select(c1,true)]", "E[add(e1), add(e2), select(e2,true)]",
        ])
        #expect(try s.redo())
        #expect(s.nodes.map(\.id) == ["x"])
        #expect(log.take() == ["N[remove(c1), remove(g)]", "E[remove(e1), remove(e2)]"])
    }

    /// Removing a node takes its touching edges, a self-loop once, and the edges parented to
    /// it (one of which also touches it) exactly once each, in store order; references to it
    /// are cleared, and undo restores the document and the selection (hover is not history).
    @Test(arguments: [false, true])
    func removeNodeWithoutChildrenRemovesEveryEdgeOnce(withReferences: Bool) throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, container: true))
        try s.addNode(node("b", 300, 0))
        try s.addNode(node("c", 600, 0))
        try s.addEdge(edge("z", "b", "c"))
        try s.addEdge(edge("s", "a", "a"))
        try s.addEdge(edge("t", "b", "a", parent: "a"))
        try s.addEdge(edge("p", "b", "c", parent: "a"))
        try s.addEdge(edge("u", "a", "b"))
        if withReferences {
            try s.selectNode("a")
            try s.selectEdge("t", exclusive: false)
        }
        let before = StoreState(s)
        if withReferences { _ = try s.setHoveredNode("a") }
        let log = EventLog(s)
        try s.removeNode("a")
        #expect(s.nodes.map(\.id) == ["b", "c"])
        #expect(s.edges.map(\.id) == ["z"])
        #expect(log.take() == ["N[remove(a)]", "E[remove(s), remove(t), remove(p), remove(u)]"])
        #expect(s.selectedNodeIDs.isEmpty && s.selectedEdgeIDs.isEmpty && s.hoveredNodeID == nil)
        #expect(try s.undo())
        #expect(StoreState(s) == before)
        #expect(try s.redo())
        #expect(s.edges.map(\.id) == ["z"])
    }

    @Test func updateNodeValidatesParentAndHandles() throws {
        let s = Store()
        try s.addNode(node("g", container: true))
        try s.addNode(node("c", parent: "g"))
        try s.addNode(node("d"))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "c", sourceHandleID: "source", targetNodeID: "d"))
        #expect(throws: FlowError.self) { try s.updateNode("g") { $0.parentID = "c" } }  // c doesn't accept
        try s.updateNode("c") { $0.acceptsChildren = true }
        #expect(throws: FlowError.self) { try s.updateNode("g") { $0.parentID = "c" } }  // cycle
        #expect(throws: FlowError.self) { try s.updateNode("c") { $0.handles = [] } }
        #expect(throws: FlowError.self) { try s.updateNode("g") { $0.acceptsChildren = false } }
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func updateNodeSizeEmitsDimensionsAndUndoes() throws {
        let s = Store()
        try s.addNode(node("a"))
        let log = EventLog(s)
        #expect(try s.updateNodeSize("a", to: Size(10, 20)))
        #expect(log.take() == ["N[dimensions(a 10x20)]"])
        #expect(try s.updateNodeSize("a", to: Size(10, 20)) == false)
        try s.undo()
        #expect(log.take() == ["N[dimensions(a 150x60)]"])
        #expect(throws: FlowError.self) { try s.updateNodeSize("a", to: Size(-1, 2)) }
    }
}

@Suite("Observers") struct ObserverTests {
    @Test func observersSeeTheValueBeforeEachReplacement() throws {
        let s = Store()
        try s.addNode(node("a"))
        try s.addNode(node("b"))
        try s.addEdge(edge("e", "a", "b"))
        var lines: [String] = []
        let token = s.addObserver(
            nodes: { changes, previous in
                var prev = previous
                for c in changes {
                    if case .replace(let n) = c {
                        lines.append("\(n.id) z \(prev[n.id]?.zIndex ?? -99) -> \(n.zIndex)")
                        prev[n.id] = n
                    }
                }
            },
            edges: { changes, previous in
                for c in changes { if case .replace(let e) = c { lines.append("\(e.id) label \(previous[e.id]?.label ?? "nil") -> \(e.label ?? "nil")") } }
            })
        try s.transaction { () throws(FlowError) in
            try s.updateNode("a") { $0.zIndex = 1 }
            try s.updateNode("a") { $0.zIndex = 2 }
            try s.updateEdge("e") { $0.label = "Yes" }
        }
        #expect(lines == ["a z 0 -> 1", "a z 1 -> 2", "e label nil -> Yes"])
        s.removeObserver(token)
        try s.updateNode("a") { $0.zIndex = 3 }
        #expect(lines.count == 3)
    }
}
