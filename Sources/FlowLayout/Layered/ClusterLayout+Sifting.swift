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
        let from = ordering.position[v]
        var rest = ordering.layers[l]
        rest.remove(at: from)
        func crossings() -> Int {
            (l > 0 ? ordering.countCrossings(below: l - 1) : 0)
                + (l + 1 < ordering.layers.count ? ordering.countCrossings(below: l) : 0)
        }
        let allowed = places(for: v, in: rest, from: from)
        var best = (crossings: crossings(), distance: 0, at: from)
        for at in 0...rest.count where at != from && (allowed?[at] ?? true) {
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

    /// The places of `rest` (a layer without `v`, its clusters together; `v` was at `from`)
    /// where `v` keeps every cluster together and sibling clusters in their order: not
    /// between two vertices of a cluster `v` is not in; next to or inside the run of each of
    /// its own that has other vertices there; and where `v` is the only vertex here of one
    /// of its clusters, not past a vertex of another cluster (which would swap the two boxes
    /// in this layer only), unless `siblingsRegrouped` (the caller brings sibling clusters
    /// back into one order after, as the stable layout's order does). Indexed by place,
    /// `0...rest.count`; nil: every place (no vertex here lies in a cluster). Both siftings
    /// within the grouping ask it: this one and the stable layout's (`FreeSifting`).
    func places(for v: Int, in rest: [Int], from: Int, siblingsRegrouped: Bool = false) -> [Bool]? {
        let own = chain(v)
        if own.isEmpty && !rest.contains(where: { of[$0] >= 0 }) { return nil }
        var allowed = Array(repeating: true, count: rest.count + 1)
        if rest.count > 1 {
            for at in 1..<rest.count {
                let left = chain(rest[at - 1]), right = chain(rest[at])
                if left.contains(where: { right.contains($0) && !own.contains($0) }) { allowed[at] = false }
            }
        }
        var alone = false
        for c in own {
            var first = -1, last = -1
            for (i, w) in rest.enumerated() where chain(w).contains(c) {
                if first < 0 { first = i }
                last = i
            }
            if first < 0 {
                alone = true
            } else {
                for at in allowed.indices where at < first || at > last + 1 { allowed[at] = false }
            }
        }
        guard alone && !siblingsRegrouped else { return allowed }
        // passing a vertex of a cluster `v` is not in: every place beyond it is out
        func foreign(_ w: Int) -> Bool { !chain(w).allSatisfy(own.contains) }
        if let k = rest[..<from].lastIndex(where: foreign) { for at in 0...k { allowed[at] = false } }
        if let k = rest[from...].firstIndex(where: foreign) { for at in (k + 1)...rest.count { allowed[at] = false } }
        return allowed
    }
}
