import FlowCore

/// The settings of an `OrthogonalRouter`.
public struct RoutingOptions: Hashable, Sendable {
    /// The distance routes keep from nodes (where there is room; closer in narrow gaps).
    public var margin: Double
    /// The distance between parallel segments that share a corridor, where there is room.
    public var spacing: Double

    public init(margin: Double = 10, spacing: Double = 8) {
        self.margin = max(0, margin.isFinite ? margin : 0)
        self.spacing = max(0, spacing.isFinite ? spacing : 0)
    }

    /// How far a segment may be moved from its ideal line to be told apart from others.
    var reach: Double { max(5 * spacing, 3 * margin, 1) }
}

/// Routes orthogonal edges around the nodes of a store: install one in
/// `FlowStore.edgeRouter` (docs/routing.md).
///
/// Each edge gets an *ideal route* first: the route with the fewest bends, then the
/// shortest, from its source side to its target side that keeps `margin` from every node
/// but its own ends (and groups around them), found in a window around its ends that grows
/// until a route is found (with half the margin, then none, in gaps too narrow for it).
/// Then segments that lie on one line and overlap are spread apart across their corridor,
/// in an order that keeps the edges from crossing where they part (*nudging*); edges that
/// share the side of a node attach at distinct points of it.
///
/// The router keeps the ideal routes, its groups of segments and a copy of the node frames
/// between calls. After a change it routes again only the edges the change touches: the
/// changed edges (and those of changed nodes), the edges whose route ran within the margin
/// of a node where it was (the route may do better now) or runs through the margin of a
/// node where it is now, and the edges whose stored route now crosses a node; then it
/// spreads again the groups within `reach` of what changed. Spreading is incremental
/// exactly (the same as spreading every group afresh); routes away from a change are kept
/// even where routing from scratch would now find a better one (`FlowStore.routeEdges()`
/// routes everything afresh). See docs/routing.md.
public final class OrthogonalRouter: EdgeRouter {
    public let options: RoutingOptions

    var states: [String: EdgeState] = [:]
    /// Whether `states` holds every orthogonal edge of the store.
    var isBuilt = false
    /// The bounds of each ideal route, grown by the margin.
    var routeBoxes = RectIndex()
    /// The edges without a route: tried again after every change of the nodes.
    var unrouted = Set<String>()
    var lines = LineIndex()
    /// The node frames, as the store last reported them.
    var obstacles = ObstacleGrid()
    let scratch = SearchScratch()

    public init(options: RoutingOptions = RoutingOptions()) {
        self.options = options
    }

    public func reset() {
        states = [:]
        isBuilt = false
        routeBoxes.removeAll()
        unrouted = []
        lines = LineIndex()
        obstacles = ObstacleGrid()
    }

    public func route(_ changes: RoutingChanges, in scene: any RoutingScene) -> [(edgeID: String, points: [Point])] {
        var dirtyLines = Set<LineKey>()
        var dirtySegments: [(rect: Rect, vertical: Bool)] = []
        var frameRects: [Rect] = []
        for f in changes.frames {
            if let o = f.old { frameRects.append(o) }
            if let n = f.new { frameRects.append(n) }
        }
        let fresh = !isBuilt || changes.all
        // Past the current `WorkLimit` the router stops routing and answers nothing; the
        // store then forgets what it knew (`reset`) and refuses the operation.
        var probe = WorkLimitProbe(stride: 16)
        if fresh {
            reset()
            scene.forEachNodeFrame { obstacles.insert($0) }
            for id in scene.orthogonalEdgeIDs {
                if probe.shouldStop() { return [] }
                guard let edge = scene.routingEdge(id) else { continue }
                let st = EdgeState(id: id, edge: edge)
                let (points, margin) = computeIdeal(edge, scene)
                set(st, points, margin)
            }
            isBuilt = true
            lines.recomputeAll(self, scene)
        }
        if !fresh {
            for f in changes.frames {
                if let o = f.old { obstacles.remove(o) }
                if let n = f.new { obstacles.insert(n) }
            }
        }
        let (reroute, stale) = touched(by: changes, scene)
        var changedIdeals: [String] = []
        if !fresh {
            guard let changed = rerouteChanged(reroute, scene, &probe, &dirtyLines, &dirtySegments) else { return [] }
            changedIdeals = changed
        }
        if changes.isReplay {
            if !fresh { _ = lines.recompute(dirtyLines, frames: frameRects, segments: dirtySegments, self, scene) }
            return []
        }
        // The edges to answer for.
        var out = Set<String>()
        if changes.all {
            out = Set(states.keys)
        } else if fresh {
            // Built just now: answer for what the changes reach, as if it had been built before.
            for id in reroute {
                guard let st = states[id] else { continue }
                out.insert(id)
                markDirty(st, &dirtyLines, &dirtySegments)
            }
            let members = lines.groupMembers(
                dirtyLines, frames: frameRects, segments: dirtySegments, reach: options.reach)
            for st in members { out.insert(st.id) }
        } else {
            for id in changedIdeals { out.insert(id) }
            for id in stale where states[id] != nil { out.insert(id) }
            let (moved, stayed) = lines.recompute(
                dirtyLines, frames: frameRects, segments: dirtySegments, self, scene)
            for st in moved { out.insert(st.id) }
            // A nudged route whose segments stayed is checked against the nodes again where
            // a node changed near it.
            let reach = options.reach
            for st in stayed where !out.contains(st.id) {
                if frameRects.contains(where: { st.touches($0.insetBy(dx: -reach, dy: -reach)) }) { out.insert(st.id) }
            }
        }
        return out.sorted().compactMap { id in
            guard let st = states[id] else { return nil }
            return (id, finalPoints(st, scene))
        }
    }

    /// Routes again the edges `reroute` names (after a change, the router built): an edge
    /// gone is forgotten, an unchanged ideal route keeps its segments, the others get new
    /// ones and mark their lines dirty. Returns the edges whose ideal routes changed, or nil
    /// when the current `WorkLimit` stopped it.
    private func rerouteChanged(
        _ reroute: [String], _ scene: any RoutingScene, _ probe: inout WorkLimitProbe,
        _ dirtyLines: inout Set<LineKey>, _ dirtySegments: inout [(rect: Rect, vertical: Bool)]
    ) -> [String]? {
        var changedIdeals: [String] = []
        for id in reroute {
            if probe.shouldStop() { return nil }
            let old = states[id]
            guard let edge = scene.routingEdge(id) else {
                if let old {
                    markDirty(old, &dirtyLines, &dirtySegments)
                    lines.remove(old)
                    states[id] = nil
                    routeBoxes.set(id, nil)
                    unrouted.remove(id)
                }
                continue
            }
            let (points, margin) = computeIdeal(edge, scene)
            // An unchanged route keeps its segments (and their nudged places).
            if let old, old.ideal == points, old.margin == margin,
                old.segments.map(\.limit) == EdgeState.segments(of: points, edge).map(\.limit)
            {
                old.edge = edge
                continue
            }
            if let old {
                markDirty(old, &dirtyLines, &dirtySegments)
                lines.remove(old)
            }
            let st = old ?? EdgeState(id: id, edge: edge)
            st.edge = edge
            set(st, points, margin)
            markDirty(st, &dirtyLines, &dirtySegments)
            changedIdeals.append(id)
        }
        return changedIdeals
    }

    /// The edges to route again after `changes`, each once, in order of id: the changed
    /// ones; the ones whose ideal route runs within the margin of a node's frame before
    /// the change (the route may do better now) or through the margin around it after the
    /// change (the route is in the way), or whose stored route crosses a node after the
    /// change; and, when a node moved, changed size or went, the ones without a route (a
    /// node added is one more obstacle and opens no way for them: they are not searched
    /// again, which would cost each of them a search of the whole scene on every add).
    private func touched(by changes: RoutingChanges, _ scene: any RoutingScene) -> (ids: [String], stale: Set<String>) {
        var ids = Set(changes.edges)
        var stale = Set<String>()
        guard !changes.frames.isEmpty else { return (ids.sorted(), stale) }
        if changes.frames.contains(where: { $0.old != nil }) { ids.formUnion(unrouted) }
        var hits: [String] = []
        let m = options.margin
        func visit(_ f: Rect, open: Bool) {
            let grown = f.insetBy(dx: -m, dy: -m)
            hits.removeAll(keepingCapacity: true)
            routeBoxes.query(grown, into: &hits)
            for id in hits where !ids.contains(id) {
                guard let st = states[id] else { continue }
                if open ? st.crosses(grown) : st.touches(grown) { ids.insert(id) }
            }
        }
        for f in changes.frames {
            if let o = f.old { visit(o, open: false) }
            if let n = f.new {
                visit(n, open: true)
                // The route the store holds may differ from the one kept here (undo and redo
                // restore routes without asking): one that now crosses the node goes too.
                scene.forEachOrthogonalEdge(near: n) { id, points in
                    guard points.count >= 2 else { return }
                    for i in 0..<(points.count - 1) where Self.segment(points[i], points[i + 1], crosses: n) {
                        ids.insert(id)
                        stale.insert(id)
                        return
                    }
                }
            }
        }
        return (ids.sorted(), stale)
    }

    /// Gives `st` its ideal route and indexes it.
    private func set(_ st: EdgeState, _ points: [Point], _ margin: Double) {
        st.setIdeal(points, margin: margin)
        states[st.id] = st
        lines.add(st)
        let m = options.margin
        routeBoxes.set(st.id, st.box?.insetBy(dx: -m, dy: -m))
        if points.isEmpty { unrouted.insert(st.id) } else { unrouted.remove(st.id) }
    }

    /// Notes the lines and the extent of an edge's ideal route as changed.
    private func markDirty(
        _ st: EdgeState, _ dirtyLines: inout Set<LineKey>, _ dirtySegments: inout [(rect: Rect, vertical: Bool)]
    ) {
        for s in st.segments {
            dirtyLines.insert(s.key)
            dirtySegments.append((s.rect, s.key.vertical))
        }
    }

    // MARK: Ideal routes

    /// The ideal route of `e` and the margin it keeps: the first route found, trying the
    /// margin, half of it and none in a window around the ends, then in windows four times
    /// as far out, up to one around every node; empty when there is none.
    func computeIdeal(_ e: RoutingEdge, _ scene: any RoutingScene) -> ([Point], Double) {
        let m = options.margin
        let tiers = m > 0 ? [m, m / 2, 0] : [0]
        let ends = e.source.frame.union(e.target.frame)
            .union(Rect(corner: e.source.point, corner: e.target.point))
        var pad = 2 * m + 30
        var window = ends.insetBy(dx: -pad, dy: -pad)
        let all = (obstacles.bounds() ?? window).union(window).insetBy(dx: -(2 * m + 30), dy: -(2 * m + 30))
        while true {
            for tier in tiers {
                let search = RouteSearch(edge: e, margin: tier, window: window)
                if let points = search.run(in: obstacles, scratch: scratch) { return (points, tier) }
            }
            if window.minX <= all.minX && window.minY <= all.minY && window.maxX >= all.maxX && window.maxY >= all.maxY {
                return ([], 0)
            }
            pad *= 4
            window = ends.insetBy(dx: -pad, dy: -pad)
        }
    }

    // MARK: Final routes

    /// The route of `st` with its nudged segments; the ideal route where the nudged one
    /// would cross a node. Empty for an edge without a route.
    func finalPoints(_ st: EdgeState, _ scene: any RoutingScene) -> [Point] {
        let ideal = st.ideal
        guard ideal.count >= 2 else { return [] }
        var pts = ideal
        var moved = false
        for s in st.segments where s.coordinate != s.key.c {
            moved = true
            let a = s.index, b = s.index + 1
            if s.key.vertical {
                pts[a].x = s.coordinate
                pts[b].x = s.coordinate
            } else {
                pts[a].y = s.coordinate
                pts[b].y = s.coordinate
            }
        }
        guard moved else { return pts }
        return crossesNode(pts, st.edge, scene) ? ideal : pts
    }

    /// Whether a segment of `pts` crosses the interior of a node other than the groups
    /// around the ends and nodes whose interior holds an end.
    func crossesNode(_ pts: [Point], _ e: RoutingEdge, _ scene: any RoutingScene) -> Bool {
        let first = pts[0], last = pts[pts.count - 1]
        for i in 0..<(pts.count - 1) {
            let a = pts[i], b = pts[i + 1]
            var hit = false
            obstacles.forEach(intersecting: Rect(corner: a, corner: b)) { f in
                guard !hit, !RouteSearch.isAround(f, e), !RouteSearch.interior(f, contains: first),
                    !RouteSearch.interior(f, contains: last)
                else { return }
                if Self.segment(a, b, crosses: f) { hit = true }
            }
            if hit { return true }
        }
        return false
    }

    /// Whether the horizontal or vertical segment a–b meets the open interior of `f`.
    static func segment(_ a: Point, _ b: Point, crosses f: Rect) -> Bool {
        if a.y == b.y {
            return a.y > f.minY && a.y < f.maxY && max(min(a.x, b.x), f.minX) < min(max(a.x, b.x), f.maxX)
        }
        return a.x > f.minX && a.x < f.maxX && max(min(a.y, b.y), f.minY) < min(max(a.y, b.y), f.maxY)
    }
}

/// What the router keeps about one edge.
final class EdgeState {
    let id: String
    var edge: RoutingEdge
    /// The ideal route, from attach point to attach point (empty: no route found).
    var ideal: [Point] = []
    /// The margin the ideal route keeps.
    var margin = 0.0
    /// The segments of the ideal route (zero-length ones left out).
    var segments: [Segment] = []

    /// Whether a segment of the ideal route meets the open interior of `r`.
    func crosses(_ r: Rect) -> Bool {
        for s in segments where OrthogonalRouter.segment(s.rect.origin, Point(s.rect.maxX, s.rect.maxY), crosses: r) {
            return true
        }
        return false
    }

    /// Whether a segment of the ideal route meets `r` (closed).
    func touches(_ r: Rect) -> Bool {
        for s in segments where s.rect.intersects(r) { return true }
        return false
    }

    /// The bounds of the ideal route; nil without one.
    var box: Rect? {
        guard let first = ideal.first else { return nil }
        return ideal.dropFirst().reduce(Rect(origin: first, size: .zero)) { $0.union(Rect(origin: $1, size: .zero)) }
    }

    init(id: String, edge: RoutingEdge) {
        self.id = id
        self.edge = edge
    }

    func setIdeal(_ points: [Point], margin: Double) {
        ideal = points
        self.margin = margin
        segments = Self.segments(of: points, edge)
    }

    /// The segments of a route of `edge` (zero-length ones left out).
    static func segments(of points: [Point], _ edge: RoutingEdge) -> [Segment] {
        var segments: [Segment] = []
        guard points.count >= 2 else { return segments }
        let last = points.count - 2
        for i in 0...last {
            let a = points[i], b = points[i + 1]
            if a == b { continue }
            let vertical = a.x == b.x
            let key = LineKey(vertical: vertical, c: vertical ? a.x : a.y)
            let lo = vertical ? min(a.y, b.y) : min(a.x, b.x)
            let hi = vertical ? max(a.y, b.y) : max(a.x, b.x)
            var s = Segment(key: key, index: i, lo: lo, hi: hi, coordinate: key.c)
            // A terminal segment that leaves its side straight out slides along the side.
            if i == 0 { s.attach(to: edge.source) }
            if i == last { s.attach(to: edge.target) }
            segments.append(s)
        }
        return segments
    }
}

/// A line a segment lies on: a vertical line `x = c` or a horizontal line `y = c`.
struct LineKey: Hashable {
    var vertical: Bool
    var c: Double
}

/// A segment of an ideal route.
struct Segment {
    var key: LineKey
    /// Index of its first point in the route.
    var index: Int
    /// Its extent along the line.
    var lo: Double, hi: Double
    /// The coordinate across the line after nudging.
    var coordinate: Double
    /// Where it may be moved across its line by its ends (a terminal segment stays on its
    /// node's side); nil: anywhere.
    var limit: ClosedRange<Double>? = nil

    var rect: Rect {
        key.vertical ? Rect(key.c, lo, 0, hi - lo) : Rect(lo, key.c, hi - lo, 0)
    }

    /// Keeps a terminal segment that runs straight out of `end`'s side on that side, a
    /// little in from its corners; one that runs along the side cannot move.
    mutating func attach(to end: RoutingEnd) {
        let f = end.frame
        let acrossSide = (end.side == .top || end.side == .bottom) == key.vertical
        var range = key.c...key.c
        if acrossSide {
            let (a, b) = key.vertical ? (f.minX, f.maxX) : (f.minY, f.maxY)
            let inset = min(8, (b - a) / 2)
            range = min(a + inset, key.c)...max(b - inset, key.c)
        }
        if let l = limit {
            let lo = max(l.lowerBound, range.lowerBound), hi = min(l.upperBound, range.upperBound)
            range = lo <= hi ? lo...hi : key.c...key.c
        }
        limit = range
    }
}
