import Testing
@testable import FlowCore

/// Deep parent chains (issue #43): adding a child does not walk its ancestors, and the
/// parent rule still holds where a walk is needed (re-parenting an existing node).
@Suite struct ParentChainTests {
    /// `n0 <- n1 <- ... <- n(depth-1)`, each node the child of the one before.
    static func chain(_ depth: Int) -> Store {
        let s = Store()
        s.checksInvariants = false  // checked once at the end: a check per add is O(n) each
        for i in 0..<depth {
            try! s.addNode(node("n\(i)", parent: i == 0 ? nil : "n\(i - 1)", container: true))
        }
        return s
    }

    @Test func aDeepChainBuildsWithItsLinks() throws {
        let depth = 20_000
        let s = Self.chain(depth)
        #expect(s.nodes.count == depth)
        #expect(s.checkInvariants() == [])
        #expect(try s.childNodes(of: "n0").map(\.id) == ["n1"])
        #expect(try s.childNodes(of: "n\(depth - 2)").map(\.id) == ["n\(depth - 1)"])
        #expect(s.nodes.last?.parentID == "n\(depth - 2)")
        #expect(try s.childNodes(of: nil).map(\.id) == ["n0"])
    }

    @Test func undoAndRedoOfChainAdds() throws {
        let s = Self.chain(5_000)
        for _ in 0..<3 { #expect(try s.undo()) }
        #expect(s.nodes.count == 4_997)
        #expect(try s.childNodes(of: "n4996").isEmpty)
        #expect(try s.redo())
        #expect(try s.childNodes(of: "n4996").map(\.id) == ["n4997"])
        try s.addNode(node("tail", parent: "n4997"))
        #expect(s.nodes.last?.parentID == "n4997")
        #expect(s.checkInvariants() == [])
    }

    @Test func reparentingIntoTheOwnSubtreeIsStillACycle() throws {
        let s = Self.chain(3_000)
        #expect(throws: FlowError.invalidParent("setParent", "making 'n2999' the parent of 'n0' would create a cycle")) {
            try s.setParent("n0", to: "n2999")
        }
        #expect(throws: FlowError.invalidParent("updateNode", "making 'n10' the parent of 'n5' would create a cycle")) {
            try s.updateNode("n5") { $0.parentID = "n10" }
        }
        #expect(s.nodes.first { $0.id == "n0" }?.parentID == nil)
        #expect(s.checkInvariants() == [])
    }

    @Test func theOtherParentErrorsOfAddNodeStay() throws {
        let s = Self.chain(3)
        try s.addNode(node("leaf"))
        #expect(throws: FlowError.invalidParent("addNode", "node 'x' cannot be its own parent")) {
            try s.addNode(node("x", parent: "x"))
        }
        #expect(throws: FlowError.invalidParent("addNode", "parent node 'nope' does not exist")) {
            try s.addNode(node("x", parent: "nope"))
        }
        #expect(throws: FlowError.invalidParent("addNode", "node 'leaf' does not accept children")) {
            try s.addNode(node("x", parent: "leaf"))
        }
        #expect(s.nodes.count == 4)
    }

    @Test func aBatchOfChainedNodesGoesIn() throws {
        let s = Store()
        s.checksInvariants = false
        let nodes = (0..<10_000).map { i in node("b\(i)", parent: i == 0 ? nil : "b\(i - 1)", container: true) }
        #expect(try s.addNodes(nodes) == 10_000)
        #expect(s.checkInvariants() == [])
        #expect(try s.undo())
        #expect(s.nodes.isEmpty)
    }

    /// A cycle that corrupts the store is reported for every node in it or leading into it.
    @Test func theInvariantCheckStillFindsParentCycles() throws {
        let s = Self.chain(4)
        s.nodeTable.update(slot: s.nodeTable.slot(of: "n1")!, withParent(s, "n1", "n2"))
        let cycles = s.checkInvariants().filter { $0.hasPrefix("parent cycle") }
        #expect(cycles == ["parent cycle through 'n1'", "parent cycle through 'n2'", "parent cycle through 'n3'"])
    }

    private func withParent(_ s: Store, _ id: String, _ parent: String) -> FlowNode<JSONValue> {
        var n = s.nodes.first { $0.id == id }!
        n.parentID = parent
        return n
    }
}
