@testable import FlowLayout
import TestSupport
import Testing

/// The pulled coordinate solve of a stable layout settles (`StableLayout.settling`): it
/// reaches its optimum, so the next stable layout of the drawing leaves the nodes where
/// they are. Cut short at a fresh solve's pivots and work, each layout went on moving the
/// nodes towards the last one's optimum.
@Suite struct StableSettlingTests {
    /// 24 layers of 30 placed nodes with two edges down one to eight layers from each (5,051
    /// vertices with the dummies), each node pulled towards a random place: from there the
    /// solve needs more than a fresh solve's pivots and work. Solved again from its own
    /// result (every vertex's target where the first solve put it), nothing moves. With
    /// `settling` 1, 374 of the 720 nodes moved.
    @Test func thePulledSolveReachesItsOptimum() {
        var r = TestSupport.SplitMix64(seed: 3)
        let layerCount = 24, width = 30
        let ranks = (0..<(layerCount * width)).map { $0 / width }
        var edges: [(source: Int, target: Int)] = []
        for v in 0..<((layerCount - 1) * width) {
            for _ in 0..<2 {
                let down = min(layerCount - 1 - ranks[v], 1 + r.below(8))
                edges.append((v, (ranks[v] + down) * width + r.below(width)))
            }
        }
        let g = ProperGraph(
            ranks: ranks, breadth: Array(repeating: 72, count: ranks.count), depth: Array(repeating: 36, count: ranks.count),
            edges: edges, ports: Array(repeating: (0, 0), count: edges.count),
            labels: Array(repeating: nil, count: edges.count))
        let layers = Ordering(graph: g).layers
        let separation = Coordinates(graph: g, layers: layers, nodeSpacing: 18, edgeSpacing: 10).separation
        let hold = Array(repeating: 1, count: g.realCount)
        let wanted: [Double?] = (0..<g.realCount).map { _ in Double(r.below(width * 300)) }
        let x = StableLayout.coordinates(graph: g, layers: layers, along: wanted, hold: hold, separation: separation)
        let again = StableLayout.coordinates(
            graph: g, layers: layers, along: x.map { Optional($0) }, hold: hold, separation: separation)
        // (the solve leaves the drawing's place free: the layout puts it back after)
        let shift = (0..<g.realCount).map { again[$0] - x[$0] }.sorted()[g.realCount / 2]
        let moved = (0..<g.realCount).filter { abs(again[$0] - shift - x[$0]) >= 1 }.count
        #expect(moved == 0, "\(moved) of \(g.realCount) nodes moved when solved again from where they were")
    }
}

/// Where the stable steps start: the coordinate solve from each layer's targets as near as
/// the separations allow, the large graphs' layering from the previous layers.
@Suite struct StableStartTests {
    /// A node fitted in between two placed ones pushes both aside by half of what it
    /// needs, not the rest of the layer by all of it.
    @Test func aNewNodePushesBothSidesAside() {
        let start = StableLayout.start(layers: [[0, 1, 2]], targets: [0, nil, 90], count: 3, separation: { _, _ in 90 })
        #expect(start == [-45, 45, 135])
    }

    /// The layering's start keeps every edge at least its length: a placed node at its
    /// previous layer, pushed down where an edge needs it (here 0 -> 1 of length 2 across
    /// one previous layer), a new node (2) below its edge into it, each placed node's
    /// variable at the lower of its node's and its layer's ranks.
    @Test func theLayeringStartIsFeasible() throws {
        let n = 3, lines = 2
        var edges: [NetworkSimplex.Edge] = [
            .init(source: 0, target: 1, minLength: 2, weight: 1), .init(source: 1, target: 2, minLength: 1, weight: 1),
            .init(source: n, target: n + 1, minLength: 1, weight: 1),
        ]
        let previousLayer: [Int?] = [0, 1, nil]
        var count = n + lines
        for v in 0..<n {
            guard let l = previousLayer[v] else { continue }
            edges.append(.init(source: count, target: n + l, minLength: 0, weight: 2))
            edges.append(.init(source: count, target: v, minLength: 0, weight: 2))
            count += 1
        }
        let rank = try #require(
            StableLayout.layeringStart(n: n, lines: lines, count: count, edges: edges, previousLayer: previousLayer))
        #expect(rank == [0, 2, 3, 0, 1, 0, 1])
        for e in edges { #expect(rank[e.target] - rank[e.source] >= e.minLength) }
    }
}
