/// Moves a long edge as a whole: its dummies, one per layer it passes, are taken out and put
/// back at the places where the edge crosses least, all layers at once. The crossings of
/// the segment between two of its dummies depend on both their places, so the best places
/// come from a pass down the chain keeping, for each place of the current dummy, the least
/// crossings of the chain above it (every place of every layer is a candidate, so this is
/// exact, not a guess). Sifting one vertex at a time cannot make such a move: each dummy
/// alone is held in place by its neighbours on the chain.
enum ChainSifting {
    /// Rounds of moving every long edge (each followed by sifting) while they help.
    static let rounds = 3
    /// Most `work` for which the long edges are moved (a round costs a few ms at the bound).
    /// Past it the pass costs more than it gains: layered_5000 (2.6 million) loses 0.6 % of
    /// its crossings for 8 % more time, dag_1000 is at 44 million, dag_5000 at 5.5 billion.
    static let workBound = 1_000_000

    /// The cost of one round: for every segment between two dummies of a long edge, the
    /// product of the sizes of its two layers (the places the pass weighs).
    static func work(_ g: ProperGraph, _ layers: [[Int]]) -> Int {
        var work = 0
        for chain in g.chains where chain.count > 3 {
            for j in 1..<(chain.count - 2) {
                work += layers[g.layer[chain[j]]].count * layers[g.layer[chain[j + 1]]].count
            }
        }
        return work
    }

    /// Re-places the dummies of one long edge (`chain`: its end vertices with the dummies
    /// between them, top to bottom). Returns whether anything moved: it moves only when
    /// that removes crossings.
    static func place(_ chain: [Int], graph g: ProperGraph, layers: inout [[Int]], position: inout [Int]) -> Bool {
        let dummies = Array(chain[1..<(chain.count - 1)])
        if dummies.isEmpty { return false }
        // index of a vertex in its layer with the dummy of that layer taken out
        func index(_ v: Int) -> Int {
            let d = dummies[g.layer[v] - g.layer[dummies[0]]]
            return position[v] < position[d] ? position[v] : position[v] - 1
        }
        func key(_ v: Int, _ port: Double) -> Int { position[v] * 3 + (port < 0 ? 0 : port > 0 ? 2 : 1) }
        let slots = dummies.map { layers[g.layer[$0]].count }  // places: 0..<slots (count - 1 others + 1)

        // above the first dummy: the edge's source is fixed
        let top = g.segments[g.up[dummies[0]][0]]
        let sourceKey = key(chain[0], top.upperPort)
        var left = Array(repeating: 0, count: slots[0]), right = left
        for w in layers[g.layer[dummies[0]]] where w != dummies[0] {
            for s in g.up[w] {
                let k = key(g.segments[s].upper, g.segments[s].upperPort)
                if k < sourceKey { left[index(w) + 1] += 1 } else if k > sourceKey { right[index(w) + 1] += 1 }
            }
        }
        var best = crossingsAgainstFixedEnd(left: left, right: right)
        var back: [[Int]] = []
        // the crossings of the edge where it is now, for comparison
        var now = best[position[dummies[0]]]

        // between dummies j and j + 1: both ends move
        for j in 0..<(dummies.count - 1) {
            let n = slots[j], m = slots[j + 1]
            var grid = Array(repeating: 0, count: n * m)
            for u in layers[g.layer[dummies[j]]] where u != dummies[j] {
                for s in g.down[u] { grid[(index(u) + 1) * m + index(g.segments[s].lower) + 1] += 1 }
            }
            // grid[q * m + r] := segments with upper index < q and lower index < r
            for q in 0..<n { for r in 0..<m where q > 0 || r > 0 {
                var c = grid[q * m + r]
                if q > 0 { c += grid[(q - 1) * m + r] }
                if r > 0 { c += grid[q * m + r - 1] }
                if q > 0 && r > 0 { c -= grid[(q - 1) * m + r - 1] }
                grid[q * m + r] = c
            } }
            var next = Array(repeating: Int.max, count: m), from = Array(repeating: 0, count: m)
            for q in 0..<n {
                // at place q: segments to the left of the dummy above are those with index < q
                for r in 0..<m {
                    let c = best[q] + segmentCrossings(grid, n, m, q, r)
                    if c < next[r] { next[r] = c; from[r] = q }
                }
            }
            now += segmentCrossings(grid, n, m, position[dummies[j]], position[dummies[j + 1]])
            best = next
            back.append(from)
        }

        // below the last dummy: the edge's target is fixed
        let last = dummies[dummies.count - 1]
        let bottom = g.segments[g.down[last][0]]
        let targetKey = key(chain[chain.count - 1], bottom.lowerPort)
        left = Array(repeating: 0, count: slots[slots.count - 1])
        right = left
        for u in layers[g.layer[last]] where u != last {
            for s in g.down[u] {
                let k = key(g.segments[s].lower, g.segments[s].lowerPort)
                if k < targetKey { left[index(u) + 1] += 1 } else if k > targetKey { right[index(u) + 1] += 1 }
            }
        }
        let below = crossingsAgainstFixedEnd(left: left, right: right)
        var place = 0
        for q in 0..<best.count where best[q] + below[q] < best[place] + below[place] { place = q }
        if best[place] + below[place] >= now + below[position[last]] { return false }

        // the places, bottom up, then the moves
        var places = Array(repeating: 0, count: dummies.count)
        places[dummies.count - 1] = place
        for j in stride(from: dummies.count - 2, through: 0, by: -1) { places[j] = back[j][places[j + 1]] }
        for (j, d) in dummies.enumerated() {
            let l = g.layer[d]
            layers[l].remove(at: position[d])
            layers[l].insert(d, at: places[j])
            for (i, v) in layers[l].enumerated() { position[v] = i }
        }
        return true
    }

    /// Crossings of the segment between two dummies at places `q` (above) and `r` (below),
    /// from `grid` (`n` by `m`): the segments left of it above plus those left of it below,
    /// less twice those left of it at both ends (they do not cross it).
    private static func segmentCrossings(_ grid: [Int], _ n: Int, _ m: Int, _ q: Int, _ r: Int) -> Int {
        grid[q * m + m - 1] + grid[(n - 1) * m + r] - 2 * grid[q * m + r]
    }

    /// Crossings of a segment whose other end is fixed, for each place of its moving end
    /// (`left.count` places): `left[i + 1]` (`right[i + 1]`) counts the segments at index `i`
    /// whose other end is left (right) of the fixed one; a segment crosses when it is on the
    /// other side at the moving end.
    private static func crossingsAgainstFixedEnd(left: [Int], right: [Int]) -> [Int] {
        // place q: left segments at index >= q cross, right segments at index < q cross
        let n = left.count - 1
        var leftAtOrAfter = Array(repeating: 0, count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) { leftAtOrAfter[i] = leftAtOrAfter[i + 1] + left[i + 1] }
        var result = Array(repeating: 0, count: n + 1), rightBefore = 0
        for q in 0...n {
            result[q] = leftAtOrAfter[q] + rightBefore
            if q < n { rightBefore += right[q + 1] }
        }
        return result
    }
}
