import FlowCore
import FlowLayout
import TestSupport
import Testing

/// A curved back edge between two nodes of one container is drawn through its lanes, out
/// of the side of its source that faces its target and into the side of its target that
/// faces its source, the way dot draws it; back edges and loops share their nodes' sides
/// with the other edges by ports.
@Suite struct TurnedBackEdgeTests {
    /// a -> b -> c -> d and the back edge d -> a (labelled when asked).
    private func chain(_ direction: LayoutDirection, label: String? = nil, type: EdgePathType = .bezier) throws -> (Store, LayoutStats) {
        let store = Store()
        for id in ["a", "b", "c", "d"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(100, 40), data: .null, handles: HandleDeclaration.defaults))
        }
        for (i, (s, t)) in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")].enumerated() {
            try store.addEdge(FlowEdge(
                id: "e\(i)", sourceNodeID: s, sourceHandleID: "source", targetNodeID: t, targetHandleID: "target",
                pathType: type, label: i == 3 ? label : nil))
        }
        let stats = try store.layout(LayoutRequest(options: LayoutOptions(direction: direction)))
        return (store, stats)
    }

    @Test(arguments: LayoutDirection.allCases)
    func aBackEdgeLeavesAndEntersByTheFacingSides(_ direction: LayoutDirection) throws {
        let (store, stats) = try chain(direction)
        #expect(stats.reversedEdges == 1)
        let g = try store.edgeGeometry("e3")
        let flow = store.node("a")!.handles.first { $0.type == .source }!.position  // the side edges leave by
        let back: HandlePosition = switch flow {
        case .bottom: .top
        case .top: .bottom
        case .left: .right
        case .right: .left
        case .center: .center
        }
        #expect(g.sourcePosition == back, "\(direction): leaves d by \(g.sourcePosition)")
        #expect(g.targetPosition == flow, "\(direction): enters a by \(g.targetPosition)")
        // on the two outlines, and every point of the route further along the way back
        let d = store.node("d")!.frame, a = store.node("a")!.frame
        #expect(back.point(in: d) == g.sourcePoint || d.insetBy(dx: -0.01, dy: -0.01).contains(g.sourcePoint))
        #expect(a.insetBy(dx: -0.01, dy: -0.01).contains(g.targetPoint))
        let route = [g.sourcePoint] + g.points + [g.targetPoint]
        let dir = back.direction
        for i in 1..<route.count {
            let step = (route[i] - route[i - 1]).x * dir.x + (route[i] - route[i - 1]).y * dir.y
            #expect(step > 0, "\(direction): the route turns back at \(i): \(route)")
        }
        // the back edge and the forward edge into d's side do not end at one point
        let forward = try store.edgeGeometry("e0")
        #expect(forward.sourcePoint.distance(to: g.targetPoint) >= 3)
    }

    @Test func aLabelledBackEdgeGetsRoomInTheLayers() throws {
        // two steps and a labelled edge back: the label takes a layer, as a forward one's does
        func cycle(_ label: String?, _ type: EdgePathType) throws -> LayoutStats {
            let store = Store()
            for id in ["a", "b"] { try store.addNode(FlowNode(id: id, position: .zero, size: Size(100, 40), data: .null)) }
            try store.addEdge(FlowEdge(id: "go", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target", pathType: type))
            try store.addEdge(FlowEdge(
                id: "back", sourceNodeID: "b", sourceHandleID: "source", targetNodeID: "a", targetHandleID: "target",
                pathType: type, label: label))
            return try store.layout()
        }
        #expect(try cycle("retry", .bezier).height > cycle(nil, .bezier).height)
        // a stepped one runs beside the nodes, the label along it, and needs none
        #expect(try cycle("retry", .smoothStep).height == cycle(nil, .smoothStep).height)
    }

    @Test func loopsAndBackEdgesEndApartFromTheOtherEdges() throws {
        // a state machine: a loop on s1, back edges into s0 and s1
        let store = Store()
        for id in ["s0", "s1", "s2", "s3"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(60, 60), data: .null))
        }
        let pairs = [("s0", "s1"), ("s1", "s1"), ("s1", "s2"), ("s2", "s3"), ("s3", "s1"), ("s2", "s0"), ("s3", "s0")]
        for (i, (s, t)) in pairs.enumerated() {
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: s, sourceHandleID: "source", targetNodeID: t, targetHandleID: "target"))
        }
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .LR)))
        for n in ["s0", "s1", "s2", "s3"] {
            let into = try store.edges.filter { $0.targetNodeID == n }.map { try store.edgeGeometry($0.id).targetPoint }
            for i in into.indices {
                for j in into.indices where j < i {
                    #expect(into[i].distance(to: into[j]) >= 3, "two edges into \(n) end at \(into[i])")
                }
            }
        }
    }
}
