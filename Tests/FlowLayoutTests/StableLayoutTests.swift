import FlowCore
import FlowLayout
import TestSupport
import Testing

/// A random DAG of `n` 72×36 boxes, laid out fresh.
private func laidOutDAG(seed: UInt64, nodes n: Int) throws -> FlowStore<JSONValue> {
    var r = SplitMix64(seed: seed)
    let store = FlowStore<JSONValue>()
    for i in 0..<n { try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(72, 36), data: .null)) }
    for k in 0..<(n * 3 / 2) {
        let a = r.below(n - 1)
        let b = a + 1 + r.below(min(6, n - 1 - a))
        try store.addEdge(FlowEdge(id: "e\(k)", sourceNodeID: "n\(a)", targetNodeID: "n\(b)", pathType: .straight))
    }
    try store.layout(LayoutRequest(options: options()))
    return store
}

private func options(stable: Bool = false) -> LayoutOptions {
    LayoutOptions(nodeSpacing: 18, layerSpacing: 36, stable: stable)
}

private func centres(_ s: FlowStore<JSONValue>) -> [String: Point] {
    var c: [String: Point] = [:]
    for n in s.nodes { c[n.id] = Point(n.position.x + n.size.width / 2, n.position.y + n.size.height / 2) }
    return c
}

/// Pairs of `ids` on one layer (one y) before and after whose left-right order differs.
private func flips(_ a: [String: Point], _ b: [String: Point], _ ids: [String]) -> (flips: Int, pairs: Int) {
    var flips = 0, pairs = 0
    for (i, u) in ids.enumerated() {
        for v in ids[(i + 1)...] {
            guard abs(a[u]!.y - a[v]!.y) < 1, abs(b[u]!.y - b[v]!.y) < 1 else { continue }
            pairs += 1
            if (a[u]!.x < a[v]!.x) != (b[u]!.x < b[v]!.x) { flips += 1 }
        }
    }
    return (flips, pairs)
}

/// Adds node `id` below `from` and above `to`.
private func addNode(_ s: FlowStore<JSONValue>, _ id: String, from: String, to: String?) throws {
    try s.addNode(FlowNode(id: id, position: .zero, size: Size(72, 36), data: .null))
    try s.addEdge(FlowEdge(id: "\(id)-in", sourceNodeID: from, targetNodeID: id, pathType: .straight))
    if let to { try s.addEdge(FlowEdge(id: "\(id)-out", sourceNodeID: id, targetNodeID: to, pathType: .straight)) }
}

@Suite struct StableLayoutTests {
    /// After a node is added, no two old nodes of a layer swap and most stay within a node
    /// spacing, where a fresh layout of the same store reorders layers.
    @Test(arguments: [1, 2, 3, 4])
    func addingANodeKeepsTheOrder(seed: Int) throws {
        let stable = try laidOutDAG(seed: UInt64(seed), nodes: 60)
        let fresh = try laidOutDAG(seed: UInt64(seed), nodes: 60)
        let before = centres(stable)
        let ids = before.keys.sorted()
        for s in [stable, fresh] { try addNode(s, "new", from: "n\(seed * 3)", to: "n\(seed * 3 + 20)") }
        try stable.layout(LayoutRequest(options: options(stable: true)))
        try fresh.layout(LayoutRequest(options: options()))
        let kept = flips(before, centres(stable), ids), reordered = flips(before, centres(fresh), ids)
        #expect(kept.pairs > 50)
        // at most 2 % of the pairs swap; a fresh layout swaps far more (the test can fail)
        #expect(kept.flips * 50 <= kept.pairs)
        #expect(reordered.flips * 50 > reordered.pairs)
        let after = centres(stable)
        let still = ids.filter { after[$0]!.distance(to: before[$0]!) < 90 }.count
        #expect(Double(still) >= 0.9 * Double(ids.count))
        // nothing overlaps
        let frames = stable.nodes.map(\.frame)
        for i in frames.indices {
            for j in frames.indices where j > i {
                let a = frames[i], b = frames[j]
                #expect(!(a.origin.x < b.maxX - 1e-6 && b.origin.x < a.maxX - 1e-6 && a.origin.y < b.maxY - 1e-6 && b.origin.y < a.maxY - 1e-6))
            }
        }
    }

    @Test func sameStoreSameLayout() throws {
        var exports: [String] = []
        for _ in 0..<2 {
            let s = try laidOutDAG(seed: 7, nodes: 50)
            try addNode(s, "x", from: "n4", to: "n30")
            try s.removeNode("n10")
            try s.addEdge(FlowEdge(id: "extra", sourceNodeID: "n2", targetNodeID: "n40", pathType: .straight))
            try s.layout(LayoutRequest(options: options(stable: true)))
            exports.append(try s.export())
        }
        #expect(exports[0] == exports[1])
    }

    /// A stable layout of an unchanged diagram leaves it where it is.
    @Test func unchangedStaysPut() throws {
        let s = try laidOutDAG(seed: 5, nodes: 40)
        let before = centres(s)
        try s.layout(LayoutRequest(options: options(stable: true)))
        let after = centres(s)
        for (id, p) in before { #expect(after[id]!.distance(to: p) < 1, "\(id) moved") }
    }

    /// The new node goes between its neighbours, not where it was made.
    @Test func newNodesAreFittedIn() throws {
        let s = try laidOutDAG(seed: 3, nodes: 40)
        let c = centres(s)
        let far = c.max { $0.value.x < $1.value.x }!.key
        try addNode(s, "new", from: far, to: nil)
        try s.layout(LayoutRequest(options: options(stable: true)))
        let after = centres(s)
        #expect(after["new"]!.y > after[far]!.y)
        #expect(abs(after["new"]!.x - after[far]!.x) < 200)
        #expect(s.lastLayoutNodeIDs?.contains("new") == true)
    }

    /// `nodes` with `stable`: the listed nodes are fitted in; the rest keeps its places
    /// where they need no room.
    @Test func subsetAroundTheFixedRest() throws {
        let s = try laidOutDAG(seed: 9, nodes: 40)
        let before = centres(s)
        let bottom = before.max { $0.value.y < $1.value.y }!.key
        try addNode(s, "leaf", from: bottom, to: nil)
        try s.layout(LayoutRequest(options: options(stable: true), nodes: ["leaf"]))
        let after = centres(s)
        for (id, p) in before { #expect(after[id]!.distance(to: p) < 0.5, "\(id) moved") }
        #expect(after["leaf"]!.y > after[bottom]!.y)
    }

    /// Data that says `pinned = true` keeps its node in place for a Swift host too.
    @Test func pinnedDataStaysForSwiftHosts() throws {
        let s = FlowStore<JSONValue>()
        try s.addNode(FlowNode(id: "a", position: .zero, size: Size(72, 36), data: .null))
        try s.addNode(FlowNode(id: "b", position: .zero, size: Size(72, 36), data: .null))
        try s.addNode(FlowNode(
            id: "legend", position: Point(500, 500), size: Size(72, 36), data: .object(JSONObject([("pinned", .bool(true))]))))
        try s.addEdge(FlowEdge(id: "ab", sourceNodeID: "a", targetNodeID: "b"))
        try s.addEdge(FlowEdge(id: "al", sourceNodeID: "a", targetNodeID: "legend"))
        try s.layout()
        #expect(s.node("legend")!.position == Point(500, 500))
        try s.layout(LayoutRequest(options: LayoutOptions(stable: true)))
        #expect(s.node("legend")!.position == Point(500, 500))
    }

    /// A placed node whose edge now comes from far above rises to it: one edge made shorter
    /// outweighs keeping its layer (`StableLayout.layerWeight` against `edgeWeight`), so
    /// the edges of an edited graph do not stay long. The other nodes keep their layers.
    @Test func aNodeRisesToShortenItsEdge() throws {
        let s = FlowStore<JSONValue>()
        for id in ["a", "b", "c", "d", "x"] { try s.addNode(FlowNode(id: id, position: .zero, size: Size(72, 36), data: .null)) }
        for (u, v) in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "x")] {
            try s.addEdge(FlowEdge(id: "\(u)\(v)", sourceNodeID: u, targetNodeID: v, pathType: .straight))
        }
        try s.layout(LayoutRequest(options: options()))
        let before = centres(s)
        #expect(before["x"]!.y > before["d"]!.y)
        try s.removeEdge("dx")
        try s.addEdge(FlowEdge(id: "ax", sourceNodeID: "a", targetNodeID: "x", pathType: .straight))
        try s.layout(LayoutRequest(options: options(stable: true)))
        let after = centres(s)
        #expect(abs(after["x"]!.y - after["b"]!.y) < 1)
        for id in ["a", "b", "c", "d"] { #expect(abs(after[id]!.y - before[id]!.y) < 1, "\(id) changed layer") }
    }

    /// Before any layout, nodes piled on one spot are new; the others keep their places.
    @Test func pileUpsAreNewBeforeAnyLayout() throws {
        let s = FlowStore<JSONValue>()
        try s.addNode(FlowNode(id: "a", position: Point(300, 0), size: Size(72, 36), data: .null))
        try s.addNode(FlowNode(id: "b", position: Point(100, 100), size: Size(72, 36), data: .null))
        try s.addNode(FlowNode(id: "c", position: Point(400, 100), size: Size(72, 36), data: .null))
        try s.addNode(FlowNode(id: "d", position: Point(400, 100), size: Size(72, 36), data: .null))
        for (i, e) in [("a", "b"), ("a", "c"), ("a", "d")].enumerated() {
            try s.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: e.0, targetNodeID: e.1))
        }
        try s.layout(LayoutRequest(options: LayoutOptions(stable: true)))
        let c = centres(s)
        // b stays left of c; d (made on top of c) is fitted in beside them
        #expect(c["b"]!.x < c["c"]!.x)
        #expect(abs(c["b"]!.y - c["c"]!.y) < 1 && abs(c["d"]!.y - c["c"]!.y) < 1)
    }
}

/// What keeps the mental map over a sequence of edits (`StableLayout.previousAlong`): a
/// long edge's bends start where its route ran, so the layers' order and the coordinates
/// start from the drawing as it was and the untouched nodes stay.
@Suite struct StableStillnessTests {
    /// Twelve edits of an 80-node DAG (a node with one or two edges, an edge between two
    /// nodes), a stable layout after each: of the untouched nodes, at most 3 % move a node
    /// spacing (72 + 18) or more, at most 1 % of the pairs in one layer swap, and a stable
    /// layout of the last drawing moves nothing. Without the previous routes
    /// (`previousRoute` left nil) the last check fails: a node moves in a stable layout of
    /// a stable layout's drawing.
    @Test func editsLeaveTheRestStill() throws {
        let s = try laidOutDAG(seed: 11, nodes: 80)
        try s.layout(LayoutRequest(options: options(stable: true)))
        var r = SplitMix64(seed: 41)
        var moved = 0, untouched = 0, flipped = 0, pairs = 0
        for k in 0..<12 {
            let before = centres(s)
            let ids = s.nodes.map(\.id).sorted()
            let u = r.pick(ids), v = r.pick(ids)
            var touched: Set<String> = [u, v]
            if k % 2 == 0 {
                try addNode(s, "new\(k)", from: u, to: u == v ? nil : v)
                touched.insert("new\(k)")
            } else if u != v {
                try s.addEdge(FlowEdge(id: "link\(k)", sourceNodeID: u, targetNodeID: v, pathType: .straight))
            }
            try s.layout(LayoutRequest(options: options(stable: true)))
            let after = centres(s)
            let kept = before.keys.filter { !touched.contains($0) }.sorted()
            untouched += kept.count
            moved += kept.filter { after[$0]!.distance(to: before[$0]!) >= 90 }.count
            let f = flips(before, after, kept)
            flipped += f.flips
            pairs += f.pairs
        }
        #expect(untouched > 900 && pairs > 300)
        #expect(moved * 100 <= untouched * 3, "\(moved) of \(untouched) moved a spacing or more")
        #expect(flipped * 100 <= pairs, "\(flipped) of \(pairs) pairs flipped")
        let last = centres(s)
        try s.layout(LayoutRequest(options: options(stable: true)))
        let again = centres(s)
        let shifted = last.keys.filter { again[$0]!.distance(to: last[$0]!) >= 1 }.count
        #expect(shifted == 0, "\(shifted) nodes moved in a stable layout of a stable layout")
    }
}

/// A diagram edited over many steps, a stable layout after each, against a fresh layout of
/// a copy (what flowbench's stability area measures, small enough for a test).
@Suite struct StableEditSequenceTests {
    /// One seeded edit, made the same in both stores: a node with one or two edges, an
    /// edge between two nodes, or a node deleted.
    private func edit(_ k: Int, _ stores: [FlowStore<JSONValue>], _ r: inout SplitMix64) throws {
        let ids = stores[0].nodes.map(\.id)
        let u = r.pick(ids), v = r.pick(ids)
        switch r.below(4) {
        case 0, 1:
            for s in stores { try addNode(s, "new\(k)", from: u, to: u == v ? nil : v) }
        case 2:
            guard u != v else { return }
            for s in stores { try s.addEdge(FlowEdge(id: "link\(k)", sourceNodeID: u, targetNodeID: v, pathType: .straight)) }
        default:
            for s in stores { try s.removeNode(u) }
        }
    }

    /// After each of 30 edits of two 40-node DAGs, the stable layouts' orders cross at most
    /// 1.15 times as often as the fresh layouts' (summed over the edits; 1.04 when written).
    /// Either half of what keeps it there is needed: with a placed node's layer weighing
    /// more than its edges (4 against 1, `StableLayout.layerWeight`) the edited graphs'
    /// edges stayed long and crossed 1.20 times as often, without the kicks
    /// (`FreeSifting.kick`) 1.33 times, with neither 1.52 times.
    @Test func manyEditsCrossAboutAsLittleAsFresh() throws {
        var stableCrossings = 0, freshCrossings = 0
        for seed in 1...2 as ClosedRange<UInt64> {
            let stable = try laidOutDAG(seed: seed, nodes: 40), fresh = try laidOutDAG(seed: seed, nodes: 40)
            var r = SplitMix64(seed: seed &+ 100)
            for k in 0..<30 {
                try edit(k, [stable, fresh], &r)
                stableCrossings += try stable.layout(LayoutRequest(options: options(stable: true))).crossings
                freshCrossings += try fresh.layout(LayoutRequest(options: options())).crossings
            }
        }
        #expect(freshCrossings > 0)
        #expect(Double(stableCrossings) <= 1.15 * Double(freshCrossings), "stable \(stableCrossings), fresh \(freshCrossings)")
    }
}
