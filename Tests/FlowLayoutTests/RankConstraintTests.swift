import FlowCore
import FlowLayout
import TestSupport
import Testing

/// Rank constraints (`RankSet`, DOT's `rank=same/min/max/source/sink`) in the layered
/// layout: a `same` set shares a layer, `min`/`max` sets take the extreme layers, `source`
/// and `sink` alone; with groups, cycles made by merging, the stable layout and flat edges.
@Suite struct RankConstraintTests {
    /// A store of the named nodes (60 x 30) and `from -> to` edges; `parents` puts nodes in groups.
    static func store(_ ids: [String], _ edges: [(String, String)], parents: [String: String] = [:]) throws -> FlowStore<JSONValue> {
        let s = FlowStore<JSONValue>()
        for id in ids {
            try s.addNode(FlowNode(
                id: id, position: .zero, size: Size(60, 30), data: .null, parentID: parents[id],
                acceptsChildren: Set(parents.values).contains(id)))
        }
        for (i, e) in edges.enumerated() { try s.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: e.0, targetNodeID: e.1)) }
        return s
    }

    /// The y of a node's centre on the canvas (its groups' positions added).
    static func y(_ s: FlowStore<JSONValue>, _ id: String) -> Double {
        var n = s.node(id)!
        var y = n.position.y + n.size.height / 2
        while let p = n.parentID, let parent = s.node(p) {
            y += parent.position.y
            n = parent
        }
        return y
    }

    static func layout(_ s: FlowStore<JSONValue>, _ ranks: [RankSet], stable: Bool = false) throws(FlowError) {
        try s.layout(LayoutRequest(options: LayoutOptions(stable: stable), ranks: ranks))
    }

    @Test func sameSetSharesALayer() throws {
        let s = try Self.store(["a", "b", "c", "d", "x", "y"], [("a", "b"), ("b", "c"), ("c", "d"), ("x", "y")])
        try Self.layout(s, [])
        #expect(Self.y(s, "y") != Self.y(s, "d"))
        try Self.layout(s, [RankSet(.same, ["d", "y"])])
        #expect(Self.y(s, "y") == Self.y(s, "d"))
        #expect(Self.y(s, "x") < Self.y(s, "y"))
    }

    @Test func minAndMaxTakeTheExtremeLayers() throws {
        // d ends the chain and e starts an edge: held to the other ends, their edges turn
        let s = try Self.store(["a", "b", "c", "d", "e", "f"], [("a", "b"), ("b", "c"), ("c", "d"), ("e", "f"), ("c", "f")])
        try Self.layout(s, [RankSet(.min, ["d"]), RankSet(.max, ["e"])])
        let ys = ["a", "b", "c", "d", "e", "f"].map { Self.y(s, $0) }
        #expect(Self.y(s, "d") == ys.min())
        #expect(Self.y(s, "e") == ys.max())
        #expect(Self.y(s, "a") == Self.y(s, "d"), "min shares its layer")
        #expect(s.edge("e2")!.points.count >= 0)
    }

    @Test func sourceAndSinkAreAloneOnTheirLayers() throws {
        let ids = ["a", "b", "c", "d"]
        let s = try Self.store(ids, [("a", "b"), ("c", "d"), ("a", "d")])
        try Self.layout(s, [RankSet(.min, ["a"]), RankSet(.max, ["d"])])
        #expect(Self.y(s, "a") == Self.y(s, "c"))
        #expect(Self.y(s, "d") == Self.y(s, "b"))
        try Self.layout(s, [RankSet(.source, ["a"]), RankSet(.sink, ["d"])])
        #expect(Self.y(s, "a") < Self.y(s, "c"))
        #expect(Self.y(s, "b") < Self.y(s, "d"))
        #expect(Self.y(s, "a") == ids.map { Self.y(s, $0) }.min())
        #expect(Self.y(s, "d") == ids.map { Self.y(s, $0) }.max())
    }

    @Test func mergingThatMakesACycleTurnsAnEdge() throws {
        // a -> b -> c with a and c on one layer: b cannot be below both
        let s = try Self.store(["a", "b", "c"], [("a", "b"), ("b", "c")])
        let stats = try s.layout(LayoutRequest(ranks: [RankSet(.same, ["a", "c"])]))
        #expect(Self.y(s, "a") == Self.y(s, "c"))
        #expect(Self.y(s, "b") != Self.y(s, "a"))
        #expect(stats.reversedEdges == 1)
    }

    @Test func flatEdgesJoinNodesOfOneLayer() throws {
        let s = try Self.store(["a", "b", "c"], [("a", "b"), ("a", "c"), ("b", "c")])
        try Self.layout(s, [RankSet(.same, ["b", "c"])])
        #expect(Self.y(s, "b") == Self.y(s, "c"))
        #expect(Self.y(s, "a") < Self.y(s, "b"))
        let b = s.node("b")!.frame, c = s.node("c")!.frame
        #expect(b.origin.x + b.size.width <= c.origin.x || c.origin.x + c.size.width <= b.origin.x)
        // neighbours: straight across, from the side of b that faces c into c's facing side
        let route = s.edge("e2")!.points
        #expect(route.count == 2)
        #expect(route.first?.y == b.midY && route.last?.y == c.midY)
        let (near, far) = b.midX < c.midX ? (b.maxX, c.minX) : (b.minX, c.maxX)
        #expect(abs(route.first!.x - near) < 1 && abs(route.last!.x - far) < 1)
    }

    @Test func flatEdgesOverANodeArcOverTheLayer() throws {
        // a, m and c on one layer, each joined to the others: whatever the order, one flat
        // edge has the third node between its ends and arcs through the gap above it
        let s = try Self.store(["r", "a", "m", "c"], [("r", "a"), ("r", "m"), ("r", "c"), ("a", "c"), ("a", "m"), ("m", "c")])
        try Self.layout(s, [RankSet(.same, ["a", "m", "c"])])
        let r = s.node("r")!.frame
        let arcs = ["e3", "e4", "e5"].filter { s.edge($0)!.points.count == 6 }
        #expect(arcs.count == 1)
        let e = s.edge(arcs[0])!
        let a = s.node(e.sourceNodeID)!.frame, c = s.node(e.targetNodeID)!.frame
        let m = s.node(["a", "m", "c"].first { $0 != e.sourceNodeID && $0 != e.targetNodeID }!)!.frame
        #expect(min(a.midX, c.midX) < m.midX && m.midX < max(a.midX, c.midX))
        let route = e.points
        // out of a's top, along the gap between r and the layer, into c's top
        #expect(route.first!.y == a.minY && route.first!.x > a.minX && route.first!.x < a.maxX, "\(route)")
        #expect(route.last!.y == c.minY && route.last!.x > c.minX && route.last!.x < c.maxX, "\(route)")
        #expect(route.dropFirst().dropLast().allSatisfy { $0.y < a.minY && $0.y > r.maxY })
        // the other two run straight across between neighbours
        for id in ["e3", "e4", "e5"] where id != arcs[0] { #expect(s.edge(id)!.points.count == 2) }
    }

    @Test func groupsAsClustersKeepTheConstraint() throws {
        // g holds b and c; x is outside: c and x share a layer although b -> c puts c lower
        let s = try Self.store(
            ["g", "a", "b", "c", "x", "z"], [("a", "b"), ("b", "c"), ("a", "x"), ("x", "z")],
            parents: ["b": "g", "c": "g"])
        try Self.layout(s, [RankSet(.same, ["c", "z"]), RankSet(.min, ["b"])])
        #expect(Self.y(s, "c") == Self.y(s, "z"))
        // a -> b turns: b is first
        #expect(Self.y(s, "b") < Self.y(s, "a"))
        // a cycle through the group: z -> b with b held to the top
        try s.addEdge(FlowEdge(id: "back", sourceNodeID: "z", targetNodeID: "b"))
        try Self.layout(s, [RankSet(.same, ["c", "z"]), RankSet(.min, ["b"])])
        #expect(Self.y(s, "c") == Self.y(s, "z"))
        #expect(Self.y(s, "b") == ["a", "b", "c", "x", "z"].map { Self.y(s, $0) }.min())
    }

    @Test func groupsLaidOutOnTheirOwnKeepTheConstraintInside() throws {
        // an edge ends at the group itself: its children are laid out as a graph of their own
        let s = try Self.store(
            ["g", "a", "b", "c", "d"], [("a", "g"), ("b", "c"), ("c", "d")], parents: ["b": "g", "c": "g", "d": "g"])
        try Self.layout(s, [RankSet(.same, ["b", "d"])])
        #expect(Self.y(s, "b") == Self.y(s, "d"))
        #expect(Self.y(s, "c") != Self.y(s, "b"))
    }

    @Test func stableLayoutKeepsTheConstraint() throws {
        let s = try Self.store(["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("a", "d")])
        try Self.layout(s, [])
        try s.addNode(FlowNode(id: "e", position: Point(500, 500), size: Size(60, 30), data: .null))
        try s.addEdge(FlowEdge(id: "de", sourceNodeID: "d", targetNodeID: "e"))
        try Self.layout(s, [RankSet(.same, ["e", "a"]), RankSet(.max, ["d"])], stable: true)
        #expect(Self.y(s, "e") == Self.y(s, "a"))
        #expect(Self.y(s, "d") == ["a", "b", "c", "d", "e"].map { Self.y(s, $0) }.max())
    }

    @Test func unknownIdThrowsAndChangesNothing() throws {
        let s = try Self.store(["a", "b"], [("a", "b")])
        let before = try s.export()
        do throws(FlowError) {
            try Self.layout(s, [RankSet(.same, ["a", "nope"])])
            Issue.record("expected an error")
        } catch {
            #expect(error.operation == "layout")
            #expect(error.message.contains("ranks.same"))
            #expect(error.message.contains("'nope'"))
        }
        #expect(try s.export() == before)
    }

    @Test func theDocumentCarriesRanksAndTheLayoutHonoursThem() throws {
        let json = """
            {"diagram": {"ranks": [{"rank": "same", "nodes": ["d", "y", "gone"]}, {"rank": "sink", "nodes": ["gone"]}]},
             "edges": [{"id": "e1", "sourceNodeID": "a", "targetNodeID": "d"}, {"id": "e2", "sourceNodeID": "x", "targetNodeID": "y"},
                       {"id": "e3", "sourceNodeID": "d", "targetNodeID": "d2"}],
             "nodes": [{"id": "a", "position": [0, 0], "size": [60, 30]}, {"id": "d", "position": [0, 0], "size": [60, 30]},
                       {"id": "d2", "position": [0, 0], "size": [60, 30]}, {"id": "x", "position": [0, 0], "size": [60, 30]},
                       {"id": "y", "position": [0, 0], "size": [60, 30]}],
             "viewport": {"offset": [0, 0], "zoom": 1}, "version": 1}
            """
        let s = FlowStore<JSONValue>()
        let warnings = try s.load(json: json)
        #expect(warnings.contains { $0.contains("diagram.ranks") && $0.contains("'gone'") })
        #expect(s.diagramLook.ranks == [RankSet(.same, ["d", "y"])])
        try s.layout()
        #expect(Self.y(s, "d") == Self.y(s, "y"))
        // written back, read back
        let text = try s.export()
        #expect(text.contains("\"ranks\""))
        let doc = try FlowDocument<JSONValue>.decode(text)
        #expect(doc.look.ranks == [RankSet(.same, ["d", "y"])])
        #expect(try s.document().encoded() == text)
        // a removed node leaves the saved sets
        try s.removeNode("y")
        #expect(s.document().look.ranks == [RankSet(.same, ["d"])])
    }

    @Test func badRankSetsInADocumentAreReported() throws {
        for (ranks, expected) in [
            ("{\"rank\": \"middle\", \"nodes\": []}", "diagram.ranks[0]: rank: expected one of same, min, max, source, sink"),
            ("{\"rank\": \"same\", \"nodes\": [1]}", "diagram.ranks[0]: nodes[0]: expected a node id"),
            ("{\"rank\": \"same\"}", "diagram.ranks[0]: nodes: expected an array"),
        ] {
            let json = "{\"diagram\": {\"ranks\": [\(ranks)]}, \"nodes\": [], \"edges\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}"
            #expect(throws: FlowError.self) { try FlowStore<JSONValue>().load(json: json) }
            do throws(FlowError) { _ = try FlowDocument<JSONValue>.decode(json) } catch { #expect(error.message.contains(expected), "\(error.message)") }
        }
    }

    /// Random graphs with cycles, self-loops, groups and random sets of every kind, in every
    /// direction, fresh and stable: no crash, and the nodes of a `same` set that share a
    /// container share a layer.
    @Test(arguments: 0..<24)
    func randomConstraintsHold(seed: Int) throws {
        var r = SplitMix64(seed: UInt64(seed) &+ 38)
        let n = 6 + (seed % 16) * 2
        let ids = (0..<n).map { "n\($0)" }
        var parents: [String: String] = [:]
        // a group or two (the first node, and a later one) hold some nodes
        for id in ids.dropFirst() where seed % 3 != 0 && r.chance(30) { parents[id] = seed % 2 == 0 ? "n0" : "n1" }
        parents["n1"] = nil
        if seed % 2 == 1 { parents["n0"] = nil }
        var edges: [(String, String)] = []
        for _ in 0..<(n + r.below(n)) {
            let a = r.pick(ids), b = r.chance(5) ? a : r.pick(ids)
            // keep the groups' own nodes free of edges sometimes, so they lay out as clusters
            if seed % 4 < 2 && (Set(parents.values).contains(a) || Set(parents.values).contains(b)) { continue }
            edges.append((a, b))
        }
        let s = try Self.store(ids, edges, parents: parents)
        var sets: [RankSet] = []
        for _ in 0..<(1 + r.below(3)) { sets.append(RankSet(.same, (0..<(2 + r.below(3))).map { _ in r.pick(ids) })) }
        let kinds: [RankSet.Kind] = [.min, .max, .source, .sink]
        if r.chance(70) { sets.append(RankSet(kinds[r.below(4)], [r.pick(ids), r.pick(ids)])) }
        let direction = LayoutDirection.allCases[seed % 4]
        func check() {
            for set in sets where set.kind == .same {
                let held = set.nodes.filter { s.node($0)?.acceptsChildren == false || !Set(parents.values).contains($0) }
                for a in held { for b in held where s.node(a)?.parentID == s.node(b)?.parentID {
                    let fa = s.node(a)!.frame, fb = s.node(b)!.frame
                    let (ya, yb) = direction.isHorizontal ? (fa.midX, fb.midX) : (fa.midY, fb.midY)
                    #expect(abs(ya - yb) < 0.01, "seed \(seed): \(a) and \(b) of \(set.nodes)")
                } }
            }
        }
        try s.layout(LayoutRequest(options: LayoutOptions(direction: direction), ranks: sets))
        check()
        try s.addNode(FlowNode(id: "late", position: Point(-400, -400), size: Size(60, 30), data: .null))
        try s.addEdge(FlowEdge(id: "late-edge", sourceNodeID: ids[n / 2], targetNodeID: "late"))
        sets.append(RankSet(.same, ["late", ids[n - 1]]))
        try s.layout(LayoutRequest(options: LayoutOptions(direction: direction, stable: true), ranks: sets))
        check()
    }

    @Test func layeredLayoutTakesConstraintsDirectly() throws {
        // the layout graph as a Swift host builds it: 0 -> 1 -> 2, 3 -> 4, {2, 3} same
        var g = LayoutGraph(
            nodes: (0..<5).map { _ in .init(width: 40, height: 20) },
            edges: [.init(source: 0, target: 1), .init(source: 1, target: 2), .init(source: 3, target: 4)])
        g.ranks = [.init(.same, [2, 3])]
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        #expect(r.positions[2].y == r.positions[3].y)
        #expect(r.positions[4].y > r.positions[3].y)
        #expect(r.layers == 4)
    }
}
