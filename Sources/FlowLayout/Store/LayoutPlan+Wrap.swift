import FlowCore

extension LayoutPlan {
    /// Refuses an `aspectRatio` the wrap cannot honour: it must be a positive number, and
    /// the wrap moves whole parts of a layered layout of every node.
    static func checkAspectRatio(_ request: LayoutRequest, pinned: [String]) throws(FlowError) {
        guard let ratio = request.options.aspectRatio else { return }
        let op = "layout"
        guard ratio.isFinite, ratio > 0, ratio <= 1e6 else {
            throw .invalidValue(op, "aspectRatio must be a positive number (width / height) up to 1e6")
        }
        guard request.algorithm == .layered else {
            throw .invalidValue(op, "aspectRatio wraps a layered layout; the tree algorithm does not take it")
        }
        if request.options.stable || request.nodes != nil || request.group != nil {
            throw .invalidValue(op, "aspectRatio lays out every node and moves whole parts; it cannot be combined with stable, nodes or group")
        }
        if let first = pinned.first {
            throw .invalidValue(op, "aspectRatio lays out every node and moves whole parts; node '\(first)' is pinned (unpin it, or lay out without aspectRatio)")
        }
    }

    /// Wraps the finished layout into parts side by side (`LayoutWrap`) when that comes
    /// nearer `aspectRatio`: every top-level node moves with its part, its descendants with
    /// it, and edges between parts get routes through the lanes between them.
    mutating func wrapParts(edges: [FlowEdge]) {
        guard let ratio = request.options.aspectRatio else { return }
        var item = Array(repeating: -1, count: nodes.count)
        var frames: [Rect] = []
        for i in 0..<nodes.count where inScope[i] && container[i] == -1 {
            guard let p = positions[nodes[i].id] else { continue }
            item[i] = frames.count
            frames.append(Rect(origin: p, size: sizes[nodes[i].id] ?? nodes[i].size))
        }
        func top(_ i: Int) -> Int {
            var v = i
            while container[v] >= 0 { v = container[v] }
            return item[v]
        }
        var links: [LayoutWrap.Edge] = []
        for e in edges {
            guard let s = index[e.sourceNodeID], let t = index[e.targetNodeID], inScope[s], inScope[t] else { continue }
            let a = top(s), b = top(t)
            guard a >= 0, b >= 0 else { continue }
            links.append(.init(
                id: e.id, source: a, target: b, route: routes[e.id], against: drawnAgainst.contains(e.id),
                rounded: e.pathType == .bezier))
        }
        let wrap = LayoutWrap(
            direction: direction, ratio: ratio, gap: request.options.layerSpacing,
            lane: max(min(request.options.edgeSpacing, 12), 6))
        guard let result = wrap.wrap(items: frames, edges: links) else { return }
        var bounds: Rect? = nil
        for i in 0..<nodes.count where inScope[i] {
            let it = top(i)
            guard it >= 0, let p = positions[nodes[i].id] else { continue }
            let d = result.offsets[it]
            positions[nodes[i].id] = Point(p.x + d.x, p.y + d.y)
            if container[i] == -1 {
                let f = Rect(origin: positions[nodes[i].id]!, size: frames[it].size)
                bounds = bounds?.union(f) ?? f
            }
        }
        for (id, route) in result.routes { routes[id] = route }
        if let bounds {
            stats.width = bounds.width
            stats.height = bounds.height
        }
    }
}
