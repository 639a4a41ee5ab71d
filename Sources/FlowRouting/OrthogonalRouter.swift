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
/// The router keeps the ideal routes and its groups of segments between calls, and after a
/// change recomputes only what the change can reach: an edge's ideal route depends only on
/// its ends and the nodes within its search window, and the spreading of a group only on
/// the segments on its line, the routes of its edges and the nodes and segments within
/// `reach` of it. So incremental routing gives exactly the routes of routing from scratch.
public final class OrthogonalRouter: EdgeRouter {
    public let options: RoutingOptions

    var states: [String: EdgeState] = [:]
    /// Whether `states` holds every orthogonal edge of the store.
    var isBuilt = false
    /// The dependency region of each ideal route.
    var regions = RectIndex()
    var lines = LineIndex()
    let scratch = SearchScratch()

    public init(options: RoutingOptions = RoutingOptions()) {
        self.options = options
    }

    public func reset() {
        states = [:]
        isBuilt = false
        regions.removeAll()
        lines = LineIndex()
    }

    public func route(_ changes: RoutingChanges, in scene: any RoutingScene) -> [(edgeID: String, points: [Point])] {
        var dirtyLines = Set<LineKey>()
        var dirtyRects: [Rect] = []
        for f in changes.frames {
            if let o = f.old { dirtyRects.append(o) }
            if let n = f.new { dirtyRects.append(n) }
        }
        // Edges whose ideal route may change.
        var affected: [String] = changes.edges
        let fresh = !isBuilt || changes.all
        if !fresh { for r in dirtyRects { regions.query(r, into: &affected) } }
        if fresh {
            reset()
            for id in scene.orthogonalEdgeIDs {
                guard let edge = scene.routingEdge(id) else { continue }
                let st = EdgeState(id: id, edge: edge)
                computeIdeal(st, scene)
                states[id] = st
                lines.add(st)
            }
            isBuilt = true
            lines.recomputeAll(self, scene)
            for r in dirtyRects { regions.query(r, into: &affected) }
        } else {
            var done = Set<String>()
            for id in affected where done.insert(id).inserted {
                let old = states[id]
                if let old {
                    markDirty(old, &dirtyLines, &dirtyRects)
                    lines.remove(old)
                }
                if let edge = scene.routingEdge(id) {
                    let st = old ?? EdgeState(id: id, edge: edge)
                    st.edge = edge
                    computeIdeal(st, scene)
                    states[id] = st
                    lines.add(st)
                    markDirty(st, &dirtyLines, &dirtyRects)
                } else {
                    states[id] = nil
                    regions.set(id, nil)
                }
            }
        }
        if changes.isReplay {
            if !fresh { _ = lines.recompute(dirtyLines, near: dirtyRects, self, scene) }
            return []
        }
        // The edges to answer for.
        var out = Set<String>()
        if changes.all {
            out = Set(states.keys)
        } else if fresh {
            // Built just now: answer for what the changes reach, as if it had been built before.
            for id in affected {
                guard let st = states[id] else { continue }
                out.insert(id)
                markDirty(st, &dirtyLines, &dirtyRects)
            }
            for st in lines.groupMembers(dirtyLines, near: dirtyRects, reach: options.reach) { out.insert(st.id) }
        } else {
            for id in affected where states[id] != nil { out.insert(id) }
            for st in lines.recompute(dirtyLines, near: dirtyRects, self, scene) { out.insert(st.id) }
        }
        return out.sorted().compactMap { id in
            guard let st = states[id] else { return nil }
            return (id, finalPoints(st, scene))
        }
    }

    /// Notes the lines and the extent of an edge's ideal route as changed.
    private func markDirty(_ st: EdgeState, _ dirtyLines: inout Set<LineKey>, _ dirtyRects: inout [Rect]) {
        for s in st.segments {
            dirtyLines.insert(s.key)
            dirtyRects.append(s.rect)
        }
    }

    // MARK: Ideal routes

    /// Finds the ideal route of `st.edge` and records its dependency region.
    func computeIdeal(_ st: EdgeState, _ scene: any RoutingScene) {
        let e = st.edge
        let m = options.margin
        let tiers = m > 0 ? [m, m / 2, 0] : [0]
        let ends = e.source.frame.union(e.target.frame)
            .union(Rect(corner: e.source.point, corner: e.target.point))
        var pad = 2 * m + 30
        var window = ends.insetBy(dx: -pad, dy: -pad)
        let all = (scene.nodeFrameBounds ?? window).union(window).insetBy(dx: -(2 * m + 30), dy: -(2 * m + 30))
        while true {
            for tier in tiers {
                let search = RouteSearch(edge: e, margin: tier, window: window)
                if let points = search.run(in: scene, scratch: scratch) {
                    st.setIdeal(points, margin: tier)
                    regions.set(st.id, window.insetBy(dx: -m, dy: -m))
                    return
                }
            }
            if window.minX <= all.minX && window.minY <= all.minY && window.maxX >= all.maxX && window.maxY >= all.maxY {
                break
            }
            pad *= 4
            window = ends.insetBy(dx: -pad, dy: -pad)
        }
        st.setIdeal([], margin: 0)
        regions.set(st.id, window.insetBy(dx: -m, dy: -m))
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
            scene.forEachNodeFrame(intersecting: Rect(corner: a, corner: b)) { f in
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

    init(id: String, edge: RoutingEdge) {
        self.id = id
        self.edge = edge
    }

    func setIdeal(_ points: [Point], margin: Double) {
        ideal = points
        self.margin = margin
        segments = []
        guard points.count >= 2 else { return }
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
