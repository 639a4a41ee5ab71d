import FlowCore
import FlowLayout
import TestSupport
import Testing

/// Ports (`LayoutPlan+Ports.swift`): edges that share a node side after a layout end at
/// points of their own along it, ordered as their routes leave, so no two share an
/// arrowhead and none cross beside the node.
@Suite struct PortTests {
    /// A fan: `hub` with three children below it (out), or three parents above it (in).
    private func fan(out: Bool, pathType: EdgePathType = .bezier, direction: String = "TB") throws -> Store {
        let store = Store()
        try store.addNode(FlowNode(id: "hub", position: .zero, size: Size(150, 40), data: .null))
        for i in 0..<3 {
            try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(60, 30), data: .null))
            let (a, b) = out ? ("hub", "n\(i)") : ("n\(i)", "hub")
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: a, targetNodeID: b, pathType: pathType))
        }
        try store.layout(LayoutRequest(options: LayoutOptions(direction: direction == "LR" ? .LR : .TB)))
        return store
    }

    /// A lone edge with no handle ids ends on the outline where its route was laid out
    /// from, not at the node centres, where its arrowhead lay hidden under the node.
    @Test func aLoneEdgeWithoutHandleIDsEndsOnTheOutlines() throws {
        let store = Store()
        for id in ["a", "b"] { try store.addNode(FlowNode(id: id, position: .zero, size: Size(150, 60), data: .null)) }
        try store.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
        try store.layout(LayoutRequest(options: LayoutOptions()))
        let a = store.node("a")!.frame, b = store.node("b")!.frame
        let g = try store.edgeGeometry("e")
        #expect(g.sourcePoint == Point(a.midX, a.maxY))
        #expect(g.targetPoint == Point(b.midX, b.minY))
        #expect(g.sourcePosition == .bottom && g.targetPosition == .top)
    }

    @Test func edgesIntoOneSideEndApartInTheOrderTheyArrive() throws {
        let store = try fan(out: false)
        let hub = store.node("hub")!.frame
        let ends = try (0..<3).map { i in try store.edgeGeometry("e\(i)") }
        let xs = ends.map(\.targetPoint.x)
        #expect(Set(xs).count == 3)
        for g in ends {
            #expect(g.targetPoint.y == hub.minY)
            #expect(g.targetPosition == .top)
            #expect(g.targetPoint.x > hub.minX && g.targetPoint.x < hub.maxX)
        }
        // ordered as the sources lie: no two cross beside the hub
        let sources = (0..<3).map { store.node("n\($0)")!.frame.midX }
        #expect(zip(sources, xs).sorted { $0.0 < $1.0 }.map(\.1) == xs.sorted())
        for i in 0..<3 { for j in 0..<i { #expect(abs(xs[i] - xs[j]) >= 3) } }
    }

    /// Many edges into a small node (Graphviz's trapeziumlr.gv: 26 into a 36-unit side):
    /// too many for the side, the ends go round its corners onto the neighbouring sides,
    /// every one apart from the others and on the node's outline.
    @Test func edgesTooManyForASideGoRoundItsCorners() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "hub", position: .zero, size: Size(160, 36), data: .null, shape: .trapezium))
        for i in 0..<26 {
            try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(90, 36), data: .null))
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "n\(i)", targetNodeID: "hub"))
        }
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .LR)))
        let hub = store.node("hub")!.frame
        let ends = try (0..<26).map { try store.edgeGeometry("e\($0)") }
        var sides = Set<HandlePosition>()
        for (i, a) in ends.enumerated() {
            sides.insert(a.targetPosition)
            #expect(a.targetPosition != .right)
            #expect(a.targetPoint.x >= hub.minX - 1e-6 && a.targetPoint.x <= hub.midX + 1e-6)
            for b in ends[..<i] { #expect(a.targetPoint.distance(to: b.targetPoint) >= 3) }
        }
        #expect(sides == [.top, .left, .bottom])
        // an edge beside another between the same two nodes goes round too, an end of its own
        try store.addEdge(FlowEdge(id: "again", sourceNodeID: "n0", targetNodeID: "hub"))
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .LR)))
        let again = try ((0..<26).map { "e\($0)" } + ["again"]).map { try store.edgeGeometry($0).targetPoint }
        for (i, a) in again.enumerated() {
            for b in again[..<i] { #expect(a.distance(to: b) >= 3) }
        }
    }

    @Test func edgesOutOfOneSideLeaveApart() throws {
        for direction in ["TB", "LR"] {
            let store = try fan(out: true, direction: direction)
            let hub = store.node("hub")!.frame
            let starts = try (0..<3).map { try store.edgeGeometry("e\($0)").sourcePoint }
            #expect(Set(starts).count == 3, "\(direction)")
            for p in starts { #expect(direction == "TB" ? p.y == hub.maxY : p.x == hub.maxX, "\(direction)") }
        }
    }

    @Test func steppedEdgesIntoOneSideEndApart() throws {
        // (orthogonal edges the store's router routes, see RoutingTests)
        for type in [EdgePathType.smoothStep] {
            let store = try fan(out: false, pathType: type)
            let hub = store.node("hub")!.frame
            let ends = try (0..<3).map { try store.edgeGeometry("e\($0)").targetPoint }
            #expect(Set(ends).count == 3, "\(type)")
            for p in ends { #expect(p.y == hub.minY && p.x > hub.minX && p.x < hub.maxX, "\(type)") }
            // in the order the sources lie, and the last legs still straight down the flow
            let sources = (0..<3).map { store.node("n\($0)")!.frame.midX }
            #expect(zip(sources, ends.map(\.x)).sorted { $0.0 < $1.0 }.map(\.1) == ends.map(\.x).sorted(), "\(type)")
            for i in 0..<3 {
                let g = try store.edgeGeometry("e\(i)")
                let before = g.points.last ?? g.sourcePoint
                #expect(before.x == g.targetPoint.x, "\(type) e\(i)")
            }
        }
    }

    @Test func steppedEdgesOutOfOneSideShareTheHandlePoint() throws {
        let store = try fan(out: true, pathType: .smoothStep)
        let starts = try (0..<3).map { try store.edgeGeometry("e\($0)").sourcePoint }
        #expect(Set(starts).count == 1)
    }

    @Test func aLoneEdgeKeepsTheHandlePoint() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "a", position: .zero, size: Size(100, 40), data: .null))
        try store.addNode(FlowNode(id: "b", position: .zero, size: Size(100, 40), data: .null))
        try store.addEdge(FlowEdge(id: "e", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target"))
        try store.layout()
        let g = try store.edgeGeometry("e")
        #expect(g.targetPoint == HandlePosition.top.point(in: store.node("b")!.frame))
        #expect(store.edge("e")!.points.isEmpty)
    }
}

extension PortTests {
    @Test func aDiamondFromAClassSpreadsItsPortsNearItsTip() throws {
        let store = Store()
        try store.setClassStyles(["decision": FlowClass(shape: .diamond)])
        try store.addNode(FlowNode(id: "d", position: .zero, size: Size(150, 80), data: .null, classes: ["decision"]))
        for i in 0..<2 {
            try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(60, 30), data: .null))
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "d", targetNodeID: "n\(i)"))
        }
        try store.layout()
        let starts = try (0..<2).map { try store.edgeGeometry("e\($0)").sourcePoint }
        let d = store.node("d")!.frame
        #expect(starts[0] != starts[1])
        for p in starts {
            // on the diamond's lower slants, not the frame's bottom
            #expect(abs(abs(p.x - d.midX) / (d.width / 2) + abs(p.y - d.midY) / (d.height / 2) - 1) < 1e-9)
            #expect(p.y > d.midY && p.y < d.maxY)
        }
    }

    @Test func ellipsePortsLieOnTheCurve() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "o", position: .zero, size: Size(120, 60), data: .null, shape: .ellipse))
        for i in 0..<3 {
            try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(60, 30), data: .null))
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "n\(i)", targetNodeID: "o"))
        }
        try store.layout()
        let o = store.node("o")!.frame
        let ends = try (0..<3).map { try store.edgeGeometry("e\($0)").targetPoint }
        #expect(Set(ends).count == 3)
        for p in ends {
            let dx = (p.x - o.midX) / (o.width / 2), dy = (p.y - o.midY) / (o.height / 2)
            #expect(abs(dx * dx + dy * dy - 1) < 1e-9 && p.y < o.midY)
        }
        // and they move with it
        try store.moveNode("o", to: o.origin + Point(15, 25))
        #expect(try (0..<3).map { try store.edgeGeometry("e\($0)").targetPoint } == ends.map { $0 + Point(15, 25) })
    }
}

extension PortTests {
    @Test func aPortMovesWithItsNode() throws {
        let store = try fan(out: false)
        let hub = store.node("hub")!.frame
        let before = try store.edgeGeometry("e0")
        try store.moveNode("hub", to: Point(hub.minX + 30, hub.minY + 50))
        let after = try store.edgeGeometry("e0")
        // still attached at its own point on the hub's top, moved with it
        #expect(after.targetPoint == before.targetPoint + Point(30, 50))
        #expect(after.points == before.points)
        try store.undo()
        #expect(try store.edgeGeometry("e0") == before)
    }
}

extension PortTests {
    /// Ports on the round caps of stadiums and cylinders and on a parallelogram's slants lie
    /// on the outline, and an edge attaches there by that side.
    @Test func portsOnCapsAndSlantsLieOnTheOutline() throws {
        let cases: [(NodeShape, LayoutDirection)] = [(.stadium, .LR), (.cylinder, .TB), (.parallelogram, .LR)]
        for (shape, direction) in cases {
            let store = Store()
            try store.addNode(FlowNode(id: "o", position: .zero, size: Size(140, 60), data: .null, shape: shape))
            for i in 0..<3 {
                try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(60, 30), data: .null))
                try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "n\(i)", targetNodeID: "o"))
            }
            try store.layout(LayoutRequest(options: LayoutOptions(direction: direction)))
            let o = store.node("o")!.frame
            let side: HandlePosition = direction == .LR ? .left : .top
            let ends = try (0..<3).map { try store.edgeGeometry("e\($0)") }
            #expect(Set(ends.map(\.targetPoint)).count == 3, "\(shape)")
            for g in ends {
                #expect(g.targetPosition == side, "\(shape)")
                #expect(shape.portSide(of: g.targetPoint, in: o) == side, "\(shape) \(g.targetPoint)")
            }
        }
    }

    @Test func capAndSlantPortsRoundTrip() {
        let f = Rect(10, 20, 140, 60)
        for (shape, side) in [(NodeShape.stadium, HandlePosition.left), (.stadium, .right), (.cylinder, .top),
                              (.cylinder, .bottom), (.parallelogram, .left), (.parallelogram, .right)] {
            for offset in [-12.0, 0, 7.5] {
                let p = shape.portPoint(side, offset: offset, in: f)
                #expect(shape.portSide(of: p, in: f) == side, "\(shape) \(side) \(offset)")
            }
        }
        // the middle of a cap is the handle's point
        #expect(NodeShape.stadium.portPoint(.left, offset: 0, in: f) == Point(10, 50))
        #expect(NodeShape.cylinder.portPoint(.top, offset: 0, in: f) == Point(80, 20))
        #expect(NodeShape.parallelogram.portPoint(.left, offset: 0, in: f)
            == NodeShape.parallelogram.handlePoint(.left, in: f))
    }
}
