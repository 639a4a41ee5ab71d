import FlowCore

/// Iterated sifting: once sweeps, transposition and sifting have settled in a local
/// optimum, a run of small random changes ("kicks") lets the order leave it. Each kick
/// shuffles a short stretch of one layer; sifting then polishes the layers around it, and
/// whatever that disturbs in turn. The result is kept when it crosses no more than before,
/// else undone. Equal results are kept so the order can walk across plateaus; the best
/// order seen is the one returned; the search stops after the kicks its `CrossingSearch`
/// affords (fewer on wide layers) or a run of them without a new best. The generator is
/// seeded, so the result depends on the input alone.
///
/// Restarts from fresh orders end in the same narrow family of local optima (see
/// docs/performance.md); kicks search near the best one instead, which is what closes the
/// gap to the best published layouts on small graphs.
extension Ordering {
    /// Sifting passes after a kick, at most.
    static let kickPasses = 8

    /// The kicks a run affords on the layers `candidates`: its work bound divided by what
    /// one kick costs there on average, at most its count.
    func affordableKicks(_ run: CrossingSearch.Kicks, candidates: [Int]) -> Int {
        var work = 0
        for l in candidates {
            var segments = 0
            for v in layers[l] { segments += graph.up[v].count + graph.down[v].count }
            work += layers[l].count * segments
        }
        let perKick = max(1, work / max(1, candidates.count))
        return min(run.count, run.work / perKick)
    }

    mutating func iterateSifting(_ run: CrossingSearch.Kicks, seed: UInt64) {
        let candidates = (0..<layers.count).filter { !frozen[$0] && layers[$0].count > 2 }
        guard layers.count > 1, !candidates.isEmpty else { return }
        var state = KickState(&self)
        var best = layers, bestCrossings = state.crossings
        var random = SplitMix64(seed: seed)
        var sinceBest = 0
        var probe = WorkLimitProbe(stride: 16)
        for _ in 0..<affordableKicks(run, candidates: candidates)
        where state.crossings > 0 && sinceBest < run.patience && !probe.shouldStop() {
            sinceBest += 1
            let before = state.crossings
            let l = candidates[Int(random.next() % UInt64(candidates.count))]
            let n = layers[l].count
            let length = 2 + Int(random.next() % UInt64(min(run.length, n) - 1))
            let start = Int(random.next() % UInt64(n - length + 1))
            var order = layers[l]
            order.replaceSubrange(start..<(start + length), with: random.shuffled(Array(order[start..<(start + length)])))
            state.change(l, to: order, in: &self)
            polish(around: l, &state)
            if state.crossings <= before {
                if state.crossings < bestCrossings {
                    bestCrossings = state.crossings
                    best = layers
                    sinceBest = 0
                }
                state.keep()
            } else {
                state.undo(in: &self)
            }
        }
        for l in 0..<layers.count where layers[l] != best[l] { setLayer(l, best[l]) }
    }

    /// Sifting passes, alternately down and up, over the layers next to a change, and
    /// next to whatever they change, while the passes lower the crossings.
    private mutating func polish(around l: Int, _ state: inout KickState) {
        var settled = Array(repeating: true, count: layers.count)
        for k in max(0, l - 1)...min(layers.count - 1, l + 1) { settled[k] = false }
        for pass in 0..<Ordering.kickPasses {
            let before = state.crossings
            let sweep = pass % 2 == 0 ? Array(0..<layers.count) : Array((0..<layers.count).reversed())
            for k in sweep where !settled[k] {
                settled[k] = true
                guard layers[k].count > 1 && !frozen[k] else { continue }
                let old = layers[k]
                sift(k)
                if layers[k] == old { continue }
                let new = layers[k]
                setLayer(k, old)
                state.change(k, to: new, in: &self)
                if k > 0 { settled[k - 1] = false }
                if k + 1 < layers.count { settled[k + 1] = false }
            }
            if state.crossings >= before { break }
        }
    }
}

/// The crossings of each gap between two layers, kept up to date as layers change, and
/// the layers one kick changed with their order before it (to undo it).
private struct KickState {
    private var gaps: [Int]
    private(set) var crossings: Int
    private var saved: [(layer: Int, order: [Int])] = []
    private var touched: [Bool]

    init(_ ordering: inout Ordering) {
        gaps = (0..<(ordering.layers.count - 1)).map { ordering.countCrossings(below: $0) }
        crossings = gaps.reduce(0, +)
        touched = Array(repeating: false, count: ordering.layers.count)
    }

    /// Puts layer `l` in `order` and recounts the two gaps beside it.
    mutating func change(_ l: Int, to order: [Int], in ordering: inout Ordering) {
        if !touched[l] {
            touched[l] = true
            saved.append((l, ordering.layers[l]))
        }
        ordering.setLayer(l, order)
        recount(around: l, ordering: &ordering)
    }

    private mutating func recount(around l: Int, ordering: inout Ordering) {
        for g in max(0, l - 1)...min(gaps.count - 1, l) {
            let c = ordering.countCrossings(below: g)
            crossings += c - gaps[g]
            gaps[g] = c
        }
    }

    /// Forgets the saved orders: the kick stays.
    mutating func keep() {
        for (l, _) in saved { touched[l] = false }
        saved.removeAll(keepingCapacity: true)
    }

    /// Puts back every layer the kick changed.
    mutating func undo(in ordering: inout Ordering) {
        for (l, order) in saved { ordering.setLayer(l, order) }
        for (l, _) in saved { recount(around: l, ordering: &ordering) }
        keep()
    }
}
