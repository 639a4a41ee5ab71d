import Testing
@testable import FlowCore

@Suite("Batch observers") struct BatchObserverTests {
    @Test func batchObserverSeesBothBatchesOnce() throws {
        let s = Store()
        var seen: [(Int, Int)] = []
        let token = s.addBatchObserver { n, e in seen.append((n.count, e.count)) }
        try s.addNode(node("a"))
        try s.addNode(node("b"))
        try s.addEdge(edge("e1", "a", "b"))
        try s.removeNode("a")
        #expect(seen.map(\.0) == [1, 1, 0, 1] && seen.map(\.1) == [0, 0, 1, 1])
        s.removeObserver(token)
        try s.addNode(node("c"))
        #expect(seen.count == 4)
    }
}
