/// How far a straightened route may move across its layer among the groups' boxes
/// (`StraightRoutes`): its neighbours in the layer bound it, and so do the boxes around
/// them and around it.
extension ClusterLayout {
    /// For each vertex, the span across the layers its route may take in its layer: inside
    /// its own innermost box, within the box's padding, and `spacing` outside each box that
    /// holds its neighbour in the layer and not it (boxes from `coordinates`: `low` and
    /// `high` sides by cluster).
    func walls(
        graph: ProperGraph, layers: [[Int]], low: [Int: Double], high: [Int: Double], spacing: Double
    ) -> [ClosedRange<Double>] {
        var walls = Array(repeating: -Double.infinity...Double.infinity, count: graph.count)
        // the outermost box holding `v` and not `u`, if any
        func parting(_ v: Int, from u: Int) -> Int? {
            let pv = chain(v), k = ClusterLayout.sharedDepth(pv, chain(u))
            return k < pv.count ? pv[k] : nil
        }
        for layer in layers {
            for (p, v) in layer.enumerated() {
                let half = graph.breadth[v] / 2
                var lo = -Double.infinity, hi = Double.infinity
                if of[v] >= 0, let l = low[of[v]], let h = high[of[v]] {
                    lo = l + padLow(of[v]) + half
                    hi = h - padHigh(of[v]) - half
                }
                if p > 0, let box = parting(layer[p - 1], from: v), let h = high[box] { lo = max(lo, h + spacing + half) }
                if p + 1 < layer.count, let box = parting(layer[p + 1], from: v), let l = low[box] {
                    hi = min(hi, l - spacing - half)
                }
                walls[v] = lo...max(lo, hi)
            }
        }
        return walls
    }
}
