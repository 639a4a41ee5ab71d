/// An orthogonal polyline with rounded corners (store-semantics §8).
///
/// Both ends first run `offset` along their handle side (`center` does not move):
/// `S' = S + dir(Ps)·offset`, `T' = T + dir(Pt)·offset`. With `midX`, `midY` the midpoint
/// of S' and T', and left/right the horizontal sides (`center` counts as vertical):
/// - both horizontal: S, S', (midX, S'.y), (midX, T'.y), T', T
/// - both vertical: S, S', (S'.x, midY), (T'.x, midY), T', T
/// - source horizontal only: S, S', (T'.x, S'.y), T', T
/// - target horizontal only: S, S', (S'.x, T'.y), T', T
///
/// Each inner vertex with non-zero legs becomes a line to `vertex − u1·r` and a quadratic
/// curve through the vertex to `vertex + u2·r`, `r = min(borderRadius, L1/2, L2/2)`, even
/// where the legs are collinear; a vertex with a zero-length leg becomes a line to it. The
/// path ends with a line to T. The label sits at (midX, midY), which can be off the path.
///
/// With bend points: S, S', the points, T', T, joined by horizontal and vertical runs, where
/// a first (last) point that lies ahead of S (T) along its side but nearer than `offset`
/// shortens that leg to reach just its line (the path never runs past it and back). Two
/// consecutive vertices a, b that are not on one horizontal or vertical line get an elbow
/// between them, `(b.x, a.y)` (horizontal first) or `(a.x, b.y)` (vertical first): the one
/// that does not double back on the run before `a` (or, before T', the run T'→T), then the
/// one that turns fewer times, then horizontal first. When both double back, a zigzag
/// through the middle that does not is taken instead, `(mid.x, a.y), (mid.x, b.y)` or
/// `(a.x, mid.y), (b.x, mid.y)`. Vertices that do not turn the path
/// (repeated, or in line with both neighbours) are dropped; every other inner vertex is a
/// rounded corner as above, its radius at most half the shorter of its two runs. The label
/// sits halfway along the path by length.
public struct SmoothStepPath: EdgePathCalculator {
    /// Corner radius; negative values count as 0.
    public var borderRadius: Double
    /// Length of the first and last legs along the handle sides.
    public var offset: Double

    public init(borderRadius: Double = 5, offset: Double = 20) {
        self.borderRadius = borderRadius
        self.offset = offset
    }

    public func path(
        from source: Point, sourcePosition: HandlePosition,
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        let (vertices, mid) = Self.steps(
            from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition,
            offset: offset)
        var segments: [PathSegment] = [.move(source)]
        for i in 1..<(vertices.count - 1) {
            segments += corner(vertices[i - 1], vertices[i], vertices[i + 1])
        }
        segments.append(.line(target))
        return EdgePath(segments: segments, labelPosition: mid)
    }

    /// The vertices of the path without bend points (see above) and the midpoint of S', T'.
    static func steps(
        from source: Point, sourcePosition: HandlePosition, to target: Point,
        targetPosition: HandlePosition, offset: Double
    ) -> (vertices: [Point], mid: Point) {
        let s = source + sourcePosition.direction * offset
        let t = target + targetPosition.direction * offset
        let mid = (s + t) * 0.5
        let corners: [Point]
        switch (sourcePosition.isHorizontal, targetPosition.isHorizontal) {
        case (true, true): corners = [Point(mid.x, s.y), Point(mid.x, t.y)]
        case (false, false): corners = [Point(s.x, mid.y), Point(t.x, mid.y)]
        case (true, false): corners = [Point(t.x, s.y)]
        case (false, true): corners = [Point(s.x, t.y)]
        }
        return ([source, s] + corners + [t, target], mid)
    }

    public func path(
        from source: Point, sourcePosition: HandlePosition, through points: [Point],
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        guard !points.isEmpty else {
            return path(from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition)
        }
        let s = source + sourcePosition.direction * Self.leg(offset, from: source, sourcePosition, toward: points[0])
        let t = target + targetPosition.direction * Self.leg(offset, from: target, targetPosition, toward: points[points.count - 1])
        var route = [source, s]
        Self.continueRuns(&route, heading: s - source, through: points + [t], leaving: target - t)
        route.append(target)
        return Self.roundedPath(route, radius: max(0, borderRadius))
    }

    /// How far the leg out of `end` along `side` runs before the route turns toward `next`:
    /// `offset`, or less when `next` lies ahead of the end but nearer than that (a route
    /// that turns close to its node, on a track of its own), so the path never runs past
    /// its first (last) point and back.
    static func leg(_ offset: Double, from end: Point, _ side: HandlePosition, toward next: Point) -> Double {
        let d = side.direction
        let ahead = (next.x - end.x) * d.x + (next.y - end.y) * d.y
        return ahead > 0 ? min(offset, ahead) : offset
    }

    /// Continues `route` through `stops` in horizontal and vertical runs: an elbow (see
    /// `elbows`) between two points not on one line. `heading` is the last run of the route
    /// so far (zero: none yet), `leaving` the run after the last stop (zero: none).
    static func continueRuns(_ route: inout [Point], heading: Point, through stops: [Point], leaving: Point) {
        var heading = heading
        for (k, next) in stops.enumerated() {
            let last = route[route.count - 1]
            if last.x != next.x && last.y != next.y {
                let after = k == stops.count - 1 ? leaving : Point.zero
                route += elbows(from: last, to: next, heading: heading, leaving: after)
            }
            let run = next - route[route.count - 1]
            if run != .zero { heading = run }
            route.append(next)
        }
    }

    /// The path along `route` (its first point to its last) without the vertices where it
    /// does not turn, each turn rounded (`roundedCorner`), the label halfway along it.
    static func roundedPath(_ route: [Point], radius: Double) -> EdgePath {
        let vertices = turns(of: route)
        var segments: [PathSegment] = [.move(route[0])]
        for i in 1..<max(1, vertices.count - 1) {
            segments += roundedCorner(vertices[i - 1], vertices[i], vertices[i + 1], radius: radius)
        }
        segments.append(.line(route[route.count - 1]))
        return EdgePath(segments: segments, labelPosition: route[0]).labelledHalfway(rotated: false)
    }

    /// The corners between `a` and `b` (not on one horizontal or vertical line), after a
    /// run along `heading` and before one along `leaving` (either zero when there is none):
    /// one elbow, or two (a zigzag through the middle) when both single elbows double back.
    static func elbows(from a: Point, to b: Point, heading: Point, leaving: Point) -> [Point] {
        func dot(_ u: Point, _ v: Point) -> Double { u.x * v.x + u.y * v.y }
        /// 10 for running back along `along`, 1 for turning off it, 0 for going on.
        func cost(_ run: Point, _ along: Point) -> Int {
            dot(run, along) < 0 ? 10 : along != .zero && dot(run, along) == 0 ? 1 : 0
        }
        func cost(_ corners: [Point]) -> Int {
            cost(corners[0] - a, heading) + cost(b - corners[corners.count - 1], leaving)
        }
        let mid = (a + b) * 0.5
        let candidates = [
            [Point(b.x, a.y)], [Point(a.x, b.y)],
            [Point(mid.x, a.y), Point(mid.x, b.y)], [Point(a.x, mid.y), Point(b.x, mid.y)],
        ]
        let costs = candidates.map(cost)
        // Both single elbows double back only when the two runs do, and then one zigzag
        // does not.
        if min(costs[0], costs[1]) < 10 { return costs[1] < costs[0] ? candidates[1] : candidates[0] }
        return costs[3] < costs[2] ? candidates[3] : candidates[2]
    }

    /// The route without the vertices where it does not turn: repeats, and inner vertices
    /// whose two runs go the same way. The ends are kept.
    static func turns(of route: [Point]) -> [Point] {
        var out: [Point] = [route[0]]
        for i in 1..<route.count {
            let p = route[i]
            if p == out[out.count - 1] && i < route.count - 1 { continue }
            if out.count >= 2 {
                let a = out[out.count - 2], b = out[out.count - 1]
                let u = b - a, w = p - b
                if u.x * w.y - u.y * w.x == 0 && u.x * w.x + u.y * w.y > 0 { out.removeLast() }
            }
            out.append(p)
        }
        return out
    }

    /// The segments that turn at `vertex`, coming from `previous` and going to `next`.
    private func corner(_ previous: Point, _ vertex: Point, _ next: Point) -> [PathSegment] {
        Self.roundedCorner(previous, vertex, next, radius: max(0, borderRadius))
    }

    /// A corner at `vertex` rounded with a radius of at most `radius` and half of each run
    /// (a line to the vertex when a run has no length).
    static func roundedCorner(_ previous: Point, _ vertex: Point, _ next: Point, radius: Double) -> [PathSegment] {
        let incoming = previous.distance(to: vertex)
        let outgoing = vertex.distance(to: next)
        guard incoming > 0, outgoing > 0 else { return [.line(vertex)] }
        let r = min(radius, incoming / 2, outgoing / 2)
        let u1 = (vertex - previous) / incoming
        let u2 = (next - vertex) / outgoing
        return [.line(vertex - u1 * r), .quad(control: vertex, to: vertex + u2 * r)]
    }
}
