import FlowCore
@testable import FlowLayout
import TestSupport
import Testing

/// `effort = thorough`: the normal search and then a long run of kicks, so on every graph it
/// ends with no more crossings than the normal effort, and on the whole with fewer; the
/// result is the same on every run. With groups, the passes that settle the borders search
/// normally and one more pass is thorough, so that holds level by level too.
@Suite struct EffortTests {
    /// A random graph with cycles, multi-edges and edges that span layers.
    private func graph(seed: UInt64, nodes n: Int) -> LayoutGraph {
        var r = TestSupport.SplitMix64(seed: seed)
        var g = LayoutGraph()
        for _ in 0..<n { g.nodes.append(.init(width: Double(30 + r.next() % 90), height: 36)) }
        for v in 1..<n {
            g.edges.append(.init(source: Int(r.next() % UInt64(v)), target: v))
            if r.next() % 2 == 0 { g.edges.append(.init(source: Int(r.next() % UInt64(n)), target: v)) }
        }
        return g
    }

    private func layout(_ g: LayoutGraph, _ effort: LayoutEffort) -> LayoutResult {
        LayeredLayout.layout(g, options: LayoutOptions(nodeSpacing: 18, layerSpacing: 36, effort: effort))
    }

    @Test func thoroughNeverCrossesMoreAndUsuallyLess() {
        var normalTotal = 0, thoroughTotal = 0
        for seed in 1...5 as ClosedRange<UInt64> {
            let g = graph(seed: seed, nodes: 20 + Int(seed) * 12)
            let normal = layout(g, .normal), thorough = layout(g, .thorough)
            #expect(thorough.crossings <= normal.crossings, "seed \(seed): \(thorough.crossings) > \(normal.crossings)")
            normalTotal += normal.crossings
            thoroughTotal += thorough.crossings
        }
        #expect(thoroughTotal < normalTotal, "thorough \(thoroughTotal), normal \(normalTotal)")
    }

    @Test func thoroughIsDeterministicAndKeepsNodesApart() {
        let g = graph(seed: 9, nodes: 60)
        let a = layout(g, .thorough), b = layout(g, .thorough)
        #expect(a.positions == b.positions)
        #expect(a.edgePoints == b.edgePoints)
        for i in 0..<g.nodes.count {
            for j in (i + 1)..<g.nodes.count {
                let p = a.positions[i], q = a.positions[j]
                let apart = p.x + g.nodes[i].width <= q.x + 1e-9 || q.x + g.nodes[j].width <= p.x + 1e-9
                    || p.y + g.nodes[i].height <= q.y + 1e-9 || q.y + g.nodes[j].height <= p.y + 1e-9
                #expect(apart, "nodes \(i) and \(j) overlap")
            }
        }
    }

    @Test func withGroupsThoroughNeverCrossesMore() throws {
        var normalTotal = 0, thoroughTotal = 0
        for seed in 1...4 as ClosedRange<UInt64> {
            var r = TestSupport.SplitMix64(seed: seed)
            let store = FlowStore<JSONValue>()
            var ids: [String] = []
            for g in 0..<3 {
                try store.addNode(FlowNode(
                    id: "g\(g)", position: .zero, size: Size(10, 10), data: .null, acceptsChildren: true))
                for k in 0..<14 {
                    let id = "n\(g)_\(k)"
                    try store.addNode(FlowNode(
                        id: id, position: .zero, size: Size(60, 30), data: .null, parentID: "g\(g)"))
                    ids.append(id)
                }
            }
            for (i, a) in ids.enumerated() {
                for _ in 0..<3 {
                    // mostly within the group, a quarter to anywhere
                    let b = r.next() % 4 == 0 ? ids[Int(r.next() % UInt64(ids.count))] : ids[i / 14 * 14 + Int(r.next() % 14)]
                    if a != b {
                        try store.addEdge(FlowEdge(id: "e\(store.edges.count)", sourceNodeID: a, targetNodeID: b, pathType: .smoothStep))
                    }
                }
            }
            let normal = try store.layout(LayoutRequest())
            let thorough = try store.layout(LayoutRequest(options: LayoutOptions(effort: .thorough)))
            #expect(thorough.crossings <= normal.crossings, "seed \(seed): \(thorough.crossings) > \(normal.crossings)")
            normalTotal += normal.crossings
            thoroughTotal += thorough.crossings
        }
        #expect(thoroughTotal < normalTotal, "thorough \(thoroughTotal), normal \(normalTotal)")
    }
}
