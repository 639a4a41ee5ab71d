@testable import FlowLayout
import TestSupport
import Testing

/// Moving a long edge as a whole (`ChainSifting`): the places it picks for the edge's dummies
/// are the best ones (within its windows, when it has them), counted by brute force, and a
/// move always removes crossings.
@Suite struct ChainSiftingTests {
    /// Random layered graph with long edges, every layer shuffled.
    private func graph(seed: UInt64) -> (ProperGraph, [[Int]]) {
        var r = TestSupport.SplitMix64(seed: seed)
        let layers = 6, width = 5
        let edges = LayeredTestGraphs.edges(layers: layers, width: width, reach: 3, &r)
        let g = LayeredTestGraphs.proper(layers: layers, width: width, edges: edges)
        var order = Array(repeating: [Int](), count: g.layerCount)
        for v in 0..<g.count { order[g.layer[v]].append(v) }
        return (g, order.map { $0.shuffled(using: &r) })
    }

    /// Pairs of segments that swap sides between neighbouring layers.
    private func crossings(_ g: ProperGraph, _ position: [Int]) -> Int {
        var count = 0
        for a in g.segments { for b in g.segments where g.layer[a.upper] == g.layer[b.upper] {
            if (position[a.upper] - position[b.upper]) * (position[a.lower] - position[b.lower]) < 0 { count += 1 }
        } }
        return count / 2
    }

    private func positions(_ layers: [[Int]], count: Int) -> [Int] {
        var position = Array(repeating: 0, count: count)
        for layer in layers { for (i, v) in layer.enumerated() { position[v] = i } }
        return position
    }

    /// With no window every place of both layers is a candidate; with one, the places
    /// within it of where each dummy was.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64], [nil, 1] as [Int?])
    func movesAreBestWithinTheirWindowsAndRemoveCrossings(seed: UInt64, window: Int?) {
        var (g, layers) = graph(seed: seed)
        var position = positions(layers, count: g.count)
        var checked = 0
        for chain in g.chains where chain.count == 4 {
            let before = crossings(g, position)
            let (d0, d1) = (chain[1], chain[2])
            let (p0, p1) = (position[d0], position[d1])
            let moved = ChainSifting.place(chain, graph: g, layers: &layers, position: &position, window: window)
            let after = crossings(g, position)
            #expect(moved ? after < before : after == before)
            let reach = window ?? g.count
            #expect(abs(position[d0] - p0) <= reach && abs(position[d1] - p1) <= reach)
            // every other pair of candidate places crosses at least as often
            var others = layers
            others[g.layer[d0]].removeAll { $0 == d0 }
            others[g.layer[d1]].removeAll { $0 == d1 }
            for q0 in max(0, p0 - reach)...min(others[g.layer[d0]].count, p0 + reach) {
                for q1 in max(0, p1 - reach)...min(others[g.layer[d1]].count, p1 + reach) {
                    var trial = others
                    trial[g.layer[d0]].insert(d0, at: q0)
                    trial[g.layer[d1]].insert(d1, at: q1)
                    #expect(crossings(g, positions(trial, count: g.count)) >= after)
                }
            }
            checked += 1
        }
        #expect(checked > 0)
    }
}
