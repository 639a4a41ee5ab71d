import FlowCore
import Testing

/// `StoreLimits` (the sandbox's store limits): a top-level call or transaction that leaves
/// the store beyond a limit is rolled back whole and fails; loads are refused up front.
@Suite struct StoreLimitTests {
    private func limited(_ l: StoreLimits) throws -> Store {
        let s = Store()
        s.limits = l
        try s.addNode(node("a"))
        try s.addNode(node("b", 200))
        return s
    }

    @Test func aCallBeyondTheNodeLimitChangesNothing() throws {
        let s = try limited(StoreLimits(nodes: 2))
        let before = StoreState(s)
        #expect(throws: FlowError.self) { try s.addNode(node("c")) }
        #expect(StoreState(s) == before)
        #expect(s.canUndo)
        try s.undo()  // the last step is still adding b
        #expect(s.nodeCount == 1)
    }

    @Test func aTransactionIsRolledBackWhole() throws {
        let s = try limited(StoreLimits(nodes: 3))
        let before = StoreState(s)
        // the transaction's body succeeds; its commit is refused
        s.transaction {
            _ = try? s.addNode(node("c"))
            _ = try? s.addNode(node("d"))
        }
        #expect(StoreState(s) == before)
        let failure = s.takeWriteFailure()
        #expect(failure?.message.hasPrefix("the store may hold at most 3 nodes") == true)
        #expect(s.takeWriteFailure() == nil)
    }

    @Test func edgesAndLabels() throws {
        let s = try limited(StoreLimits(edges: 1, labelBytes: 5))
        try s.addEdge(edge("e1", "a", "b"))
        #expect(throws: FlowError.self) { try s.addEdge(edge("e2", "b", "a")) }
        #expect(s.edgeCount == 1)
        #expect(throws: FlowError.self) { try s.addNode(node("long-id")) }  // its title is its id
        #expect(throws: FlowError.self) { try s.updateEdge("e1") { $0.label = "too long" } }
        #expect(s.edge("e1")?.label == nil)
    }

    @Test func loadsBeyondALimitAreRefused() throws {
        let s = try limited(StoreLimits(nodes: 2))
        let other = Store()
        for id in ["x", "y", "z"] { try other.addNode(node(id)) }
        let before = StoreState(s)
        #expect(throws: FlowError.self) { try s.load(json: try other.export()) }
        #expect(StoreState(s) == before)
    }

    @Test func removingStaysPossibleAtTheLimit() throws {
        let s = try limited(StoreLimits(nodes: 2))
        try s.removeNode("a")
        try s.addNode(node("c"))
        #expect(s.nodeCount == 2)
    }
}
