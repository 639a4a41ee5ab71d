extension Digraph {
    /// Every vertex reachable from `v` along one or more edges, ascending: the row of `v` in
    /// the transitive closure. `v` itself is in it only when it lies on a cycle (a self-loop
    /// included). Breadth-first, O(V + E).
    public func reachable(from v: Int) -> [Int] {
        var seen = [Bool](repeating: false, count: vertexCount)
        var queue: [Int32] = []
        for e in outgoing(v) {
            let t = edgeTargets[Int(e)]
            if !seen[Int(t)] {
                seen[Int(t)] = true
                queue.append(t)
            }
        }
        var head = 0
        while head < queue.count {
            let u = Int(queue[head])
            head += 1
            for e in outgoing(u) {
                let t = edgeTargets[Int(e)]
                if !seen[Int(t)] {
                    seen[Int(t)] = true
                    queue.append(t)
                }
            }
        }
        return Digraph.flagged(seen)
    }

    /// A path with the fewest edges from `from` to `to`, as its edges in order (empty when
    /// `from == to`), or nil when there is none. Of the shortest paths it is the one a
    /// breadth-first search finds that visits each vertex's out-edges in ascending order
    /// (so the result is deterministic). O(V + E).
    public func shortestPath(from: Int, to: Int) -> [Int]? {
        if from == to { return [] }
        // The edge by which each vertex was first reached; -1: not reached.
        var via = [Int32](repeating: -1, count: vertexCount)
        var queue: [Int32] = [Int32(from)]
        var head = 0
        search: while head < queue.count {
            let u = Int(queue[head])
            head += 1
            for e in outgoing(u) {
                let t = Int(edgeTargets[Int(e)])
                if t == from || via[t] >= 0 { continue }
                via[t] = e
                if t == to { break search }
                queue.append(Int32(t))
            }
        }
        guard via[to] >= 0 else { return nil }
        var path: [Int] = []
        var v = to
        while v != from {
            let e = Int(via[v])
            path.append(e)
            v = Int(edgeSources[e])
        }
        return path.reversed()
    }
}
