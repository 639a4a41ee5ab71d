import FlowCore
import FlowLayout
import TestSupport
import Testing

/// Leads (`LayoutPlan+Leads.swift`) and fans kept off a side with a neighbour close beyond
/// it (`LayoutPlan.hasNeighbour`): the default curves of a laid-out diagram run through no
/// node but their own two, where the route runs far sideways right at its node.
@Suite struct LeadTests {
    /// An edge between the default handles, as `store:connect` makes it.
    private func link(_ id: String, _ source: String, _ target: String) -> FlowEdge {
        FlowEdge(id: id, sourceNodeID: source, sourceHandleID: "source", targetNodeID: target, targetHandleID: "target")
    }

    /// The edges whose drawn path (sampled every 1 % of its length) comes more than 2 units
    /// inside a node other than its two ends, as "edge node".
    private func through(_ store: Store) throws -> [String] {
        var found: [String] = []
        for e in store.edges {
            let path = try store.edgeGeometry(e.id).path
            let samples = path.points(atFractions: (0...100).map { Double($0) / 100 }).map(\.point)
            for n in store.nodes where n.id != e.sourceNodeID && n.id != e.targetNodeID {
                let inside = n.frame.insetBy(dx: 2, dy: 2)
                if samples.contains(where: inside.contains) { found.append("\(e.id) \(n.id)") }
            }
        }
        return found
    }

    /// A column of triangles feeding one node, left to right: each edge leaves its
    /// triangle's slant, inside the triangle's box, and runs far down to the hub; drawn
    /// without a lead it cut through the boxes of the triangles below (Graphviz's pgram.gv).
    @Test func edgesOutOfAColumnOfTrianglesPassNoneOfThem() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "hub", position: .zero, size: Size(150, 200), data: .null))
        for i in 0..<12 {
            try store.addNode(FlowNode(id: "t\(i)", position: .zero, size: Size(150, 60), data: .null, shape: .triangle))
            try store.addEdge(link("e\(i)", "t\(i)", "hub"))
        }
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .LR)))
        #expect(try through(store) == [])
        // the top triangle's edge leaves straight: its route starts with a lead past the box
        let top = (0..<12).min { store.node("t\($0)")!.frame.minY < store.node("t\($1)")!.frame.minY }!
        let points = store.edge("e\(top)")!.points
        let box = store.node("t\(top)")!.frame
        #expect(points.count >= 2)
        #expect(points[0].x > box.maxX && points[0].x < box.maxX + 10)
        #expect(abs(points[0].y - box.midY) < 1e-6)
    }

    /// Small boxes on both sides of a deep ellipse in their layer, with an edge from one
    /// box across under the ellipse to a node below the other: the curve goes past the
    /// ellipse's depth before it turns, and turns in the middle of the gap between the
    /// layers, not at the ellipse's bottom (Graphviz's proc3d.gv).
    @Test func anEdgeOutOfASmallBoxPassesItsDeeperNeighbour() throws {
        let store = Store()
        for (id, w, h) in [("root", 50.0, 40.0), ("small", 50, 40), ("right", 50, 40), ("far", 50, 40)] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(w, h), data: .null))
        }
        try store.addNode(FlowNode(id: "deep", position: .zero, size: Size(400, 160), data: .null, shape: .ellipse))
        for (id, a, b) in [("r1", "root", "small"), ("r2", "root", "deep"), ("r3", "root", "right"), ("x", "small", "far"),
                           ("y", "right", "far")] {
            try store.addEdge(link(id, a, b))
        }
        try store.layout(LayoutRequest())
        let right = store.node("right")!.frame, deep = store.node("deep")!.frame, far = store.node("far")!.frame
        // the picture this is about: a box beside the ellipse, less deep, the target past it
        #expect(right.minX > deep.maxX && right.maxY < deep.maxY && far.maxX < deep.minX)
        #expect(try through(store) == [])
    }

    /// Many edges into a node with a same-layer neighbour right above it (left to right):
    /// the ends go round the free corner only, none through the neighbour.
    @Test func crowdedEndsGoRoundTheCornerAwayFromANeighbour() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "P", position: .zero, size: Size(150, 60), data: .null, shape: .ellipse))
        try store.addNode(FlowNode(id: "O", position: .zero, size: Size(150, 60), data: .null, shape: .ellipse))
        for i in 0..<26 {
            try store.addNode(FlowNode(id: "s\(i)", position: .zero, size: Size(150, 60), data: .null, shape: .ellipse))
            try store.addEdge(link("e\(i)", "s\(i)", "P"))
        }
        try store.addEdge(link("po", "P", "O"))
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .LR), ranks: [RankSet(.same, ["P", "O"])]))
        #expect(try through(store) == [])
        let ends = try (0..<26).map { try store.edgeGeometry("e\($0)") }
        for (i, a) in ends.enumerated() {
            for b in ends[..<i] { #expect(a.targetPoint.distance(to: b.targetPoint) >= 3) }
        }
        // O sits beside P: the side towards it takes no end
        let p = store.node("P")!.frame, o = store.node("O")!.frame
        let towardsO: HandlePosition = o.midY < p.midY ? .top : .bottom
        #expect(!ends.contains { $0.targetPosition == towardsO })
    }
}

/// Curves through bend points round a sharp turn tightly (`SmoothCurve.cornerReach`).
@Suite struct CornerTests {
    @Test func aRightAngledTurnBulgesLittle() throws {
        // a back edge's shape: along, a right angle, a long run, a right angle
        let points = [Point(300, 0), Point(0, 0), Point(0, -300)]
        let path = BezierPath().path(from: Point(600, 0), sourcePosition: .left, through: points, to: Point(300, -300), targetPosition: .right)
        let samples = path.points(atFractions: (0...200).map { Double($0) / 200 }).map(\.point)
        // the route keeps to x >= 0 and y <= 0: the curve strays at most about 24 units past
        #expect(samples.allSatisfy { $0.x > -24 && $0.y < 24 })
        #expect(samples.contains { $0.x < -1 })  // and it is a curve, not the corner itself
    }
}

/// Field ports (`LayoutPlan+FieldPorts.swift`): edges into one field of a record end apart
/// along that field (Graphviz's triedds.gv: four edges into `node3:f0`).
@Suite struct FieldPortTests {
    @Test func edgesIntoOneFieldEndApartAlongIt() throws {
        let store = Store()
        let fields = [
            HandleDeclaration(id: "in-f0", type: .target, position: .left, offset: -1.0 / 3),
            HandleDeclaration(id: "in-f1", type: .target, position: .left, offset: 0),
            HandleDeclaration(id: "out", type: .source, position: .right),
        ]
        try store.addNode(FlowNode(id: "rec", position: .zero, size: Size(120, 90), data: .null, handles: fields, shape: .record))
        for i in 0..<4 {
            try store.addNode(FlowNode(id: "s\(i)", position: .zero, size: Size(60, 30), data: .null))
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "s\(i)", sourceHandleID: "source", targetNodeID: "rec", targetHandleID: "in-f0"))
        }
        try store.addEdge(FlowEdge(id: "other", sourceNodeID: "s0", sourceHandleID: "source", targetNodeID: "rec", targetHandleID: "in-f1"))
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .LR)))
        let rec = store.node("rec")!.frame
        let ends = try (0..<4).map { try store.edgeGeometry("e\($0)") }
        for (i, a) in ends.enumerated() {
            #expect(a.targetPosition == .left && abs(a.targetPoint.x - rec.minX) < 1e-6)
            // on the top field's stretch: above halfway to the middle field's port
            #expect(a.targetPoint.y > rec.minY && a.targetPoint.y < rec.midY - rec.height / 6)
            for b in ends[..<i] { #expect(a.targetPoint.distance(to: b.targetPoint) >= 3.5) }
        }
        // ordered as the sources lie: no two cross beside the record
        let sources = (0..<4).map { store.node("s\($0)")!.frame.midY }
        let ys = ends.map(\.targetPoint.y)
        #expect(zip(sources, ys).sorted { $0.0 < $1.0 }.map(\.1) == ys.sorted())
        // the lone edge into the middle field keeps its port's point
        #expect(try store.edgeGeometry("other").targetPoint == Point(rec.minX, rec.midY))
    }
}
