import FlowCore

// The steps of `LayoutPlan.plan`: the levels' graphs made, each edge's span found, the
// levels laid out and placed in the canvas, the edges' pieces joined into routes, and the
// drawing measured.
extension LayoutPlan {
    /// The graph of each container's level: a node per member (its size, and for a stable
    /// layout its previous centre and hold); with clusters, the one graph of `clusterLevel`.
    func makeLevels(_ containers: [Int], clusterOf: [Int: Int]) -> [Int: Level] {
        var levels: [Int: Level] = [:]
        if !clusterOf.isEmpty { levels[-1] = clusterLevel(clusterOf) }
        for c in containers where levels[c] == nil {
            var level = Level()
            for m in members[c] ?? [] {
                level.nodeOf[m] = level.graph.nodes.count
                level.graph.nodes.append(.init(
                    width: nodes[m].size.width, height: nodes[m].size.height,
                    previous: previous.isEmpty ? nil : previous[m], hold: hold.isEmpty ? 1 : hold[m]))
            }
            levels[c] = level
        }
        return levels
    }

    /// Where each edge (by index) is laid out: its ends, their ancestors and the innermost
    /// group holding both (`holder`). An edge between a group and one of its descendants
    /// gets an empty route; the tree algorithm refuses an edge between groups.
    mutating func spans(_ edges: [FlowEdge], clusterOf: [Int: Int]) throws(FlowError) -> [Int: Span] {
        var spans: [Int: Span] = [:]
        for (ei, e) in edges.enumerated() {
            guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID], inScope[a], inScope[b] else { continue }
            let ca = ancestors(a), cb = ancestors(b)
            var k = 0
            while k < ca.count && k < cb.count && ca[k] == cb[k] { k += 1 }
            if a == b { k = ca.count - 1 }
            // an edge between a group and one of its own descendants is not routed
            guard a == b || (k < ca.count && k < cb.count) else {
                routes[e.id] = []
                continue
            }
            if request.algorithm == .tree && (k != ca.count - 1 || k != cb.count - 1) {
                throw .invalidValue(
                    "layout", "the tree algorithm lays out edges within one group only; edge '\(e.id)' goes from '\(e.sourceNodeID)' into another group")
            }
            let lca = k == 0 ? -1 : ca[k - 1]
            holder[e.id] = lca
            // clusters: every edge is one of the single graph's, between its own ends
            spans[ei] = clusterOf.isEmpty
                ? Span(a: a, b: b, ca: ca, cb: cb, k: k, lca: lca) : Span(a: a, b: b, ca: [a], cb: [b], k: 0, lca: -1)
        }
        return spans
    }

    /// Orders each group's border nodes by `keys` (where the pass before put their partners)
    /// and gives every edge that leaves or enters a group the port of its border node there,
    /// as the pass before placed it.
    func applyBorderKeys(
        _ levels: inout [Int: Level], borders: [GroupBorder], keys: [(key: Double, tie: Double)], groupEnds: [GroupEnd],
        origin: [Int: Point]
    ) {
        for (b, k) in zip(borders, keys) {
            levels[b.level]!.graph.nodes[b.node].orderKey = k.key
            levels[b.level]!.graph.nodes[b.node].orderTie = k.tie
        }
        // an edge that leaves (or enters) a group does so at its border node,
        // not at the group's middle: its port there, as the pass before placed it
        for end in groupEnds {
            let r = levels[end.group]!.result!
            let at = r.positions[end.border] + origin[end.group]!
            let f = newFrame(end.group)
            let offset = direction.isHorizontal
                ? (at.y - f.origin.y) / f.size.height : (at.x - f.origin.x) / f.size.width
            let port = offset.isFinite ? min(0.5, max(-0.5, offset - 0.5)) : 0
            if end.atSource {
                levels[end.level]!.graph.edges[end.edge].sourcePort = port
            } else {
                levels[end.level]!.graph.edges[end.edge].targetPort = port
            }
        }
    }

    /// Lays out every level, innermost first (each group sized by its children's layout:
    /// its nodes take the sizes the levels inside gave their groups), and adds up the stats.
    mutating func layOut(
        _ levels: inout [Int: Level], containers: [Int], options: LayoutOptions, edgeIDs: [Int: [String]], groupIndex: Int
    ) throws(FlowError) {
        let pad = request.groupPadding, title = request.groupTitleHeight
    for c in containers {
        var level = levels[c]!
        for (m, gi) in level.nodeOf {
            if let s = sizes[nodes[m].id] { level.graph.nodes[gi].width = s.width; level.graph.nodes[gi].height = s.height }
        }
        let r: LayoutResult
        switch request.algorithm {
        case .layered:
            r = try LayeredLayout.layout(level.graph, options: options, limits: limits)
        case .tree:
            do {
                r = try TreeLayout.layout(level.graph, options: options)
            } catch {
                let id = edgeIDs[c]?[error.edge] ?? "?"
                throw .invalidValue("layout", "the tree algorithm needs a forest: edge '\(id)' breaks it (\(error.reason))")
            }
        }
        level.result = r
        levels[c] = level
        stats.crossings += r.crossings
        stats.reversedEdges += r.reversedEdges
        if c >= 0 || groupIndex >= 0 {
            let g = c >= 0 ? c : groupIndex
            sizes[nodes[g].id] = Size(r.width + 2 * pad, r.height + 2 * pad + title)
        } else {
            stats.layers = r.layers
        }
        if c < 0 && groupIndex >= 0 { stats.layers = r.layers }
    }
    }

    /// Places the top level (where `placeTop` puts it, or inside the laid-out group), then
    /// every level inside its group, and the clusters' groups around their nodes; `origin`
    /// gets each level's offset.
    mutating func place(
        _ levels: [Int: Level], containers: [Int], clusterOf: [Int: Int], groupIndex: Int, origin: inout [Int: Point]
    ) {
        let pad = request.groupPadding, title = request.groupTitleHeight
        let top = levels[-1]!.result!
        if groupIndex >= 0 {
            let g = nodes[groupIndex]
            origin[-1] = g.position + Point(pad, pad + title)
        } else {
            origin[-1] = placeTop(top, levels[-1]!, boxes: clusterBoxes(top, clusterOf))
        }
        for c in containers.reversed() {
            let level = levels[c]!
            let o = origin[c]!
            for (m, gi) in level.nodeOf {
                let p = level.result!.positions[gi] + o
                positions[nodes[m].id] = p
                if members[m] != nil { origin[m] = p + Point(pad, pad + title) }
            }
        }
        for (g, c) in clusterOf {
            let frame = top.clusterFrames[c]
            positions[nodes[g].id] = frame.origin + origin[-1]!
            sizes[nodes[g].id] = frame.size
        }
    }

    /// Each edge's route: its pieces' points (exits, the body, entries, border nodes
    /// between them) joined, in canvas coordinates.
    mutating func joinRoutes(_ pieces: [String: [Piece]], levels: [Int: Level], origin: [Int: Point]) {
        for (id, route) in pieces {
            var points: [Point] = []
            for piece in route {
                switch piece {
                case .exit(let l, let ge, let border):
                    let r = levels[l]!.result!, o = origin[l]!
                    points += r.edgePoints[ge].map { $0 + o }
                    points.append(r.positions[border] + o)
                case .body(let l, let ge):
                    let r = levels[l]!.result!, o = origin[l]!
                    points += r.edgePoints[ge].map { $0 + o }
                case .reversedBody(let l, let ge):
                    let r = levels[l]!.result!, o = origin[l]!
                    points += r.edgePoints[ge].reversed().map { $0 + o }
                case .entry(let l, let ge, let border):
                    let r = levels[l]!.result!, o = origin[l]!
                    points.append(r.positions[border] + o)
                    points += r.edgePoints[ge].map { $0 + o }
                }
            }
            routes[id] = points
        }
    }

    /// The size of the laid-out nodes' bounding box, in the stats.
    mutating func measure() {
        var lo = Point(Double.infinity, Double.infinity), hi = Point(-Double.infinity, -Double.infinity)
        for (id, p) in positions {
            let s = sizes[id] ?? nodes[index[id]!].size
            lo = Point(min(lo.x, p.x), min(lo.y, p.y))
            hi = Point(max(hi.x, p.x + s.width), max(hi.y, p.y + s.height))
        }
        if lo.x.isFinite {
            stats.width = hi.x - lo.x
            stats.height = hi.y - lo.y
        }
    }
}
