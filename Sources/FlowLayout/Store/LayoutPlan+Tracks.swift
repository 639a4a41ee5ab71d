import FlowCore

/// Tracks: the stepped routes (`smoothStep`, and `orthogonal` when the layout routes it)
/// cross the gap between two layers in a run across the flow, and every such run in one gap
/// would lie on one line, so that edges with nothing in common shared it for hundreds of
/// pixels (a "bus" nobody can trace). Each run gets a track of its own instead, the runs
/// that overlap along the gap on different lines a few pixels apart; runs out of one point
/// of one node (a fan) share one, as a tree. Tracks are ordered so that the runs' legs do
/// not cross where they need not: of two runs that go the same way, the one that starts
/// further along that way is nearer the layer they leave.
extension LayoutPlan {
    /// Puts the runs across the flow of the stepped routes among `edges` on tracks of
    /// their own (see above).
    mutating func spreadTracks(_ edges: [FlowEdge]) {
        let f = flowVector
        let along: (Point) -> Double = { $0.x * f.x + $0.y * f.y }
        let across: (Point) -> Double = { f.x != 0 ? $0.y : $0.x }
        var runs: [TrackRun] = []
        for (k, e) in edges.enumerated() where e.pathType == .smoothStep || e.pathType == .orthogonal {
            guard let route = routes[e.id], route.count >= 2, let a = index[e.sourceNodeID], let b = index[e.targetNodeID]
            else { continue }
            let (s, t) = ends(e)
            let full = [s.point] + route + [t.point]
            let walls = crossedGroups(a, b).map { g -> (Double, Double) in
                let r = newFrame(g)
                let u = along(r.origin), v = along(Point(r.maxX, r.maxY))
                return (min(u, v), max(u, v))
            }
            for i in 1..<(full.count - 2) {
                let p = full[i], q = full[i + 1]
                let m = along(p)
                guard abs(along(q) - m) < 1e-9, abs(across(q) - across(p)) > 0.5 else { continue }
                // the legs on either side: from the layer before to the run, on to the next
                let before = along(full[i - 1]), after = along(full[i + 2])
                guard (before < m && m < after) || (before > m && m > after) else { continue }
                var lo = min(before, after) + LayoutPlan.trackMargin, hi = max(before, after) - LayoutPlan.trackMargin
                for (u, v) in walls {
                    if u > m { hi = min(hi, u - LayoutPlan.trackMargin) }
                    if v < m { lo = max(lo, v + LayoutPlan.trackMargin) }
                }
                guard lo <= m && m <= hi else { continue }
                // the first run out of the source's point and the last into the target's
                // belong to those points' fans; any other to itself
                let fan =
                    i == 1 && across(p) == across(s.point) ? TrackFan(node: a, at: across(s.point), kind: 0, toward: m > before)
                    : i == full.count - 3 && across(q) == across(t.point) ? TrackFan(node: b, at: across(t.point), kind: 1, toward: m > before)
                    : TrackFan(node: k, at: Double(i), kind: 2, toward: m > before)
                runs.append(TrackRun(edge: k, point: i - 1, line: m, from: across(p), to: across(q), lo: lo, hi: hi, fan: fan))
            }
        }
        guard runs.count > 1 else { return }
        runs.sort { ($0.line, $0.edge, $0.point) < ($1.line, $1.edge, $1.point) }
        var moved: [Int: [(point: Int, line: Double)]] = [:]
        var start = 0
        while start < runs.count {
            // one gap: the runs whose lines lie within the room all of them have
            var end = start + 1
            var lo = runs[start].lo, hi = runs[start].hi
            while end < runs.count && runs[end].line <= hi && runs[end].lo <= runs[start].line {
                lo = max(lo, runs[end].lo)
                hi = min(hi, runs[end].hi)
                end += 1
            }
            for (run, line) in LayoutPlan.tracks(for: runs[start..<end]) where line != run.line {
                moved[run.edge, default: []].append((run.point, line))
            }
            start = end
        }
        for (k, e) in edges.enumerated() {
            guard let changes = moved[k], var route = routes[e.id] else { continue }
            for (i, line) in changes {
                // `line` is along the flow: back to a coordinate (the flow is ±x or ±y)
                if f.x != 0 {
                    route[i].x = line * f.x
                    route[i + 1].x = line * f.x
                } else {
                    route[i].y = line * f.y
                    route[i + 1].y = line * f.y
                }
            }
            routes[e.id] = route
        }
    }

    /// Tracks are this far apart at most; closer when the gap has no room for them, but
    /// no closer than `trackGap`. A track keeps `trackMargin` from the layers and from a
    /// group's border.
    static var trackSpacing: Double { 10 }
    static var trackGap: Double { 4 }
    static var trackMargin: Double { 8 }

    /// The line each run of one gap goes on: the runs of one fan share a track, overlapping
    /// ones take different tracks, spread around the gap's line within the room all have.
    static func tracks(for runs: ArraySlice<TrackRun>) -> [(TrackRun, Double)] {
        // the fans, each with the stretch it covers
        var fans: [TrackFan: (lo: Double, hi: Double, forward: Bool, from: Double, first: Int)] = [:]
        for (n, r) in runs.enumerated() {
            let lo = min(r.from, r.to), hi = max(r.from, r.to)
            if let g = fans[r.fan] {
                fans[r.fan] = (min(g.lo, lo), max(g.hi, hi), g.forward, g.from, g.first)
            } else {
                fans[r.fan] = (lo, hi, r.to > r.from, r.from, n)
            }
        }
        guard fans.count > 1 else { return runs.map { ($0, $0.line) } }
        // nearer the layer left first: of two going one way, the one starting further on
        let order = fans.sorted { x, y in
            let a = x.value, b = y.value
            if a.forward != b.forward { return a.forward }
            let ka = a.forward ? -a.from : a.from, kb = b.forward ? -b.from : b.from
            return (ka, a.first) < (kb, b.first)
        }
        var track: [TrackFan: Int] = [:]
        var placed: [(lo: Double, hi: Double, track: Int)] = []
        for (fan, g) in order {
            var t = 0
            for p in placed where p.lo < g.hi + trackGap && g.lo < p.hi + trackGap { t = max(t, p.track + 1) }
            track[fan] = t
            placed.append((g.lo, g.hi, t))
        }
        let count = (track.values.max() ?? 0) + 1
        guard count > 1 else { return runs.map { ($0, $0.line) } }
        // around the middle of the lines, within the room all have
        let line = runs.map(\.line).reduce(0, +) / Double(runs.count)
        let lo = runs.map(\.lo).max()!, hi = runs.map(\.hi).min()!
        let half = Double(count - 1) / 2
        let spacing = min(trackSpacing, (hi - line) / half, (line - lo) / half)
        guard spacing >= trackGap else { return runs.map { ($0, $0.line) } }
        // which way the flow goes through this gap: track 0 nearest the layer the runs leave
        let down = runs.first!.fan.toward
        return runs.map { r in
            let offset = (Double(track[r.fan]!) - Double(count - 1) / 2) * spacing
            return (r, line + (down ? offset : -offset))
        }
    }
}

/// A run across the flow of a stepped route: `route[point]` to `route[point + 1]` of edge
/// `edge`, on `line` (along the flow) from `from` to `to` (across it); it may move from
/// `lo` to `hi` along the flow without coming near a layer or a group's border.
struct TrackRun {
    var edge: Int
    var point: Int
    var line: Double
    var from: Double
    var to: Double
    var lo: Double
    var hi: Double
    var fan: TrackFan
}

/// The runs of one fan share a track: those of the edges out of one point of one node
/// (`kind` 0), or into one (`kind` 1), going the same way along the flow; a run of `kind` 2
/// is a fan of its own (`node` its edge, `at` its place in the route).
struct TrackFan: Hashable {
    var node: Int
    var at: Double
    var kind: Int
    var toward: Bool
}
