/// Coordinates within layers as dot finds them (Gansner et al. 1993, section 4.2): the
/// positions that keep neighbours in a layer apart and make the weighted sum of the edges'
/// horizontal runs as small as possible, solved by network simplex on an auxiliary graph.
///
/// Every segment gets a vertex of its own with an edge to each end, so its run
/// `|x(upper) - x(lower)|` is the length of those two edges; every pair of neighbours in a
/// layer gets an edge of their separation and no weight. Segments weigh more the more
/// dummies they join (1 between nodes, 2 to a dummy, 8 between dummies), which keeps long
/// edges straight.
///
/// The method only improves the feasible coordinates it starts from. On graphs up to
/// `brandesKoepfVertices` vertices in the auxiliary graph (some 2,000 nodes) they are
/// Brandes–Köpf's, and it reaches the optimum in a few hundred pivots. Beyond, Brandes–Köpf's
/// alignments chain into drawings up to twenty times as wide as a layer, which take
/// thousands of pivots to pull in, so the start is every layer packed and centred, already
/// compact. Pivots stop at `maxPivots` (the drawing is valid at every pivot): graphs of
/// 1,000 nodes reach the optimum well before, the 5,000-node benchmark graphs get most of
/// the way.
enum PositionSimplex {
    static let brandesKoepfVertices = 12_000
    static let maxPivots = 1_500

    static func startsFromBrandesKoepf(_ graph: ProperGraph) -> Bool {
        graph.count + graph.segments.count <= brandesKoepfVertices
    }

    /// Every layer packed as tight as the separations allow, centred on 0.
    static func packed(_ layers: [[Int]], separation: (Int, Int) -> Double) -> [Double] {
        var x = Array(repeating: 0.0, count: layers.reduce(0) { $0 + $1.count })
        for layer in layers where !layer.isEmpty {
            var at = [0.0]
            for i in 1..<layer.count { at.append(at[i - 1] + separation(layer[i - 1], layer[i])) }
            let middle = at[layer.count - 1] / 2
            for (i, v) in layer.enumerated() { x[v] = at[i] - middle }
        }
        return x
    }

    /// `targets` and `weights` (by vertex, or empty) pull vertices towards coordinates of
    /// their own (a stable layout, `StableLayout.addPull`).
    static func improve(
        _ x: [Double], graph: ProperGraph, layers: [[Int]], separation: (Int, Int) -> Double,
        targets: [Double?] = [], weights: [Int] = []
    ) -> [Double] {
        let n = graph.count
        guard n > 1 else { return x }
        var edges: [NetworkSimplex.Edge] = []
        edges.reserveCapacity(2 * graph.segments.count + n)
        var rank = Array(repeating: 0, count: n)
        let base = x.min() ?? 0
        for v in 0..<n { rank[v] = Int((x[v] - base).rounded()) }
        for layer in layers where layer.count > 1 {
            for i in 1..<layer.count {
                let a = layer[i - 1], b = layer[i]
                let gap = Int(separation(a, b).rounded(.up))
                edges.append(.init(source: a, target: b, minLength: gap, weight: 0))
                // rounding may have left the pair a pixel short
                if rank[b] - rank[a] < gap { rank[b] = rank[a] + gap }
            }
        }
        var pull: (targets: [Double?], weights: [Int], base: Double)? = nil
        if !targets.isEmpty { pull = (targets, weights, base) }
        let solved = solve(graph, rank: rank, extra: [], constraints: edges, pull: pull)
        return (0..<n).map { Double(solved[$0]) }
    }

    /// Network simplex on the auxiliary graph: `rank` is a feasible start for the vertices,
    /// `extra` for variables of the caller's own, which the edges (`constraints`, with the
    /// separations) index from `graph.count + graph.segments.count` on. Returns the ranks of
    /// the vertices, the segments' vertices and the extra variables, in that order.
    static func solve(
        _ graph: ProperGraph, rank vertexRank: [Int], extra: [Int], constraints: [NetworkSimplex.Edge],
        pull: (targets: [Double?], weights: [Int], base: Double)? = nil
    ) -> [Int] {
        let n = graph.count
        var edges = constraints
        var rank = vertexRank + Array(repeating: 0, count: graph.segments.count) + extra
        // A segment's run is measured between its ends' ports: the edge from the segment's
        // vertex to an end is at least `reach` minus the port's offset long, so the vertex
        // lies at most at the nearer port, and the two edges add up to the run between the
        // ports (plus 2 × reach, the same for every position).
        var offsets: [(upper: Int, lower: Int)] = []
        offsets.reserveCapacity(graph.segments.count)
        var reach = 0
        for segment in graph.segments {
            let o = (
                Int((segment.upperPort * graph.breadth[segment.upper]).rounded()),
                Int((segment.lowerPort * graph.breadth[segment.lower]).rounded()))
            offsets.append(o)
            reach = max(reach, abs(o.0), abs(o.1))
        }
        for (s, segment) in graph.segments.enumerated() {
            let dummies = (graph.isDummy(segment.upper) ? 1 : 0) + (graph.isDummy(segment.lower) ? 1 : 0)
            let weight = dummies == 2 ? 8 : dummies == 1 ? 2 : 1
            let a = n + s
            edges.append(.init(source: a, target: segment.upper, minLength: reach - offsets[s].upper, weight: weight))
            edges.append(.init(source: a, target: segment.lower, minLength: reach - offsets[s].lower, weight: weight))
        }
        // each segment's vertex under its nearer port, which makes one of its edges tight
        for (s, segment) in graph.segments.enumerated() {
            rank[n + s] = min(rank[segment.upper] - (reach - offsets[s].upper), rank[segment.lower] - (reach - offsets[s].lower))
        }
        if let pull {
            StableLayout.addPull(targets: pull.targets, weights: pull.weights, base: pull.base, edges: &edges, rank: &rank)
        }
        return NetworkSimplex.improve(ranks: rank, edges: edges, maxIterations: maxPivots)
    }
}
