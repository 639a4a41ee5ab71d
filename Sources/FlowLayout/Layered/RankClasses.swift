/// Rank constraints (`LayoutGraph.RankConstraint`) applied to the layering of one part, as
/// dot applies them: the nodes of a `same` set are merged into one vertex for ranking, all
/// `min` and `source` nodes into one, and all `max` and `sink` nodes into one (a node in
/// both keeps `min`). Edges into the minimum vertex and out of the maximum one are turned
/// around; the cycles merging makes are then broken by turning edges, as any other
/// (`edgesToReverse` over the merged vertices). Ranking ties the minimum vertex above every
/// other vertex (one rank above for `source`, so it is alone there) and the maximum below.
/// Edges between nodes of one vertex are flat: they join two nodes of one layer.
struct RankClasses {
    /// The merged vertex of each node of the part (by its index in the part).
    var classOf: [Int]
    /// How many merged vertices.
    var count: Int
    /// The vertex of the `min`/`source` nodes and of the `max`/`sink` nodes.
    var minimum: Int?
    var maximum: Int?
    /// Whether the extremes are `source`/`sink` (alone on their layer).
    var strictMinimum = false
    var strictMaximum = false

    /// The classes of a part's nodes; `local` maps graph node indices to the part's.
    /// Nil when no constraint has two nodes in the part, or one on an extreme.
    init?(_ constraints: [LayoutGraph.RankConstraint], local: [Int: Int], nodeCount n: Int) {
        var sets = DisjointSets(count: n)
        func find(_ v: Int) -> Int { sets.find(v) }
        func union(_ a: Int, _ b: Int) { sets.union(a, b) }
        var low: Int?, high: Int?
        var lowNodes = Set<Int>()
        var any = false
        for c in constraints {
            let members = c.nodes.compactMap { local[$0] }
            guard let first = members.first else { continue }
            switch c.kind {
            case .same:
                for m in members.dropFirst() { union(first, m); any = true }
            case .min, .source:
                if c.kind == .source { strictMinimum = true }
                for m in members {
                    if let l = low { union(l, m) } else { low = m }
                    lowNodes.insert(m)
                }
                any = true
            case .max, .sink:
                if c.kind == .sink { strictMaximum = true }
                for m in members where !lowNodes.contains(m) {
                    if let h = high { union(h, m) } else { high = m }
                }
                any = any || high != nil
            }
        }
        guard any else { return nil }
        // a `same` set joining the two extremes: the minimum wins, the maximum is dropped
        if let l = low, let h = high, find(l) == find(h) { high = nil }
        var number = Array(repeating: -1, count: n)
        var count = 0
        classOf = Array(repeating: 0, count: n)
        for v in 0..<n {
            let r = find(v)
            if number[r] < 0 { number[r] = count; count += 1 }
            classOf[v] = number[r]
        }
        self.count = count
        minimum = low.map { classOf[$0] }
        maximum = high.map { classOf[$0] }
    }

    /// Which edges (local `(source, target)` pairs) to draw against the flow: those into the
    /// minimum or out of the maximum, then those closing a cycle among the merged vertices.
    /// Flat edges (both ends in one vertex) are never turned.
    func edgesToReverse(_ pairs: [(Int, Int)]) -> [Bool] {
        var reversed = Array(repeating: false, count: pairs.count)
        var rest: [(Int, Int)] = []
        var restIndex: [Int] = []
        for (i, (s, t)) in pairs.enumerated() {
            let a = classOf[s], b = classOf[t]
            if a == b { continue }
            if b == minimum || a == maximum {
                reversed[i] = true
                rest.append((b, a))
            } else {
                rest.append((a, b))
            }
            restIndex.append(i)
        }
        let turned = FlowLayout.edgesToReverse(nodeCount: count, edges: rest)
        for (k, i) in restIndex.enumerated() where turned[k] { reversed[i].toggle() }
        return reversed
    }

    /// The ranking edges over merged vertices: `edges` (over the part's nodes, pointing
    /// down) mapped onto them, flat ones left out, then the ties of the extremes.
    func rankEdges(_ edges: [NetworkSimplex.Edge]) -> [NetworkSimplex.Edge] {
        var out: [NetworkSimplex.Edge] = []
        for e in edges {
            let a = classOf[e.source], b = classOf[e.target]
            if a != b { out.append(.init(source: a, target: b, minLength: e.minLength, weight: e.weight)) }
        }
        for v in 0..<count {
            if let m = minimum, v != m {
                out.append(.init(source: m, target: v, minLength: strictMinimum ? 1 : 0, weight: 0))
            }
            if let m = maximum, v != m, v != minimum {
                out.append(.init(source: v, target: m, minLength: strictMaximum ? 1 : 0, weight: 0))
            }
        }
        return out
    }

    /// The ranks of the part's nodes from those of the merged vertices.
    func expand(_ classRanks: [Int]) -> [Int] {
        classOf.map { classRanks[$0] }
    }
}

extension LayeredLayout {
    /// The layers of a part's nodes (before group borders are moved, `constrainLayers`):
    /// network simplex on `edges` (over the part's nodes, pointing down), with clusters or
    /// a stable layout's previous layers, over the merged vertices of `merged` if any.
    static func layering(
        _ graph: LayoutGraph, nodes: [Int], edges: [NetworkSimplex.Edge], merged: RankClasses?, stable: Bool,
        previous: [(along: Double, across: Double)?]
    ) -> [Int] {
        guard stable else {
            return ClusterLayout.ranks(graph, nodes: nodes, edges: merged?.rankEdges(edges) ?? edges, merged: merged)
        }
        let layers = StableLayout.previousLayers(previous.map { $0?.across })
        guard let merged else { return StableLayout.ranks(nodeCount: nodes.count, edges: edges, previousLayer: layers) }
        // a merged vertex keeps the previous layer of its first placed node
        var classLayer = [Int?](repeating: nil, count: merged.count)
        for (v, l) in layers.enumerated() where classLayer[merged.classOf[v]] == nil { classLayer[merged.classOf[v]] = l }
        return merged.expand(StableLayout.ranks(nodeCount: merged.count, edges: merged.rankEdges(edges), previousLayer: classLayer))
    }
}
