@testable import FlowCore
import Testing

/// A router that answers every routed edge with a fixed detour and records what it is told.
private final class RecordingRouter: EdgeRouter {
    var calls: [RoutingChanges] = []
    var resets = 0

    func route(_ changes: RoutingChanges, in scene: any RoutingScene) -> [(edgeID: String, points: [Point])] {
        calls.append(changes)
        let ids = changes.all ? scene.orthogonalEdgeIDs : changes.edges.sorted()
        return ids.compactMap { id in
            guard let e = scene.routingEdge(id) else { return nil }
            let mid = (e.source.point.y + e.target.point.y) / 2
            return (id, [e.source.point, Point(e.source.point.x, mid), Point(e.target.point.x, mid), e.target.point])
        }
    }

    func reset() { resets += 1 }
}

private func node(_ id: String, _ x: Double, _ y: Double, handles: [HandleDeclaration] = HandleDeclaration.defaults)
    -> FlowNode<JSONValue>
{
    FlowNode(id: id, position: Point(x, y), size: Size(100, 40), data: .null, handles: handles)
}

@Suite struct EdgeEndTests {
    @Test func facingSides() {
        let a = Rect(0, 0, 100, 40)
        #expect(EdgeEnds.facingSide(of: a, toward: Rect(300, 10, 100, 40), isSource: true) == .right)
        #expect(EdgeEnds.facingSide(of: a, toward: Rect(-300, 10, 100, 40), isSource: true) == .left)
        #expect(EdgeEnds.facingSide(of: a, toward: Rect(20, 200, 100, 40), isSource: true) == .bottom)
        #expect(EdgeEnds.facingSide(of: a, toward: Rect(20, -200, 100, 40), isSource: true) == .top)
        // Diagonal: the larger gap between the borders wins (150 across, 60 down).
        #expect(EdgeEnds.facingSide(of: a, toward: Rect(250, 100, 100, 40), isSource: true) == .right)
        // Equal gaps: top or bottom.
        #expect(EdgeEnds.facingSide(of: a, toward: Rect(200, 140, 100, 40), isSource: true) == .bottom)
        // A self-loop leaves on the right and comes back at the top.
        #expect(EdgeEnds.facingSide(of: a, toward: a, isSource: true) == .right)
        #expect(EdgeEnds.facingSide(of: a, toward: a, isSource: false) == .top)
    }

    @Test func autoHandlesNeedTheDefaultHandles() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        try s.addNode(node("c", 0, 300, handles: [HandleDeclaration(id: "in", type: .target, position: .left)]))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", sourceHandleID: "auto", targetNodeID: "b", targetHandleID: "auto"))
        let g = try s.edgeGeometry("e")
        #expect(g.sourcePosition == .right && g.sourcePoint == Point(100, 20))
        #expect(g.targetPosition == .left && g.targetPoint == Point(300, 20))
        #expect(throws: FlowError.self) {
            try s.addEdge(FlowEdge(id: "f", sourceNodeID: "a", sourceHandleID: "auto", targetNodeID: "c", targetHandleID: "auto"))
        }
        // A node whose edges use "auto" keeps the default handles.
        #expect(throws: FlowError.self) {
            try s.updateNode("a") { $0.handles = [HandleDeclaration(id: "x", type: .source, position: .top)] }
        }
        // Documents keep "auto" ends.
        let copy = Store()
        let warnings = try copy.load(json: try s.export())
        #expect(warnings.isEmpty && copy.edge("e")?.sourceHandleID == "auto")
    }

    @Test func autoHandlesConfigurationTurnsTheDefaultHandles() throws {
        var config = FlowConfiguration()
        config.autoHandles = true
        let s = Store(configuration: config)
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 300, 0))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target"))
        #expect(try s.edgeGeometry("e").sourcePosition == .right)
        // The edge index follows: the edge is found along its new path.
        #expect(s.hitTestEdge(at: Point(110, 20))?.id == "e")
        s.configuration.autoHandles = false
        #expect(try s.edgeGeometry("e").sourcePosition == .bottom)
        #expect(s.hitTestEdge(at: Point(110, 20)) == nil)
    }

    @Test func routedOrthogonalEdgesAttachOnTheBorder() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 0, 200))
        // The first point on a's bottom side and the last on b's top side: the path runs
        // from one to the other, and neither is a bend point.
        try s.addEdge(FlowEdge(
            id: "e", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target",
            pathType: .orthogonal, points: [Point(30, 40), Point(30, 200)]))
        let g = try s.edgeGeometry("e")
        #expect(g.sourcePoint == Point(30, 40) && g.targetPoint == Point(30, 200))
        #expect(g.points.isEmpty)
        #expect(g.path.svgPathData == "M 30 40 L 30 200")
        // The node moved without a router: the point on its border moves with it.
        try s.moveNode("a", to: Point(50, 0))
        #expect(try s.edgeGeometry("e").sourcePoint == Point(80, 40))
        // Off the border: the handle point again.
        try s.updateEdge("e") { $0.points = [Point(30, 60), Point(30, 200)] }
        #expect(try s.edgeGeometry("e").sourcePoint == Point(100, 40))
        // Other path types attach at one point on the border too (a layout's ports).
        try s.updateEdge("e") { $0.pathType = .straight }
        #expect(try s.edgeGeometry("e").targetPoint == Point(30, 200))
        #expect(try s.edgeGeometry("e").points == [Point(30, 60)])
    }

    @Test func orthogonalPathsWithoutPointsRunStraightWhenTheyCan() {
        let p = OrthogonalPath().path(from: Point(0, 0), sourcePosition: .bottom, to: Point(0, 100), targetPosition: .top)
        #expect(p.svgPathData == "M 0 0 L 0 100")
        let q = OrthogonalPath().path(from: Point(0, 0), sourcePosition: .right, to: Point(100, 50), targetPosition: .left)
        #expect(q.svgPathData == "M 0 0 L 44 0 Q 50 0 50 6 L 50 44 Q 50 50 56 50 L 100 50")
    }
}

@Suite struct RoutingHookTests {
    private func store() throws -> (Store, RecordingRouter) {
        let s = Store()
        let r = RecordingRouter()
        s.edgeRouter = r
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 0, 200))
        return (s, r)
    }

    @Test func routesAreWrittenInTheSameStepAndBatch() throws {
        let (s, r) = try store()
        #expect(r.resets == 1)
        let log = EventLog(s)
        try s.addEdge(FlowEdge(
            id: "e", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target",
            pathType: .orthogonal))
        // The add event carries the route: no replace after it.
        #expect(log.take() == ["E[add(e)]"])
        #expect(s.edge("e")!.points == [Point(50, 40), Point(50, 120), Point(50, 120), Point(50, 200)])
        #expect(r.calls.last?.edges == ["e"])
        try s.moveNode("b", to: Point(100, 200))
        #expect(log.take() == ["N[position(b (100, 200))]", "E[replace(e)]"])
        #expect(r.calls.last?.frames.count == 1)
        #expect(r.calls.last?.frames.first?.old == Rect(0, 200, 100, 40))
        #expect(r.calls.last?.frames.first?.new == Rect(100, 200, 100, 40))
        // One undo step restores the node and the route; the router hears of it, and its
        // answer is not written.
        let calls = r.calls.count
        #expect(s.undoActionName == "Move")
        try s.undo()
        #expect(r.calls.count == calls + 1 && r.calls.last?.isReplay == true)
        #expect(s.edge("e")!.points == [Point(50, 40), Point(50, 120), Point(50, 120), Point(50, 200)])
        #expect(log.take() == ["N[position(b (0, 200))]", "E[replace(e)]"])
    }

    @Test func selectionAndOtherPathTypesDoNotCallTheRouter() throws {
        let (s, r) = try store()
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
        try s.moveNode("a", to: Point(5, 5))
        try s.selectNode("a")
        #expect(r.calls.isEmpty)
        try s.updateEdge("e") { $0.pathType = .orthogonal }
        #expect(r.calls.count == 1)
        try s.selectNode("b")
        #expect(r.calls.count == 1)
        // The last orthogonal edge going resets the router.
        let resets = r.resets
        try s.removeEdge("e")
        #expect(r.resets == resets + 1)
    }

    @Test func aTransactionRoutesOnceAtTheEnd() throws {
        let (s, r) = try store()
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", pathType: .orthogonal))
        let calls = r.calls.count
        try s.transaction {
            try s.moveNode("a", to: Point(10, 0))
            try s.moveNode("a", to: Point(20, 0))
            try s.moveNode("b", to: Point(30, 200))
        }
        #expect(r.calls.count == calls + 1)
        // The frames before and after the whole transaction.
        let frames = r.calls.last!.frames.map { "\($0.old!) -> \($0.new!)" }.sorted()
        #expect(frames == ["(0, 0, 100x40) -> (20, 0, 100x40)", "(0, 200, 100x40) -> (30, 200, 100x40)"])
    }

    @Test func loadKeepsTheStoredRoutesAndResetsTheRouter() throws {
        let (s, r) = try store()
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", pathType: .orthogonal))
        // A document whose route is not the router's.
        let doc = try s.export().split(separator: "120", omittingEmptySubsequences: false).joined(separator: "125")
        let resets = r.resets
        let calls = r.calls.count
        try s.load(json: doc)
        #expect(r.resets == resets + 1 && r.calls.count == calls)
        #expect(s.edge("e")!.points == [Point(50, 40), Point(50, 125), Point(50, 125), Point(50, 200)])
        // The next change that touches the edge routes it.
        try s.moveNode("b", to: Point(0, 220))
        #expect(s.edge("e")!.points == [Point(50, 40), Point(50, 130), Point(50, 130), Point(50, 220)])
    }

    @Test func routeEdgesRoutesEverythingAsOneStep() throws {
        let (s, r) = try store()
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", pathType: .orthogonal))
        try s.updateEdge("e") { $0.points = [] }
        #expect(s.edge("e")!.points.count == 4)  // the router owns the points: routed again
        s.edgeRouter = nil
        try s.updateEdge("e") { $0.points = [] }
        #expect(s.edge("e")!.points.isEmpty)
        #expect(throws: FlowError.self) { try s.routeEdges() }
        s.edgeRouter = r
        #expect(try s.routeEdges() == 1)
        #expect(r.calls.last?.all == true)
        #expect(s.undoActionName == "Route")
        #expect(try s.routeEdges() == 0)
    }
}
