import FlowCore
import Testing

@testable import FlowLayout

/// Flat edges in crossing reduction (`FlatOrdering`): what their arcs cross, the copy of
/// the graph with vees the sweeps order, and the sifting that follows.
@Suite struct FlatOrderingTests {
    /// 0 above 1, 2, 3 (edges to each), a flat edge 1 -> 3, and 4 -> 5 passing layer 1.
    static func graph() -> ProperGraph {
        let edges: [(source: Int, target: Int)] = [(0, 1), (0, 2), (0, 3), (1, 3), (4, 5)]
        return ProperGraph(
            ranks: [0, 1, 1, 1, 0, 2], breadth: Array(repeating: 40, count: 6), depth: Array(repeating: 20, count: 6),
            edges: edges, ports: Array(repeating: (0, 0), count: edges.count), labels: Array(repeating: nil, count: edges.count))
    }

    @Test func anArcCrossesWhatComesDownBetweenItsEnds() throws {
        let g = Self.graph()
        let flat = try #require(FlatOrdering(g))
        let dummy = g.chains[4][1]
        var position = Array(repeating: 0, count: g.count)
        func crossings(_ order: [Int]) -> Int {
            for (i, v) in order.enumerated() { position[v] = i }
            return flat.crossings(1, order, position)
        }
        #expect(crossings([1, 2, 3, dummy]) == 1)
        #expect(crossings([1, 2, dummy, 3]) == 2)
        #expect(crossings([1, 3, 2, dummy]) == 0)
        #expect(FlatOrdering(ProperGraph(
            ranks: [0, 1], breadth: [40, 40], depth: [20, 20], edges: [(0, 1)], ports: [(0, 0)], labels: [nil])) == nil)
    }

    @Test func theCopyHasALayerOfVeesAboveEachFlatLayer() throws {
        let g = Self.graph()
        let vees = try #require(FlatOrdering.Vees(g, flatLayers: [1]))
        #expect(vees.layer == [0, 2, 3])
        #expect(vees.graph.layerCount == 4)
        // every vertex of the graph is one vertex of the copy, on its layer there
        for v in 0..<g.count {
            let copies = vees.original.indices.filter { vees.original[$0] == v }
            #expect(copies.count == 1, "vertex \(v)")
            #expect(vees.graph.layer[copies[0]] == vees.layer[g.layer[v]])
        }
        // the apex, on the layer of its own, comes down to both ends of the flat edge
        let apex = g.realCount
        #expect(vees.original[apex] == -1 && vees.graph.layer[apex] == 1)
        #expect(Set(vees.graph.down[apex].map { vees.graph.segments[$0].lower }) == [1, 3])
        #expect(FlatOrdering.Vees(g, flatLayers: []) == nil)
    }

    @Test func siftingSetsTheEndsSideBySide() throws {
        let g = Self.graph()
        let flat = try #require(FlatOrdering(g))
        var ordering = Ordering(graph: g)
        ordering.setLayer(1, [1, 2, 3, g.chains[4][1]])
        flat.sift(&ordering)
        let order = ordering.layers[1]
        #expect(abs(order.firstIndex(of: 1)! - order.firstIndex(of: 3)!) == 1, "\(order)")
    }
}
