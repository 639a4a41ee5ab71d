import Testing
@testable import FlowCore

@Suite("Selection and deletion") struct StoreSelectionTests {
    func threeNodes() throws -> Store {
        let s = Store()
        for id in ["n1", "n2", "n3"] { try s.addNode(node(id)) }
        try s.addEdge(edge("e1", "n1", "n2"))
        try s.addEdge(edge("e2", "n2", "n3"))
        try s.addEdge(edge("e3", "n1", "n3"))
        return s
    }

    @Test func selectionEventsOnlyForRealChanges() throws {
        let s = try threeNodes()
        let log = EventLog(s)
        try s.selectNode("n1")
        #expect(log.take() == ["N[select(n1,true)]"])
        try s.selectNode("n1")
        #expect(log.take().isEmpty)
        try s.selectNode("n2", exclusive: false)
        try s.selectEdge("e1", exclusive: false)
        _ = log.take()
        try s.selectNode("n3")
        #expect(log.take() == ["N[select(n1,false), select(n2,false), select(n3,true)]", "E[select(e1,false)]"])
        try s.deselectNode("n1")
        #expect(log.take().isEmpty)
        #expect(s.focusedTarget == .node("n3"))
        #expect(s.clearSelection())
        #expect(s.focusedTarget == .node("n3"))
        #expect(!s.clearSelection())
        #expect(!s.canUndo || s.undoActionName == "Add Edge")
    }

    @Test func deleteSelectionExample() throws {
        let s = try threeNodes()
        try s.selectNode("n2")
        try s.selectEdge("e3", exclusive: false)
        let before = StoreState(s)
        let log = EventLog(s)
        #expect(s.deleteSelection())
        #expect(log.take() == ["N[remove(n2)]", "E[remove(e1), remove(e2), remove(e3)]"])
        #expect(try s.undo())
        #expect(StoreState(s) == before)
        #expect(!s.deleteSelection() || true)
    }

    @Test func groupSelectionExample() throws {
        let s = Store()
        try s.addNode(node("first", 20, 40, 50, 20))
        try s.addNode(node("second", 90, 100, 40, 30))
        try s.addEdge(edge("e", "first", "second"))
        try s.selectNode("first")
        try s.selectNode("second", exclusive: false)
        let before = StoreState(s)
        let log = EventLog(s)
        let g = try s.groupSelection(id: "g", data: .null, padding: 10)
        #expect(g.frame == Rect(10, 30, 130, 110))
        #expect(g.zIndex == -1)
        #expect(s.node("first")?.parentID == "g")
        #expect(s.edge("e")?.parentID == "g")
        #expect(s.selectedNodeIDs == ["g"])
        #expect(log.take() == [
            "N[add(g), replace(first), replace(second), select(first,false), select(second,false), select(g,true)]",
            "E[replace(e)]",
        ])
        try s.undo()
        #expect(StoreState(s) == before)
        try s.redo()
        #expect(s.selectedNodeIDs == ["g"])
        #expect(throws: FlowError.self) { try s.groupSelection(id: "g", data: .null) }
    }

    @Test func groupUnderCommonParent() throws {
        let s = Store()
        try s.addNode(node("p", 0, 0, 500, 500, container: true))
        try s.addNode(node("a", 10, 10, parent: "p"))
        try s.addNode(node("b", 200, 10, parent: "p"))
        try s.selectNode("a")
        try s.selectNode("b", exclusive: false)
        let g = try s.groupSelection(data: .null)
        #expect(g.id == "n1")
        #expect(g.parentID == "p")
    }

    @Test func ungroupMovesChildrenUp() throws {
        let s = Store()
        try s.addNode(node("p", container: true))
        try s.addNode(node("g", container: true, z: 0))
        try s.setParent("g", to: "p")
        try s.addNode(node("a", parent: "g"))
        try s.addNode(node("b"))
        try s.addEdge(edge("e1", "g", "b"))
        try s.addEdge(edge("e2", "a", "b", parent: "g"))
        let before = StoreState(s)
        let log = EventLog(s)
        #expect(try s.ungroupNode("g"))
        #expect(s.node("a")?.parentID == "p")
        #expect(s.edge("e2")?.parentID == "p")
        #expect(s.edge("e1") == nil)
        #expect(log.take() == ["N[remove(g), replace(a)]", "E[remove(e1), replace(e2)]"])
        try s.undo()
        #expect(StoreState(s) == before)
    }

    @Test func transactionRollsBackEverything() throws {
        let s = Store()
        try s.addNode(node("a"))
        let before = StoreState(s)
        let log = EventLog(s)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try s.transaction { () throws(any Error) in
                try s.addNode(node("b"))
                try s.selectNode("a")
                try s.moveNode("a", to: Point(5, 5))
                throw Boom()
            }
        }
        #expect(StoreState(s) == before)
        #expect(log.take().isEmpty)
        try s.transaction { () throws(FlowError) in
            try s.addNode(node("b"))
            try s.addNode(node("c"))
        }
        #expect(log.take() == ["N[add(b), add(c)]"])
        try s.undo()
        #expect(StoreState(s) == before)
    }
}
