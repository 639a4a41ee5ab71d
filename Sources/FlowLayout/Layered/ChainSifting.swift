/// Moves a long edge as a whole: its dummies, one per layer it passes, are taken out and put
/// back at the places where the edge crosses least, all layers at once. The crossings of
/// the segment between two of its dummies depend on both their places, so the best places
/// come from a pass down the chain keeping, for each place of the current dummy, the least
/// crossings of the chain above it (every place of every layer is a candidate, so this is
/// exact, not a guess). Sifting one vertex at a time cannot make such a move: each dummy
/// alone is held in place by its neighbours on the chain. On large graphs each dummy is
/// held within a window of places around where it is, and the pass is exact within the
/// windows.
enum ChainSifting {
    /// Rounds of moving every long edge (each followed by sifting) while they help.
    static let rounds = 3
    /// Most `work` for which the long edges are moved (a round costs a few ms at the bound).
    /// Past it the pass costs more than it gains: layered_5000 (2.6 million) loses 0.6 % of
    /// its crossings for 8 % more time, dag_1000 is at 44 million, dag_5000 at 5.5 billion.
    static let workBound = 1_000_000
    /// Past the bound, graphs of more than this many vertices (dummies included) still get
    /// the moves, each dummy within `window` places of where it is and the rounds polished
    /// by `windowedPasses` sifting passes: there a layout takes some hundred milliseconds
    /// and the moves add about half of that for about 2 % fewer crossings (dag_5000). On
    /// graphs of a thousand nodes they would double the time for 3 % (dag_1000), so those
    /// stay as they are.
    static let windowedFrom = 5_000
    static let window = 10
    static let windowedPasses = 2

    /// The cost of one round: for every segment between two dummies of a long edge, the
    /// product of the sizes of its two layers (the places the pass weighs).
    static func work(_ g: ProperGraph, _ layers: [[Int]]) -> Int {
        var work = 0
        for chain in g.ownedChains where chain.count > 3 {
            for j in 1..<(chain.count - 2) {
                work += layers[g.layer[chain[j]]].count * layers[g.layer[chain[j + 1]]].count
            }
        }
        return work
    }

    /// The work of moving one long edge (`place`): for each segment between two of its
    /// dummies, the places weighed, the product of the two windows (or layers).
    static func work(_ chain: [Int], graph g: ProperGraph, layers: [[Int]], window: Int?) -> Int {
        var work = 0
        for j in 1..<(chain.count - 2) {
            let a = layers[g.layer[chain[j]]].count, b = layers[g.layer[chain[j + 1]]].count
            work += min(a, 2 * (window ?? a) + 1) * min(b, 2 * (window ?? b) + 1)
        }
        return work
    }

    /// Re-places the dummies of one long edge (`chain`: its end vertices with the dummies
    /// between them, top to bottom). With a `window`, each dummy stays within that many
    /// places of where it is; without, every place of its layer is weighed. Returns
    /// whether anything moved: it moves only when that removes crossings.
    ///
    /// Costs are counted relative to the first place of each window: a segment's crossings
    /// at other places differ from it only by the segments that start or end within the
    /// windows, so a pass costs the windows' sizes and degrees, not the layers' widths.
    /// Each relative cost differs from the true one by the same amount on every path
    /// through the windows, so the choice is the same.
    static func place(
        _ chain: [Int], graph g: ProperGraph, layers: inout [[Int]], position: inout [Int], window: Int? = nil
    ) -> Bool {
        let dummies = Array(chain[1..<(chain.count - 1)])
        if dummies.isEmpty { return false }
        let layerOf = dummies.map { g.layer[$0] }
        // the places of dummy j: lo[j]...hi[j], as indices in its layer with it taken out
        let lo = dummies.indices.map { max(0, position[dummies[$0]] - (window ?? Int.max / 2)) }
        let hi = dummies.indices.map { min(layers[layerOf[$0]].count - 1, position[dummies[$0]] + (window ?? Int.max / 2)) }
        // index of a vertex in its layer with the dummy of that layer taken out
        func index(_ v: Int) -> Int {
            let d = dummies[g.layer[v] - layerOf[0]]
            return position[v] < position[d] ? position[v] : position[v] - 1
        }
        // the vertex at index i of dummy j's layer, the dummy taken out
        func vertex(_ j: Int, _ i: Int) -> Int {
            i < position[dummies[j]] ? layers[layerOf[j]][i] : layers[layerOf[j]][i + 1]
        }
        func key(_ v: Int, _ port: Double) -> Int { position[v] * 3 + (port < 0 ? 0 : port > 0 ? 2 : 1) }

        // above the first dummy: the edge's source is fixed
        let top = g.segments[g.up[dummies[0]][0]]
        let sourceKey = key(chain[0], top.upperPort)
        var best = fixedEndCosts(lo[0], hi[0]) { i in
            g.up[vertex(0, i)].map { key(g.segments[$0].upper, g.segments[$0].upperPort) - sourceKey }
        }
        var back: [[Int]] = []
        // the crossings of the edge where it is now, for comparison
        var now = best[position[dummies[0]] - lo[0]]

        // between dummies j and j + 1: both ends move
        for j in 0..<(dummies.count - 1) {
            let cost = segmentCosts(j, lo, hi, g: g, vertex: vertex, index: index)
            now += cost(position[dummies[j]] - lo[j], position[dummies[j + 1]] - lo[j + 1])
            let (next, from) = cost.step(best)
            best = next
            back.append(from)
        }

        // below the last dummy: the edge's target is fixed
        let k = dummies.count - 1, last = dummies[k]
        let bottom = g.segments[g.down[last][0]]
        let targetKey = key(chain[chain.count - 1], bottom.lowerPort)
        let below = fixedEndCosts(lo[k], hi[k]) { i in
            g.down[vertex(k, i)].map { key(g.segments[$0].lower, g.segments[$0].lowerPort) - targetKey }
        }
        var place = 0
        for q in 0..<best.count where best[q] + below[q] < best[place] + below[place] { place = q }
        if best[place] + below[place] >= now + below[position[last] - lo[k]] { return false }

        // the places, bottom up, then the moves
        var places = Array(repeating: 0, count: dummies.count)
        places[k] = place
        for j in stride(from: k - 1, through: 0, by: -1) { places[j] = back[j][places[j + 1]] }
        for (j, d) in dummies.enumerated() {
            let l = layerOf[j], from = position[d], to = places[j] + lo[j]
            if from == to { continue }
            layers[l].remove(at: from)
            layers[l].insert(d, at: to)
            for i in min(from, to)...max(from, to) { position[layers[l][i]] = i }
        }
        return true
    }

    /// Crossings of a segment whose other end is fixed, for each place `lo...hi` of its
    /// moving end, less those at `lo`. `sides(i)` gives, for the vertex at index `i`, where
    /// each of its segments' other ends lies against the fixed end (negative: before it;
    /// positive: after). Moving past that vertex uncrosses the segments before and crosses
    /// those after.
    private static func fixedEndCosts(_ lo: Int, _ hi: Int, sides: (Int) -> [Int]) -> [Int] {
        var result = Array(repeating: 0, count: hi - lo + 1)
        for q in lo..<hi {
            var change = 0
            for side in sides(q) { change += side > 0 ? 1 : side < 0 ? -1 : 0 }
            result[q - lo + 1] = result[q - lo] + change
        }
        return result
    }

    /// The crossings of the segment between dummies j (at window place q) and j + 1 (at
    /// r), less those at the windows' first places: `A(q) + B(r) - 2·G(q, r)`, where A
    /// counts the other segments starting left of it, B those ending left of it, and G
    /// those doing both (they do not cross it), each less its value at the first places.
    private static func segmentCosts(
        _ j: Int, _ lo: [Int], _ hi: [Int], g: ProperGraph, vertex: (Int, Int) -> Int, index: (Int) -> Int
    ) -> SegmentCosts {
        let n = hi[j] - lo[j] + 1, m = hi[j + 1] - lo[j + 1] + 1
        var a = Array(repeating: 0, count: n), b = Array(repeating: 0, count: m)
        // both[q * m + r]: segments starting in the upper window left of q and ending left of r,
        // plus those starting left of the upper window and ending in the lower one left of r
        var both = Array(repeating: 0, count: n * m)
        for i in lo[j]..<hi[j] {
            for s in g.down[vertex(j, i)] {
                a[i - lo[j] + 1] += 1
                let r = max(index(g.segments[s].lower) + 1, lo[j + 1])
                if r <= hi[j + 1] { both[(i - lo[j] + 1) * m + r - lo[j + 1]] += 1 }
            }
        }
        for i in lo[j + 1]..<hi[j + 1] {
            for s in g.up[vertex(j + 1, i)] {
                b[i - lo[j + 1] + 1] += 1
                if index(g.segments[s].upper) < lo[j] { both[i - lo[j + 1] + 1] += 1 }
            }
        }
        for q in 1..<max(1, n) { a[q] += a[q - 1] }
        for r in 1..<max(1, m) { b[r] += b[r - 1] }
        // the row q = 0 holds the second kind, which counts at every q
        for q in 0..<n { for r in 0..<m where q > 0 || r > 0 {
            var c = both[q * m + r]
            if q > 0 { c += both[(q - 1) * m + r] }
            if r > 0 { c += both[q * m + r - 1] }
            if q > 0 && r > 0 { c -= both[(q - 1) * m + r - 1] }
            both[q * m + r] = c
        } }
        return SegmentCosts(a: a, b: b, both: both, m: m)
    }

    /// `A(q) + B(r) - 2·G(q, r)` for window places `q` and `r` (see `segmentCosts`).
    private struct SegmentCosts {
        let a: [Int], b: [Int], both: [Int], m: Int

        func callAsFunction(_ q: Int, _ r: Int) -> Int { a[q] + b[r] - 2 * both[q * m + r] }

        /// One step down the chain: for each place `r` below, the least of `best[q]` plus
        /// the cost from `q` to `r` over the places `q` above, and the first `q` giving it.
        func step(_ best: [Int]) -> (next: [Int], from: [Int]) {
            var next = Array(repeating: Int.max, count: m), from = Array(repeating: 0, count: m)
            for q in 0..<a.count {
                let base = best[q] + a[q], row = q * m
                for r in 0..<m {
                    let c = base + b[r] - 2 * both[row + r]
                    if c < next[r] { next[r] = c; from[r] = q }
                }
            }
            return (next, from)
        }
    }
}
