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

    /// Crossing reduction that sees the flat edges: the sweeps order a copy of the graph in
    /// which each flat edge is a vee (`Vees`); then, with `sifting` (no clusters, whose
    /// vertices must stay together), the vertices of their layers are sifted for what they
    /// really cross.
    func minimizeCrossings(_ ordering: inout Ordering, sifting: Bool, effort: LayoutEffort) {
        let graph = ordering.graph
        if let vees = Vees(graph, flatLayers: byLayer.keys.filter { !ordering.frozen[$0] }) {
            var seen = Ordering(graph: vees.graph)
            seen.minimizeCrossings(CrossingSearch.forGraph(vertices: vees.graph.count, effort: effort), sweeps: LayeredLayout.sweeps)
            for l in 0..<graph.layerCount {
                ordering.setLayer(l, seen.layers[vees.layer[l]].compactMap { vees.original[$0] < 0 ? nil : vees.original[$0] })
            }
        } else {
            ordering.minimizeCrossings(CrossingSearch.forGraph(vertices: graph.count, effort: effort), sweeps: LayeredLayout.sweeps)
        }
        if sifting { sift(&ordering) }
    }

    /// A copy of a graph for the sweeps to see its flat edges: a layer of its own above
    /// each layer with flat edges, which the segments coming down to that layer pass, holds
    /// for each flat edge a vertex joined down to the edge's two ends. A vee crosses each
    /// segment that comes down between its ends once, as the edge's arc over the layer
    /// does, and pulls the ends together; the segments coming down outside its ends can
    /// pass it on the outside, as they pass the arc.
    struct Vees {
        let graph: ProperGraph
        /// The copy's layer of each of the graph's layers.
        let layer: [Int]
        /// The graph's vertex of each of the copy's (-1 for the added ones).
        let original: [Int]

        /// Nil when no flat edge lies on `flatLayers` or the graph shares chains.
        init?(_ graph: ProperGraph, flatLayers: [Int]) {
            guard !flatLayers.isEmpty, graph.chainOwner.enumerated().allSatisfy({ $0.offset == $0.element }) else { return nil }
            let flat = Set(flatLayers)
            var layer = Array(repeating: 0, count: graph.layerCount)
            var added = 0
            for l in 0..<graph.layerCount {
                if flat.contains(l) { added += 1 }
                layer[l] = l + added
            }
            // the copy's real vertices: the graph's, then the apexes; the same edges
            var ranks = (0..<graph.realCount).map { layer[graph.layer[$0]] }
            var edges: [(source: Int, target: Int)] = []
            var ports: [(Double, Double)] = []
            var sourcePort = Array(repeating: 0.0, count: graph.chains.count), targetPort = sourcePort
            for seg in graph.segments {
                if seg.upper == graph.chains[seg.edge].first { sourcePort[seg.edge] = seg.upperPort }
                if seg.lower == graph.chains[seg.edge].last { targetPort[seg.edge] = seg.lowerPort }
            }
            for (i, chain) in graph.chains.enumerated() {
                edges.append((chain.first!, chain.last!))
                ports.append((sourcePort[i], targetPort[i]))
            }
            var apexes = 0
            for chain in graph.chains where chain.count == 2 && chain[0] != chain[1] {
                let l = graph.layer[chain[0]]
                guard graph.layer[chain[1]] == l, flat.contains(l) else { continue }
                let apex = graph.realCount + apexes
                apexes += 1
                ranks.append(layer[l] - 1)
                edges += [(apex, chain[0]), (apex, chain[1])]
                ports += [(0, 0), (0, 0)]
            }
            guard apexes > 0 else { return nil }
            // ranks start at 0: the layer above the first is the copy's first
            var copy = ProperGraph(
                ranks: ranks, breadth: Array(repeating: 0, count: ranks.count), depth: Array(repeating: 0, count: ranks.count),
                edges: edges, ports: ports, labels: Array(repeating: nil, count: edges.count))
            copy.orderKey = graph.orderKey + Array(repeating: nil, count: apexes)
            copy.orderTie = graph.orderTie + Array(repeating: 0, count: apexes)
            var original = Array(repeating: -1, count: copy.count)
            for v in 0..<graph.realCount { original[v] = v }
            for (i, chain) in graph.chains.enumerated() where chain.count > 2 {
                var byLayer: [Int: Int] = [:]
                for d in copy.chains[i] { byLayer[copy.layer[d]] = d }
                for d in chain.dropFirst().dropLast() { original[byLayer[layer[graph.layer[d]]]!] = d }
            }
            self.graph = copy
            self.layer = layer
            self.original = original
        }
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
    /// passes, each kept only when it lowers the sum. With `free` (a stable layout's,
    /// `StableLayout.order`), a vertex that is not free pays `StableLayout.flipCost` (half
    /// a crossing) for each such vertex it passes, so placed nodes move only to remove
    /// more crossings than that.
    func sift(_ ordering: inout Ordering, rounds: Int = 4, free: [Bool]? = nil) {
        var work = 0
        for (l, _) in byLayer {
            let w = ordering.layers[l].count
            work += w * w * max(1, ordering.graph.segments.count / max(1, ordering.layers.count))
        }
        guard work <= FlatOrdering.workBound else { return }
        for _ in 0..<rounds where !WorkLimit.shouldStop {
            var improved = false
            for l in byLayer.keys.sorted() where !ordering.frozen[l] {
                if siftLayer(l, &ordering, free: free) { improved = true }
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

    /// Moves each vertex of layer `l` in turn to its best place (see `sift` for `free`);
    /// whether the cost fell.
    private func siftLayer(_ l: Int, _ ordering: inout Ordering, free: [Bool]?) -> Bool {
        var best = cost(l, &ordering)
        let start = best
        let crossing = free == nil ? 1 : StableLayout.crossingCost
        for v in ordering.layers[l] {
            var order = ordering.layers[l]
            let from = order.firstIndex(of: v)!
            order.remove(at: from)
            var bestOrder = ordering.layers[l], bestPrice = best * crossing
            for at in 0...order.count where at != from {
                var trial = order
                trial.insert(v, at: at)
                ordering.setLayer(l, trial)
                let c = cost(l, &ordering)
                var price = c * crossing
                if let free, !free[v] {
                    price += StableLayout.flipCost * order[min(at, from)..<max(at, from)].lazy.filter { !free[$0] }.count
                }
                if price < bestPrice {
                    best = c
                    bestPrice = price
                    bestOrder = trial
                }
            }
            ordering.setLayer(l, bestOrder)
        }
        return best < start
    }
}
