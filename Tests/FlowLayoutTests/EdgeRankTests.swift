import FlowCore
import FlowLayout
import TestSupport
import Testing

/// How single edges take part in layering (`EdgeRank`, DOT's `minlen` and
/// `constraint=false`), rank constraints across the whole graph, and flat edges in
/// crossing reduction.
@Suite struct EdgeRankTests {
    typealias Graph = LayoutGraph

    static func graph(_ n: Int, _ edges: [Graph.Edge]) -> Graph {
        Graph(nodes: (0..<n).map { _ in .init(width: 40, height: 20) }, edges: edges)
    }

    @Test func minLengthSpansThatManyLayers() {
        let g = Self.graph(3, [.init(source: 0, target: 1, minLength: 3), .init(source: 0, target: 2)])
        let r = LayeredLayout.layout(g, options: LayoutOptions(layerSpacing: 60))
        // layer 1 holds node 2, layer 2 dummies alone (0.4 of a gap on either side)
        #expect(r.layers == 4)
        #expect(r.positions[2].y - r.positions[0].y == 80)
        #expect(r.positions[1].y - r.positions[0].y == 80 + 20 + 24 + 24)
    }

    @Test func minLengthZeroLetsTheEndsShareALayer() {
        let g = Self.graph(2, [.init(source: 0, target: 1, minLength: 0)])
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        #expect(r.positions[0].y == r.positions[1].y)
        #expect(r.positions[0].x != r.positions[1].x)
        // with a label every edge spans twice its length (dot's label ranks), the label in
        // the middle layer; a length of 0 stays 0
        let labelled = Self.graph(2, [.init(source: 0, target: 1, labelSize: Size(30, 10), minLength: 2)])
        #expect(LayeredLayout.layout(labelled, options: LayoutOptions()).layers == 5)
    }

    @Test func anEdgeWithoutConstraintDoesNotHoldItsTargetBelow() {
        // 0 -> 1 -> 2 and 2 -> 0 without constraint: no cycle to break, 0 stays on top
        let g = Self.graph(3, [
            .init(source: 0, target: 1), .init(source: 1, target: 2), .init(source: 2, target: 0, constraint: false),
        ])
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        #expect(r.positions[0].y < r.positions[1].y && r.positions[1].y < r.positions[2].y)
        #expect(r.reversed == [false, false, true])
        #expect(r.reversedEdges == 1)
        #expect(!r.edgePoints[2].isEmpty)
        // with the constraint the same edge is turned to break the cycle
        var held = g
        held.edges[2].constraint = true
        #expect(LayeredLayout.layout(held, options: LayoutOptions()).reversedEdges == 1)
    }

    @Test func anEdgeWithoutConstraintJoiningPartsLeavesEachItsLayers() {
        // a -> b and x -> y, joined by b -> x without constraint: x stays on the first layer
        let g = Self.graph(4, [
            .init(source: 0, target: 1), .init(source: 2, target: 3), .init(source: 1, target: 2, constraint: false),
        ])
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        #expect(r.positions[0].y == r.positions[2].y)
        #expect(r.positions[1].y == r.positions[3].y)
        #expect(r.layers == 2)
        #expect(r.edgePoints[2].count >= 0)
    }

    @Test func extremesHoldAcrossTheWholeGraph() {
        // three unconnected parts: a -> b -> c -> d, x -> y with y a sink, p with p a max
        var g = Self.graph(7, [
            .init(source: 0, target: 1), .init(source: 1, target: 2), .init(source: 2, target: 3), .init(source: 4, target: 5),
        ])
        g.ranks = [.init(.sink, [5]), .init(.max, [6])]
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        let lowest = r.positions.map(\.y).max()!
        #expect(r.positions[5].y == lowest)
        #expect(r.positions[6].y == lowest)
        #expect(r.positions[3].y < lowest, "sink: alone on the last layer")
        #expect(r.positions[4].y < r.positions[5].y)
        // min across parts: the first layer of the whole drawing
        var m = Self.graph(4, [.init(source: 0, target: 1), .init(source: 1, target: 2)])
        m.ranks = [.init(.min, [3])]
        let rm = LayeredLayout.layout(m, options: LayoutOptions())
        #expect(rm.positions[3].y == rm.positions[0].y)
    }

    @Test func flatEdgesPullTheirEndsTogether() {
        // r above a, b, c, d on one layer, with a flat edge a -> d: crossing reduction sets
        // a and d side by side, so the edge runs straight across
        var g = Self.graph(5, [
            .init(source: 0, target: 1), .init(source: 0, target: 2), .init(source: 0, target: 3), .init(source: 0, target: 4),
            .init(source: 1, target: 4),
        ])
        g.ranks = [.init(.same, [1, 2, 3, 4])]
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        let (a, d) = (r.positions[1].x, r.positions[4].x)
        #expect(r.positions[1].y == r.positions[4].y)
        for v in [2, 3] { #expect(!(min(a, d) < r.positions[v].x && r.positions[v].x < max(a, d)), "node \(v) between") }
    }

    // MARK: The store

    static func store() throws -> FlowStore<JSONValue> {
        let s = FlowStore<JSONValue>()
        for id in ["a", "b", "c", "d"] { try s.addNode(FlowNode(id: id, position: .zero, size: Size(60, 30), data: .null)) }
        for (id, a, b) in [("ab", "a", "b"), ("bc", "b", "c"), ("ca", "c", "a"), ("ad", "a", "d")] {
            try s.addEdge(FlowEdge(id: id, sourceNodeID: a, targetNodeID: b))
        }
        return s
    }

    @Test func theRequestsEdgeRanksAreHonoured() throws {
        let s = try Self.store()
        let stats = try s.layout(LayoutRequest(edgeRanks: [EdgeRank("ca", constraint: false), EdgeRank("ad", minLength: 3)]))
        func y(_ id: String) -> Double { s.node(id)!.position.y }
        #expect(y("a") < y("b") && y("b") < y("c"))
        #expect(y("d") > y("c"))
        #expect(stats.reversedEdges == 1)
        #expect(stats.layers == 4)
    }

    @Test func anUnknownEdgeThrowsAndChangesNothing() throws {
        let s = try Self.store()
        let before = try s.export()
        let message = thrownMessage { try s.layout(LayoutRequest(edgeRanks: [EdgeRank("nope", minLength: 2)])) }
        #expect(message.contains("ranks.minlen: no edge with id 'nope'"), "\(message)")
        #expect(try s.export() == before)
    }

    @Test func theDocumentCarriesEdgeRanks() throws {
        let nodes = ["a", "b", "c", "d"].map { "{\"id\": \"\($0)\", \"position\": [0, 0], \"size\": [60, 30]}" }
        let edges = [("ab", "a", "b"), ("bc", "b", "c"), ("ca", "c", "a"), ("ad", "a", "d")].map {
            "{\"id\": \"\($0.0)\", \"sourceNodeID\": \"\($0.1)\", \"targetNodeID\": \"\($0.2)\"}"
        }
        let json = """
            {"diagram": {"edgeRanks": [{"edge": "ca", "constraint": false}, {"edge": "gone", "minlen": 2}]},
             "nodes": [\(nodes.joined(separator: ", "))], "edges": [\(edges.joined(separator: ", "))],
             "viewport": {"offset": [0, 0], "zoom": 1}, "version": 1}
            """
        let t = FlowStore<JSONValue>()
        let warnings = try t.load(json: json)
        #expect(warnings == ["diagram.edgeRanks: dropped ids of no edge: 'gone'"])
        #expect(t.diagramLook.edgeRanks == [EdgeRank("ca", constraint: false)])
        let stats = try t.layout()
        #expect(stats.reversedEdges == 1)
        #expect(t.node("a")!.position.y < t.node("c")!.position.y)
        let text = try t.export()
        #expect(text.contains("\"edgeRanks\""))
        #expect(try t.document().encoded() == text)
        // a removed edge leaves the saved list
        try t.removeEdge("ca")
        #expect(t.document().look.edgeRanks.isEmpty)
        #expect(!(try t.export()).contains("edgeRanks"))
    }

    @Test func badEdgeRanksInADocumentAreReported() throws {
        for (rank, expected) in [
            ("{\"edge\": 1}", "diagram.edgeRanks[0]: edge: expected an edge id"),
            ("{\"edge\": \"e\", \"minlen\": -1}", "diagram.edgeRanks[0]: minlen: expected an integer from 0 to 1000"),
            ("{\"edge\": \"e\", \"minlen\": 1.5}", "diagram.edgeRanks[0]: minlen: expected an integer"),
            ("{\"edge\": \"e\", \"constraint\": \"no\"}", "diagram.edgeRanks[0]: constraint: expected a boolean"),
        ] {
            let json = "{\"diagram\": {\"edgeRanks\": [\(rank)]}, \"nodes\": [], \"edges\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}"
            let message = thrownMessage { _ = try FlowDocument<JSONValue>.decode(json) }
            #expect(message.contains(expected), "\(message)")
        }
    }
}

extension EdgeRankTests {
    /// Random graphs with cycles, groups, rank sets and random edge ranks (lengths 0 to 3,
    /// edges without constraint), in every direction, fresh and stable: no crash, every
    /// edge routed, and an edge of length 0 or more between nodes of one container with
    /// the constraint keeps its target no higher than its source unless it closes a cycle.
    @Test(arguments: 0..<16)
    func randomEdgeRanksLayOut(seed: Int) throws {
        var r = SplitMix64(seed: UInt64(seed) &+ 3838)
        let n = 6 + (seed % 8) * 3
        let ids = (0..<n).map { "n\($0)" }
        let s = FlowStore<JSONValue>()
        for id in ids {
            let parent: String? = seed % 3 == 0 && id != "n0" && r.chance(25) ? "n0" : nil
            try s.addNode(FlowNode(
                id: id, position: .zero, size: Size(60, 30), data: .null, parentID: parent, acceptsChildren: id == "n0"))
        }
        var edgeRanks: [EdgeRank] = []
        for i in 0..<(n + r.below(n)) {
            let a = r.pick(ids), b = r.pick(ids)
            if seed % 3 == 0 && (a == "n0" || b == "n0") { continue }
            try s.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: a, targetNodeID: b))
            if r.chance(40) { edgeRanks.append(EdgeRank("e\(i)", minLength: r.below(4), constraint: !r.chance(40))) }
        }
        var ranks: [RankSet] = []
        if r.chance(50) { ranks.append(RankSet(.same, [r.pick(ids), r.pick(ids)])) }
        if r.chance(50) { ranks.append(RankSet([.min, .max, .source, .sink][r.below(4)], [r.pick(ids)])) }
        let direction = LayoutDirection.allCases[seed % 4]
        let stats = try s.layout(LayoutRequest(options: LayoutOptions(direction: direction), ranks: ranks, edgeRanks: edgeRanks))
        #expect(stats.nodes == n)
        try s.addNode(FlowNode(id: "late", position: Point(-300, -300), size: Size(60, 30), data: .null))
        try s.addEdge(FlowEdge(id: "late-edge", sourceNodeID: ids[n / 2], targetNodeID: "late"))
        edgeRanks.append(EdgeRank("late-edge", minLength: 0))
        try s.layout(LayoutRequest(options: LayoutOptions(direction: direction, stable: true), ranks: ranks, edgeRanks: edgeRanks))
        for e in s.edges where e.sourceNodeID != e.targetNodeID {
            for p in e.points { #expect(p.x.isFinite && p.y.isFinite, "seed \(seed): \(e.id)") }
        }
    }
}
