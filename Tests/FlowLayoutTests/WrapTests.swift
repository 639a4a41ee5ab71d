import FlowCore
import FlowLayout
import TestSupport
import Testing

/// A chain of `n` 150×60 boxes, each linked to the next, plus `extra` edges.
private func chain(_ n: Int, extra: [(Int, Int)] = []) throws -> FlowStore<JSONValue> {
    let store = FlowStore<JSONValue>()
    for i in 0..<n { try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(150, 60), data: .null)) }
    for i in 0..<(n - 1) { try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "n\(i)", targetNodeID: "n\(i + 1)")) }
    for (k, (a, b)) in extra.enumerated() {
        try store.addEdge(FlowEdge(id: "x\(k)", sourceNodeID: "n\(a)", targetNodeID: "n\(b)"))
    }
    return store
}

private func bounds(_ s: FlowStore<JSONValue>) -> Rect {
    s.nodes.map(\.frame).reduce(s.nodes[0].frame) { $0.union($1) }
}

/// Edge segments (routes, ends at the node centres' sides) that run through a node other
/// than their two ends, and pairs of overlapping nodes.
private func defects(_ s: FlowStore<JSONValue>) -> (through: Int, overlaps: Int) {
    let nodes = s.nodes
    var overlaps = 0
    for (i, a) in nodes.enumerated() {
        for b in nodes[(i + 1)...] where a.frame.insetBy(dx: 1, dy: 1).intersects(b.frame) { overlaps += 1 }
    }
    var through = 0
    for e in s.edges {
        guard let a = s.node(e.sourceNodeID), let b = s.node(e.targetNodeID) else { continue }
        let pts = e.points
        for n in nodes where n.id != a.id && n.id != b.id {
            let box = n.frame.insetBy(dx: 1, dy: 1)
            for (p, q) in zip(pts, pts.dropFirst()) where segment(p, q, crosses: box) { through += 1 }
        }
    }
    return (through, overlaps)
}

/// Whether the axis-parallel or slanted segment pq passes inside `box` (sampled finely).
private func segment(_ p: Point, _ q: Point, crosses box: Rect) -> Bool {
    let steps = 64
    for i in 0...steps {
        let t = Double(i) / Double(steps)
        let x = p.x + (q.x - p.x) * t, y = p.y + (q.y - p.y) * t
        if x > box.minX && x < box.maxX && y > box.minY && y < box.maxY { return true }
    }
    return false
}

@Suite struct WrapTests {
    @Test func aLongChainIsWrappedIntoColumnsNearTheRatio() throws {
        let plain = try chain(20)
        try plain.layout(LayoutRequest(options: LayoutOptions()))
        let wrapped = try chain(20)
        let stats = try wrapped.layout(LayoutRequest(options: LayoutOptions(aspectRatio: 1.5)))
        let before = bounds(plain), after = bounds(wrapped)
        #expect(before.width / before.height < 0.2)
        let ratio = after.width / after.height
        #expect(ratio > 1.0 && ratio < 2.25, "ratio \(ratio)")
        #expect(abs(stats.width - after.width) < 1e-6 && abs(stats.height - after.height) < 1e-6)
        let d = defects(wrapped)
        #expect(d.through == 0 && d.overlaps == 0)
        // the edges between columns run around them: every route leaves below its source
        let columns = Set(wrapped.nodes.map { Int($0.position.x.rounded()) })
        #expect(columns.count > 2)
    }

    @Test func leftToRightPipelinesWrapIntoRowsReadInOrder() throws {
        let s = try chain(16)
        try s.layout(LayoutRequest(options: LayoutOptions(direction: .LR, aspectRatio: 2)))
        let rows = Set(s.nodes.map { Int($0.position.y.rounded()) }).sorted()
        #expect(rows.count > 1)
        // row by row, left to right: the chain's order
        let order = s.nodes.sorted { ($0.position.y, $0.position.x) < ($1.position.y, $1.position.x) }.map(\.id)
        #expect(order == (0..<16).map { "n\($0)" })
        let d = defects(s)
        #expect(d.through == 0 && d.overlaps == 0)
    }

    @Test func theCutsRouteEachCrossingEdgeInALaneOfItsOwn() throws {
        let s = try chain(18, extra: [(1, 12), (2, 9), (4, 15)])
        try s.layout(LayoutRequest(options: LayoutOptions(aspectRatio: 1.5)))
        #expect(bounds(s).height < 18 * 120 / 2)  // wrapped: under half the chain's length (60 + 60 a step)
        #expect(defects(s).through == 0)
        // horizontal runs of different edges never lie on one line where they overlap
        var runs: [(id: String, y: Double, lo: Double, hi: Double)] = []
        for e in s.edges {
            for (p, q) in zip(e.points, e.points.dropFirst()) where abs(p.y - q.y) < 1e-6 && abs(p.x - q.x) > 5 {
                runs.append((e.id, p.y, min(p.x, q.x), max(p.x, q.x)))
            }
        }
        for (i, a) in runs.enumerated() {
            for b in runs[(i + 1)...] where a.id != b.id && abs(a.y - b.y) < 1 {
                #expect(min(a.hi, b.hi) - max(a.lo, b.lo) <= 5, "\(a.id) and \(b.id) share a run at y \(a.y)")
            }
        }
    }

    @Test func anEdgeAgainstTheFlowIsNeverCut() throws {
        // the last step goes back to the first: no cut can leave it inside one part
        let wrapped = try chain(12, extra: [(11, 0)])
        try wrapped.layout(LayoutRequest(options: LayoutOptions(aspectRatio: 1.5)))
        let plain = try chain(12, extra: [(11, 0)])
        try plain.layout(LayoutRequest(options: LayoutOptions()))
        #expect(try wrapped.export() == plain.export())
    }

    @Test func aRatioTheLayoutAlreadyMeetsChangesNothing() throws {
        let wrapped = try chain(6)
        try wrapped.layout(LayoutRequest(options: LayoutOptions(aspectRatio: 0.05)))
        let plain = try chain(6)
        try plain.layout(LayoutRequest(options: LayoutOptions()))
        #expect(try wrapped.export() == plain.export())
    }

    @Test func groupsMoveWholeWithTheirChildren() throws {
        let s = try chain(16)
        try s.addNode(FlowNode(id: "g", position: .zero, size: Size(10, 10), data: .null, acceptsChildren: true))
        for i in 6..<10 { try s.updateNode("n\(i)") { $0.parentID = "g" } }
        try s.layout(LayoutRequest(options: LayoutOptions(aspectRatio: 1.5)))
        #expect(bounds(s).height < 16 * 120 / 2)  // wrapped: under half the chain's length (60 + 60 a step)
        let g = try #require(s.node("g")).frame
        for i in 6..<10 {
            let f = try #require(s.node("n\(i)")).frame
            #expect(f.minX >= g.minX && f.maxX <= g.maxX && f.minY >= g.minY && f.maxY <= g.maxY)
        }
        #expect(defects(s).overlaps <= 4)  // the group overlaps its own four children only
    }

    @Test func theSameInputGivesTheSameWrap() throws {
        var exports: [String] = []
        for _ in 0..<2 {
            let s = try chain(25, extra: [(3, 17), (5, 20)])
            try s.layout(LayoutRequest(options: LayoutOptions(aspectRatio: 1)))
            exports.append(try s.export())
        }
        #expect(exports[0] == exports[1])
    }

    @Test func aRatioTheWrapCannotHonourIsRefusedAndChangesNothing() throws {
        let s = try chain(10)
        try s.addNode(FlowNode(id: "p", position: Point(500, 500), size: Size(10, 10), data: .null))
        let before = try s.export()
        for bad in [0.0, -1, .infinity, .nan] {
            #expect(throws: FlowError.self) { try s.layout(LayoutRequest(options: LayoutOptions(aspectRatio: bad))) }
        }
        func message(_ r: LayoutRequest) -> String {
            do { try s.layout(r) } catch { return error.description }
            return ""
        }
        #expect(message(LayoutRequest(options: LayoutOptions(aspectRatio: 0))).contains("aspectRatio must be a positive number"))
        #expect(message(LayoutRequest(algorithm: .tree, options: LayoutOptions(aspectRatio: 1))).contains("tree"))
        #expect(message(LayoutRequest(options: LayoutOptions(stable: true, aspectRatio: 1))).contains("stable"))
        #expect(message(LayoutRequest(options: LayoutOptions(aspectRatio: 1), pinned: ["p"])).contains("'p' is pinned"))
        #expect(try s.export() == before)
    }
}
