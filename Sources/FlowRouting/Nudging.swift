import FlowCore

// Nudging: segments of ideal routes that lie on one line and overlap are a group; the
// members of a group are spread across the line, `spacing` apart where the corridor has
// room (nodes and the segments of neighbouring lines bound it, no further than `reach`),
// in the order that lets each edge part from the others without crossing them.

/// A segment of an edge's ideal route, by the edge and its place in `segments`.
struct SegmentRef {
    let state: EdgeState
    let position: Int

    var segment: Segment { state.segments[position] }

    /// Sets the nudged coordinate; returns whether it changed.
    func set(_ coordinate: Double) -> Bool {
        if state.segments[position].coordinate == coordinate { return false }
        state.segments[position].coordinate = coordinate
        return true
    }
}

/// The segments of all ideal routes by the line they lie on.
final class LineIndex {
    /// Each line's segments in the order of `precedes` (by extent), kept as they come and go.
    var members: [LineKey: [SegmentRef]] = [:]
    /// The groups of lines, computed when asked for and dropped when the line changes, with
    /// each group's extent along the line (the groups are disjoint and in order).
    private var groupCache: [LineKey: (groups: [[SegmentRef]], extents: [(lo: Double, hi: Double)])] = [:]
    /// The coordinates of the vertical and of the horizontal lines with segments, sorted.
    var verticals: [Double] = []
    var horizontals: [Double] = []
    /// Groups spread so far, over the index's life (tests count the work of a change).
    private(set) var spreads = 0

    func add(_ st: EdgeState) {
        for (p, s) in st.segments.enumerated() {
            groupCache[s.key] = nil
            if members[s.key] == nil {
                members[s.key] = []
                if s.key.vertical { Self.insert(s.key.c, into: &verticals) } else { Self.insert(s.key.c, into: &horizontals) }
            }
            // in order: a line's groups are made without sorting it (before issue #43 every
            // change sorted the line afresh, and a line through every row of a grid grew with it)
            let r = SegmentRef(state: st, position: p)
            var lo = 0, hi = members[s.key]!.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if Self.precedes(members[s.key]![mid], r) { lo = mid + 1 } else { hi = mid }
            }
            members[s.key]!.insert(r, at: lo)
        }
    }

    /// The order of a line's segments: by start, end, edge id, place in the route.
    static func precedes(_ a: SegmentRef, _ b: SegmentRef) -> Bool {
        let x = a.segment, y = b.segment
        if x.lo != y.lo { return x.lo < y.lo }
        if x.hi != y.hi { return x.hi < y.hi }
        if a.state.id != b.state.id { return a.state.id < b.state.id }
        return x.index < y.index
    }

    func remove(_ st: EdgeState) {
        for s in st.segments {
            groupCache[s.key] = nil
            guard var list = members[s.key] else { continue }
            list.removeAll { $0.state === st }
            if list.isEmpty {
                members[s.key] = nil
                if s.key.vertical { Self.delete(s.key.c, from: &verticals) } else { Self.delete(s.key.c, from: &horizontals) }
            } else {
                members[s.key] = list
            }
        }
    }

    private static func insert(_ c: Double, into v: inout [Double]) {
        let i = lowerBound(c, v)
        if i == v.count || v[i] != c { v.insert(c, at: i) }
    }

    private static func delete(_ c: Double, from v: inout [Double]) {
        let i = lowerBound(c, v)
        if i < v.count && v[i] == c { v.remove(at: i) }
    }

    static func lowerBound(_ c: Double, _ v: [Double]) -> Int {
        var lo = 0, hi = v.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if v[mid] < c { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The lines of one direction whose coordinate lies in `range`.
    func lines(vertical: Bool, in range: ClosedRange<Double>) -> ArraySlice<Double> {
        let v = vertical ? verticals : horizontals
        let lo = Self.lowerBound(range.lowerBound, v)
        var hi = lo
        while hi < v.count && v[hi] <= range.upperBound { hi += 1 }
        return v[lo..<hi]
    }

    /// The groups of a line: its segments by extent, overlapping ones together.
    func groups(_ key: LineKey) -> [[SegmentRef]] {
        grouped(key).groups
    }

    /// The groups of a line and their extents.
    private func grouped(_ key: LineKey) -> (groups: [[SegmentRef]], extents: [(lo: Double, hi: Double)]) {
        if let g = groupCache[key] { return g }
        let g = makeGroups(key)
        groupCache[key] = g
        return g
    }

    private func makeGroups(_ key: LineKey) -> (groups: [[SegmentRef]], extents: [(lo: Double, hi: Double)]) {
        guard let refs = members[key] else { return ([], []) }
        var out: [[SegmentRef]] = []
        var extents: [(lo: Double, hi: Double)] = []
        var end = -Double.infinity
        for r in refs {
            let s = r.segment
            if out.isEmpty || s.lo >= end {
                out.append([r])
                extents.append((s.lo, s.hi))
                end = s.hi
            } else {
                out[out.count - 1].append(r)
                end = max(end, s.hi)
                extents[extents.count - 1].hi = end
            }
        }
        return (out, extents)
    }

    /// The groups of line `key` whose extent, grown by `reach`, meets `a...b` along the
    /// line (found by halving: the extents are disjoint and in order).
    private func groups(_ key: LineKey, meeting a: Double, _ b: Double, reach: Double) -> Range<Int> {
        let extents = grouped(key).extents
        var lo = 0, hi = extents.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if extents[mid].hi + reach < a { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < extents.count && extents[end].lo - reach <= b { end += 1 }
        return lo..<end
    }

    /// Whether a segment of line `key` overlaps the open extent `from..<to` along it: a
    /// group's does (its segments cover its extent without gaps), found by halving.
    private func hasSegment(on key: LineKey, between from: Double, _ to: Double) -> Bool {
        let extents = grouped(key).extents
        var lo = 0, hi = extents.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if extents[mid].hi <= from { lo = mid + 1 } else { hi = mid }
        }
        return lo < extents.count && extents[lo].lo < to
    }

    /// Groups of lines that a change reaches: the groups within `reach` of a changed node
    /// frame, or of a changed segment lying the same way (segments across a line do not
    /// bound its groups). On a `dirty` line (one whose segments changed) these are the
    /// groups the changed segments were or are in, and their neighbours within `reach`:
    /// the other groups of a long line keep their members, their routes and their
    /// surroundings, so spreading them again would give the same places (and cost time in
    /// the length of the line on every change).
    func reached(
        _ dirty: Set<LineKey>, frames: [Rect], segments: [(rect: Rect, vertical: Bool)], reach: Double
    ) -> [(LineKey, [[SegmentRef]])] {
        var out: [(LineKey, [[SegmentRef]])] = []
        var partial: [LineKey: [Rect]] = [:]
        func note(_ r: Rect, vertical: Bool) {
            let across = vertical ? (r.minX - reach)...(r.maxX + reach) : (r.minY - reach)...(r.maxY + reach)
            for c in lines(vertical: vertical, in: across) {
                partial[LineKey(vertical: vertical, c: c), default: []].append(r)
            }
        }
        for r in frames {
            note(r, vertical: true)
            note(r, vertical: false)
        }
        for s in segments { note(s.rect, vertical: s.vertical) }
        for (key, rs) in partial {
            var hit = Set<Int>()
            for r in rs {
                let (a, b) = key.vertical ? (r.minY, r.maxY) : (r.minX, r.maxX)
                hit.formUnion(groups(key, meeting: a, b, reach: reach))
            }
            if !hit.isEmpty {
                let all = grouped(key).groups
                out.append((key, hit.sorted().map { all[$0] }))
            }
        }
        return out
    }

    /// The edges in the groups a change reaches (see `reached`).
    func groupMembers(
        _ dirty: Set<LineKey>, frames: [Rect], segments: [(rect: Rect, vertical: Bool)], reach: Double
    ) -> [EdgeState] {
        reached(dirty, frames: frames, segments: segments, reach: reach).flatMap { $0.1.flatMap { $0.map(\.state) } }
    }

    /// Spreads the groups a change reaches again; returns the edges with a segment that
    /// moved, and the edges of the groups whose segments stayed.
    func recompute(
        _ dirty: Set<LineKey>, frames: [Rect], segments: [(rect: Rect, vertical: Bool)], _ router: OrthogonalRouter,
        _ scene: any RoutingScene
    ) -> (moved: [EdgeState], stayed: [EdgeState]) {
        var moved: [EdgeState] = [], stayed: [EdgeState] = []
        for (key, groups) in reached(dirty, frames: frames, segments: segments, reach: router.options.reach) {
            for g in groups {
                let changed = spread(g, on: key, router, scene)
                for r in g {
                    if changed.contains(where: { $0 === r.state }) { moved.append(r.state) } else { stayed.append(r.state) }
                }
            }
        }
        return (moved, stayed)
    }

    /// Spreads every group of every line.
    func recomputeAll(_ router: OrthogonalRouter, _ scene: any RoutingScene) {
        for key in members.keys {
            for g in groups(key) { _ = spread(g, on: key, router, scene) }
        }
    }

    // MARK: Spreading a group

    /// Sets the nudged coordinate of every member of `group`; returns the edges of the
    /// members that moved.
    func spread(
        _ group: [SegmentRef], on key: LineKey, _ router: OrthogonalRouter, _ scene: any RoutingScene
    ) -> [EdgeState] {
        let c = key.c
        spreads += 1
        if group.count == 1 {
            return group[0].set(c) ? [group[0].state] : []
        }
        let o = router.options
        var lo = c - o.reach, hi = c + o.reach
        let from = group.map(\.segment.lo).min()!, to = group.map(\.segment.hi).max()!
        for r in group {
            if let l = r.segment.limit {
                lo = max(lo, l.lowerBound)
                hi = min(hi, l.upperBound)
            }
        }
        // Nodes beside the group bound it, a clearance away.
        let clearance = o.margin / 2
        let area = key.vertical ? Rect(c - o.reach, from, 2 * o.reach, to - from) : Rect(from, c - o.reach, to - from, 2 * o.reach)
        router.obstacles.forEach(intersecting: area) { f in
            let (a0, a1, p0, p1) = key.vertical ? (f.minY, f.maxY, f.minX, f.maxX) : (f.minX, f.maxX, f.minY, f.maxY)
            guard a0 < to && a1 > from else { return }
            if p1 <= c {
                lo = max(lo, p1 + clearance)
            } else if p0 >= c {
                hi = min(hi, p0 - clearance)
            }
        }
        // Neighbouring lines with segments beside the group get half of the room between.
        for c2 in lines(vertical: key.vertical, in: (c - o.reach)...(c + o.reach)) where c2 != c {
            guard hasSegment(on: LineKey(vertical: key.vertical, c: c2), between: from, to) else { continue }
            if c2 < c { lo = max(lo, (c + c2) / 2) } else { hi = min(hi, (c + c2) / 2) }
        }
        lo = min(lo, c)
        hi = max(hi, c)
        // A corridor too narrow for the segments that overlap at one point, even two units
        // apart, leaves them on the line (one line for the bundle, rather than a smear).
        if Double(Self.depth(group) - 1) * 2 > hi - lo {
            var changed: [EdgeState] = []
            for r in group where r.set(c) { changed.append(r.state) }
            return changed
        }
        // The segments spread to the side with more room: the first track stays on the
        // line (which keeps the margin from a node beside it) and the others follow, one
        // spacing apart, unless the corridor is too narrow for them.
        let up = hi - c >= c - lo
        // Tracks, from the line outwards: in order across the line from the line's side,
        // each member takes the track after the highest one taken by an earlier member
        // that overlaps it, so members that do not overlap can share a track and those that
        // do keep their order.
        let ordered = up ? order(group, key) : order(group, key).reversed()
        var tracks = [Int](repeating: 0, count: ordered.count)
        var count = 1
        for i in ordered.indices {
            let s = ordered[i].segment
            var t = 0
            for j in 0..<i where tracks[j] >= t {
                let u = ordered[j].segment
                if u.lo < s.hi && s.lo < u.hi { t = tracks[j] + 1 }
            }
            tracks[i] = t
            count = max(count, t + 1)
        }
        let width = Double(count - 1) * o.spacing
        var changed: [EdgeState] = []
        for (k, r) in ordered.enumerated() {
            let t = Double(tracks[k])
            let p: Double
            if (up ? hi - c : c - lo) >= width {
                p = up ? c + t * o.spacing : c - t * o.spacing
            } else if hi - lo >= width {
                p = up ? hi - width + t * o.spacing : lo + width - t * o.spacing
            } else {
                let step = (hi - lo) / Double(count - 1)
                p = up ? lo + t * step : hi - t * step
            }
            if r.set(p) { changed.append(r.state) }
        }
        return changed
    }

    /// The most segments of `group` that overlap at one point.
    static func depth(_ group: [SegmentRef]) -> Int {
        var events: [(Double, Int)] = []
        events.reserveCapacity(group.count * 2)
        for r in group {
            events.append((r.segment.lo, 1))
            events.append((r.segment.hi, -1))
        }
        // Ends before starts at the same place: touching segments do not overlap.
        events.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var open = 0, most = 0
        for e in events {
            open += e.1
            most = max(most, open)
        }
        return most
    }

    /// The members of a group from the smallest coordinate across the line to the largest
    /// (a stable merge sort, which needs no more of `before` than to answer).
    func order(_ group: [SegmentRef], _ key: LineKey) -> [SegmentRef] {
        if group.count < 2 { return group }
        let mid = group.count / 2
        let a = order(Array(group[..<mid]), key), b = order(Array(group[mid...]), key)
        var out: [SegmentRef] = []
        out.reserveCapacity(group.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if Self.before(b[j], a[i], key) {
                out.append(b[j])
                j += 1
            } else {
                out.append(a[i])
                i += 1
            }
        }
        out.append(contentsOf: a[i...])
        out.append(contentsOf: b[j...])
        return out
    }

    /// Whether `a` goes before (at a smaller coordinate than) `b`: the one that parts to the
    /// left of the other, walking both routes along the line and then back, goes on that
    /// side; when they never part, the edge ids decide.
    static func before(_ a: SegmentRef, _ b: SegmentRef, _ key: LineKey) -> Bool {
        let axis = key.vertical ? Point(0, 1) : Point(1, 0)
        // Left of travel along +x is -y (smaller); along +y it is +x (larger).
        let leftIsSmaller = !key.vertical
        let wa = PathWalk(a, along: axis), wb = PathWalk(b, along: axis)
        var side = PathWalk.compare(wa, wb, axis)
        if side == nil, let back = PathWalk.compare(wa.reversed, wb.reversed, axis * -1) { side = -back }
        if let side { return (side < 0) == leftIsSmaller }
        // Routes that never part: the edge with the smaller id keeps to the left of its own
        // travel, which every joint turn preserves, so the two never cross.
        let aFirst = a.state.id != b.state.id ? a.state.id < b.state.id : a.segment.index < b.segment.index
        let lead = aFirst ? wa : wb
        let leadAlongAxis = !lead.isReversed
        // `a` is left of the lead's travel when it is the lead.
        let aLeftOfAxis = aFirst == leadAlongAxis
        return aLeftOfAxis == leftIsSmaller
    }
}

/// A route seen from one of its segments, oriented so that the segment runs along a given
/// direction.
struct PathWalk {
    let points: [Point]
    let isReversed: Bool
    /// The index, in the oriented route, of the segment's first point.
    let start: Int

    init(_ r: SegmentRef, along axis: Point) {
        points = r.state.ideal
        let i = r.segment.index
        let d = points[i + 1] - points[i]
        isReversed = d.x * axis.x + d.y * axis.y < 0
        start = isReversed ? points.count - 2 - i : i
    }

    private init(points: [Point], isReversed: Bool, start: Int) {
        self.points = points
        self.isReversed = isReversed
        self.start = start
    }

    /// The same segment walked the other way.
    var reversed: PathWalk {
        PathWalk(points: points, isReversed: !isReversed, start: points.count - 2 - start)
    }

    @inline(__always)
    func point(_ k: Int) -> Point { isReversed ? points[points.count - 1 - k] : points[k] }

    /// -1 when `t` turns left of travel along `d`, +1 when it turns right.
    private static func side(_ t: Point, _ d: Point) -> Int {
        t.x == d.y && t.y == -d.x ? -1 : 1
    }

    private static func heading(_ v: Point) -> Point {
        Point(v.x > 0 ? 1 : v.x < 0 ? -1 : 0, v.y > 0 ? 1 : v.y < 0 ? -1 : 0)
    }

    /// Walks `a` and `b` from their segments along `d` until they part: -1 when `a` parts
    /// to the left of `b` (relative to the travel), +1 to the right, nil when they do not
    /// part (they end together, or one ends where the other goes on).
    static func compare(_ a: PathWalk, _ b: PathWalk, _ direction: Point) -> Int? {
        var ka = a.start, kb = b.start, d = direction
        for _ in 0..<(a.points.count + b.points.count) {
            guard ka + 1 < a.points.count, kb + 1 < b.points.count else { return nil }
            let ea = a.point(ka + 1), eb = b.point(kb + 1)
            let pa = ea.x * d.x + ea.y * d.y, pb = eb.x * d.x + eb.y * d.y
            let aEnds = ka + 2 >= a.points.count, bEnds = kb + 2 >= b.points.count
            let ta = aEnds ? Point.zero : heading(a.point(ka + 2) - ea)
            let tb = bEnds ? Point.zero : heading(b.point(kb + 2) - eb)
            if pa < pb { return aEnds ? nil : side(ta, d) }
            if pb < pa { return bEnds ? nil : -side(tb, d) }
            if aEnds && bEnds { return nil }
            if aEnds { return -side(tb, d) }
            if bEnds { return side(ta, d) }
            if ta != tb { return side(ta, d) }
            ka += 1
            kb += 1
            d = ta
        }
        return nil
    }
}
