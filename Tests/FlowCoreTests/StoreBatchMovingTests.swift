import Testing
@testable import FlowCore

/// Node data that holds an object, so a test can see which copies of it are still alive.
private struct Tracked: FlowNodeData {
    final class Token {}
    let token: Token

    init(_ token: Token) { self.token = token }
    init(jsonValue: JSONValue) throws(FlowError) { token = Token() }
    func jsonValue() throws(FlowError) -> JSONValue { .null }
    static func == (a: Tracked, b: Tracked) -> Bool { a.token === b.token }
}

/// `addNodes(moving:generatingIDs:)` / `addEdges(moving:generatingIDs:)`, the batch adds the
/// Lua binding hands its items to: each item is moved into the store, and whatever the call
/// did not take is deinitialised, whether it returns or throws.
@Suite("Batch adds of items handed over") struct StoreBatchMovingTests {
    /// A buffer of nodes with the given ids, each holding a fresh token, and weak references
    /// to the tokens.
    private static func handOver(_ ids: [String]) -> (UnsafeMutableBufferPointer<FlowNode<Tracked>>, [() -> Bool]) {
        let items = UnsafeMutableBufferPointer<FlowNode<Tracked>>.allocate(capacity: ids.count)
        var alive: [() -> Bool] = []
        for (i, id) in ids.enumerated() {
            let token = Tracked.Token()
            alive.append { [weak token] in token != nil }
            (items.baseAddress! + i).initialize(
                to: FlowNode(id: id, position: Point(Double(i) * 200, 0), size: Size(100, 40), data: Tracked(token)))
        }
        return (items, alive)
    }

    @Test func theNodesAreMovedInAsAListWouldBeAdded() throws {
        let s = FlowStore<Tracked>()
        let (items, alive) = Self.handOver(["a", "", "c"])
        #expect(try s.addNodes(moving: items, generatingIDs: true) == 3)
        items.deallocate()
        #expect(s.nodes.map(\.id) == ["a", "n1", "c"])
        #expect(alive.allSatisfy { $0() })  // held by the store alone
        #expect(s.undoActionName == "Add Nodes")
        try s.undo()
        #expect(s.nodeCount == 0)
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func aFailureLeavesNothingBehind() throws {
        let s = FlowStore<Tracked>()
        try s.addNode(FlowNode(id: "a", position: .zero, size: Size(100, 40), data: Tracked(Tracked.Token())))
        let (items, alive) = Self.handOver(["p", "q", "a", "r"])
        #expect(throws: FlowError(.duplicateNode, operation: "addNodes", message: "item 3: node 'a' already exists")) {
            try s.addNodes(moving: items, generatingIDs: false)
        }
        items.deallocate()
        #expect(s.nodes.map(\.id) == ["a"])
        // the two taken and rolled back, the one refused and the one never taken: all gone
        #expect(!alive.contains { $0() })
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func theEdgesAreMovedInAndAFailureTakesNothing() throws {
        let s = FlowStore<Tracked>()
        for id in ["a", "b"] {
            try s.addNode(FlowNode(id: id, position: .zero, size: Size(100, 40), data: Tracked(Tracked.Token())))
        }
        let edges = UnsafeMutableBufferPointer<FlowEdge>.allocate(capacity: 3)
        defer { edges.deallocate() }
        _ = edges.initialize(from: [
            FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"), FlowEdge(id: "f", sourceNodeID: "b", targetNodeID: "x"),
            FlowEdge(id: "g", sourceNodeID: "b", targetNodeID: "a"),
        ])
        #expect(throws: FlowError(.missingEndpoint, operation: "addEdges", message: "item 2: target node 'x' does not exist")) {
            try s.addEdges(moving: edges, generatingIDs: false)
        }
        #expect(s.edgeCount == 0)
        _ = edges.initialize(from: [
            FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"), FlowEdge(id: "", sourceNodeID: "b", targetNodeID: "a"),
        ])
        #expect(try s.addEdges(moving: UnsafeMutableBufferPointer(rebasing: edges[..<2]), generatingIDs: true) == 2)
        #expect(s.edges.map(\.id) == ["e", "e1"])
        #expect(s.checkInvariants().isEmpty)
    }
}
