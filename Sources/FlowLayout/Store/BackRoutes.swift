import FlowCore

/// Routes for the edges that run against the flow: back edges (the layout reversed them to
/// break a cycle, so their target lies behind their source) and self-loops.
///
/// The handles face the flow (in flow terms: a source's handle on its node's bottom, a
/// target's on its top), so such an edge leaves downwards and must end coming down from
/// above. It is drawn as a careful hand would: a short run out of the source handle, across
/// to one lane beside every node it passes, along the lane to above the target, across, and
/// down into the target handle, four bends. A self-loop is the same shape kept close to its
/// node, in the room the layout leaves beside it.
///
/// Candidates differ in the lane and in how far out of each handle the route turns; those
/// that pass through a node are dropped, and of the rest the one of least cost wins (the
/// first such in a fixed order: deterministic). The cost weighs leaving the group that
/// holds the edge (a group's padding can be too narrow to turn in) above all, then length
/// shared with routes already made or run close beside them, routes crossed (or continued
/// in line), and length. Every route made is kept, so later back edges and loops keep
/// clear of it too. Loops go first (they have two sides to choose from, a back edge many
/// lanes).
///
/// The work is done in flow coordinates, where layers stack downwards (x along a layer):
/// the same code serves every direction.
struct BackRoutes {
    let direction: LayoutDirection
    /// The gap between two layers.
    let layerSpacing: Double
    /// How far a lane keeps from the nodes it passes.
    let clearance: Double
    /// How far a self-loop's lane lies from its node's side (within the room the layout
    /// keeps there).
    let loopReach: Double
    /// Segments of the routes made so far, in flow coordinates.
    private var runs = RunGrid()

    init(direction: LayoutDirection, layerSpacing: Double, clearance: Double, loopReach: Double) {
        self.direction = direction
        self.layerSpacing = layerSpacing
        self.clearance = clearance
        self.loopReach = loopReach
    }

    // MARK: Routes made

    /// Keeps a route made elsewhere (canvas coordinates, its end points included), for later
    /// routes to keep clear of.
    mutating func add(_ route: [Point]) {
        let f = route.map(toFlow)
        for i in f.indices.dropFirst() where f[i - 1] != f[i] { runs.append(f[i - 1], f[i]) }
    }

    /// Whether an edge from handle `source` (on side `sourceSide` of `sourceFrame`) to handle
    /// `target` (on `targetSide` of `targetFrame`) runs against the flow with handles that
    /// face it or face across it: its source's handle faces the flow or across it, its
    /// target's faces back or across it (not both across), and the target lies behind: behind
    /// the source handle when both face along the flow, else wholly behind the source node
    /// (a decision's "no" on its side that goes back to an earlier step).
    func against(
        _ source: Point, _ sourceSide: HandlePosition, _ sourceFrame: Rect,
        _ target: Point, _ targetSide: HandlePosition, _ targetFrame: Rect
    ) -> Bool {
        let ds = toFlow(sourceSide.direction), dt = toFlow(targetSide.direction)
        let sourceAcross = across(sourceSide) != 0, targetAcross = across(targetSide) != 0
        guard ds == Point(0, 1) || sourceAcross, dt == Point(0, -1) || targetAcross, !(sourceAcross && targetAcross) else {
            return false
        }
        if sourceAcross || targetAcross { return toFlow(targetFrame).maxY <= toFlow(sourceFrame).minY }
        return toFlow(target).y < toFlow(source).y
    }

    /// -1 or 1 for a handle side that faces across the flow (towards lower or higher x in
    /// flow coordinates), 0 for one that faces along it or the centre.
    private func across(_ side: HandlePosition) -> Double {
        let d = toFlow(side.direction)
        return d.y == 0 ? d.x : 0
    }

    // MARK: Back edges and loops

    /// The bend points of a back edge from handle `source` on `sourceFrame` to handle
    /// `target` on `targetFrame` (canvas coordinates), clear of `obstacles` and inside
    /// `bounds` when given; nil when no candidate is clear. `walls` are the groups the edge
    /// leaves or enters: its route crosses their borders on the way out of a handle or
    /// into one, but its lane keeps out of them, so it does not run inside a group it is
    /// leaving, along the border. `hints` are the layout's points for the edge (its places
    /// in the layers it spans), lanes worth trying; `offset` is how far the path runs out of
    /// a handle before it can turn.
    ///
    /// An end whose handle faces across the flow (`sourceSide`, `targetSide`) runs straight
    /// out of its side to the lane, which then lies on that side, at least `offset` (and the
    /// clearance) away: out of a decision's "no" on its left, up a lane on the left and into
    /// the earlier step from above, three bends.
    mutating func backEdge(
        from source: Point, _ sourceFrame: Rect, _ sourceSide: HandlePosition = .bottom,
        to target: Point, _ targetFrame: Rect, _ targetSide: HandlePosition = .top,
        obstacles: [Rect], walls: [Rect] = [], bounds: Rect?, hints: [Point], offset: Double
    ) -> [Point]? {
        let s = toFlow(source), t = toFlow(target)
        let sideOut = across(sourceSide), sideIn = across(targetSide)
        let run = max(offset, clearance)
        let fs = toFlow(sourceFrame), ft = toFlow(targetFrame)
        let downs = depths([0.75, 0.625, 0.875], offset: offset)
        let reach = downs.max()!
        let top = t.y - reach, bottom = s.y + reach
        let boxes = (obstacles.map(toFlow) + [fs, ft]).filter { $0.maxY > top - layerSpacing && $0.minY < bottom + layerSpacing }
        // the lanes nearest the ends: a farther one is longer and rarely clearer
        func far(_ x: Double) -> Double { abs(x - s.x) + abs(x - t.x) }
        let all: [Double] = lanes(from: top, to: bottom, boxes + walls.map(toFlow), hints: hints.map { toFlow($0).x })
            .filter { (sideOut == 0 || ($0 - s.x) * sideOut >= run) && (sideIn == 0 || ($0 - t.x) * sideIn >= run) }
        let xs = Array(all.sorted { far($0) != far($1) ? far($0) < far($1) : $0 < $1 }.prefix(8))
        guard let lo = xs.min(), let hi = xs.max() else { return nil }
        let left: Double = min(lo, s.x, t.x), right: Double = max(hi, s.x, t.x)
        let area = Rect(left - 1, top - 1, right - left + 2, bottom - top + 2)
        let near = nearby(boxes, area)
        let bound = bounds.map(toFlow)
        var best: Candidate?
        // an end on a side runs straight across to the lane: no turn out of it to choose
        func route(_ x: Double, _ down: Double, _ up: Double) -> [Point] {
            (sideOut != 0 ? [Point(x, s.y)] : [Point(s.x, s.y + down), Point(x, s.y + down)])
                + (sideIn != 0 ? [Point(x, t.y)] : [Point(x, t.y - up), Point(t.x, t.y - up)])
        }
        let outs = sideOut != 0 ? [0.0] : downs, ins = sideIn != 0 ? [0.0] : downs
        for x in xs {
            for (i, down) in outs.enumerated() {
                for (j, up) in ins.enumerated() { consider(s, route(x, down, up), t, rank: i + j, near, bound, &best) }
            }
        }
        return keep(best, s, t)
    }

    /// The bend points of a self-loop from handle `source` to handle `target` on `frame`:
    /// out of the source, up one side of the node, over and into the target; nil when no
    /// candidate is clear.
    mutating func loop(
        from source: Point, to target: Point, on frame: Rect, obstacles: [Rect], bounds: Rect?, offset: Double
    ) -> [Point]? {
        let s = toFlow(source), t = toFlow(target), f = toFlow(frame)
        // short runs out of the handles, else past the middle of the gap, where the steps
        // of the edges between neighbouring layers run, else at the middle (beside such a
        // step that turns the other way)
        let downs = depths([0.25, 0.75, 0.5], offset: offset)
        let area = Rect(f.minX - 4 * loopReach, f.minY - layerSpacing, f.width + 8 * loopReach, f.height + 2 * layerSpacing)
        let near = nearby(obstacles.map(toFlow) + [f], area)
        let bound = bounds.map(toFlow)
        var best: Candidate?
        for x in [f.maxX + loopReach, f.minX - loopReach] {
            for (i, down) in downs.enumerated() {
                for (j, up) in downs.enumerated() {
                    let ys = s.y + down, yt = t.y - up
                    let points = [Point(s.x, ys), Point(x, ys), Point(x, yt), Point(t.x, yt)]
                    consider(s, points, t, rank: i + j, near, bound, &best)
                }
            }
        }
        return keep(best, s, t)
    }

    // MARK: Candidates

    private struct Candidate {
        var points: [Point]
        /// How far the points lie outside the group that holds the edge, added up.
        var outside: Double
        /// Length shared with (or run close beside) routes already made.
        var shared: Double
        /// Routes crossed, and runs that go on in line where another stops.
        var crossings: Int
        var length: Double
        /// How far the turns are from the preferred ones (0: both preferred).
        var rank: Int

        /// Lower is better: leaving the group outweighs everything, then a crossing counts
        /// as much as ten units run alongside another route or a hundred of length.
        var cost: Double {
            outside * 10_000 + shared * 10 + Double(crossings) * 100 + length + 8 * Double(rank)
        }
    }

    /// Obstacles near enough to matter.
    private struct Near {
        var boxes: [Rect]
    }

    private func nearby(_ boxes: [Rect], _ area: Rect) -> Near {
        Near(boxes: boxes.filter { $0.intersects(area) })
    }

    /// Turn distances out of a handle: the given fractions of the layer gap that are at
    /// least `offset`, in order of preference, then the shortest turn (for a group's
    /// padding, narrower than a layer gap).
    private func depths(_ fractions: [Double], offset: Double) -> [Double] {
        var out: [Double] = []
        for f in fractions where f * layerSpacing >= offset && !out.contains(f * layerSpacing) { out.append(f * layerSpacing) }
        let shortest = max(offset, 0.3 * layerSpacing)
        if !out.contains(shortest) { out.append(shortest) }
        return out
    }

    /// Lanes from `top` down to `bottom` clear of `boxes` (kept `clearance` away): the
    /// edges of each free stretch (and a few steps further out, for lanes already taken),
    /// the middle of narrow ones, and the hints that are free. Sorted, without repeats.
    private func lanes(from top: Double, to bottom: Double, _ boxes: [Rect], hints: [Double]) -> [Double] {
        var blocked: [(Double, Double)] = []
        for b in boxes where b.maxY > top && b.minY < bottom {
            blocked.append((b.minX - clearance, b.maxX + clearance))
        }
        blocked.sort { $0.0 < $1.0 }
        var merged: [(Double, Double)] = []
        for b in blocked {
            if let last = merged.last, b.0 <= last.1 {
                merged[merged.count - 1].1 = max(last.1, b.1)
            } else {
                merged.append(b)
            }
        }
        func free(_ x: Double) -> Bool { !merged.contains { x > $0.0 && x < $0.1 } }
        var out: [Double] = []
        let step = 0.75 * clearance
        for (k, b) in merged.enumerated() {
            let left = k > 0 ? merged[k - 1].1 : -Double.infinity
            let right = k + 1 < merged.count ? merged[k + 1].0 : Double.infinity
            for n in 0..<4 {
                let l = b.0 - Double(n) * step, r = b.1 + Double(n) * step
                if l >= left { out.append(l) }
                if r <= right { out.append(r) }
            }
            if right.isFinite { out.append((b.1 + right) / 2) }
        }
        out += hints.filter(free)
        if merged.isEmpty { out += hints }
        return Array(Set(out)).sorted()
    }

    /// Scores the route `s`, `points`, `t` (flow coordinates) and keeps it in `best` when it
    /// is clear and better.
    private func consider(_ s: Point, _ points: [Point], _ t: Point, rank: Int, _ near: Near, _ bound: Rect?, _ best: inout Candidate?) {
        let route = [s] + points + [t]
        var length = 0.0, outside = 0.0
        if let b = bound {
            for p in points { outside += max(0, b.minX - p.x, p.x - b.maxX) + max(0, b.minY - p.y, p.y - b.maxY) }
        }
        for i in route.indices.dropFirst() {
            let a = route[i - 1], b = route[i]
            if a == b { continue }
            for box in near.boxes where passes(a, b, box) { return }
            length += a.distance(to: b)
        }
        var candidate = Candidate(points: points, outside: outside, shared: 0, crossings: 0, length: length, rank: rank)
        // what is already worse than the best needs no further look
        let limit = best?.cost ?? .infinity
        if candidate.cost >= limit { return }
        for i in route.indices.dropFirst() {
            let a = route[i - 1], b = route[i]
            if a == b { continue }
            let lo = Point(min(a.x, b.x) - clearance, min(a.y, b.y) - clearance)
            let hi = Point(max(a.x, b.x) + clearance, max(a.y, b.y) + clearance)
            runs.forEach(near: lo, hi) { c, d in
                // a run out of reach of this one can neither meet nor touch it
                if max(c.x, d.x) < lo.x || min(c.x, d.x) > hi.x || max(c.y, d.y) < lo.y || min(c.y, d.y) > hi.y { return }
                // runs out of (or into) one handle go together at first, whatever the route
                if (i == 1 && (c == s || d == s)) || (i == route.count - 1 && (c == t || d == t)) { return }
                let o = overlap(a, b, c, d)
                // a run close beside another reads as shared with it
                candidate.shared += max(0, o) + beside(a, b, c, d)
                // a run that goes on where another on its line stops reads as one line
                if crosses(a, b, c, d) || (o <= 0 && o > -clearance) { candidate.crossings += 1 }
            }
            if candidate.cost >= limit { return }
        }
        best = candidate
    }

    /// The chosen points in canvas coordinates (the route kept); points that do not turn
    /// the route are left out.
    private mutating func keep(_ best: Candidate?, _ s: Point, _ t: Point) -> [Point]? {
        guard let best else { return nil }
        var points: [Point] = []
        for p in best.points where points.last != p { points.append(p) }
        var route = [s] + points + [t]
        var k = 1
        while k < route.count - 1 {
            let a = route[k - 1], p = route[k], b = route[k + 1]
            if (a.x == p.x && p.x == b.x) || (a.y == p.y && p.y == b.y) { route.remove(at: k) } else { k += 1 }
        }
        for i in route.indices.dropFirst() where route[i - 1] != route[i] { runs.append(route[i - 1], route[i]) }
        return route.dropFirst().dropLast().map(fromFlow)
    }

    // MARK: Geometry

    /// Whether the axis-parallel run a–b passes through the inside of `box`.
    private func passes(_ a: Point, _ b: Point, _ box: Rect) -> Bool {
        let e = 0.5
        return min(a.x, b.x) < box.maxX - e && max(a.x, b.x) > box.minX + e
            && min(a.y, b.y) < box.maxY - e && max(a.y, b.y) > box.minY + e
    }

    /// Length that the axis-parallel run a–b shares with the run c–d when both lie on one
    /// line: negative, the gap between them; -infinity when they are not on one line.
    private func overlap(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Double {
        let e = 0.5
        if a.y == b.y && abs(c.y - d.y) < e && abs(c.y - a.y) < e {
            return min(max(a.x, b.x), max(c.x, d.x)) - max(min(a.x, b.x), min(c.x, d.x))
        }
        if a.x == b.x && abs(c.x - d.x) < e && abs(c.x - a.x) < e {
            return min(max(a.y, b.y), max(c.y, d.y)) - max(min(a.y, b.y), min(c.y, d.y))
        }
        return -.infinity
    }

    /// Length along which the axis-parallel run a–b runs beside the run c–d (parallel, less
    /// than half the clearance apart, not on one line).
    private func beside(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Double {
        let e = 0.5, near = clearance / 2
        if a.y == b.y && abs(c.y - d.y) < e && abs(c.y - a.y) >= e && abs(c.y - a.y) < near {
            return max(0, min(max(a.x, b.x), max(c.x, d.x)) - max(min(a.x, b.x), min(c.x, d.x)))
        }
        if a.x == b.x && abs(c.x - d.x) < e && abs(c.x - a.x) >= e && abs(c.x - a.x) < near {
            return max(0, min(max(a.y, b.y), max(c.y, d.y)) - max(min(a.y, b.y), min(c.y, d.y)))
        }
        return 0
    }

    /// Whether the runs a–b and c–d cross at a point inside both.
    private func crosses(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        func side(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    private func toFlow(_ p: Point) -> Point {
        switch direction {
        case .TB: p
        case .BT: Point(p.x, -p.y)
        case .LR: Point(p.y, p.x)
        case .RL: Point(p.y, -p.x)
        }
    }

    private func fromFlow(_ f: Point) -> Point {
        switch direction {
        case .TB: f
        case .BT: Point(f.x, -f.y)
        case .LR: Point(f.y, f.x)
        case .RL: Point(-f.y, f.x)
        }
    }

    private func toFlow(_ r: Rect) -> Rect {
        let a = toFlow(Point(r.minX, r.minY)), b = toFlow(Point(r.maxX, r.maxY))
        return Rect(min(a.x, b.x), min(a.y, b.y), abs(a.x - b.x), abs(a.y - b.y))
    }
}
