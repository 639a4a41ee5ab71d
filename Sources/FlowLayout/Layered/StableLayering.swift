/// Where a large graph's stable layering starts (`StableLayout.ranks`): its network simplex
/// on the graph with a vertex per previous layer and per placed node took seven times a
/// fresh layering's time on dag_1000 from longest paths, most of it pivoting the placed
/// nodes back to where they were. Started from the previous layers it has little to do.
extension StableLayout {
    /// Graphs of at least this many nodes start the layering from the previous layers; on
    /// smaller ones it is cheap, and longest paths find the layering the diagrams were
    /// measured with (the other start returns another of the equal-cost layerings).
    static let previousStartFrom = 500

    /// Feasible ranks for the stable layering's `edges` over `count` variables: the
    /// nodes (`0..<n`), the previous layers' vertices (`n..<n + lines`) and after them one
    /// variable per placed node, in node order (as `ranks` appends them). Each previous
    /// layer's vertex and placed node at the layer's number, pushed down where an edge
    /// needs it (in topological order); a new node as high as its edges into it allow; each
    /// placed node's variable at the lower of its node's and its layer's rank, which keeps
    /// both of its edges (length 0 from it). Nil when the edges hold a cycle (they never
    /// should: cycles are broken before).
    static func layeringStart(
        n: Int, lines: Int, count: Int, edges: [NetworkSimplex.Edge], previousLayer: [Int?]
    ) -> [Int]? {
        let m = n + lines
        var base = Array(repeating: 0, count: m)
        for v in 0..<n { base[v] = previousLayer[v] ?? 0 }
        for l in 0..<lines { base[n + l] = l }
        guard let pushed = longestPaths(edges.filter { $0.source < m && $0.target < m }, count: m, start: base) else {
            return nil
        }
        var rank = pushed + Array(repeating: 0, count: count - m)
        var a = m
        for v in 0..<n {
            guard let l = previousLayer[v] else { continue }
            rank[a] = min(rank[v], rank[n + l])
            a += 1
        }
        return rank
    }
}
