import FlowCore

/// Iterated sifting for a stable layout: once `FreeSifting` has settled in a local optimum
/// near the previous order, small random changes ("kicks") let the order leave it, as the
/// fresh search's iterated sifting does (`IteratedSifting.swift`), but at the stable
/// layout's prices. Each kick shuffles a short stretch of one layer (vertices of one
/// cluster, so the groups stay together); `FreeSifting` then polishes the layers around it,
/// and whatever that disturbs in turn. The result is kept when it costs no more than
/// before (and, at an equal cost, turns no more pairs), else undone: the cost is `StableLayout.crossingCost` a crossing plus
/// `StableLayout.flipCost` for every pair of fixed vertices (placed nodes without a new
/// neighbour) in one layer whose order differs from where the sifting started, the
/// previous drawing's order. So the order can walk to fewer crossings, and pays for every
/// pair it turns on the way, however many kicks it took. The generator is seeded, so the
/// result depends on the input alone.
extension FreeSifting {
    /// The kicks a stable layout affords: the fresh search's (`CrossingSearch.forGraph`)
    /// on graphs of at most `kickedVertices` vertices, dummies included; none on larger
    /// ones, where a kick costs too much for what it gains.
    static func kicks(vertices: Int) -> CrossingSearch.Kicks? {
        vertices <= kickedVertices ? CrossingSearch.forGraph(vertices: vertices, effort: .normal).kicks.first : nil
    }

    /// Graphs up to this many vertices get kicks (the fresh search's bound).
    static let kickedVertices = 1_000

    /// Runs `run`'s kicks from the current order, keeps the cheapest order seen and puts it
    /// in `ordering`.
    mutating func kick(_ ordering: inout Ordering, run: CrossingSearch.Kicks, seed: UInt64) {
        let candidates = (0..<layers.count).filter { !frozen[$0] && layers[$0].count > 2 }
        guard layers.count > 1, !candidates.isEmpty else { return }
        for l in 0..<layers.count {
            setLayer(l, layers[l])
            ordering.setLayer(l, layers[l])
        }
        var state = KickCost(self, &ordering)
        var best = layers, bestCost = state.cost
        var random = SplitMix64(seed: seed)
        var sinceBest = 0
        var probe = WorkLimitProbe(stride: 16)
        for _ in 0..<ordering.affordableKicks(run, candidates: candidates)
        where state.cost > 0 && sinceBest < run.patience && !probe.shouldStop() {
            sinceBest += 1
            let before = (cost: state.cost, turned: state.turnedPairs)
            let l = candidates[Int(random.next() % UInt64(candidates.count))]
            guard let stretch = stretch(in: l, length: run.length, &random) else { continue }
            var order = layers[l]
            order.replaceSubrange(stretch, with: random.shuffled(Array(order[stretch])))
            state.change(l, to: order, in: &self, &ordering)
            polish(around: l, &state, &ordering)
            // equal cost walks across a plateau, but not to more turned pairs
            if state.cost < before.cost || (state.cost == before.cost && state.turnedPairs <= before.turned) {
                if state.cost < bestCost {
                    bestCost = state.cost
                    best = layers
                    sinceBest = 0
                }
                state.keep()
            } else {
                state.undo(in: &self, &ordering)
            }
        }
        for l in 0..<layers.count where layers[l] != best[l] { setLayer(l, best[l]) }
        for l in 0..<layers.count { ordering.setLayer(l, layers[l]) }
    }

    /// A random stretch of layer `l` to shuffle: two to `length` places, within one run of
    /// vertices whose innermost cluster is the same (nil: no such run of two).
    private func stretch(in l: Int, length: Int, _ random: inout SplitMix64) -> Range<Int>? {
        let layer = layers[l], n = layer.count
        let want = 2 + Int(random.next() % UInt64(min(length, n) - 1))
        var start = Int(random.next() % UInt64(n - want + 1)), end = start + want
        if let clusters {
            let c = clusters.of[layer[start]]
            var k = start + 1
            while k < end && clusters.of[layer[k]] == c { k += 1 }
            end = k
            while start > 0 && end - start < want && clusters.of[layer[start - 1]] == c { start -= 1 }
        }
        return end - start >= 2 ? start..<end : nil
    }

    /// Sifting passes, alternately down and up, over the layers next to a change, and next
    /// to whatever they change, while the passes lower the cost.
    private mutating func polish(around l: Int, _ state: inout KickCost, _ ordering: inout Ordering) {
        var settled = Array(repeating: true, count: layers.count)
        for k in max(0, l - 1)...min(layers.count - 1, l + 1) { settled[k] = false }
        for pass in 0..<Ordering.kickPasses {
            let before = state.cost
            let sweep = pass % 2 == 0 ? Array(0..<layers.count) : Array((0..<layers.count).reversed())
            for k in sweep where !settled[k] {
                settled[k] = true
                let old = layers[k]
                siftLayer(k)
                if layers[k] == old { continue }
                let new = layers[k]
                setLayer(k, old)
                state.change(k, to: new, in: &self, &ordering)
                if k > 0 { settled[k - 1] = false }
                if k + 1 < layers.count { settled[k + 1] = false }
            }
            if state.cost >= before { break }
        }
    }

    /// Puts layer `l` in `order` (the same vertices).
    mutating func setLayer(_ l: Int, _ order: [Int]) {
        layers[l] = order
        for (i, v) in order.enumerated() { position[v] = i }
    }

    /// The pairs of fixed vertices of layer `l` in another order than at the start.
    func turnedPairs(_ l: Int, tree: inout [Int]) -> Int {
        var starts: [Int] = []
        for v in layers[l] where !free[v] { starts.append(origin[v]) }
        return starts.count < 2 ? 0 : Ordering.inversions(starts, bound: layers[l].count, tree: &tree)
    }
}

/// A stable order's cost (`FreeSifting.kick`), kept up to date as layers change: the
/// crossings of each gap between two layers and the turned pairs of each layer, and the
/// layers one kick changed with their order before it (to undo it).
private struct KickCost {
    private var gaps: [Int]
    private var turned: [Int]
    private(set) var cost: Int
    /// The turned pairs of every layer together.
    private(set) var turnedPairs: Int
    private var saved: [(layer: Int, order: [Int])] = []
    private var touched: [Bool]
    private var tree: [Int] = []

    init(_ sifting: FreeSifting, _ ordering: inout Ordering) {
        gaps = (0..<(ordering.layers.count - 1)).map { ordering.countCrossings(below: $0) }
        var tree: [Int] = []
        turned = (0..<sifting.layers.count).map { sifting.turnedPairs($0, tree: &tree) }
        turnedPairs = turned.reduce(0, +)
        cost = gaps.reduce(0, +) * StableLayout.crossingCost + turnedPairs * StableLayout.flipCost
        touched = Array(repeating: false, count: ordering.layers.count)
    }

    /// Puts layer `l` in `order` and recounts its cost and the two gaps beside it.
    mutating func change(_ l: Int, to order: [Int], in sifting: inout FreeSifting, _ ordering: inout Ordering) {
        if !touched[l] {
            touched[l] = true
            saved.append((l, sifting.layers[l]))
        }
        sifting.setLayer(l, order)
        ordering.setLayer(l, order)
        recount(around: l, sifting, &ordering)
    }

    private mutating func recount(around l: Int, _ sifting: FreeSifting, _ ordering: inout Ordering) {
        for g in max(0, l - 1)...min(gaps.count - 1, l) {
            let c = ordering.countCrossings(below: g)
            cost += (c - gaps[g]) * StableLayout.crossingCost
            gaps[g] = c
        }
        let t = sifting.turnedPairs(l, tree: &tree)
        cost += (t - turned[l]) * StableLayout.flipCost
        turnedPairs += t - turned[l]
        turned[l] = t
    }

    /// Forgets the saved orders: the kick stays.
    mutating func keep() {
        for (l, _) in saved { touched[l] = false }
        saved.removeAll(keepingCapacity: true)
    }

    /// Puts back every layer the kick changed.
    mutating func undo(in sifting: inout FreeSifting, _ ordering: inout Ordering) {
        for (l, order) in saved {
            sifting.setLayer(l, order)
            ordering.setLayer(l, order)
        }
        for (l, _) in saved { recount(around: l, sifting, &ordering) }
        keep()
    }
}
