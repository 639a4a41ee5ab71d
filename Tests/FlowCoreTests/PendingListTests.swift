import Testing
@testable import FlowCore

/// Items removed before the next query leave nothing behind (issue #25): add/remove
/// cycles and rolled-back transactions, with no query between them, keep the lists of
/// pending index updates within the store's size.
@Suite("Pending index lists stay bounded") struct PendingListTests {
    static func node(_ id: String) -> FlowNode<JSONValue> {
        FlowNode(id: id, position: .zero, size: Size(10, 10), data: .null)
    }

    @Test func addRemoveCyclesWithoutQueries() throws {
        let s = FlowStore<JSONValue>()
        s.isUndoEnabled = false
        try s.addNode(Self.node("a"))
        for _ in 0..<20_000 {
            try s.addNode(Self.node("b"))
            _ = try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
            try s.removeNode("b")
        }
        #expect(s.dirtyNodes.count <= 2 * s.nodeTable.slotCapacity + 65)
        #expect(s.staleEdges.count <= 2 * s.edgeTable.slotCapacity + 65)
        #expect(s.checkInvariants().isEmpty)
    }

    /// Pruning drops the slots of removed items and keeps the live ones: a node and an edge
    /// added before many prunes (and never queried) are found by the first query after.
    @Test func pruningKeepsTheLiveItems() throws {
        let s = FlowStore<JSONValue>()
        s.isUndoEnabled = false
        try s.addNode(FlowNode(id: "a", position: Point(1000, 1000), size: Size(10, 10), data: .null))
        try s.addNode(FlowNode(id: "c", position: Point(1000, 2000), size: Size(10, 10), data: .null))
        _ = try s.addEdge(FlowEdge(id: "ac", sourceNodeID: "a", targetNodeID: "c", pathType: .straight))
        for _ in 0..<2_000 {
            try s.addNode(Self.node("b"))
            _ = try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
            try s.removeNode("b")
        }
        #expect(s.hitTestNode(at: Point(1005, 1005))?.id == "a")
        #expect(s.hitTestNode(at: Point(5, 5)) == nil)
        #expect(s.hitTestEdge(at: Point(1005, 1500))?.id == "ac")
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func rolledBackTransactions() throws {
        let s = FlowStore<JSONValue>()
        struct Stop: Error {}
        for _ in 0..<20_000 {
            _ = try? s.transaction { () throws -> Void in
                try s.addNode(Self.node("x"))
                throw Stop()
            }
        }
        #expect(s.nodeCount == 0)
        #expect(s.dirtyNodes.count <= 2 * s.nodeTable.slotCapacity + 65)
    }
}
