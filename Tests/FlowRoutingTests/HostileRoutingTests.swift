import FlowCore
import TestSupport
import Testing

@testable import FlowRouting

/// Adding and connecting orthogonal edges one by one (issue #43): every add is routed live,
/// and the work of one add must not grow with the store. Counted in units of work, not
/// timed (flowbench's `growth.store.orthogonalAdds` times it).
@Suite struct HostileRoutingTests {
    /// n nodes on a grid 40 wide (80×40, 150 apart across, 100 down), each added and then
    /// connected from the one before: the router's work counters afterwards.
    static func interleaved(_ n: Int) throws -> (router: OrthogonalRouter, store: Store) {
        let s = Store()
        s.checksInvariants = false
        let router = OrthogonalRouter()
        s.edgeRouter = router
        for i in 0..<n {
            let p = Point(Double(i % 40) * 150, Double(i / 40) * 100)
            try s.addNode(FlowNode(id: "n\(i)", position: p, size: Size(80, 40), data: .null))
            if i > 0 {
                try s.addEdge(FlowEdge(
                    id: "e\(i)", sourceNodeID: "n\(i - 1)", sourceHandleID: "source", targetNodeID: "n\(i)",
                    targetHandleID: "target", pathType: .orthogonal))
            }
        }
        return (router, s)
    }

    @Test func addingNodesDoesNotWalkEveryFrameForTheBounds() throws {
        // The bounds of the frames were recomputed from all of them after every add.
        let (router, _) = try Self.interleaved(400)
        #expect(router.obstacles.boundsVisits <= 400, "\(router.obstacles.boundsVisits) frames visited")
    }

    @Test func aChangeSpreadsOnlyTheGroupsNearIt() throws {
        // Every group of a line a changed segment lies on was spread again; the vertical
        // lines run through every row of the grid, so an add spread a group for each row.
        let small = try Self.interleaved(200).router.lines.spreads
        let large = try Self.interleaved(800).router.lines.spreads
        #expect(Double(large) <= 4.8 * Double(small), "spreads \(small) -> \(large) for 4x the adds")
    }

    @Test func anEdgeWithoutARouteIsNotSearchedAgainForEveryAdd() throws {
        // a is walled in on all four sides (the walls overlap at the corners): its edge
        // has no route. Adding nodes elsewhere searched it again (the whole scene, three
        // margins) after every add.
        let (router, s) = try Self.interleaved(0)
        try s.addNode(FlowNode(id: "a", position: Point(0, 0), size: Size(80, 40), data: .null))
        for (id, x, y, w, h) in [
            ("top", -60.0, -60.0, 200.0, 40.0), ("bottom", -60, 60, 200, 40), ("left", -60, -60, 40, 160),
            ("right", 100, -60, 40, 160),
        ] {
            try s.addNode(FlowNode(id: id, position: Point(x, y), size: Size(w, h), data: .null))
        }
        try s.addNode(FlowNode(id: "b", position: Point(0, 300), size: Size(80, 40), data: .null))
        try s.addEdge(FlowEdge(
            id: "e", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target",
            pathType: .orthogonal))
        #expect(router.unrouted == ["e"])
        let before = router.scratch.searches
        for i in 0..<50 {
            try s.addNode(FlowNode(id: "x\(i)", position: Point(Double(i) * 150, 600), size: Size(80, 40), data: .null))
        }
        #expect(router.scratch.searches == before, "\(router.scratch.searches - before) searches for 50 adds")
        // Moving a wall away opens the way.
        try s.moveNode("bottom", to: Point(-60, 200))
        #expect(router.unrouted.isEmpty)
        #expect(!s.edge("e")!.points.isEmpty)
    }

    @Test func aLongEdgeSearchesWhatItReachesNotTheWholeGrid() throws {
        // 400 nodes scattered over a rectangle, leaving free a row across from a and a column
        // down to b, which sit at opposite corners (joined from a's right side to b's left):
        // the search window holds every node, and its grid about 800 lines across and down.
        // The search laid out and marked the whole grid (about 640,000 cells, counted here
        // before); then it kept only the states it reaches (about 124,000), going down every
        // run the free-space bound of the bends took for a way to b; now a blocked way
        // counts two more bends (`RouteSearch.bendBound`).
        let s = Store()
        s.checksInvariants = false
        let router = OrthogonalRouter()
        s.edgeRouter = router
        try s.addNode(FlowNode(id: "a", position: Point(0, 0), size: Size(80, 40), data: .null))
        try s.addNode(FlowNode(id: "b", position: Point(4000, 3000), size: Size(80, 40), data: .null))
        var placed = 0, i = 0
        while placed < 400 {
            i += 1
            let x = (Double(i &* 7919 % 997) / 997 * 4000).rounded(), y = (Double(i &* 104_729 % 991) / 991 * 3000).rounded()
            if y < 220 || x > 3880 { continue }
            try s.addNode(FlowNode(id: "n\(i)", position: Point(x, y), size: Size(80, 40), data: .null))
            placed += 1
        }
        try s.addEdge(FlowEdge(
            id: "e", sourceNodeID: "a", sourceHandleID: "auto", targetNodeID: "b", targetHandleID: "auto",
            pathType: .orthogonal))
        let points = try #require(s.edge("e")?.points)
        #expect(points.count == 4, "\(points)")
        #expect(router.scratch.searches == 1)
        #expect(points[1].y < 220 && points[1].x > 3880, "\(points)")
        #expect(router.scratch.cellsSearched < 20_000, "\(router.scratch.cellsSearched) grid lines and states")
    }
}
