extension Digraph {
    /// The outcome of `topologicalOrder()`.
    public enum TopologicalOrder: Equatable, Sendable {
        /// Every vertex, each after all vertices with an edge to it.
        case order([Int])
        /// There is none: a cycle, as its vertices in edge order (`c[0] -> c[1] -> … -> c[0]`),
        /// starting at its smallest vertex.
        case cycle([Int])
    }

    /// The vertices in an order where every edge goes forwards, choosing the smallest
    /// vertex whenever several are free (Kahn's algorithm with a priority queue: the
    /// lexicographically smallest such order, so vertices keep their relative order
    /// wherever the edges allow). When there is a cycle, one of them.
    /// O((V + E) · log₆₄ V): the queue is a bit tree 64 wide, four levels for 16 million.
    public func topologicalOrder() -> TopologicalOrder {
        var missing = (0..<vertexCount).map { Int32(inDegree($0)) }
        var free = SmallIntMinQueue(capacity: vertexCount)
        for v in 0..<vertexCount where missing[v] == 0 { free.insert(v) }
        var order: [Int] = []
        order.reserveCapacity(vertexCount)
        while let v = free.popMin() {
            order.append(v)
            for e in outgoing(v) {
                let t = Int(edgeTargets[Int(e)])
                missing[t] -= 1
                if missing[t] == 0 { free.insert(t) }
            }
        }
        if order.count == vertexCount { return .order(order) }
        return .cycle(cycle(among: missing))
    }

    /// A cycle among the vertices Kahn's algorithm could not place (`missing[v] > 0`: each
    /// of them has an in-edge from another of them). Walks backwards from the smallest one
    /// along the first such in-edge until a vertex repeats.
    private func cycle(among missing: [Int32]) -> [Int] {
        guard let first = missing.firstIndex(where: { $0 > 0 }) else { return [] }
        var position = [Int32](repeating: -1, count: vertexCount)
        var walk: [Int] = []
        var v = first
        while position[v] < 0 {
            position[v] = Int32(walk.count)
            walk.append(v)
            // invariant: an unplaced vertex has an in-edge from an unplaced vertex
            let e = incoming(v).first { missing[Int(edgeSources[Int($0)])] > 0 }!
            v = Int(edgeSources[Int(e)])
        }
        // walk[position[v]...] goes backwards around the cycle: reverse it, start at its minimum
        var cycle = Array(walk[Int(position[v])...].reversed())
        let m = cycle.indices.min { cycle[$0] < cycle[$1] }!  // invariant: the cycle is not empty
        cycle = Array(cycle[m...] + cycle[..<m])
        return cycle
    }
}

/// A min-priority queue of distinct integers in `0..<capacity`: a tree of 64-bit words in
/// which a bit of a level says that the word below it is not empty. Insertion and taking
/// the minimum touch one word per level (⌈log₆₄ capacity⌉ levels).
struct SmallIntMinQueue {
    /// `levels[0]` holds one bit per integer; `levels[k + 1]` one bit per word of
    /// `levels[k]`; the last level is one word.
    private var levels: [[UInt64]]

    init(capacity: Int) {
        var levels: [[UInt64]] = []
        var n = max(capacity, 1)
        repeat {
            let words = (n + 63) / 64
            levels.append([UInt64](repeating: 0, count: words))
            n = words
        } while n > 1
        self.levels = levels
    }

    mutating func insert(_ value: Int) {
        var i = value
        for k in levels.indices {
            let w = i >> 6
            let wasEmpty = levels[k][w] == 0
            levels[k][w] |= 1 << UInt64(i & 63)
            if !wasEmpty { return }
            i = w
        }
    }

    mutating func popMin() -> Int? {
        let top = levels.count - 1
        guard levels[top][0] != 0 else { return nil }
        var i = 0
        for k in stride(from: top, through: 0, by: -1) {
            i = i << 6 | levels[k][i].trailingZeroBitCount
        }
        var j = i
        for k in levels.indices {
            let w = j >> 6
            levels[k][w] &= ~(1 << UInt64(j & 63))
            if levels[k][w] != 0 { break }
            j = w
        }
        return i
    }
}
