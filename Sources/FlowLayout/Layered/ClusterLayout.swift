import FlowCore

/// The clusters of one component (`LayoutGraph.clusters`, a store's groups) in its layered
/// layout, the way dot lays out its clusters: one graph for all the nodes, each cluster's
/// nodes side by side with the others in their layers, and a box around them.
///
/// - **Order.** Every cluster's vertices sit together in each layer, nested clusters within
///   theirs, and clusters that share a parent keep one left-to-right order in every layer
///   (`regroup`, `reduceCrossings`), so no box has to hold what it does not own.
/// - **Coordinates.** Each cluster gets two more variables in the position solver, its
///   box's sides along the layers: every vertex it holds lies inside them by the padding,
///   every neighbour it does not hold outside by the spacing (`coordinates`).
/// - **Layers.** The gap between two layers leaves room for the edges and titles of the
///   boxes that end and start there (`room`), and the boxes' frames follow (`frames`).
///
/// A dummy vertex (a long edge's bend, or its label) lies in the innermost cluster that
/// holds both ends of its edge, so an edge leaving a cluster runs outside it.
struct ClusterLayout {
    let clusters: [LayoutGraph.Cluster]
    /// The innermost cluster of every vertex of the proper graph (-1: none).
    let of: [Int]
    /// Each cluster and those that hold it, outermost first.
    let path: [[Int]]
    /// Whether each cluster holds a vertex of this component.
    let used: [Bool]
    /// Where a box's title goes, in layer terms: at the start of its first layer (`TB`), at
    /// the end of its last (`BT`), or at the start of the layer axis (`LR`, `RL`).
    let titleSide: TitleSide

    enum TitleSide { case layerStart, layerEnd, breadthStart }

    /// The clusters of the component of `graph` made of `nodes`, whose proper graph is
    /// `proper`; nil when none of them lies in a cluster.
    init?(_ graph: LayoutGraph, nodes: [Int], proper: ProperGraph, direction: LayoutDirection) {
        guard !graph.clusters.isEmpty, nodes.contains(where: { graph.nodes[$0].cluster >= 0 }) else { return nil }
        clusters = graph.clusters
        var path: [[Int]] = []
        for (c, cluster) in graph.clusters.enumerated() {
            path.append(cluster.parent >= 0 && cluster.parent < c ? path[cluster.parent] + [c] : [c])
        }
        self.path = path
        var of = Array(repeating: -1, count: proper.count)
        for (local, v) in nodes.enumerated() { of[local] = graph.nodes[v].cluster }
        for chain in proper.chains where chain.count > 2 {
            let common = ClusterLayout.innermostCommon(of[chain[0]], of[chain[chain.count - 1]], path)
            for d in chain.dropFirst().dropLast() { of[d] = common }
        }
        self.of = of
        var used = Array(repeating: false, count: graph.clusters.count)
        for c in of where c >= 0 { for a in path[c] { used[a] = true } }
        self.used = used
        titleSide = switch direction {
        case .TB: .layerStart
        case .BT: .layerEnd
        case .LR, .RL: .breadthStart
        }
    }

    /// The innermost cluster holding both `a` and `b` (clusters or -1).
    static func innermostCommon(_ a: Int, _ b: Int, _ path: [[Int]]) -> Int {
        guard a >= 0, b >= 0 else { return -1 }
        let k = sharedDepth(path[a], path[b])
        return k == 0 ? -1 : path[a][k - 1]
    }

    /// How many clusters, from the outermost, two chains of clusters (`path`, `chain`) share:
    /// where they part, `a[k]` and `b[k]` are the boxes (when there) that tell them apart.
    static func sharedDepth(_ a: [Int], _ b: [Int]) -> Int {
        var k = 0
        while k < a.count && k < b.count && a[k] == b[k] { k += 1 }
        return k
    }

    func chain(_ v: Int) -> [Int] { of[v] >= 0 ? path[of[v]] : [] }

    // MARK: Order

    /// Layer `layer` sorted so that clusters are contiguous: vertices by `key`, clusters
    /// by `clusterKey`, compared at the outermost cluster where two vertices part (ties by
    /// `position`, the current place).
    func regroup(_ layer: [Int], key: (Int) -> Double, clusterKey: [Double], position: [Int]) -> [Int] {
        let chains = layer.map(chain)
        let keys = layer.map(key)
        var at = [Int: Int](minimumCapacity: layer.count)
        for (i, v) in layer.enumerated() { at[v] = i }
        return layer.sorted { a, b in
            let i = at[a]!, j = at[b]!
            let pa = chains[i], pb = chains[j]
            let k = ClusterLayout.sharedDepth(pa, pb)
            let ka = k < pa.count ? (clusterKey[pa[k]], 0, pa[k]) : (keys[i], 1, position[a])
            let kb = k < pb.count ? (clusterKey[pb[k]], 0, pb[k]) : (keys[j], 1, position[b])
            return ka < kb
        }
    }

    /// Each cluster's key: the mean place (0...1 across its layer) of the vertices it holds.
    func clusterKeys(_ place: (Int) -> Double) -> [Double] {
        var sum = Array(repeating: 0.0, count: clusters.count), count = sum
        for v in 0..<of.count where of[v] >= 0 {
            let p = place(v)
            for c in path[of[v]] {
                sum[c] += p
                count[c] += 1
            }
        }
        return (0..<clusters.count).map { count[$0] > 0 ? sum[$0] / count[$0] : 0.5 }
    }

    /// Most barycentre sweeps (down and up) within the clusters' order.
    static let passes = 8

    /// Brings each cluster's vertices together in every layer, sibling clusters in one order
    /// (by where their vertices lie on average), and otherwise keeps the order: a stable
    /// layout's order, which keeps the placed nodes where they were.
    /// `clusterKey`: the siblings' order to bring them into (nil: where they lie now).
    func regroup(_ ordering: inout Ordering, graph: ProperGraph, clusterKey: [Double]? = nil) {
        let keys = clusterKey ?? clusterKeys { ClusterLayout.place($0, in: ordering, graph) }
        for l in 0..<ordering.layers.count {
            ordering.setLayer(l, regroup(
                ordering.layers[l], key: { ClusterLayout.place($0, in: ordering, graph) }, clusterKey: keys,
                position: ordering.position))
        }
    }

    /// Where `v` lies across its layer, from 0 to 1 (the middle of its place).
    static func place(_ v: Int, in ordering: Ordering, _ graph: ProperGraph) -> Double {
        (Double(ordering.position[v]) + 0.5) / Double(max(1, ordering.layers[graph.layer[v]].count))
    }

    /// Brings the clusters' vertices together in the order crossing reduction found, then
    /// sweeps down and up sorting each layer by barycentres within that grouping, keeping
    /// the order with the fewest crossings. Sibling clusters compare by keys fixed for a
    /// whole sweep, so each sweep leaves them in one order on every layer, and sweeps seldom
    /// carry a cluster past its siblings: so on small graphs the sweeps start again from
    /// every other order of each set of two to four sibling clusters (`startOrders`), and
    /// the order with the fewest crossings of all wins (the first of equals), and sifting
    /// within the grouping polishes it (`sift`).
    func reduceCrossings(_ ordering: inout Ordering, graph: ProperGraph) {
        let start = ordering.layers, startKeys = clusterKeys { ClusterLayout.place($0, in: ordering, graph) }
        var best = sweeps(&ordering, graph: graph, from: startKeys)
        guard graph.count <= ClusterLayout.reorderedVertices, best.crossings > 0 else {
            for (l, layer) in best.layers.enumerated() { ordering.setLayer(l, layer) }
            return
        }
        for keys in startOrders(startKeys) where best.crossings > 0 && !WorkLimit.shouldStop {
            for (l, layer) in start.enumerated() { ordering.setLayer(l, layer) }
            let tried = sweeps(&ordering, graph: graph, from: keys)
            if tried.crossings < best.crossings { best = tried }
        }
        for (l, layer) in best.layers.enumerated() { ordering.setLayer(l, layer) }
        sift(&ordering)
    }

    /// Graphs up to this many vertices (with bends) try other orders of sibling clusters.
    static let reorderedVertices = 600

    /// Cluster keys that put one set of two to four sibling clusters (the children of one
    /// cluster, or the outermost ones) in another order, each other order of each set, the
    /// rest as `keys` has them.
    func startOrders(_ keys: [Double]) -> [[Double]] {
        var siblings: [Int: [Int]] = [:]
        for c in clusters.indices where used[c] { siblings[clusters[c].parent, default: []].append(c) }
        var out: [[Double]] = []
        for parent in siblings.keys.sorted() {
            let set = siblings[parent]!.sorted { (keys[$0], $0) < (keys[$1], $1) }
            guard set.count >= 2, set.count <= 4 else { continue }
            let slots = set.map { keys[$0] }
            for order in ClusterLayout.permutations(set.count).dropFirst() {
                var k = keys
                // the set's clusters take the set's keys in the new order, spread a little so
                // equal keys still order them
                for (i, j) in order.enumerated() { k[set[j]] = slots[i] + Double(i) * 1e-6 }
                out.append(k)
            }
        }
        return out
    }

    /// Every order of 0..<n, the identity first.
    static func permutations(_ n: Int) -> [[Int]] {
        guard n > 1 else { return [Array(0..<n)] }
        var out: [[Int]] = []
        for rest in permutations(n - 1) {
            for i in stride(from: rest.count, through: 0, by: -1) {
                var p = rest
                p.insert(n - 1, at: i)
                out.append(p)
            }
        }
        return out
    }

    /// The sweeps from `ordering`, its clusters first brought together in the order of
    /// `startKeys`: the best layers found and their crossings.
    private func sweeps(_ ordering: inout Ordering, graph: ProperGraph, from startKeys: [Double]) -> (layers: [[Int]], crossings: Int) {
        func place(_ v: Int) -> Double { ClusterLayout.place(v, in: ordering, graph) }
        regroup(&ordering, graph: graph, clusterKey: startKeys)
        var best = ordering.layers, fewest = ordering.totalCrossings()
        var stale = 0
        for _ in 0..<ClusterLayout.passes where fewest > 0 && stale < 2 && !WorkLimit.shouldStop {
            let clusterKey = clusterKeys(place)
            func sweep(_ l: Int, above: Bool) {
                let key: (Int) -> Double = { v in
                    let segments = above ? graph.up[v] : graph.down[v]
                    guard !segments.isEmpty else { return place(v) }
                    var sum = 0.0
                    for s in segments { sum += place(above ? graph.segments[s].upper : graph.segments[s].lower) }
                    return sum / Double(segments.count)
                }
                ordering.setLayer(l, regroup(ordering.layers[l], key: key, clusterKey: clusterKey, position: ordering.position))
            }
            for l in stride(from: 1, to: ordering.layers.count, by: 1) { sweep(l, above: true) }
            for l in stride(from: ordering.layers.count - 2, through: 0, by: -1) { sweep(l, above: false) }
            let crossings = ordering.totalCrossings()
            if crossings < fewest {
                fewest = crossings
                best = ordering.layers
                stale = 0
            } else {
                stale += 1
            }
        }
        return (best, fewest)
    }
}

extension ClusterLayout {
    /// Layers for a component whose nodes lie in clusters: network simplex on `edges` (over
    /// the component's `nodes`, by local index) and, for each cluster, the number of layers
    /// it spans, which weighs a little more than all the edges its nodes would stretch to
    /// close it up. So a cluster takes as few layers as its own edges let it, the way dot
    /// ranks each cluster as a unit, unless that stretches more edges than it holds nodes.
    /// Each cluster gets two vertices of its own, before and after every node it holds,
    /// joined by the weighted edge. With `merged` (`RankClasses`), `edges` are over its
    /// merged vertices, which are ranked in place of the nodes.
    static func ranks(_ graph: LayoutGraph, nodes: [Int], edges: [NetworkSimplex.Edge], merged: RankClasses? = nil) -> [Int] {
        let n = merged?.count ?? nodes.count
        func expand(_ ranks: [Int]) -> [Int] { merged?.expand(ranks) ?? ranks }
        var spans: [NetworkSimplex.Edge] = []
        var held = Array(repeating: 0, count: graph.clusters.count)
        for (local, v) in nodes.enumerated() {
            var c = graph.nodes[v].cluster
            let vertex = merged?.classOf[local] ?? local
            while c >= 0 {
                spans.append(.init(source: n + 2 * c, target: vertex, minLength: 0, weight: 0))
                spans.append(.init(source: vertex, target: n + 2 * c + 1, minLength: 0, weight: 0))
                held[c] += 1
                c = graph.clusters[c].parent
            }
        }
        guard !spans.isEmpty else { return expand(NetworkSimplex.ranks(nodeCount: n, edges: edges)) }
        let edgeWeight = 2
        var all = edges.map {
            NetworkSimplex.Edge(source: $0.source, target: $0.target, minLength: $0.minLength, weight: $0.weight * edgeWeight)
        }
        for c in 0..<graph.clusters.count {
            // a cluster without a node here is tied to the first node, and weighs nothing
            if held[c] == 0 { spans.append(.init(source: n + 2 * c, target: 0, minLength: 0, weight: 0)) }
            spans.append(.init(source: n + 2 * c, target: n + 2 * c + 1, minLength: 0, weight: held[c] * edgeWeight + 1))
        }
        all += spans
        let ranks = Array(NetworkSimplex.ranks(nodeCount: n + 2 * graph.clusters.count, edges: all)[0..<n])
        let low = ranks.min() ?? 0
        return expand(ranks.map { $0 - low })
    }
}
