import FlowCore
import TestSupport
import Testing

/// Deep parent chains (issue #43): adding a node with a `parentID` walked up the parent's
/// ancestors to rule out a cycle, O(depth) per add and O(n²) for a chain. Counted in
/// ancestors visited, not timed (flowbench's `growth.store.parentChain` times it).
@Suite struct HostileHierarchyTests {
    static func chain(_ n: Int) throws -> Store {
        let s = Store()
        s.checksInvariants = false
        for i in 0..<n {
            try s.addNode(FlowNode(
                id: "n\(i)", position: Point(0, 0), size: Size(10, 10), data: .null,
                parentID: i == 0 ? nil : "n\(i - 1)", acceptsChildren: true))
        }
        return s
    }

    @Test func addingEachNodeAsTheChildOfTheLastWalksNoAncestors() throws {
        let s = try Self.chain(3_000)
        #expect(s.ancestorSteps == 0, "\(s.ancestorSteps) ancestors visited for 3,000 adds")
        #expect(s.node("n2999")?.parentID == "n2998")
    }

    @Test func theBatchAddWalksNoAncestorsEither() throws {
        let s = Store()
        s.checksInvariants = false
        let nodes = (0..<3_000).map { i in
            FlowNode<JSONValue>(
                id: "n\(i)", position: Point(0, 0), size: Size(10, 10), data: .null,
                parentID: i == 0 ? nil : "n\(i - 1)", acceptsChildren: true)
        }
        _ = try s.addNodes(nodes)
        #expect(s.ancestorSteps == 0, "\(s.ancestorSteps) ancestors visited")
    }

    @Test func movingANodeUnderItsOwnDescendantIsStillRefused() throws {
        // An existing node still walks: the cycle check holds where a cycle can form.
        let s = try Self.chain(50)
        #expect(throws: FlowError.self) { try s.setParent("n0", to: "n49") }
        #expect(s.node("n0")?.parentID == nil)
        #expect(s.ancestorSteps > 0)
    }
}
