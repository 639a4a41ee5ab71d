import FlowCore

/// Flat edges (two ends on one layer, `RankClasses`, `LayoutGraph.Edge.minLength` 0 or
/// edges that do not constrain the layering) in crossing reduction. Such an edge has no
/// segment, so the sweeps do not see it; drawn, it runs straight across between neighbours
/// and otherwise arcs over its layer through the gap above (`LayoutPlan.flatRoute`), where
/// it crosses every segment that comes down to a vertex between its ends, and every other
/// arc whose ends interleave with its own. After the sweeps, each vertex of a layer with
/// flat edges is moved to the place where those crossings and the crossings with both
/// neighbouring layers are fewest, as sifting does, while that helps.
struct FlatOrdering {
    /// Flat edges by layer, as pairs of vertices.
    let byLayer: [Int: [(Int, Int)]]
    /// The segments that come down to each vertex (from the layer above).
    let upDegree: [Int]

    /// Nil when `graph` has no flat edge.
    init?(_ graph: ProperGraph) {
        var byLayer: [Int: [(Int, Int)]] = [:]
        for chain in graph.chains where chain.count == 2 && chain[0] != chain[1] {
            let l = graph.layer[chain[0]]
            if graph.layer[chain[1]] == l { byLayer[l, default: []].append((chain[0], chain[1])) }
        }
        guard !byLayer.isEmpty else { return nil }
        self.byLayer = byLayer
        upDegree = graph.up.map(\.count)
    }

    /// Crossing reduction that sees the flat edges: the sweeps see each as a vee
    /// (`withVees`); then, with `sifting` (no clusters, whose vertices must stay together),
    /// the vertices of their layers are sifted for what they really cross.
    func minimizeCrossings(_ ordering: inout Ordering, sifting: Bool, effort: LayoutEffort) {
        let graph = ordering.graph
        if let vees = withVees(graph) {
            var seen = Ordering(graph: vees)
            seen.minimizeCrossings(CrossingSearch.forGraph(vertices: vees.count, effort: effort), sweeps: LayeredLayout.sweeps)
            for (l, layer) in seen.layers.enumerated() { ordering.setLayer(l, layer.filter { $0 < graph.count }) }
        } else {
            ordering.minimizeCrossings(CrossingSearch.forGraph(vertices: graph.count, effort: effort), sweeps: LayeredLayout.sweeps)
        }
        if sifting { sift(&ordering) }
    }

    /// `graph` with a vertex for each flat edge on the layer above it (below, on the first
    /// layer), joined to the edge's two ends, for the sweeps to see: such a vee crosses each
    /// segment that comes down between the ends once, as the edge's arc does, and pulls the
    /// ends together. Vertices from `graph.count` on are these; a layer that keeps the order
    /// of its keys (`Ordering.frozen`) gets none. Nil when no edge gets one.
    func withVees(_ graph: ProperGraph) -> ProperGraph? {
        var g = graph
        func frozen(_ l: Int) -> Bool {
            g.layer.indices.contains { g.layer[$0] == l }
                && g.layer.indices.allSatisfy { g.layer[$0] != l || ($0 < g.realCount && g.orderKey.count > $0 && g.orderKey[$0] != nil) }
        }
        var frozenLayer: [Int: Bool] = [:]
        var added = false
        for (i, chain) in graph.chains.enumerated() where chain.count == 2 && chain[0] != chain[1] {
            let (s, t) = (chain[0], chain[1])
            let l = graph.layer[s]
            guard graph.layer[t] == l else { continue }
            let other = l > 0 ? l - 1 : l + 1
            guard other < graph.layerCount else { continue }
            if frozenLayer[other] == nil { frozenLayer[other] = frozen(other) }
            if frozenLayer[other]! { continue }
            let d = g.layer.count
            g.layer.append(other)
            g.breadth.append(0)
            g.depth.append(0)
            g.up.append([])
            g.down.append([])
            for end in [s, t] {
                let k = g.segments.count
                if other < l {
                    g.segments.append(.init(upper: d, lower: end, upperPort: 0, lowerPort: 0, edge: i))
                    g.down[d].append(k)
                    g.up[end].append(k)
                } else {
                    g.segments.append(.init(upper: end, lower: d, upperPort: 0, lowerPort: 0, edge: i))
                    g.down[end].append(k)
                    g.up[d].append(k)
                }
            }
            added = true
        }
        return added ? g : nil
    }

    /// Vertices that the sifting moves, past which it stops: its cost grows with the square
    /// of a layer's width times its edges.
    static let workBound = 4_000_000

    /// The crossings of layer `l`'s flat edges in `order` (positions by `position`).
    func crossings(_ l: Int, _ order: [Int], _ position: [Int]) -> Int {
        guard let flat = byLayer[l] else { return 0 }
        var total = 0
        var spans: [(Int, Int)] = []
        for (s, t) in flat {
            let a = min(position[s], position[t]), b = max(position[s], position[t])
            if b - a < 2 { continue }
            for i in (a + 1)..<b { total += upDegree[order[i]] }
            spans.append((a, b))
        }
        for i in 0..<spans.count {
            for j in (i + 1)..<spans.count {
                let (a, b) = spans[i], (c, d) = spans[j]
                if (a < c && c < b && b < d) || (c < a && a < d && d < b) { total += 1 }
            }
        }
        return total
    }

    /// Sifts the vertices of every layer with flat edges (see the type); at most `rounds`
    /// passes, each kept only when it lowers the sum.
    func sift(_ ordering: inout Ordering, rounds: Int = 4) {
        var work = 0
        for (l, _) in byLayer {
            let w = ordering.layers[l].count
            work += w * w * max(1, ordering.graph.segments.count / max(1, ordering.layers.count))
        }
        guard work <= FlatOrdering.workBound else { return }
        for _ in 0..<rounds where !WorkLimit.shouldStop {
            var improved = false
            for l in byLayer.keys.sorted() where !ordering.frozen[l] {
                if siftLayer(l, &ordering) { improved = true }
            }
            if !improved { return }
        }
    }

    /// The crossings at layer `l`: with the layers on either side and of its flat edges.
    private func cost(_ l: Int, _ ordering: inout Ordering) -> Int {
        var c = crossings(l, ordering.layers[l], ordering.position)
        if l > 0 { c += ordering.countCrossings(below: l - 1) }
        if l + 1 < ordering.layers.count { c += ordering.countCrossings(below: l) }
        return c
    }

    /// Moves each vertex of layer `l` in turn to its best place; whether the cost fell.
    private func siftLayer(_ l: Int, _ ordering: inout Ordering) -> Bool {
        var best = cost(l, &ordering)
        let start = best
        for v in ordering.layers[l] {
            var order = ordering.layers[l]
            let from = order.firstIndex(of: v)!
            order.remove(at: from)
            var bestOrder = ordering.layers[l]
            for at in 0...order.count where at != from {
                var trial = order
                trial.insert(v, at: at)
                ordering.setLayer(l, trial)
                let c = cost(l, &ordering)
                if c < best {
                    best = c
                    bestOrder = trial
                }
            }
            ordering.setLayer(l, bestOrder)
        }
        return best < start
    }
}
