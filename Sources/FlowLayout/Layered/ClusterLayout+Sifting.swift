import FlowCore

extension ClusterLayout {
    /// Most passes of `sift` over every layer.
    static let siftingPasses = 4

    /// Sifting within the clusters' grouping: each vertex of a layer in turn is taken out
    /// and put back at the place where it crosses least with both neighbouring layers,
    /// among the places that keep every cluster's vertices together (inside its own
    /// clusters' runs, never inside another's). So no sibling passes another and the boxes
    /// stay whole, while a vertex still finds its best place in its cluster and a vertex
    /// outside all of them its best place between the boxes. Passes repeat while they
    /// lower the crossings; ties keep the current place, so the result depends on the input
    /// alone. Meant for the small graphs that try other cluster orders (each place is
    /// counted afresh: a vertex costs its layer's width times its two layer pairs).
    func sift(_ ordering: inout Ordering) {
        var fewest = ordering.totalCrossings()
        for _ in 0..<ClusterLayout.siftingPasses where fewest > 0 && !WorkLimit.shouldStop {
            for l in ordering.layers.indices where ordering.layers[l].count > 1 {
                for v in ordering.layers[l] { place(v, in: l, &ordering) }
            }
            let crossings = ordering.totalCrossings()
            if crossings >= fewest { break }
            fewest = crossings
        }
    }

    /// Moves `v` within layer `l` to its best allowed place (the first of equals nearest
    /// its own).
    private func place(_ v: Int, in l: Int, _ ordering: inout Ordering) {
        let layer = ordering.layers[l]
        guard let from = layer.firstIndex(of: v) else { return }
        var rest = layer
        rest.remove(at: from)
        func crossings() -> Int {
            (l > 0 ? ordering.countCrossings(below: l - 1) : 0)
                + (l + 1 < ordering.layers.count ? ordering.countCrossings(below: l) : 0)
        }
        let current = crossings()
        var best = (crossings: current, distance: 0, at: from)
        for at in 0...rest.count where at != from && allows(rest, v, from: from, to: at) {
            var tried = rest
            tried.insert(v, at: at)
            ordering.setLayer(l, tried)
            let c = crossings(), distance = abs(at - from)
            if c < best.crossings || (c == best.crossings && distance < best.distance) { best = (c, distance, at) }
        }
        var chosen = rest
        chosen.insert(v, at: best.at)
        ordering.setLayer(l, chosen)
    }

    /// Whether moving `v` from `from` to `at` in `rest` (its layer without it, clusters
    /// together) keeps every cluster together and sibling clusters in their order: not
    /// between two vertices of a cluster `v` is not in; next to or inside the run of each
    /// of its own that has other vertices there; and where `v` is the only vertex here of
    /// one of its clusters, not past a vertex of another cluster (which would swap the two
    /// boxes in this layer only).
    func allows(_ rest: [Int], _ v: Int, from: Int, to at: Int) -> Bool {
        let own = chain(v)
        if at > 0, at < rest.count {
            let left = chain(rest[at - 1]), right = chain(rest[at])
            for c in left where right.contains(c) && !own.contains(c) { return false }
        }
        var alone = false
        for c in own {
            var first = -1, last = -1
            for (i, w) in rest.enumerated() where chain(w).contains(c) {
                if first < 0 { first = i }
                last = i
            }
            if first < 0 { alone = true } else if at < first || at > last + 1 { return false }
        }
        guard alone else { return true }
        let passed = at < from ? rest[at..<from] : rest[from..<at]
        return passed.allSatisfy { w in chain(w).allSatisfy(own.contains) }
    }
}
