/// Coordinate assignment within layers by the method of Brandes and Köpf ("Fast and Simple
/// Horizontal Coordinate Assignment", 2001): four alignments of each vertex with a median
/// neighbour (up/down × left/right), each compacted into blocks placed as far to its side as
/// the separations allow, then balanced. Long edges become straight vertical runs because
/// segments between two dummies win every conflict (type 1 conflicts). A last sweep enforces
/// the separations the balancing may have broken, so vertices never overlap. Those
/// coordinates start `PositionSimplex`, which improves them.
struct Coordinates {
    let graph: ProperGraph
    let layers: [[Int]]
    let nodeSpacing: Double
    let edgeSpacing: Double

    /// The centre of every vertex along its layer: network simplex (`PositionSimplex`)
    /// started from Brandes–Köpf's coordinates, or on big graphs from packed layers.
    func assign() -> [Double] {
        if PositionSimplex.startsFromBrandesKoepf(graph) {
            return PositionSimplex.improve(brandesKoepf(), graph: graph, layers: layers, separation: separation)
        }
        return PositionSimplex.improve(
            PositionSimplex.packed(layers, separation: separation), graph: graph, layers: layers,
            separation: separation)
    }

    /// Brandes and Köpf's coordinates.
    func brandesKoepf() -> [Double] {
        let marked = markConflicts()
        var candidates: [[Double]] = []
        for downwards in [true, false] {
            for leftwards in [true, false] {
                candidates.append(place(downwards: downwards, leftwards: leftwards, marked: marked))
            }
        }
        // align every candidate to the narrowest: left-placed ones by their minimum, the
        // right-placed ones by their maximum
        var narrowest = 0, narrowestWidth = Double.infinity
        var bounds: [(Double, Double)] = []
        for (i, xs) in candidates.enumerated() {
            var lo = Double.infinity, hi = -Double.infinity
            for v in 0..<xs.count {
                lo = min(lo, xs[v] - graph.breadth[v] / 2)
                hi = max(hi, xs[v] + graph.breadth[v] / 2)
            }
            bounds.append((lo, hi))
            if hi - lo < narrowestWidth {
                narrowestWidth = hi - lo
                narrowest = i
            }
        }
        for i in 0..<candidates.count {
            let leftwards = i % 2 == 0
            let delta = leftwards
                ? bounds[narrowest].0 - bounds[i].0
                : bounds[narrowest].1 - bounds[i].1
            if delta != 0 { for v in 0..<candidates[i].count { candidates[i][v] += delta } }
        }
        var x = Array(repeating: 0.0, count: graph.count)
        for v in 0..<graph.count {
            var four = [candidates[0][v], candidates[1][v], candidates[2][v], candidates[3][v]]
            four.sort()
            x[v] = (four[1] + four[2]) / 2
        }
        enforceSeparation(&x)
        return x
    }

    /// Centre to centre: half of each breadth and the gap, or what a flat edge between the
    /// two asks for (`ProperGraph.flatGap`) when more.
    func separation(_ a: Int, _ b: Int) -> Double {
        var gap = graph.isDummy(a) && graph.isDummy(b) ? edgeSpacing : nodeSpacing
        if let flat = graph.flatGap(a, b) { gap = max(gap, flat) }
        return (graph.breadth[a] + graph.breadth[b]) / 2 + gap
    }

    private func enforceSeparation(_ x: inout [Double]) {
        for layer in layers where layer.count > 1 {
            for i in 1..<layer.count {
                let need = x[layer[i - 1]] + separation(layer[i - 1], layer[i])
                if x[layer[i]] < need { x[layer[i]] = need }
            }
        }
    }

    /// Segments that cross an inner segment (between two dummies) and so must not be used
    /// for alignment.
    private func markConflicts() -> [Bool] {
        var marked = Array(repeating: false, count: graph.segments.count)
        var position = Array(repeating: 0, count: graph.count)
        for layer in layers { for (i, v) in layer.enumerated() { position[v] = i } }
        func innerUpper(_ v: Int) -> Int? {
            guard graph.isDummy(v) else { return nil }
            for s in graph.up[v] where graph.isDummy(graph.segments[s].upper) {
                return graph.segments[s].upper
            }
            return nil
        }
        guard layers.count > 2 else { return marked }
        for i in 1..<(layers.count - 1) {
            let lower = layers[i + 1]
            var k0 = 0, l = 0
            for l1 in 0..<lower.count {
                let inner = innerUpper(lower[l1])
                if l1 == lower.count - 1 || inner != nil {
                    let k1 = inner.map { position[$0] } ?? (layers[i].count - 1)
                    while l <= l1 {
                        for s in graph.up[lower[l]] {
                            let k = position[graph.segments[s].upper]
                            if k < k0 || k > k1 { marked[s] = true }
                        }
                        l += 1
                    }
                    k0 = k1
                }
            }
        }
        return marked
    }

    /// One of the four extreme layouts: vertical alignment with the median neighbours
    /// above (`downwards`) or below, preferring the left (`leftwards`) or right median, then
    /// blocks placed as far left (or right) as the separations allow.
    private func place(downwards: Bool, leftwards: Bool, marked: [Bool]) -> [Double] {
        let n = graph.count
        var order = layers
        if !downwards { order.reverse() }
        if !leftwards { for i in 0..<order.count { order[i].reverse() } }
        var position = Array(repeating: 0, count: n)
        for layer in order { for (i, v) in layer.enumerated() { position[v] = i } }

        var root = Array(0..<n), align = Array(0..<n)
        var neighbours: [(u: Int, s: Int)] = []
        for i in 1..<max(1, order.count) {
            var r = -1
            for v in order[i] {
                let segs = downwards ? graph.up[v] : graph.down[v]
                if segs.isEmpty { continue }
                neighbours.removeAll(keepingCapacity: true)
                for s in segs { neighbours.append((downwards ? graph.segments[s].upper : graph.segments[s].lower, s)) }
                neighbours.sort { position[$0.u] != position[$1.u] ? position[$0.u] < position[$1.u] : $0.s < $1.s }
                let d = neighbours.count
                // the median, or both medians in order
                for m in (d - 1) / 2...d / 2 where align[v] == v {
                    let (u, s) = neighbours[m]
                    if !marked[s] && r < position[u] {
                        align[u] = v
                        root[v] = root[u]
                        align[v] = root[v]
                        r = position[u]
                    }
                }
            }
        }

        // Block graph: for each vertex with a neighbour before it in its layer, the block of
        // that neighbour (`before`) must end at least the separation before this vertex's
        // block (`after`).
        var before: [Int] = [], after: [Int] = [], gap: [Double] = []
        for layer in order where layer.count > 1 {
            for i in 1..<layer.count {
                before.append(root[layer[i - 1]])
                after.append(root[layer[i]])
                gap.append(separation(layer[i - 1], layer[i]))
            }
        }
        let into = Coordinates.rows(after, count: n), outOf = Coordinates.rows(before, count: n)
        var waiting = (0..<n).map { into.start[$0 + 1] - into.start[$0] }
        var x = Array(repeating: 0.0, count: n)
        var queue: [Int] = []
        for v in 0..<n where root[v] == v && waiting[v] == 0 { queue.append(v) }
        var head = 0
        while head < queue.count {
            let b = queue[head]
            head += 1
            var value = 0.0
            for k in into.start[b]..<into.start[b + 1] {
                let e = into.row[k]
                value = max(value, x[before[e]] + gap[e])
            }
            x[b] = value
            for k in outOf.start[b]..<outOf.start[b + 1] {
                let c = after[outOf.row[k]]
                waiting[c] -= 1
                if waiting[c] == 0 { queue.append(c) }
            }
        }
        var result = Array(repeating: 0.0, count: n)
        for v in 0..<n { result[v] = leftwards ? x[root[v]] : -x[root[v]] }
        return result
    }

    /// The indices of `keys` grouped by key (each below `count`), in index order: those with
    /// key `k` are `row[start[k]..<start[k + 1]]`.
    private static func rows(_ keys: [Int], count: Int) -> (start: [Int], row: [Int]) {
        var start = Array(repeating: 0, count: count + 1)
        for k in keys { start[k + 1] += 1 }
        for k in 0..<count { start[k + 1] += start[k] }
        var next = start, row = Array(repeating: 0, count: keys.count)
        for (i, k) in keys.enumerated() {
            row[next[k]] = i
            next[k] += 1
        }
        return (start, row)
    }
}
