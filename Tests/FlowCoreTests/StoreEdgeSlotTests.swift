import Testing
@testable import FlowCore

@Suite("Edge slots") struct StoreEdgeSlotTests {
    /// A store with nodes a, b, c (b a container holding c).
    private func store() throws -> Store {
        let s = Store()
        try s.add(node("a"))
        try s.add(node("b", container: true))
        try s.add(node("c", parent: "b"))
        return s
    }

    @Test func slotsAreDenseStableAndReusedAfterRemoval() throws {
        let s = try store()
        #expect(try s.add(edge("x", "a", "b")) == 0)
        #expect(try s.add(edge("y", "b", "c")) == 1)
        #expect(try s.add(edge("z", "a", "c")) == 2)
        #expect(s.edgeSlot("y") == 1 && s.edgeSlot("w") == nil)
        #expect(Array("z".utf8).withUnsafeBytes { s.edgeSlot(utf8: $0) } == 2)
        try s.removeEdge("y")
        #expect(s.edgeSlot("y") == nil)
        #expect(try s.add(edge("w", "c", "a")) == 1)
        // a failed add takes no slot
        #expect(throws: FlowError.duplicateEdge("addEdge", "w")) { try s.add(edge("w", "a", "b")) }
        #expect(throws: FlowError.missingEndpoint("addEdge", "target", "q")) { try s.add(edge("v", "a", "q")) }
        #expect(try s.add(edge("v", "a", "a")) == 3)
        // inside a transaction (the journaled path) too
        let slot = try s.transaction { () throws(FlowError) -> Int32 in try s.add(edge("u", "b", "a")) }
        #expect(slot == 4 && s.edgeSlot("u") == 4)
        // addEdge hands the stored edge back, in its slot
        let t = try s.addEdge(edge("t", "c", "c"))
        #expect(t == s.edge("t") && s.edgeSlot("t") == 5)
    }

    @Test func everyWayAnEdgeLeavesReportsItsSlot() throws {
        let s = try store()
        var freed: [Int32] = []
        s.onEdgeSlotFreed = { freed.append($0) }
        let x = try s.add(edge("x", "a", "b"))
        let y = try s.add(edge("y", "b", "c"))
        let z = try s.add(edge("z", "a", "a"))
        try s.removeEdge("x")
        #expect(freed == [x])
        freed = []
        try s.removeNode("b")  // its child c, and every edge touching either
        #expect(freed == [y])
        freed = []
        try s.undo()  // b, c and y back
        #expect(freed.isEmpty && s.edgeSlot("y") != nil)
        try s.undo()  // x back
        let w = try s.add(edge("w", "c", "a"))
        try s.undo()  // the add of w
        #expect(freed == [w] && s.edgeSlot("w") == nil)
        freed = []
        try s.redo()  // w again
        #expect(freed.isEmpty && s.edgeSlot("w") != nil)
        let wAgain = s.edgeSlot("w")!
        try s.removeEdge("w")
        try s.undo()
        freed = []
        try s.redo()  // the removal of w, redone
        #expect(freed == [wAgain] && s.edgeSlot("w") == nil)
        freed = []
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try s.transaction { () throws(Stop) in
                try? s.add(edge("t", "a", "c"))
                try? s.removeEdge("z")
                throw Stop()
            }
        }
        #expect(freed.count == 2 && s.edgeSlot("t") == nil && s.edgeSlot("z") == z)
        freed = []
        let live = Set(["x", "y", "z"].compactMap { s.edgeSlot($0) })
        _ = try s.load(s.document())
        #expect(Set(freed) == live && live.count == 3)
        s.onEdgeSlotFreed = nil
        freed = []
        try s.removeEdge("x")
        #expect(freed.isEmpty && s.edgeSlot("x") == nil)
    }

    @Test func aQuietAddIsOneUndoStepLikeAnyOther() throws {
        let s = try store()
        try s.add(edge("x", "a", "b"))
        #expect(s.canUndo && s.undoActionName == "Add Edge")
        try s.undo()
        #expect(s.edge("x") == nil && s.edgeCount == 0)
        try s.redo()
        #expect(s.edge("x") != nil)
        // with a listener the add is an operation and delivers its event
        let log = EventLog(s)
        try s.add(edge("y", "b", "c"))
        #expect(log.take() == ["E[add(y)]"])
    }
}
