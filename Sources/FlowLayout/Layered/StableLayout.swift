import FlowCore

/// The steps of a stable layout (`LayoutOptions.stable`) that differ from a fresh one. Nodes
/// with a previous centre ("placed") keep what the reader has learnt about the drawing:
///
/// 1. **Layers.** The placed nodes on one line across the flow formed a layer; each such
///    previous layer gets a vertex of its own in network simplex, each at least a rank
///    below the one before and held close to it, and an auxiliary vertex per placed node
///    makes the cost `|rank - rank of its layer's vertex|` with a weight (`layerWeight`)
///    of two thirds of an edge's (`edgeWeight`). So the placed nodes of a layer stay
///    together and the layers keep their order, a placed node leaves its layer where that
///    shortens its edges (one edge made shorter is enough: the edges of a graph edited
///    for long stay as short as a fresh layout's, and with them the long edges' bends and
///    crossings), and a layer the edges need between two previous ones (a label's, one a
///    fresh layout of groups had) opens between them without moving the rest; new nodes
///    take the ranks their edges give them. Layers left without a node are closed.
/// 2. **Order.** Every layer starts sorted by the previous centres along the layer: placed
///    nodes by their own, a long edge's dummies between its ends', new nodes by the mean of
///    their neighbours'. Crossing reduction then sifts (passes down and up while they
///    help) and moves each long edge as a whole (`ChainSifting`, within a window): new
///    nodes, dummies and placed nodes with a new neighbour go where they cross least, any
///    other placed node only where that removes more crossings than half a crossing
///    (`flipCost`) for each such node it passes, so few pairs swap. Then, on graphs of up
///    to a thousand vertices, iterated sifting at the same prices (`StableKicks.swift`)
///    leaves the local optimum, as a fresh layout's search does: without it the order
///    drifts from a fresh one's crossings as edits add up. Groups' vertices are brought
///    together first, and the sifting moves a vertex only where it keeps them so, sibling
///    groups passing each other in one layer; their one order is then restored and the
///    whole is sifted and kicked again with siblings kept in it (so the grouping does not
///    end with an unpolished regrouping); without groups the layers with flat edges are
///    sifted after for what those cross (`FlatOrdering`), at the same price.
/// 3. **Coordinates.** Network simplex on dot's auxiliary graph (`PositionSimplex`) with a
///    pull towards each placed node's previous centre (`pull` per unit of `hold`), started
///    from those centres: the picture stays as straight as the edges make it, and placed
///    nodes move where a new one needs room.
///
/// The whole graph is one part (unconnected parts keep where they were instead of being
/// set side by side), and everything is decided by the input and the previous centres.
enum StableLayout {
    /// The weight of a placed node's pull towards its previous centre, per unit of `hold`
    /// (an edge between two nodes weighs 1 per unit of its run, between dummies 8).
    static let pull = 8
    /// The weight that keeps a placed node's layer (per layer moved), against `edgeWeight`.
    static let layerWeight = 2
    /// What an edge's weight counts for per layer it spans, against `layerWeight`: a
    /// placed node held more than its edges kept the edges of an edited graph long (half
    /// as many bends again as a fresh layout's after 100 edits of dag_200, and a third
    /// more crossings).
    static let edgeWeight = 3
    /// How many times the fresh layout's pivots and work (`PositionSimplex.maxPivots`,
    /// `pivotBudget`) the pulled coordinate solve may take. At 1 it was cut short on every
    /// edit of dag_1000 (7.4 million units of work spent), so each layout went on moving the
    /// nodes towards the last one's optimum (a third of the nodes a spacing or more along
    /// the layers); it settles within 3,700 pivots and 18 million units there.
    static let settling = 10
    /// Places a dummy of a long edge may move from where it starts (`ChainSifting`).
    static let window = 10
    /// Rounds of moving the long edges as a whole, each followed by sifting.
    static let chainRounds = 1
    /// Most sifting passes in a round.
    static let passes = 4
    /// What a placed node pays for every placed node of its layer it passes in sifting, in
    /// `crossingCost`s (half a crossing): it moves only to remove more crossings than that.
    static let flipCost = 1
    /// What a crossing costs in sifting, against `flipCost`.
    static let crossingCost = 2
    /// How many places a vertex may move in one sifting: on wide layers (a large graph's,
    /// with its long edges' dummies) a pass stays linear in the vertices.
    static let siftingWindow = 20

    /// Whether the stable steps apply: the options ask for them and a node has a previous centre.
    static func applies(_ graph: LayoutGraph, _ options: LayoutOptions) -> Bool {
        options.stable && graph.nodes.contains { $0.previous != nil }
    }

    /// A previous centre in layer terms: along the layer and across the layers (growing
    /// with the flow).
    static func layerTerms(_ p: Point, _ direction: LayoutDirection) -> (along: Double, across: Double) {
        switch direction {
        case .TB: return (p.x, p.y)
        case .BT: return (p.x, -p.y)
        case .LR: return (p.y, p.x)
        case .RL: return (p.y, -p.x)
        }
    }

    /// The previous layer of each node (nil for new ones): placed nodes whose centres lie
    /// on one line across the flow (within a pixel) share a layer, numbered from 0.
    static func previousLayers(_ across: [Double?]) -> [Int?] {
        let placed = across.indices.filter { across[$0] != nil }.sorted { (across[$0]!, $0) < (across[$1]!, $1) }
        var layer = [Int?](repeating: nil, count: across.count)
        var current = -1, line = -Double.infinity
        for v in placed {
            if across[v]! - line > 1 {
                current += 1
                line = across[v]!
            }
            layer[v] = current
        }
        return layer
    }

    /// Ranks that keep each placed node's previous layer where the edges allow (see the
    /// type's comment); `edges` are the fresh layout's rank edges (pointing down).
    static func ranks(nodeCount n: Int, edges: [NetworkSimplex.Edge], previousLayer: [Int?]) -> [Int] {
        var all = edges.map {
            NetworkSimplex.Edge(source: $0.source, target: $0.target, minLength: $0.minLength, weight: $0.weight * edgeWeight)
        }
        // one vertex per previous layer, each at least one rank below the one before (and
        // held close to it): the placed nodes of a layer keep to its vertex, and a layer the
        // edges need between two previous ones (a label's) opens between their vertices
        let lines = (previousLayer.compactMap { $0 }.max() ?? -1) + 1
        let root = n
        var count = n + max(1, lines)
        for l in 1..<max(1, lines) {
            all.append(.init(source: n + l - 1, target: n + l, minLength: 1, weight: 1))
        }
        // a part with no placed node hangs from the root by a free edge (network simplex
        // needs one connected graph): parts labelled by a walk over the edges
        var adjacent = Array(repeating: [Int](), count: n)
        for e in edges where e.source < n && e.target < n {
            adjacent[e.source].append(e.target)
            adjacent[e.target].append(e.source)
        }
        var part = Array(repeating: -1, count: n)
        var firstOfPart: [Int] = []
        for v in 0..<n where part[v] < 0 {
            part[v] = firstOfPart.count
            var stack = [v]
            while let u = stack.popLast() {
                for w in adjacent[u] where part[w] < 0 {
                    part[w] = part[v]
                    stack.append(w)
                }
            }
            firstOfPart.append(v)
        }
        var anchored = Array(repeating: false, count: firstOfPart.count)
        for v in 0..<n {
            guard let l = previousLayer[v] else { continue }
            anchored[part[v]] = true
            // aux -> line (0) and aux -> v (0): cost |rank(v) - rank(line)| times the weight
            all.append(.init(source: count, target: n + l, minLength: 0, weight: layerWeight))
            all.append(.init(source: count, target: v, minLength: 0, weight: layerWeight))
            count += 1
        }
        for (p, v) in firstOfPart.enumerated() where !anchored[p] {
            all.append(.init(source: root, target: v, minLength: 0, weight: 0))
        }
        // a large graph's from its previous layers (`layeringStart`)
        let solved: [Int]
        if n >= previousStartFrom,
            let start = layeringStart(n: n, lines: max(1, lines), count: count, edges: all, previousLayer: previousLayer) {
            solved = NetworkSimplex.improve(ranks: start, edges: all, maxIterations: 100_000)
        } else {
            solved = NetworkSimplex.ranks(nodeCount: count, edges: all)
        }
        var ranks = Array(solved[0..<n])
        close(&ranks, edges: edges, n: n)
        return ranks
    }

    /// Closes the layers no node is on, keeping every edge at least its minimum length.
    static func close(_ ranks: inout [Int], edges: [NetworkSimplex.Edge], n: Int) {
        let used = Set(ranks).sorted()
        guard let first = used.first else { return }
        var into: [Int: [NetworkSimplex.Edge]] = [:]
        for e in edges where e.source < n && e.target < n { into[ranks[e.target], default: []].append(e) }
        var newRank: [Int: Int] = [:]
        var previous = -1
        for r in used {
            var value = r == first ? 0 : previous + 1
            // (an edge of length 0 may start on this layer)
            for e in into[r] ?? [] { if let s = newRank[ranks[e.source]] { value = max(value, s + e.minLength) } }
            newRank[r] = value
            previous = value
        }
        for v in 0..<n { ranks[v] = newRank[ranks[v]]! }
    }

    // MARK: Order

    /// Where each vertex of `g` was along its layer: a placed node at its previous centre, a
    /// long edge's dummy where the edge's previous route (`routes`, by edge, in layer terms,
    /// from end to end with the ends' previous centres) crossed the line of its layer; nil
    /// for the rest. A layer's line is the median of its placed nodes' previous lines, or
    /// for a layer without one, the line between its nearest neighbours' that have one.
    static func previousAlong(
        _ g: ProperGraph, previous: [(along: Double, across: Double)?], routes: [[(along: Double, across: Double)]?]
    ) -> [Double?] {
        var along = [Double?](repeating: nil, count: g.count)
        var lines = Array(repeating: [Double](), count: g.layerCount)
        for v in 0..<g.realCount {
            guard let p = previous[v] else { continue }
            along[v] = p.along
            lines[g.layer[v]].append(p.across)
        }
        var line: [Double?] = lines.map { $0.isEmpty ? nil : $0.sorted()[($0.count - 1) / 2] }
        let known = line.indices.filter { line[$0] != nil }
        for (a, b) in zip(known, known.dropFirst()) where b > a + 1 {
            for l in (a + 1)..<b { line[l] = line[a]! + (line[b]! - line[a]!) * Double(l - a) / Double(b - a) }
        }
        for (e, chain) in g.chains.enumerated() where chain.count > 2 && e < routes.count {
            guard let bends = routes[e], let first = previous[chain[0]], let last = previous[chain[chain.count - 1]] else { continue }
            // from the chain's upper end to its lower one
            let forwards = bends.first.map { abs($0.across - first.across) <= abs($0.across - last.across) } ?? true
            let points = [first] + (forwards ? bends : Array(bends.reversed())) + [last]
            for d in chain.dropFirst().dropLast() {
                guard let y = line[g.layer[d]] else { continue }
                for (p, q) in zip(points, points.dropFirst()) where min(p.across, q.across) <= y && y <= max(p.across, q.across) {
                    along[d] = q.across == p.across ? p.along : p.along + (q.along - p.along) * (y - p.across) / (q.across - p.across)
                    break
                }
            }
        }
        return along
    }

    /// Where each vertex starts along its layer: placed nodes at their previous centres
    /// (`along`), a long edge's dummies between its ends, new nodes at the mean of their
    /// neighbours; vertices still without a key follow the rest of their layer. Then the
    /// free vertices are sifted (`reduceCrossings`).
    static func order(_ ordering: inout Ordering, graph g: ProperGraph, along: [Double?], clusters: ClusterLayout? = nil) {
        var key = [Double?](repeating: nil, count: g.count)
        // (dummies too, where `along` has their previous bends: `previousAlong`)
        for v in 0..<min(g.count, along.count) { key[v] = along[v] }
        func interpolate() {
            for chain in g.chains where chain.count > 2 {
                guard let a = key[chain[0]], let b = key[chain[chain.count - 1]] else { continue }
                let steps = Double(chain.count - 1)
                for (k, d) in chain.enumerated().dropFirst().dropLast() where key[d] == nil {
                    key[d] = a + (b - a) * Double(k) / steps
                }
            }
        }
        interpolate()
        for _ in 0..<4 {
            var changed = false
            for v in 0..<g.realCount where key[v] == nil {
                var sum = 0.0, k = 0
                for s in g.up[v] { if let x = key[g.segments[s].upper] { sum += x; k += 1 } }
                for s in g.down[v] { if let x = key[g.segments[s].lower] { sum += x; k += 1 } }
                // through a long edge: its other end
                for s in g.up[v] + g.down[v] {
                    let chain = g.chains[g.segments[s].edge]
                    let other = chain[0] == v ? chain[chain.count - 1] : chain[0]
                    if chain.count > 2, let x = key[other] { sum += x; k += 1 }
                }
                if k > 0 {
                    key[v] = sum / Double(k)
                    changed = true
                }
            }
            interpolate()
            if !changed { break }
        }
        // the fresh start order breaks ties and places what has no key
        var layers = ordering.layers
        for l in 0..<layers.count {
            if ordering.frozen[l] { continue }
            let rank = Dictionary(uniqueKeysWithValues: layers[l].enumerated().map { ($1, $0) })
            layers[l].sort { a, b in
                switch (key[a], key[b]) {
                case let (x?, y?): return x != y ? x < y : rank[a]! < rank[b]!
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return rank[a]! < rank[b]!
                }
            }
            ordering.setLayer(l, layers[l])
        }
        var free = Array(repeating: true, count: g.count)
        for v in 0..<g.realCount where along[v] != nil { free[v] = false }
        // a placed node with a new neighbour moves as freely as a new one
        for chain in g.chains {
            let a = chain[0], b = chain[chain.count - 1]
            guard a < g.realCount && b < g.realCount else { continue }
            if along[a] == nil { free[b] = true }
            if along[b] == nil { free[a] = true }
        }
        // the clusters' vertices together first: the sifting keeps them so
        clusters?.regroup(&ordering, graph: g)
        var sifting = FreeSifting(graph: g, layers: ordering.layers, free: free, frozen: ordering.frozen, clusters: clusters)
        sifting.reduce(&ordering)
        let run = FreeSifting.kicks(vertices: g.count)
        if let run { sifting.kick(&ordering, run: run, seed: 0x5EED_57AB) }
        // sibling clusters may have passed each other in some layers: one order again, then
        // sifting and kicks that keep it, from the same previous order (what a flip costs)
        if let clusters {
            clusters.regroup(&ordering, graph: g)
            var polish = FreeSifting(
                graph: g, layers: ordering.layers, free: free, frozen: ordering.frozen, clusters: clusters,
                origin: sifting.origin, keepSiblings: true)
            polish.reduce(&ordering)
            if let run { polish.kick(&ordering, run: run, seed: 0x5EED_57AC) }
        }
        // the flat edges' crossings, which the sifting does not see (not with clusters,
        // whose vertices that sifting would part)
        if clusters == nil, let flat = FlatOrdering(g) { flat.sift(&ordering, free: free) }
    }

    // MARK: Coordinates

    /// Coordinates along the layers: network simplex started from the previous centres
    /// (separations enforced left to right), pulled towards them.
    static func coordinates(
        graph g: ProperGraph, layers: [[Int]], along: [Double?], hold: [Int], separation: (Int, Int) -> Double
    ) -> [Double] {
        let (targets, weights) = pull(g, along: along, hold: hold)
        let start = start(layers: layers, targets: targets, count: g.count, separation: separation)
        return PositionSimplex.improve(
            start, graph: g, layers: layers, separation: separation, targets: targets, weights: weights)
    }

    /// Where a pulled coordinate solve starts (by vertex): each layer as near its vertices'
    /// targets as the separations allow, in least squares (`nearest`); a vertex without a
    /// target (a new node, a dummy without a previous bend) right after the vertex before
    /// it. Before, each layer was packed to the right from its targets: a vertex fitted in
    /// pushed the rest of its layer a separation aside, which the solve then had to pull
    /// back, pivot by pivot.
    static func start(layers: [[Int]], targets: [Double?], count: Int, separation: (Int, Int) -> Double) -> [Double] {
        var start = Array(repeating: 0.0, count: count)
        for layer in layers where !layer.isEmpty {
            // in terms of the layer packed from 0: x = packed + y, y never falling
            var packed = [0.0]
            for i in 1..<layer.count { packed.append(packed[i - 1] + separation(layer[i - 1], layer[i])) }
            let y = nearest(layer.indices.map { i in targets[layer[i]].map { $0 - packed[i] } })
            for (i, v) in layer.enumerated() { start[v] = packed[i] + y[i] }
        }
        return start
    }

    /// The non-decreasing sequence nearest `wanted` in least squares, over the entries that
    /// have a value (pooling adjacent violators); an entry without one takes its left
    /// neighbour's result (the first ones: the first value's), all of them 0 when none has.
    static func nearest(_ wanted: [Double?]) -> [Double] {
        // blocks of consecutive entries with a value: their sum, how many, the last index
        var blocks: [(sum: Double, count: Int, end: Int)] = []
        for (i, w) in wanted.enumerated() {
            guard let w else { continue }
            blocks.append((w, 1, i))
            while blocks.count > 1 {
                let b = blocks[blocks.count - 1], a = blocks[blocks.count - 2]
                if a.sum / Double(a.count) <= b.sum / Double(b.count) { break }
                blocks.removeLast(2)
                blocks.append((a.sum + b.sum, a.count + b.count, b.end))
            }
        }
        var out = Array(repeating: 0.0, count: wanted.count)
        var k = 0
        var value = blocks.first.map { $0.sum / Double($0.count) } ?? 0
        for i in wanted.indices {
            while k < blocks.count && blocks[k].end < i { k += 1 }
            if wanted[i] != nil, k < blocks.count { value = blocks[k].sum / Double(blocks[k].count) }
            out[i] = value
        }
        return out
    }

    /// A feasible start for the clusters' pulled solve (`ClusterLayout.coordinates`), by
    /// variable: the vertices' `start`, the boxes' sides (the variables after the vertices)
    /// far enough below everything that the boxes' constraints alone place them.
    static func clusterSeed(
        layers: [[Int]], targets: [Double?], vertices: Int, count: Int, separation: (Int, Int) -> Double
    ) -> [Int] {
        let x = start(layers: layers, targets: targets, count: vertices, separation: separation).map { Int($0.rounded()) }
        let floor = (x.min() ?? 0) - 1_000_000
        return x + Array(repeating: floor, count: count - vertices)
    }

    /// The pull of each placed node towards its previous centre along the layer (`pull`
    /// per unit of `hold`), by vertex of `g`; a dummy with a previous bend (`previousAlong`)
    /// has it as its target with no weight, where the solve starts it (`start`).
    static func pull(_ g: ProperGraph, along: [Double?], hold: [Int]) -> (targets: [Double?], weights: [Int]) {
        var targets = [Double?](repeating: nil, count: g.count)
        var weights = Array(repeating: 0, count: g.count)
        for v in 0..<min(g.count, along.count) { targets[v] = along[v] }
        for v in 0..<g.realCount { weights[v] = hold[v] * pull }
        return (targets, weights)
    }

    /// The auxiliary vertices and edges of the pull towards `targets` (see `coordinates`):
    /// for each vertex with a target, a vertex `a` with edges to a root (length 0) and to
    /// the vertex (its target), whose cost is the weight times `|x - root - target|`.
    /// `rank` holds the feasible start; the root and the `a`s are appended.
    static func addPull(
        targets: [Double?], weights: [Int], base: Double, edges: inout [NetworkSimplex.Edge], rank: inout [Int]
    ) {
        let held = targets.indices.filter { targets[$0] != nil && weights[$0] > 0 }
        guard let low = held.map({ targets[$0]! }).min() else { return }
        let root = rank.count
        rank.append(Int((low - base).rounded()))
        for v in held {
            let t = Int((targets[v]! - low).rounded())
            let a = rank.count
            rank.append(min(rank[root], rank[v] - t))
            edges.append(.init(source: a, target: root, minLength: 0, weight: weights[v]))
            edges.append(.init(source: a, target: v, minLength: t, weight: weights[v]))
        }
    }
}

/// Crossing reduction that keeps the order of the fixed vertices (placed nodes) but for
/// a price: each vertex in turn goes to the place in its layer where it crosses least with
/// both neighbouring layers (ties: the place nearest where it is), within
/// `StableLayout.siftingWindow` places of where it was and keeping the clusters' vertices
/// together, a fixed one paying `StableLayout.flipCost` (against `crossingCost` a
/// crossing) for each fixed vertex it passes; sweeping down and up while the crossings
/// fall; then each long edge is moved as a whole within `StableLayout.window` places, and
/// kept when that helps.
struct FreeSifting {
    let g: ProperGraph
    var layers: [[Int]]
    var position: [Int]
    let free: [Bool]
    let frozen: [Bool]
    /// The clusters, whose vertices the sifting keeps together (`ClusterLayout.places`).
    let clusters: ClusterLayout?
    /// How many places a vertex may move in one sifting (0: anywhere in its layer).
    let window = StableLayout.siftingWindow
    /// Scratch: each vertex's place in its layer before the layer's sifting.
    private var slot: [Int]
    /// Each vertex's place in its layer when the sifting started (the previous order).
    let origin: [Int]

    /// Whether sibling clusters keep their order in every layer (no regrouping after) and
    /// long edges are not moved as a whole (which would part the clusters).
    let keepSiblings: Bool

    init(
        graph: ProperGraph, layers: [[Int]], free: [Bool], frozen: [Bool], clusters: ClusterLayout? = nil,
        origin: [Int]? = nil, keepSiblings: Bool = false
    ) {
        g = graph
        self.keepSiblings = keepSiblings
        self.clusters = clusters
        self.layers = layers
        self.free = free
        self.frozen = frozen
        position = Array(repeating: 0, count: graph.count)
        slot = position
        for layer in layers { for (i, v) in layer.enumerated() { position[v] = i } }
        self.origin = origin ?? position
    }

    mutating func reduce(_ ordering: inout Ordering) {
        func store(_ o: inout Ordering) { for l in 0..<layers.count { o.setLayer(l, layers[l]) } }
        var best = layers, bestCrossings = ordering.totalCrossings()
        for round in 0..<(1 + StableLayout.chainRounds) where bestCrossings > 0 && !WorkLimit.shouldStop {
            if round > 0 {
                var moved = false
                var probe = WorkLimitProbe(stride: 64)
                for chain in g.chains where chain.count > 3 && !keepSiblings && !probe.shouldStop() {
                    if ChainSifting.place(chain, graph: g, layers: &layers, position: &position, window: StableLayout.window) {
                        moved = true
                    }
                }
                if !moved { break }
            }
            var roundBest = bestCrossings
            // a layer whose last sifting moved nothing, and whose neighbours have not
            // changed since, would move nothing again
            var settled = Array(repeating: false, count: layers.count)
            for pass in 0..<StableLayout.passes where !WorkLimit.shouldStop {
                let downwards = pass % 2 == 0
                for l in downwards ? Array(0..<layers.count) : Array((0..<layers.count).reversed()) where !settled[l] {
                    if WorkLimit.shouldStop { break }  // the layout then fails (LayeredLayout)
                    let before = layers[l]
                    siftLayer(l)
                    if layers[l] == before {
                        settled[l] = true
                    } else {
                        if l > 0 { settled[l - 1] = false }
                        if l + 1 < layers.count { settled[l + 1] = false }
                    }
                }
                store(&ordering)
                let c = ordering.totalCrossings()
                if c < bestCrossings {
                    bestCrossings = c
                    best = layers
                }
                if c >= roundBest && pass > 0 { break }
                roundBest = min(roundBest, c)
            }
            layers = best
            for layer in layers { for (i, v) in layer.enumerated() { position[v] = i } }
        }
        layers = best
        store(&ordering)
    }

    private func keys(_ v: Int, above: Bool) -> [Int] {
        func side(_ port: Double) -> Int { port < 0 ? 0 : port > 0 ? 2 : 1 }
        var k: [Int] = []
        if above {
            for s in g.up[v] { k.append(position[g.segments[s].upper] * 3 + side(g.segments[s].upperPort)) }
        } else {
            for s in g.down[v] { k.append(position[g.segments[s].lower] * 3 + side(g.segments[s].lowerPort)) }
        }
        return k.sorted()
    }

    /// Crossings of `a`'s keys with `b`'s when `a`'s vertex is left of `b`'s: pairs with
    /// a key of `a` above one of `b`.
    private static func crossings(_ a: [Int], _ b: [Int]) -> Int {
        if a.isEmpty || b.isEmpty { return 0 }
        var count = 0, j = 0
        for x in a {
            while j < b.count && b[j] < x { j += 1 }
            count += j
        }
        return count
    }

    mutating func siftLayer(_ l: Int) {
        if frozen[l] || layers[l].count < 2 { return }
        let up = layers[l].map { keys($0, above: true) }, down = layers[l].map { keys($0, above: false) }
        // each vertex's keys by its place in the layer as it was
        for (i, v) in layers[l].enumerated() { slot[v] = i }
        let index = slot
        var probe = WorkLimitProbe(stride: 8)
        for v in layers[l] {
            if probe.shouldStop() { return }
            var layer = layers[l]
            let from = position[v]
            layer.remove(at: from)
            let kv = (up[index[v]], down[index[v]])
            if kv.0.isEmpty && kv.1.isEmpty { continue }
            // the change of cost moving v from its place past each vertex outwards (within
            // `window` places); a fixed vertex pays `flipCost` for every fixed one it passes
            let penalty = free[v] ? 0 : StableLayout.flipCost
            func pair(_ w: Int) -> (left: Int, right: Int) {
                let kw = (up[index[w]], down[index[w]])
                return ((FreeSifting.crossings(kv.0, kw.0) + FreeSifting.crossings(kv.1, kw.1)) * StableLayout.crossingCost,
                        (FreeSifting.crossings(kw.0, kv.0) + FreeSifting.crossings(kw.1, kv.1)) * StableLayout.crossingCost)
            }
            let reach = window > 0 ? window : layer.count
            // sibling clusters are brought back into one order after (`LayeredLayout.order`)
            let allowed = clusters?.places(for: v, in: layer, from: from, siblingsRegrouped: !keepSiblings)
            var bestPlace = from, bestCost = 0
            var leftCost = 0, rightCost = 0
            for k in 1...max(1, reach) {
                // place from - k: v passes layer[from - k] leftwards
                if from - k >= 0 {
                    let w = layer[from - k], c = pair(w)
                    leftCost += c.left - c.right + (!free[w] ? penalty : 0)
                    if leftCost < bestCost && (allowed?[from - k] ?? true) {
                        bestCost = leftCost
                        bestPlace = from - k
                    }
                }
                // place from + k: v passes layer[from + k - 1] rightwards
                if from + k <= layer.count {
                    let w = layer[from + k - 1], c = pair(w)
                    rightCost += c.right - c.left + (!free[w] ? penalty : 0)
                    if rightCost < bestCost && (allowed?[from + k] ?? true) {
                        bestCost = rightCost
                        bestPlace = from + k
                    }
                }
                if from - k < 0 && from + k > layer.count { break }
            }
            layer.insert(v, at: bestPlace)
            layers[l] = layer
            for (i, w) in layer.enumerated() { position[w] = i }
        }
    }
}
