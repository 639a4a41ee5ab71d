/// Coordinates within layers as dot finds them (Gansner et al. 1993, section 4.2): the
/// positions that keep neighbours in a layer apart and make the weighted sum of the edges'
/// horizontal runs as small as possible, solved by network simplex on an auxiliary graph.
///
/// Every segment gets a vertex of its own with an edge to each end, so its run
/// `|x(upper) - x(lower)|` is the length of those two edges; every pair of neighbours in a
/// layer gets an edge of their separation and no weight, and so does a flat edge's
/// `minLength` between two that are not neighbours (`FlatSpan`). Segments weigh more the more
/// dummies they join (1 between nodes, 2 to a dummy, 8 between dummies), which keeps long
/// edges straight, times their edge's weight (`ProperGraph.weight(ofEdge:)`, DOT's `weight`).
///
/// The method only improves the feasible coordinates it starts from. On graphs up to
/// `brandesKoepfVertices` vertices in the auxiliary graph (some 2,000 nodes) they are
/// Brandes–Köpf's, and it reaches the optimum in a few hundred pivots. Beyond, Brandes–Köpf's
/// alignments chain into drawings up to twenty times as wide as a layer, which take
/// thousands of pivots to pull in, so the start is every layer packed and centred, already
/// compact. Pivots stop at `maxPivots`, or when their work passes the budget of
/// `pivotBudget` (the drawing is valid at every pivot): graphs of 1,000 nodes reach the
/// optimum well before, the 5,000-node benchmark graphs get most of the way.
enum PositionSimplex {
    static let brandesKoepfVertices = 12_000
    static let maxPivots = 1_500
    /// The pivots' work (`NetworkSimplex.work`) for each unit of the auxiliary graph (its
    /// variables and edges) up to `workKnee` units, growing as the fourth root beyond
    /// (`WorkBudget.scaled`). No benchmark graph is cut short: layered_5000 (35,556 units)
    /// takes 15.6 million and dag_5000 (60,555) 19.9 million of their 17.8 and 22.2. The
    /// cyclic graphs of `flowbench --only growth` would take 50, 85 and 429 million in
    /// their 1,500 pivots at 1,000, 2,000 and 4,000 nodes (147,397, 291,528 and 1,002,305
    /// units) and get 27.7, 32.9 and 44.7 million.
    static let workPerUnit = 500
    static let workKnee = 40_000

    /// The pivots' work budget on an auxiliary graph of `units` variables and edges.
    static func pivotBudget(_ units: Int) -> WorkBudget {
        WorkBudget.scaled(units, perUnit: workPerUnit, knee: workKnee, floor: 0)
    }

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
        // a flat edge's minLength between vertices that are not neighbours (`flatSpans`)
        var spansInto: [Int: [FlatSpan]] = [:]
        for span in graph.flatSpans(layers) { spansInto[span.right, default: []].append(span) }
        for layer in layers where layer.count > 1 {
            for i in 1..<layer.count {
                let a = layer[i - 1], b = layer[i]
                let gap = Int(separation(a, b).rounded(.up))
                edges.append(.init(source: a, target: b, minLength: gap, weight: 0))
                // rounding may have left the pair a pixel short
                if rank[b] - rank[a] < gap { rank[b] = rank[a] + gap }
                guard !spansInto.isEmpty, let spans = spansInto[b] else { continue }
                for span in spans {
                    let d = Int(span.distance.rounded(.up))
                    edges.append(.init(source: span.left, target: b, minLength: d, weight: 0))
                    // the start keeps it too: `b` and what follows it move right
                    if rank[b] - rank[span.left] < d { rank[b] = rank[span.left] + d }
                }
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
    ///
    /// Parallel segments (one upper and one lower vertex, the same ports: edges drawn side
    /// by side between two nodes) share one vertex in the solver, weighing what they weigh
    /// together: the same optimum, with one vertex and two edges instead of thousands where
    /// a graph repeats an edge (each gets its shared vertex's rank back).
    static func solve(
        _ graph: ProperGraph, rank vertexRank: [Int], extra: [Int], constraints: [NetworkSimplex.Edge],
        pull: (targets: [Double?], weights: [Int], base: Double)? = nil
    ) -> [Int] {
        let n = graph.count
        let segmentCount = graph.segments.count
        // A segment's run is measured between its ends' ports: the edge from the segment's
        // vertex to an end is at least `reach` minus the port's offset long, so the vertex
        // lies at most at the nearer port, and the two edges add up to the run between the
        // ports (plus 2 × reach, the same for every position).
        var offsets: [(upper: Int, lower: Int)] = []
        offsets.reserveCapacity(segmentCount)
        var reach = 0
        for segment in graph.segments {
            let o = (
                Int((segment.upperPort * graph.breadth[segment.upper]).rounded()),
                Int((segment.lowerPort * graph.breadth[segment.lower]).rounded()))
            offsets.append(o)
            reach = max(reach, abs(o.0), abs(o.1))
        }
        // each segment's solver vertex: the first of its parallel ones
        var shared = Array(repeating: 0, count: segmentCount)
        var first: [SegmentKey: Int] = [:]
        var kept: [Int] = []
        var weight: [Int] = []
        for (s, segment) in graph.segments.enumerated() {
            let dummies = (graph.isDummy(segment.upper) ? 1 : 0) + (graph.isDummy(segment.lower) ? 1 : 0)
            let w = (dummies == 2 ? 8 : dummies == 1 ? 2 : 1) * graph.weight(ofEdge: segment.edge)
            let key = SegmentKey(upper: segment.upper, lower: segment.lower, upperOffset: offsets[s].upper, lowerOffset: offsets[s].lower)
            if let k = first[key] {
                shared[s] = k
                weight[k] += w
            } else {
                first[key] = kept.count
                shared[s] = kept.count
                kept.append(s)
                weight.append(w)
            }
        }
        let dropped = segmentCount - kept.count
        var edges = constraints.map { e -> NetworkSimplex.Edge in
            func moved(_ i: Int) -> Int { i >= n + segmentCount ? i - dropped : i }
            return .init(source: moved(e.source), target: moved(e.target), minLength: e.minLength, weight: e.weight)
        }
        var rank = vertexRank + Array(repeating: 0, count: kept.count) + extra
        for (k, s) in kept.enumerated() {
            let segment = graph.segments[s]
            let a = n + k
            edges.append(.init(source: a, target: segment.upper, minLength: reach - offsets[s].upper, weight: weight[k]))
            edges.append(.init(source: a, target: segment.lower, minLength: reach - offsets[s].lower, weight: weight[k]))
            // under its nearer port, which makes one of its edges tight
            rank[a] = min(rank[segment.upper] - (reach - offsets[s].upper), rank[segment.lower] - (reach - offsets[s].lower))
        }
        if let pull {
            StableLayout.addPull(targets: pull.targets, weights: pull.weights, base: pull.base, edges: &edges, rank: &rank)
        }
        addWidth(graph, edges: &edges, rank: &rank)
        // a stable layout's solve gets `StableLayout.settling` times the pivots and work
        let scale = pull == nil ? 1 : StableLayout.settling
        let work = pivotBudget(rank.count + edges.count).limit.multipliedReportingOverflow(by: scale)
        let solved = NetworkSimplex.improve(
            ranks: rank, edges: edges, maxIterations: maxPivots * scale, maxWork: work.overflow ? .max : work.partialValue)
        var out = Array(solved[0..<n])
        out.reserveCapacity(n + segmentCount + extra.count)
        for s in 0..<segmentCount { out.append(solved[n + shared[s]]) }
        out += solved[(n + kept.count)..<(n + kept.count + extra.count)]
        return out
    }

    /// How much more a unit of an edge's run weighs than a unit of the drawing's width.
    static let widthShare = 4

    /// The drawing's width as the least term of the sum: every edge weighs `widthShare`
    /// times what it weighed, and two variables bound every layer's outer vertices (as
    /// ordered at the start, which the separations keep) with an edge of weight 1 between
    /// them. Among the placements with the shortest runs, the solver then takes the
    /// narrowest: a chain does not drift sideways at every branch where the runs alone
    /// leave it free to, and a side branch gives up width only where it costs no run.
    static func addWidth(_ graph: ProperGraph, edges: inout [NetworkSimplex.Edge], rank: inout [Int]) {
        let n = graph.count
        guard n > 1 else { return }
        for i in edges.indices { edges[i].weight *= widthShare }
        // each layer's outer vertices (-1: an empty layer)
        var first = Array(repeating: -1, count: graph.layerCount), last = first
        for v in 0..<n {
            let l = graph.layer[v]
            if first[l] < 0 || rank[v] < rank[first[l]] { first[l] = v }
            if last[l] < 0 || rank[v] > rank[last[l]] { last[l] = v }
        }
        first.removeAll { $0 < 0 }
        last.removeAll { $0 < 0 }
        func half(_ v: Int) -> Int { Int((graph.breadth[v] / 2).rounded(.up)) }
        let left = rank.count, right = left + 1
        rank.append(first.map { rank[$0] - half($0) }.min() ?? 0)
        rank.append(last.map { rank[$0] + half($0) }.max() ?? 0)
        for v in first.sorted() { edges.append(.init(source: left, target: v, minLength: half(v), weight: 0)) }
        for v in last.sorted() { edges.append(.init(source: v, target: right, minLength: half(v), weight: 0)) }
        edges.append(.init(source: left, target: right, minLength: 0, weight: 1))
    }

    /// What makes two segments parallel: their ends and where on them they attach.
    private struct SegmentKey: Hashable {
        var upper: Int
        var lower: Int
        var upperOffset: Int
        var lowerOffset: Int
    }
}
