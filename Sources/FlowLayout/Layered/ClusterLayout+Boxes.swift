import FlowCore

extension ClusterLayout {
    /// Free space before a box's contents along the layers (its padding, and its title
    /// when that goes at the start of the layer axis), and after.
    func padLow(_ c: Int) -> Double { clusters[c].padding + (titleSide == .breadthStart ? clusters[c].title : 0) }
    func padHigh(_ c: Int) -> Double { clusters[c].padding }
    /// The same across the layers: before a box's first layer and after its last.
    func padBefore(_ c: Int) -> Double { clusters[c].padding + (titleSide == .layerStart ? clusters[c].title : 0) }
    func padAfter(_ c: Int) -> Double { clusters[c].padding + (titleSide == .layerEnd ? clusters[c].title : 0) }

    /// How much a box's width weighs in the positions, against an edge between two nodes
    /// (1): enough to pull a group's members together where their edges would spread them
    /// across the picture (a row of databases under the services that use them), not so
    /// much that it bends edges to close small gaps.
    static let boxWeight = 8

    /// The coordinates along the layers that keep every box around the vertices it holds
    /// and `spacing` clear of its neighbours in each layer (network simplex on the
    /// auxiliary graph, `PositionSimplex.solve`, with each box's two sides as variables and
    /// its width weighing `boxWeight`), and each used cluster's sides. Nil when the layers do
    /// not keep sibling clusters in one order (which `reduceCrossings` rules out). `pull`: a
    /// stable layout's pull of vertices towards coordinates of their own
    /// (`StableLayout.pull(along:hold:)`).
    func coordinates(
        graph: ProperGraph, layers: [[Int]], separation: (Int, Int) -> Double, spacing: Double,
        pull: (targets: [Double?], weights: [Int])? = nil
    ) -> (x: [Double], low: [Int: Double], high: [Int: Double])? {
        let n = graph.count
        let usedList = (0..<clusters.count).filter { used[$0] }
        var slot = Array(repeating: -1, count: clusters.count)
        for (i, c) in usedList.enumerated() { slot[c] = i }
        // variables: the vertices, then each used cluster's low and high side
        func low(_ c: Int) -> Int { n + 2 * slot[c] }
        func high(_ c: Int) -> Int { n + 2 * slot[c] + 1 }
        let count = n + 2 * usedList.count
        var edges: [NetworkSimplex.Edge] = []
        func keep(_ a: Int, _ b: Int, _ gap: Double, weight: Int = 0) {
            edges.append(.init(source: a, target: b, minLength: Int(gap.rounded(.up)), weight: weight))
        }
        for v in 0..<n where of[v] >= 0 {
            keep(low(of[v]), v, graph.breadth[v] / 2 + padLow(of[v]))
            keep(v, high(of[v]), graph.breadth[v] / 2 + padHigh(of[v]))
        }
        for c in usedList {
            keep(low(c), high(c), 0, weight: ClusterLayout.boxWeight)
            let p = clusters[c].parent
            if p >= 0 {
                keep(low(p), low(c), padLow(p))
                keep(high(c), high(p), padHigh(p))
            }
        }
        for layer in layers where layer.count > 1 {
            for i in 1..<layer.count {
                let a = layer[i - 1], b = layer[i]
                let pa = chain(a), pb = chain(b)
                let k = ClusterLayout.sharedDepth(pa, pb)
                if k == pa.count && k == pb.count {
                    keep(a, b, separation(a, b))
                } else {
                    let (left, leftReach) = k < pa.count ? (high(pa[k]), 0.0) : (a, graph.breadth[a] / 2)
                    let (right, rightReach) = k < pb.count ? (low(pb[k]), 0.0) : (b, graph.breadth[b] / 2)
                    keep(left, right, leftReach + rightReach + spacing)
                }
            }
        }
        for span in graph.flatSpans(layers) { keep(span.left, span.right, span.distance) }
        // a box spans every layer between its first and last: what lies in a layer where it
        // holds nothing stays outside it too, on the side the siblings' order puts it
        let holes = holeConstraints(graph: graph, layers: layers, spacing: spacing, low: low, high: high)
        // the start: longest paths from the left (a cycle means no order; one the holes'
        // sides make is left to the boxes' own constraints)
        // (a stable layout's from its previous centres, `StableLayout.clusterSeed`)
        let seed = pull.map {
            StableLayout.clusterSeed(layers: layers, targets: $0.targets, vertices: n, count: count, separation: separation)
        }
        let withHoles = longestPaths(edges + holes, count: count, start: seed)
        if withHoles != nil { edges += holes }
        guard let rank = withHoles ?? longestPaths(edges, count: count, start: seed) else { return nil }
        // the clusters' variables come after the segments' in the solver
        let base = n + graph.segments.count
        func solverIndex(_ i: Int) -> Int { i < n ? i : base + i - n }
        let constraints = edges.map {
            NetworkSimplex.Edge(
                source: solverIndex($0.source), target: solverIndex($0.target), minLength: $0.minLength, weight: $0.weight)
        }
        let solved = PositionSimplex.solve(
            graph, rank: Array(rank[0..<n]), extra: Array(rank[n...]), constraints: constraints,
            pull: pull.map { ($0.targets, $0.weights, 0) })
        var lows: [Int: Double] = [:], highs: [Int: Double] = [:]
        for c in usedList {
            lows[c] = Double(solved[solverIndex(low(c))])
            highs[c] = Double(solved[solverIndex(high(c))])
        }
        return ((0..<n).map { Double(solved[$0]) }, lows, highs)
    }

    /// The first and last layer of each used cluster.
    func layerSpans(_ graph: ProperGraph) -> (first: [Int], last: [Int]) {
        var first = Array(repeating: Int.max, count: clusters.count), last = Array(repeating: Int.min, count: clusters.count)
        for v in 0..<of.count where of[v] >= 0 {
            for c in path[of[v]] {
                first[c] = min(first[c], graph.layer[v])
                last[c] = max(last[c], graph.layer[v])
            }
        }
        return (first, last)
    }

    /// Room the boxes need before each layer (those starting there, nested ones inside
    /// them) and after it (those ending there).
    func room(_ graph: ProperGraph) -> (before: [Double], after: [Double]) {
        let (first, last) = layerSpans(graph)
        var nestedBefore = Array(repeating: 0.0, count: clusters.count), nestedAfter = nestedBefore
        // children come after their parents: innermost first from the end
        for c in (0..<clusters.count).reversed() where used[c] {
            nestedBefore[c] += padBefore(c)
            nestedAfter[c] += padAfter(c)
            let p = clusters[c].parent
            guard p >= 0 else { continue }
            if first[p] == first[c] { nestedBefore[p] = max(nestedBefore[p], nestedBefore[c]) }
            if last[p] == last[c] { nestedAfter[p] = max(nestedAfter[p], nestedAfter[c]) }
        }
        var before = Array(repeating: 0.0, count: graph.layerCount), after = before
        for c in 0..<clusters.count where used[c] {
            before[first[c]] = max(before[first[c]], nestedBefore[c])
            after[last[c]] = max(after[last[c]], nestedAfter[c])
        }
        return (before, after)
    }

    /// Each used cluster's box in layer terms (x along the layers, y across), from its
    /// sides (`coordinates`) and the bands of its first and last layers.
    func frames(
        _ graph: ProperGraph, low: [Int: Double], high: [Int: Double], layerTop: [Double], layerDepth: [Double]
    ) -> [Int: Rect] {
        let (first, last) = layerSpans(graph)
        var top = Array(repeating: Double.infinity, count: clusters.count)
        var bottom = Array(repeating: -Double.infinity, count: clusters.count)
        var frames: [Int: Rect] = [:]
        for c in (0..<clusters.count).reversed() where used[c] {
            top[c] = min(top[c], layerTop[first[c]]) - padBefore(c)
            bottom[c] = max(bottom[c], layerTop[last[c]] + layerDepth[last[c]]) + padAfter(c)
            let p = clusters[c].parent
            if p >= 0 {
                top[p] = min(top[p], top[c])
                bottom[p] = max(bottom[p], bottom[c])
            }
            let l = low[c] ?? 0, h = high[c] ?? 0
            frames[c] = Rect(l, top[c], h - l, bottom[c] - top[c])
        }
        return frames
    }
}

extension ClusterLayout {
    /// For each layer inside a used cluster's span where the cluster holds no vertex (a
    /// group whose members skip the layers of another's), constraints that keep that
    /// layer's vertices (or the sibling boxes holding them) `spacing` outside the box, before
    /// it or after it as the siblings' mean places across their layers order them.
    func holeConstraints(
        graph: ProperGraph, layers: [[Int]], spacing: Double, low: (Int) -> Int, high: (Int) -> Int
    ) -> [NetworkSimplex.Edge] {
        let (first, last) = layerSpans(graph)
        var present = Array(repeating: Set<Int>(), count: layers.count)
        for v in 0..<of.count where of[v] >= 0 { for c in path[of[v]] { present[graph.layer[v]].insert(c) } }
        var place = Array(repeating: 0.0, count: graph.count)
        for layer in layers {
            for (i, v) in layer.enumerated() { place[v] = (Double(i) + 0.5) / Double(layer.count) }
        }
        let key = clusterKeys { place[$0] }
        var out: [NetworkSimplex.Edge] = []
        var seen = Set<[Int]>()
        for (l, layer) in layers.enumerated() {
            for c in clusters.indices where used[c] && first[c] < l && l < last[c] && !present[l].contains(c) {
                for v in layer {
                    let pv = chain(v), pc = path[c]
                    let k = ClusterLayout.sharedDepth(pv, pc)
                    let box = pc[k]  // k < pc.count: c holds nothing in this layer
                    let inSibling = k < pv.count
                    // a bend goes the side of the end of its edge that lies outside the box
                    let ends = v < graph.realCount ? [v] : graph.chains[graph.segments[(graph.up[v] + graph.down[v])[0]].edge]
                    let outside = [ends.first!, ends.last!].compactMap { before(of: $0, c, key: key, place: place) }
                    let first = inSibling
                        ? (key[pv[k]], pv[k]) < (key[box], box) : outside.first ?? (place[v] < key[box])
                    let (a, b, gap): (Int, Int, Double) = switch (inSibling, first) {
                    case (true, true): (high(pv[k]), low(box), spacing)
                    case (true, false): (high(box), low(pv[k]), spacing)
                    case (false, true): (v, low(box), graph.breadth[v] / 2 + spacing)
                    case (false, false): (high(box), v, graph.breadth[v] / 2 + spacing)
                    }
                    guard seen.insert([a, b]).inserted else { continue }
                    out.append(.init(source: a, target: b, minLength: Int(gap.rounded(.up)), weight: 0))
                }
            }
        }
        return out
    }

    /// Whether vertex `u` lies before cluster `c` (or before the ancestor of `c` where their
    /// clusters part), by the siblings' keys, or by `u`'s place against the key when `u`
    /// belongs to no sibling; nil when `c` holds `u`.
    private func before(of u: Int, _ c: Int, key: [Double], place: [Double]) -> Bool? {
        let pu = chain(u), pc = path[c]
        let k = ClusterLayout.sharedDepth(pu, pc)
        guard k < pc.count else { return nil }
        return k < pu.count ? (key[pu[k]], pu[k]) < (key[pc[k]], pc[k]) : place[u] < key[pc[k]]
    }
}
