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
}

/// The segments of all ideal routes by the line they lie on.
struct LineIndex {
    var members: [LineKey: [SegmentRef]] = [:]
    /// The coordinates of the vertical and of the horizontal lines with segments, sorted.
    var verticals: [Double] = []
    var horizontals: [Double] = []

    mutating func add(_ st: EdgeState) {
        for (p, s) in st.segments.enumerated() {
            if members[s.key] == nil {
                members[s.key] = []
                if s.key.vertical { Self.insert(s.key.c, into: &verticals) } else { Self.insert(s.key.c, into: &horizontals) }
            }
            members[s.key]!.append(SegmentRef(state: st, position: p))
        }
    }

    mutating func remove(_ st: EdgeState) {
        for s in st.segments {
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
        guard let refs = members[key] else { return [] }
        let sorted = refs.sorted { a, b in
            let x = a.segment, y = b.segment
            if x.lo != y.lo { return x.lo < y.lo }
            if x.hi != y.hi { return x.hi < y.hi }
            if a.state.id != b.state.id { return a.state.id < b.state.id }
            return x.index < y.index
        }
        var out: [[SegmentRef]] = []
        var end = -Double.infinity
        for r in sorted {
            let s = r.segment
            if out.isEmpty || s.lo >= end {
                out.append([r])
                end = s.hi
            } else {
                out[out.count - 1].append(r)
                end = max(end, s.hi)
            }
        }
        return out
    }

    /// Lines, and groups of lines, that a change reaches: every group of the `dirty` lines,
    /// and the groups within `reach` of a dirty rectangle.
    func reached(_ dirty: Set<LineKey>, near rects: [Rect], reach: Double) -> [(LineKey, [[SegmentRef]])] {
        var out: [(LineKey, [[SegmentRef]])] = []
        for key in dirty where members[key] != nil { out.append((key, groups(key))) }
        var partial: [LineKey: [Rect]] = [:]
        for r in rects {
            for vertical in [true, false] {
                let across = vertical ? (r.minX - reach)...(r.maxX + reach) : (r.minY - reach)...(r.maxY + reach)
                for c in lines(vertical: vertical, in: across) {
                    let key = LineKey(vertical: vertical, c: c)
                    if !dirty.contains(key) { partial[key, default: []].append(r) }
                }
            }
        }
        for (key, rs) in partial {
            let hit = groups(key).filter { g in
                let lo = g.map(\.segment.lo).min()! - reach, hi = g.map(\.segment.hi).max()! + reach
                return rs.contains { r in
                    let (a, b) = key.vertical ? (r.minY, r.maxY) : (r.minX, r.maxX)
                    return a <= hi && b >= lo
                }
            }
            if !hit.isEmpty { out.append((key, hit)) }
        }
        return out
    }

    /// The edges in the groups a change reaches (see `reached`).
    func groupMembers(_ dirty: Set<LineKey>, near rects: [Rect], reach: Double) -> [EdgeState] {
        reached(dirty, near: rects, reach: reach).flatMap { $0.1.flatMap { $0.map(\.state) } }
    }

    /// Spreads the groups a change reaches again; returns their edges.
    func recompute(_ dirty: Set<LineKey>, near rects: [Rect], _ router: OrthogonalRouter, _ scene: any RoutingScene) -> [EdgeState] {
        var touched: [EdgeState] = []
        for (key, groups) in reached(dirty, near: rects, reach: router.options.reach) {
            for g in groups {
                spread(g, on: key, router, scene)
                touched.append(contentsOf: g.map(\.state))
            }
        }
        return touched
    }

    /// Spreads every group of every line.
    func recomputeAll(_ router: OrthogonalRouter, _ scene: any RoutingScene) {
        for key in members.keys {
            for g in groups(key) { spread(g, on: key, router, scene) }
        }
    }

    // MARK: Spreading a group

    /// Sets the nudged coordinate of every member of `group`.
    func spread(_ group: [SegmentRef], on key: LineKey, _ router: OrthogonalRouter, _ scene: any RoutingScene) {
        let c = key.c
        if group.count == 1 {
            group[0].state.segments[group[0].position].coordinate = c
            return
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
        scene.forEachNodeFrame(intersecting: area) { f in
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
            let near = members[LineKey(vertical: key.vertical, c: c2)]!.contains { r in
                let s = r.segment
                return s.lo < to && s.hi > from
            }
            guard near else { continue }
            if c2 < c { lo = max(lo, (c + c2) / 2) } else { hi = min(hi, (c + c2) / 2) }
        }
        lo = min(lo, c)
        hi = max(hi, c)
        let ordered = order(group, key)
        let n = Double(group.count)
        let width = (n - 1) * o.spacing
        var step = o.spacing, start: Double
        if hi - lo >= width {
            start = min(max(c - width / 2, lo), hi - width)
        } else {
            start = lo
            step = (hi - lo) / (n - 1)
        }
        for (k, r) in ordered.enumerated() {
            r.state.segments[r.position].coordinate = start + Double(k) * step
        }
    }

    /// The members of a group from the smallest coordinate across the line to the largest.
    func order(_ group: [SegmentRef], _ key: LineKey) -> [SegmentRef] {
        var out: [SegmentRef] = []
        out.reserveCapacity(group.count)
        for r in group {
            var i = out.count
            while i > 0 && Self.before(r, out[i - 1], key) { i -= 1 }
            out.insert(r, at: i)
        }
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
