@testable import FlowLayout
import TestSupport
import Testing

/// The order of a stable layout (`StableLayout.order`): placed nodes keep their order
/// unless moving removes more crossings than half a crossing (`StableLayout.flipCost`) per
/// placed node passed, and a placed node with a new neighbour moves as freely as a new one.
@Suite struct StableOrderTests {
    /// Two layers of three placed nodes, t0 t1 t2 over b0 b1 b2, whose edges t0→b2 and
    /// t2→b0 cross once, and, when `withNew`, a new node below b0.
    private func order(withNew: Bool) -> Ordering {
        var edges: [(source: Int, target: Int)] = [(0, 5), (2, 3)]
        var ranks = [0, 0, 0, 1, 1, 1]
        if withNew {
            ranks.append(2)
            edges.append((3, 6))
        }
        let n = ranks.count
        let g = ProperGraph(
            ranks: ranks, breadth: Array(repeating: 72, count: n), depth: Array(repeating: 36, count: n),
            edges: edges, ports: Array(repeating: (0, 0), count: edges.count),
            labels: Array(repeating: nil, count: edges.count))
        var ordering = Ordering(graph: g)
        let along: [Double?] = [0, 100, 200, 0, 100, 200] + (withNew ? [nil] : [])
        StableLayout.order(&ordering, graph: g, along: along)
        return ordering
    }

    /// Alone, the crossing stays: removing it would take a placed node past two others.
    @Test func placedNodesKeepTheirOrderForOneCrossing() {
        var ordering = order(withNew: false)
        #expect(ordering.layers[0] == [0, 1, 2])
        #expect(ordering.layers[1] == [3, 4, 5])
        #expect(ordering.totalCrossings() == 1)
    }

    /// With a new node below b0, b0's neighbourhood changed: it moves past b1 and b2 and
    /// the crossing goes.
    @Test func aNodeWithANewNeighbourMovesFreely() {
        var ordering = order(withNew: true)
        #expect(ordering.totalCrossings() == 0)
        #expect(ordering.layers[0] == [0, 1, 2])
        #expect(ordering.layers[1] == [4, 5, 3])
    }

    /// A flat edge a–c arcs over b, which an edge from above comes down to: b leaves the
    /// arc (past one placed node, for a crossing), which only the flat edges' sifting sees.
    @Test func flatEdgesAreSeen() {
        let edges: [(source: Int, target: Int)] = [(0, 2), (1, 3)]
        let g = ProperGraph(
            ranks: [0, 1, 1, 1], breadth: Array(repeating: 72, count: 4), depth: Array(repeating: 36, count: 4),
            edges: edges, ports: Array(repeating: (0, 0), count: 2), labels: [nil, nil])
        var ordering = Ordering(graph: g)
        StableLayout.order(&ordering, graph: g, along: [0, 0, 100, 200])
        let layer = ordering.layers[1]
        #expect(layer == [2, 1, 3] || layer == [1, 3, 2])
    }
}

/// A stable layout's order with groups (clusters): the sifting keeps each cluster's
/// vertices together, so it orders within the grouping instead of having its order
/// regrouped afterwards.
@Suite struct StableClusterOrderTests {
    /// A random graph of 5 layers of 6 nodes, edges between neighbouring layers, the
    /// nodes 1 and 4 of every layer but the first in one cluster, about half the nodes
    /// placed at random places in their layers.
    private func graph(seed: UInt64) -> (LayoutGraph, ProperGraph, [Double?]) {
        var r = TestSupport.SplitMix64(seed: seed)
        let layers = 5, width = 6, n = layers * width
        var edges: [(source: Int, target: Int)] = []
        for l in 1..<layers {
            for i in 0..<width {
                for _ in 0..<2 { edges.append((source: (l - 1) * width + Int(r.next() % UInt64(width)), target: l * width + i)) }
            }
        }
        var nodes: [LayoutGraph.Node] = []
        for v in 0..<n {
            let inCluster = v >= width && (v % width == 1 || v % width == 4)
            nodes.append(.init(width: 72, height: 36, cluster: inCluster ? 0 : -1))
        }
        let graph = LayoutGraph(
            nodes: nodes, edges: edges.map { .init(source: $0.source, target: $0.target) }, clusters: [.init()])
        let proper = ProperGraph(
            ranks: (0..<n).map { $0 / width }, breadth: Array(repeating: 72, count: n),
            depth: Array(repeating: 36, count: n), edges: edges,
            ports: Array(repeating: (0, 0), count: edges.count), labels: Array(repeating: nil, count: edges.count))
        var along: [Double?] = []
        for _ in 0..<n { along.append(r.next() % 2 == 0 ? Double(r.next() % 600) : nil) }
        return (graph, proper, along)
    }

    /// The stable order ends with its clusters together and sibling clusters in one order:
    /// it sifts within the grouping (siblings may pass each other in one layer), is
    /// regrouped, and is then sifted and kicked again keeping the grouping. That crosses
    /// less than sifting without the grouping and regrouping after, and less than its own
    /// first sifting regrouped (without the second).
    @Test func siftingWithinTheGroupingCrossesLessThanRegroupingAfter() throws {
        var within = 0, after = 0, firstRegrouped = 0
        for seed in 1...12 as ClosedRange<UInt64> {
            let (graph, proper, along) = graph(seed: seed)
            let clusters = try #require(ClusterLayout(graph, nodes: Array(0..<graph.nodes.count), proper: proper, direction: .TB))
            var a = Ordering(graph: proper)
            StableLayout.order(&a, graph: proper, along: along, clusters: clusters)
            for layer in a.layers {
                let places = layer.indices.filter { clusters.of[layer[$0]] == 0 }
                if let first = places.first { #expect(places == Array(first..<(first + places.count))) }
            }
            within += a.totalCrossings()
            var b = Ordering(graph: proper)
            StableLayout.order(&b, graph: proper, along: along)
            clusters.regroup(&b, graph: proper)
            after += b.totalCrossings()
            // then the first sifting within the grouping alone, regrouped
            let free = (0..<proper.count).map { $0 >= proper.realCount || along[$0] == nil }
            var first = FreeSifting(graph: proper, layers: b.layers, free: free, frozen: b.frozen, clusters: clusters)
            first.reduce(&b)
            if let run = FreeSifting.kicks(vertices: proper.count) { first.kick(&b, run: run, seed: 1) }
            clusters.regroup(&b, graph: proper)
            firstRegrouped += b.totalCrossings()
        }
        #expect(within < after)
        #expect(within < firstRegrouped)
    }
}

/// Iterated sifting at the stable layout's prices (`FreeSifting.kick`).
@Suite struct StableKickTests {
    /// A random graph of 6 layers of 8 nodes, two edges into each node from the layer
    /// above, every node placed (none free), in a random order.
    private func sifting(seed: UInt64) -> (FreeSifting, Ordering) {
        var r = TestSupport.SplitMix64(seed: seed)
        let layers = 6, width = 8, n = layers * width
        var edges: [(source: Int, target: Int)] = []
        for l in 1..<layers {
            for i in 0..<width {
                for _ in 0..<2 { edges.append((source: (l - 1) * width + Int(r.next() % UInt64(width)), target: l * width + i)) }
            }
        }
        let proper = ProperGraph(
            ranks: (0..<n).map { $0 / width }, breadth: Array(repeating: 72, count: n),
            depth: Array(repeating: 36, count: n), edges: edges,
            ports: Array(repeating: (0, 0), count: edges.count), labels: Array(repeating: nil, count: edges.count))
        var ordering = Ordering(graph: proper)
        for l in 0..<layers { ordering.setLayer(l, r.shuffled(ordering.layers[l])) }
        let free = Array(repeating: false, count: proper.count)
        return (FreeSifting(graph: proper, layers: ordering.layers, free: free, frozen: ordering.frozen), ordering)
    }

    private func cost(_ s: FreeSifting, _ o: inout Ordering) -> Int {
        var tree: [Int] = [], turned = 0
        for l in 0..<s.layers.count { turned += s.turnedPairs(l, tree: &tree) }
        return o.totalCrossings() * StableLayout.crossingCost + turned * StableLayout.flipCost
    }

    /// Kicks never make the order cost more (crossings and pairs turned from the start),
    /// and they leave sifting's local optimum for a cheaper one on most of these graphs.
    @Test func kicksLowerTheCost() throws {
        var lower = 0
        for seed in 1...8 as ClosedRange<UInt64> {
            var (s, o) = sifting(seed: seed)
            s.reduce(&o)
            let sifted = cost(s, &o)
            let run = try #require(FreeSifting.kicks(vertices: o.graph.count))
            s.kick(&o, run: run, seed: 7)
            #expect(o.layers == s.layers)
            let kicked = cost(s, &o)
            #expect(kicked <= sifted)
            if kicked < sifted { lower += 1 }
        }
        #expect(lower >= 4)
    }

    /// No kicks past a thousand vertices, as a fresh layout's search.
    @Test func noKicksOnLargeGraphs() {
        #expect(FreeSifting.kicks(vertices: 1_000) != nil)
        #expect(FreeSifting.kicks(vertices: 1_001) == nil)
    }
}
