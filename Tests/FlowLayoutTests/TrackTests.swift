import FlowCore
import FlowLayout
import TestSupport
import Testing

/// Tracks (`LayoutPlan+Tracks.swift`): the runs of stepped routes across one gap between
/// layers lie on lines of their own, except the runs of one fan.
@Suite struct TrackTests {
    /// The runs across the flow (horizontal in `TB`) of edge `id` as drawn: (y, x from, x to).
    private func runs(_ store: Store, _ id: String) throws -> [(y: Double, lo: Double, hi: Double)] {
        let g = try store.edgeGeometry(id)
        let all = [g.sourcePoint] + g.points + [g.targetPoint]
        return zip(all, all.dropFirst()).compactMap { p, q in
            p.y == q.y && p.x != q.x ? (p.y, min(p.x, q.x), max(p.x, q.x)) : nil
        }
    }

    /// Length that edges `a` and `b` share on one horizontal line.
    private func shared(_ store: Store, _ a: String, _ b: String) throws -> Double {
        var total = 0.0
        for r in try runs(store, a) {
            for s in try runs(store, b) where r.y == s.y { total += max(0, min(r.hi, s.hi) - max(r.lo, s.lo)) }
        }
        return total
    }

    @Test(arguments: [EdgePathType.smoothStep, .orthogonal])
    func edgesWithNothingInCommonDoNotShareALine(_ type: EdgePathType) throws {
        // three sources above, three targets below, each source to each target
        let store = Store()
        for id in ["a0", "a1", "a2", "b0", "b1", "b2"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(80, 40), data: .null))
        }
        let pairs = ["a0", "a1", "a2"].flatMap { a in ["b0", "b1", "b2"].map { (a, $0) } }
        for (i, (s, t)) in pairs.enumerated() {
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: s, sourceHandleID: "source", targetNodeID: t, targetHandleID: "target", pathType: type))
        }
        try store.layout(LayoutRequest(options: LayoutOptions(nodeSpacing: 30, layerSpacing: 60)))
        var steps = 0
        for i in pairs.indices {
            steps += try runs(store, "e\(i)").count
            for j in pairs.indices where j < i {
                let common = Set([pairs[i].0, pairs[i].1]).intersection([pairs[j].0, pairs[j].1])
                guard common.isEmpty else { continue }
                #expect(try shared(store, "e\(i)", "e\(j)") == 0, "e\(i) and e\(j) share a line")
            }
        }
        #expect(steps >= 6, "the edges step across the gap")
        // the runs out of a0 are one fan: one line
        let fan = try (0..<3).flatMap { try runs(store, "e\($0)").map(\.y) }
        #expect(Set(fan).count == 1, "\(fan)")
    }

    @Test func tracksAreTheSameEveryTime() throws {
        func make() throws -> [[Point]] {
            let store = Store()
            for i in 0..<12 { try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(60, 30), data: .null)) }
            for i in 0..<12 {
                for d in [3, 5] where i + d < 12 {
                    try store.addEdge(FlowEdge(id: "e\(i)_\(d)", sourceNodeID: "n\(i)", targetNodeID: "n\(i + d)", pathType: .smoothStep))
                }
            }
            try store.layout()
            return store.edges.map(\.points)
        }
        #expect(try make() == make())
    }
}
