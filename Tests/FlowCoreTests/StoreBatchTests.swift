import Testing
@testable import FlowCore

/// `addNodes` / `addEdges` (docs/store.md, "Batch adds"): a list in one operation.
@Suite("Batch adds") struct StoreBatchTests {
    @Test func aListIsOneStepAndOneBatchInListOrder() throws {
        let s = Store()
        let log = EventLog(s)
        #expect(try s.addNodes([node("c", 400), node("a"), node("b", 200)]) == 3)
        #expect(log.take() == ["N[add(c), add(a), add(b)]"])
        #expect(s.nodes.map(\.id) == ["c", "a", "b"])
        #expect(try s.addEdges([edge("y", "a", "b"), edge("x", "b", "c")]) == 2)
        #expect(log.take() == ["E[add(y), add(x)]"])
        #expect(s.undoActionName == "Add Edges")
        try s.undo()
        #expect(s.edgeCount == 0 && s.undoActionName == "Add Nodes")
        try s.undo()
        #expect(s.nodeCount == 0 && !s.canUndo)
        try s.redo()
        #expect(s.nodes.map(\.id) == ["c", "a", "b"])
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func aBadEntryInTheMiddleChangesNothing() throws {
        let s = Store()
        try s.addNode(node("a"))
        let before = StoreState(s)
        let log = EventLog(s)
        #expect(throws: FlowError(.duplicateNode, operation: "addNodes", message: "item 3: node 'p' already exists")) {
            try s.addNodes([node("p"), node("q"), node("p"), node("r")])
        }
        #expect(throws: FlowError(.missingEndpoint, operation: "addEdges", message: "item 2: target node 'x' does not exist")) {
            try s.addEdges([edge("e1", "a", "a"), edge("e2", "a", "x"), edge("e3", "a", "a")])
        }
        #expect(StoreState(s) == before)
        #expect(log.take().isEmpty)
        #expect(s.undoActionName == "Add")  // no step recorded for the failed lists
        // the ids of the failed list are free again
        #expect(try s.addNodes([node("p"), node("q")]) == 2)
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func entriesSeeTheEntriesBeforeThem() throws {
        let s = Store()
        // a parent named by an earlier entry
        try s.addNodes([node("g", container: true), node("c", parent: "g")])
        #expect(s.node("c")?.parentID == "g")
        // but not by a later one
        #expect(throws: FlowError.self) { try s.addNodes([node("d", parent: "h"), node("h", container: true)]) }
        #expect(s.node("d") == nil && s.node("h") == nil)
        // an edge id repeated inside the list
        #expect(throws: FlowError(.duplicateEdge, operation: "addEdges", message: "item 2: edge 'e' already exists")) {
            try s.addEdges([edge("e", "g", "c"), edge("e", "c", "g")])
        }
        #expect(s.edgeCount == 0)
    }

    @Test func generatedIDsFollowTheSingleAdds() throws {
        let s = Store()
        let blank = FlowNode<JSONValue>(id: "", position: .zero, data: .null)
        #expect(throws: FlowError.self) { try s.addNodes([blank]) }  // public API: ids required
        try s.addNodes([blank, node("n2"), blank], generatingIDs: true)
        #expect(s.nodes.map(\.id) == ["n1", "n2", "n3"])
        try s.addEdges([edge("", "n1", "n2"), edge("", "n2", "n3")], generatingIDs: true)
        #expect(s.edges.map(\.id) == ["e1", "e2"])
    }

    @Test func aBatchBeyondTheLimitsIsRefusedWhole() throws {
        let s = Store()
        s.limits = StoreLimits(nodes: 2)
        #expect(throws: FlowError.self) { try s.addNodes([node("a"), node("b"), node("c")]) }
        #expect(s.nodeCount == 0)
    }

    @Test func aTransactionTakesTheBatchIntoItsStep() throws {
        let s = Store()
        try s.transaction("Build") {
            try s.addNodes([node("a"), node("b")])
            try s.addEdges([edge("e", "a", "b")])
        }
        #expect(s.undoActionName == "Build")
        try s.undo()
        #expect(s.nodeCount == 0 && s.edgeCount == 0)
    }
}
