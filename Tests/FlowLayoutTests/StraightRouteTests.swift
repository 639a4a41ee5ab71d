import FlowCore
@testable import FlowLayout
import TestSupport
import Testing

/// Long edges run as straight as their layers allow, and flat curved edges get a middle
/// point (docs/layout.md, step 7): the nodes and the drawn crossings stay the same, routes
/// get shorter, and no route passes through a node.
@Suite struct StraightRouteTests {
    /// `count` nodes of varied breadth; edges from each node to one to four layers further on
    /// in a hidden order, so many edges are long.
    private func graph(count: Int, seed: UInt64, pathType: EdgePathType) -> LayoutGraph {
        var r = TestSupport.SplitMix64(seed: seed)
        var g = LayoutGraph()
        for _ in 0..<count { g.nodes.append(.init(width: Double(40 + r.next() % 60), height: 36)) }
        for v in 1..<count {
            for _ in 0..<2 {
                let u = Int(r.next() % UInt64(v))
                g.edges.append(.init(source: u, target: v, pathType: pathType))
            }
        }
        return g
    }

    /// The routes as drawn: from the bottom of the upper end through the bend points to
    /// the top of the lower end (as flowbench draws them).
    private func drawing(_ g: LayoutGraph, _ r: LayoutResult) -> (routes: [DrawnCrossings.Route], boxes: [Rect]) {
        let boxes = (0..<g.nodes.count).map { Rect(origin: r.positions[$0], size: Size(g.nodes[$0].width, g.nodes[$0].height)) }
        let routes = g.edges.enumerated().map { i, e in
            let a = boxes[e.source], b = boxes[e.target]
            let start = Point(a.origin.x + a.size.width / 2, a.origin.y + a.size.height)
            let end = Point(b.origin.x + b.size.width / 2, b.origin.y)
            return DrawnCrossings.Route(source: e.source, target: e.target, points: [start] + r.edgePoints[i] + [end])
        }
        return (routes, boxes)
    }

    private func length(_ routes: [DrawnCrossings.Route]) -> Double {
        routes.reduce(0) { sum, r in zip(r.points, r.points.dropFirst()).reduce(sum) { $0 + $1.0.distance(to: $1.1) } }
    }

    /// Whether the segment from `p` to `q` passes through the inside of `box`.
    private func enters(_ p: Point, _ q: Point, _ box: Rect) -> Bool {
        // sampled finely enough for these sizes: a step of at most one unit
        let steps = max(1, Int(p.distance(to: q)))
        return (0...steps).contains { k in
            let t = Double(k) / Double(steps)
            let x = p.x + (q.x - p.x) * t, y = p.y + (q.y - p.y) * t
            return x > box.origin.x + 0.5 && x < box.origin.x + box.size.width - 0.5
                && y > box.origin.y + 0.5 && y < box.origin.y + box.size.height - 0.5
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func straightRoutesKeepNodesAndCrossings(seed: UInt64) {
        let options = LayoutOptions(nodeSpacing: 18, layerSpacing: 36)
        // smoothStep keeps each long edge's dummies in line; straight ones move
        let lined = graph(count: 60, seed: seed, pathType: .smoothStep)
        let straight = graph(count: 60, seed: seed, pathType: .straight)
        let a = LayeredLayout.layout(lined, options: options)
        let b = LayeredLayout.layout(straight, options: options)
        #expect(a.positions == b.positions)
        let da = drawing(lined, a), db = drawing(straight, b)
        #expect(DrawnCrossings.count(routes: da.routes, boxes: da.boxes) == DrawnCrossings.count(routes: db.routes, boxes: db.boxes))
        #expect(length(db.routes) < length(da.routes))
        for (i, route) in db.routes.enumerated() {
            // the bend points only: the ends are on the boxes' borders
            let bends = b.edgePoints[i]
            for (p, q) in zip(bends, bends.dropFirst()) {
                for (v, box) in db.boxes.enumerated() where v != route.source && v != route.target {
                    let inside = enters(p, q, box)
                    #expect(!inside, "edge \(i) enters node \(v)")
                }
            }
        }
    }

    @Test func tautRoutesAreStraightUnlessSomethingIsInTheWay() {
        let free = -Double.infinity...Double.infinity
        let ys: [Double] = [20, 40, 60, 80]
        // nothing in the way: on the line
        #expect(StraightRoutes.taut(from: Point(0, 0), to: Point(100, 100), ys: ys, rooms: Array(repeating: free, count: 4))
            == [20, 40, 60, 80])
        // a room at 40 that starts at 80: straight to its corner and on from there
        var rooms = Array(repeating: free, count: 4)
        rooms[1] = 80...200
        let corner = StraightRoutes.taut(from: Point(0, 0), to: Point(0, 100), ys: ys, rooms: rooms)
        #expect(zip(corner, [40, 80, 160.0 / 3, 80.0 / 3]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(corner)")
        // two obstacles on opposite sides: bends at both, straight between them
        rooms = Array(repeating: free, count: 4)
        rooms[0] = 50...100
        rooms[2] = -100...(-50)
        let xs = StraightRoutes.taut(from: Point(0, 0), to: Point(0, 100), ys: ys, rooms: rooms)
        #expect(xs[0] == 50 && xs[2] == -50 && xs[1] == 0)
        #expect(abs(xs[3] - (-25)) < 1e-9)
        // every point stays in its room, also when the rooms force a wiggle
        rooms = [0...10, 30...40, 0...10, 30...40]
        let zig = StraightRoutes.taut(from: Point(0, 0), to: Point(0, 100), ys: ys, rooms: rooms)
        for (x, room) in zip(zig, rooms) { #expect(room.contains(x)) }
        #expect(zig == [10, 30, 10, 30])
        // two points at one height (a layer without depth) share one place
        let level = StraightRoutes.taut(from: Point(0, 0), to: Point(100, 100), ys: [50, 50], rooms: [free, free])
        #expect(level == [50, 50])
    }

    @Test func flatCurvedEdgesBendInTheMiddle() {
        // a parent above the first of six children: its edge to the last runs far sideways
        var g = LayoutGraph()
        for _ in 0..<7 { g.nodes.append(.init(width: 72, height: 36)) }
        for v in 1..<7 { g.edges.append(.init(source: 0, target: v, pathType: .bezier)) }
        let options = LayoutOptions(nodeSpacing: 18, layerSpacing: 36)
        let r = LayeredLayout.layout(g, options: options)
        // the plain curve reaches far past its end, or past it while running sideways
        // more than half the gap (it would turn back in the middle)
        func bends(_ start: Point, _ end: Point) -> Bool {
            let reach = max(50, 0.4 * start.distance(to: end)), gap = end.y - start.y
            return reach > 1.5 * gap || (reach > gap && abs(end.x - start.x) > gap / 2)
        }
        var turningBack = 0
        for (i, e) in g.edges.enumerated() {
            let a = r.positions[e.source], b = r.positions[e.target]
            let start = Point(a.x + 36, a.y + 36), end = Point(b.x + 36, b.y)
            #expect(r.edgePoints[i] == (bends(start, end) ? [(start + end) * 0.5] : []), "edge \(i)")
            if bends(start, end) && max(50, 0.4 * start.distance(to: end)) <= 1.5 * (end.y - start.y) { turningBack += 1 }
        }
        let bent = r.edgePoints.filter { !$0.isEmpty }.count
        #expect(bent > 0 && bent < g.edges.count)
        #expect(turningBack > 0)
        // two edges between the same nodes each bend halfway between their own ports
        var twin = g
        twin.edges.append(.init(source: 0, target: 6, sourcePort: -0.4, targetPort: 0.4, pathType: .bezier))
        twin.edges.append(.init(source: 0, target: 6, sourcePort: 0.3, targetPort: -0.1, pathType: .bezier))
        let t = LayeredLayout.layout(twin, options: options)
        for i in (twin.edges.count - 2)..<twin.edges.count {
            let e = twin.edges[i], a = t.positions[e.source], b = t.positions[e.target]
            let start = Point(a.x + 36 + e.sourcePort * 72, a.y + 36), end = Point(b.x + 36 + e.targetPort * 72, b.y)
            if bends(start, end) {
                #expect(t.edgePoints[i] == [(start + end) * 0.5], "edge \(i)")
            }
        }
        #expect(t.edgePoints[twin.edges.count - 2] != t.edgePoints[twin.edges.count - 1])
        // not for edges drawn another way
        for i in g.edges.indices { g.edges[i].pathType = .straight }
        let plain = LayeredLayout.layout(g, options: options).edgePoints.filter { !$0.isEmpty }.count
        #expect(plain == 0)
    }
}
