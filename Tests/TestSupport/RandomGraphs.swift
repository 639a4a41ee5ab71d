// Random graphs shared by the layout tests and flowbench's growth series.

public enum RandomGraphs {
    /// `nodes` nodes with `outEdges` edges out of each to random other nodes (repeats
    /// allowed, no self-loops), as `(source, target)` pairs in source order: a graph full of
    /// cycles. The same seed gives the same graph.
    public static func cyclic(nodes: Int, outEdges: Int = 3, seed: UInt64 = 43) -> [(Int, Int)] {
        guard nodes > 1 else { return [] }
        var r = SplitMix64(seed: seed)
        var edges: [(Int, Int)] = []
        edges.reserveCapacity(nodes * outEdges)
        for v in 0..<nodes {
            for _ in 0..<outEdges {
                let w = r.below(nodes - 1)
                edges.append((v, w < v ? w : w + 1))
            }
        }
        return edges
    }
}
