import FlowCore
import TestSupport
import Testing

@testable import FlowLayout

/// A graph full of cycles (issue #43): the depth-first cycle breaking made its layering
/// hundreds of layers deep, with edges spanning most of them; the greedy order keeps it
/// shallow. Small or acyclic graphs keep the depth-first choice (and their layouts).
@Suite struct CycleBreakingTests {
    static func cyclic(_ n: Int) -> LayoutGraph {
        LayoutGraph(
            nodes: Array(repeating: LayoutGraph.Node(width: 72, height: 36), count: n),
            edges: RandomGraphs.cyclic(nodes: n).map { LayoutGraph.Edge(source: $0.0, target: $0.1) })
    }

    /// Whether the edges, turned where `reversed` says, form no cycle.
    static func isAcyclic(_ n: Int, _ edges: [(Int, Int)], _ reversed: [Bool]) -> Bool {
        longestPathRanks(nodeCount: n, edges: edges, reversed: reversed) != nil
    }

    @Test func aThousandNodeCyclicGraphLaysOutShallowWithEveryEdgeRouted() {
        let graph = Self.cyclic(1_000)
        let result = LayeredLayout.layout(graph, options: LayoutOptions())
        // depth-first cycle breaking gave over 500 layers here
        #expect(result.layers <= 120, "\(result.layers) layers")
        #expect(result.reversedEdges == result.reversed.filter { $0 }.count)
        // layer rows by node centre (all nodes are 36 high, direction TB)
        let rows = Set(result.positions.map { $0.y + 18 }).sorted()
        let layer = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($0.element, $0.offset) })
        var badEdges: [Int] = []
        for (i, e) in graph.edges.enumerated() {
            let ys = result.positions[e.source].y + 18, yt = result.positions[e.target].y + 18
            let (from, to) = (layer[ys]!, layer[yt]!)
            let points = result.edgePoints[i]
            let down = result.reversed[i] ? from > to : from < to
            let inside = points.allSatisfy { $0.x.isFinite && $0.y >= min(ys, yt) && $0.y <= max(ys, yt) }
            let ordered = zip(points, points.dropFirst()).allSatisfy { ys < yt ? $0.y <= $1.y : $0.y >= $1.y }
            // one or two points on each layer the edge passes
            if !down || !inside || !ordered || points.count < abs(to - from) - 1 { badEdges.append(i) }
        }
        #expect(badEdges.isEmpty, "edges not routed layer by layer: \(badEdges.prefix(10))")
        let again = LayeredLayout.layout(graph, options: LayoutOptions())
        #expect(again.positions == result.positions)
        #expect(again.edgePoints == result.edgePoints)
    }

    @Test(arguments: [5, 40, 300, 1_000])
    func theGreedyOrderBreaksEveryCycle(n: Int) {
        let edges = RandomGraphs.cyclic(nodes: n, seed: UInt64(n))
        let greedy = greedyReversal(nodeCount: n, edges: edges)
        #expect(Self.isAcyclic(n, edges, greedy))
        #expect(Self.isAcyclic(n, edges, edgesToReverse(nodeCount: n, edges: edges)))
    }

    @Test func theGreedyOrderIsChosenOnlyForLongSpans() {
        // a ring and a DAG keep the depth-first choice
        let ring = [(0, 1), (1, 2), (2, 3), (3, 0)]
        #expect(edgesToReverse(nodeCount: 4, edges: ring) == depthFirstReversal(nodeCount: 4, edges: ring))
        let edges = RandomGraphs.cyclic(nodes: 1_000)
        let searched = depthFirstReversal(nodeCount: 1_000, edges: edges)
        #expect(longestPathSpan(nodeCount: 1_000, edges: edges, reversed: searched) > spanLimit * edges.count)
        let chosen = edgesToReverse(nodeCount: 1_000, edges: edges)
        #expect(chosen == greedyReversal(nodeCount: 1_000, edges: edges))
        #expect(
            longestPathSpan(nodeCount: 1_000, edges: edges, reversed: chosen)
                < longestPathSpan(nodeCount: 1_000, edges: edges, reversed: searched) / 4)
    }
}
