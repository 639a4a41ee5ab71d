import FlowCore

/// Short jogs in stepped routes. A route's points come from places the layout keeps apart
/// (dummies in a layer, ports on a group's border), and two of them meant to line up can
/// end a few pixels apart: the route then steps aside by that much on its way, a kink that
/// means nothing. A jog is straightened by moving one of the two runs along the flow beside
/// it onto the other's line, when the strip the run sweeps over is empty: no node, no
/// group's border the route did not already cross and no other route lies in it, so the
/// move can neither add a crossing nor run the route along another.
extension LayoutPlan {
    /// Widest jog straightened: half the space between neighbours, at most 16.
    var jogLimit: Double { min(request.options.nodeSpacing / 2, 16) }

    /// Straightens the short jogs of the stepped routes (`smoothStep`, and `orthogonal`
    /// when the layout routes it) among `edges`, in their order; each one checks the strip
    /// it would sweep against the nodes and against every route as it is then. Jogs are
    /// few (a handful on a thousand-node graph), so the routes are looked up only when one
    /// is found, and each check reads them all.
    mutating func straightenJogs(_ edges: [FlowEdge]) {
        var candidates: [Int] = []
        for (k, e) in edges.enumerated() where (e.pathType == .smoothStep || e.pathType == .orthogonal) && routes[e.id]!.count >= 3 {
            let (s, t) = ends(e)
            if straightened([s.point] + routes[e.id]! + [t.point], clear: { _ in true }) != nil { candidates.append(k) }
        }
        guard !candidates.isEmpty else { return }
        var drawn = edges.map { e -> [Point] in
            let (s, t) = ends(e)
            return [s.point] + routes[e.id]! + [t.point]
        }
        var isGroup = Array(repeating: false, count: nodes.count)
        for n in nodes { if let p = n.parentID, let i = index[p] { isGroup[i] = true } }
        let frames = (0..<nodes.count).map(newFrame)
        for k in candidates {
            let e = edges[k]
            let a = index[e.sourceNodeID]!, b = index[e.targetNodeID]!
            let crossed = Set(crossedGroups(a, b))
            let holding = Set(enclosing(a).dropFirst()).intersection(enclosing(b).dropFirst())
            func clear(_ strip: Rect) -> Bool {
                for (i, f) in frames.enumerated() where f.intersects(strip) && !crossed.contains(i) {
                    // a node, or a group the route neither enters nor leaves: the strip keeps
                    // out of it, or inside it when the group holds both ends
                    if !isGroup[i] || !holding.contains(i) || !LayoutPlan.holds(f, strip) { return false }
                }
                for (j, other) in drawn.enumerated() where j != k {
                    for (p, q) in zip(other, other.dropFirst()) where LayoutPlan.touches(p, q, strip) { return false }
                }
                return true
            }
            var route = drawn[k]
            while let next = straightened(route, clear: clear) { route = next }
            if route != drawn[k] {
                drawn[k] = route
                routes[e.id] = Array(route.dropFirst().dropLast())
            }
        }
    }

    /// Whether `outer` holds `inner` whole (borders included).
    static func holds(_ outer: Rect, _ inner: Rect) -> Bool {
        outer.minX <= inner.minX && inner.maxX <= outer.maxX && outer.minY <= inner.minY && inner.maxY <= outer.maxY
    }

    /// The route with its first jog that `clear` allows straightened, or nil when none is.
    /// `route` runs from handle to handle; the runs at the handles stay where they are.
    private func straightened(_ route: [Point], clear: (Rect) -> Bool) -> [Point]? {
        let vertical = !direction.isHorizontal
        func along(_ p: Point) -> Double { vertical ? p.y : p.x }
        func across(_ p: Point) -> Double { vertical ? p.x : p.y }
        func point(_ along: Double, _ across: Double) -> Point { vertical ? Point(across, along) : Point(along, across) }
        func isAlong(_ i: Int) -> Bool { across(route[i]) == across(route[i + 1]) && along(route[i]) != along(route[i + 1]) }
        func isAcross(_ i: Int) -> Bool { along(route[i]) == along(route[i + 1]) && across(route[i]) != across(route[i + 1]) }
        let n = route.count
        guard n >= 5 else { return nil }
        // the jog is the run from route[k] to route[k + 1], between two runs along the flow
        for k in 1..<(n - 2) where isAcross(k) && isAlong(k - 1) && isAlong(k + 1) {
            let from = across(route[k]), to = across(route[k + 1])
            guard abs(from - to) <= jogLimit else { continue }
            // move the run before the jog onto the line of the run after it
            if k >= 2 && isAcross(k - 2) {
                let top = along(route[k - 1]), bottom = along(route[k])
                let strip = Rect(corner: point(top, from), corner: point(bottom, to))
                if clear(strip) {
                    var out = Array(route[..<(k - 1)])
                    out.append(point(top, to))
                    out += route[(k + 2)...]
                    return LayoutPlan.simplified(out)
                }
            }
            // or the run after it onto the line of the run before it
            if k + 3 <= n - 1 && isAcross(k + 2) {
                let top = along(route[k + 1]), bottom = along(route[k + 2])
                let strip = Rect(corner: point(top, to), corner: point(bottom, from))
                if clear(strip) {
                    var out = Array(route[...k])
                    out.append(point(bottom, from))
                    out += route[(k + 3)...]
                    return LayoutPlan.simplified(out)
                }
            }
        }
        return nil
    }

    /// The points without repeats and without points in line with both neighbours.
    static func simplified(_ route: [Point]) -> [Point] {
        var out: [Point] = []
        for p in route where out.last != p { out.append(p) }
        var kept: [Point] = []
        for (i, q) in out.enumerated() {
            guard let p = kept.last, i + 1 < out.count else {
                kept.append(q)
                continue
            }
            let r = out[i + 1]
            if (p.x == q.x && q.x == r.x) || (p.y == q.y && q.y == r.y) { continue }
            kept.append(q)
        }
        return kept
    }

    /// Whether the segment from `p` to `q` meets the closed box (its border included).
    static func touches(_ p: Point, _ q: Point, _ box: Rect) -> Bool {
        // clip the segment to the box's slabs, one axis at a time
        var t0 = 0.0, t1 = 1.0
        for (start, delta, lo, hi) in [(p.x, q.x - p.x, box.minX, box.maxX), (p.y, q.y - p.y, box.minY, box.maxY)] {
            if delta == 0 {
                if start < lo || start > hi { return false }
            } else {
                var a = (lo - start) / delta, b = (hi - start) / delta
                if a > b { swap(&a, &b) }
                t0 = max(t0, a)
                t1 = min(t1, b)
                if t0 > t1 { return false }
            }
        }
        return true
    }
}
