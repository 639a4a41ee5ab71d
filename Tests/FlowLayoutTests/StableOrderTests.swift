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

    @Test func siftingWithinTheGroupingCrossesLessThanRegroupingAfter() throws {
        var within = 0, after = 0
        for seed in 1...12 as ClosedRange<UInt64> {
            let (graph, proper, along) = graph(seed: seed)
            let clusters = try #require(ClusterLayout(graph, nodes: Array(0..<graph.nodes.count), proper: proper, direction: .TB))
            var a = Ordering(graph: proper)
            StableLayout.order(&a, graph: proper, along: along, clusters: clusters)
            // the clusters' vertices together in every layer
            for layer in a.layers {
                let places = layer.indices.filter { clusters.of[layer[$0]] == 0 }
                if let first = places.first { #expect(places == Array(first..<(first + places.count))) }
            }
            clusters.regroup(&a, graph: proper)
            within += a.totalCrossings()
            var b = Ordering(graph: proper)
            StableLayout.order(&b, graph: proper, along: along)
            clusters.regroup(&b, graph: proper)
            after += b.totalCrossings()
        }
        #expect(within < after)
    }
}
