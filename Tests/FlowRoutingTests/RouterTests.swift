import FlowCore
import TestSupport
@testable import FlowRouting
import Testing

private func routedStore(_ nodes: [(String, Double, Double, Double, Double)]) throws -> Store {
    let s = Store()
    s.edgeRouter = OrthogonalRouter()
    for (id, x, y, w, h) in nodes {
        try s.addNode(FlowNode(id: id, position: Point(x, y), size: Size(w, h), data: .null))
    }
    return s
}

private func connect(_ s: Store, _ id: String, _ a: String, _ b: String, _ sh: String? = "source", _ th: String? = "target") throws {
    try s.addEdge(FlowEdge(id: id, sourceNodeID: a, sourceHandleID: sh, targetNodeID: b, targetHandleID: th, pathType: .orthogonal))
}

@Suite struct RouterTests {
    @Test func aRouteGoesAroundANodeWithTheMargin() throws {
        let s = try routedStore([("a", 0, 0, 150, 60), ("b", 0, 300, 150, 60), ("wall", -20, 130, 150, 60)])
        try connect(s, "e", "a", "b")
        // Down to 10 above the wall, past its right side, 10 below it, back, into b.
        #expect(s.edge("e")!.points == [
            Point(75, 60), Point(75, 120), Point(140, 120), Point(140, 200), Point(75, 200), Point(75, 300),
        ])
    }

    @Test func fewestBendsComeBeforeShortest() throws {
        // Going right out of a into the top of b: one bend, although two bends could be a
        // little shorter nowhere here; and never more bends than needed.
        let s = try routedStore([("a", 0, 0, 100, 40), ("b", 300, 200, 100, 40)])
        try s.addEdge(FlowEdge(
            id: "e", sourceNodeID: "a", sourceHandleID: "auto", targetNodeID: "b", targetHandleID: "target",
            pathType: .orthogonal))
        #expect(s.edge("e")!.points == [Point(100, 20), Point(350, 20), Point(350, 200)])
    }

    @Test func edgesIntoOneSideArriveAtDistinctPoints() throws {
        let s = try routedStore([
            ("t", 200, 300, 150, 60), ("a", 0, 0, 100, 40), ("b", 225, 0, 100, 40), ("c", 450, 0, 100, 40),
        ])
        for (i, from) in ["a", "b", "c"].enumerated() { try connect(s, "e\(i)", from, "t") }
        let ends = s.edges.map { $0.points.last! }
        #expect(Set(ends.map(\.x)).count == 3)
        #expect(ends.allSatisfy { $0.y == 300 && $0.x > 200 && $0.x < 350 })
        // Their last runs do not cross: the leftmost source arrives leftmost.
        #expect(ends.map(\.x) == ends.map(\.x).sorted())
        #expect(routeProblems(s).isEmpty)
    }

    @Test func aNarrowGapIsUsedWithASmallerMargin() throws {
        // The gap between l and r is 12 wide: too narrow for the margin of 10 on both sides,
        // wide enough for half of it.
        let s = try routedStore([
            ("a", 0, 0, 150, 60), ("b", 0, 400, 150, 60), ("l", -300, 200, 369, 60), ("r", 81, 200, 300, 60),
        ])
        try connect(s, "e", "a", "b")
        let p = s.edge("e")!.points
        #expect(p.contains { $0.x > 69 && $0.x < 81 }, "\(p)")
        #expect(routeProblems(s).isEmpty)
    }

    @Test func aGroupAroundAnEndIsCrossed() throws {
        let s = try routedStore([("outside", 400, 0, 100, 40)])
        try s.addNode(FlowNode(id: "g", position: Point(0, 0), size: Size(300, 200), data: .null, acceptsChildren: true))
        try s.addNode(FlowNode(id: "in", position: Point(100, 80), size: Size(100, 40), data: .null, parentID: "g"))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "in", sourceHandleID: "auto", targetNodeID: "outside", targetHandleID: "auto", pathType: .orthogonal))
        // Out of the child's right side and through the group's border, into the left
        // side of the node outside.
        let p = s.edge("e")!.points
        #expect(p.first == Point(200, 100) && p.last == Point(400, 20) && p.count == 4, "\(p)")
        #expect(routeProblems(s).isEmpty)
    }

    @Test func aSelfLoopGoesAroundItsNode() throws {
        let s = try routedStore([("a", 0, 0, 100, 40)])
        try connect(s, "e", "a", "a")
        let p = s.edge("e")!.points
        #expect(p.first == Point(50, 40) && p.last == Point(50, 0))
        #expect(routeProblems(s).isEmpty)
    }

    @Test func routingIsDeterministic() throws {
        let one = try randomRoutedStore(seed: 7, nodes: 30)
        let two = try randomRoutedStore(seed: 7, nodes: 30)
        try one.routeEdges()
        try two.routeEdges()
        #expect(try one.export() == two.export())
    }
}
