import FlowCore

/// Counts the crossings of a drawing as drawn: each route (a polyline from its source to
/// its target) is clipped to the outside of its two node boxes; a crossing is a proper
/// intersection of a piece of one route with a piece of another (touching and collinear
/// overlap do not count), and pairs of edges that share a node are not compared. This is
/// the definition of the layout benchmark's reference scorer, so numbers compare across
/// layouts and tools.
public enum DrawnCrossings {
    public struct Route {
        public var source: Int
        public var target: Int
        public var points: [Point]

        public init(source: Int, target: Int, points: [Point]) {
            self.source = source
            self.target = target
            self.points = points
        }
    }

    /// Crossings among `routes`; `boxes[i]` is node i's frame.
    public static func count(routes: [Route], boxes: [Rect]) -> Int {
        struct Piece {
            var minX, maxX, minY, maxY: Double
            var p, q: Point
            var route: Int32
        }
        var pieces: [Piece] = []
        for (r, route) in routes.enumerated() {
            let pts = clip(route.points, boxes[route.source], boxes[route.target])
            guard pts.count >= 2 else { continue }
            for i in 0..<(pts.count - 1) where pts[i] != pts[i + 1] {
                let p = pts[i], q = pts[i + 1]
                pieces.append(Piece(
                    minX: min(p.x, q.x), maxX: max(p.x, q.x), minY: min(p.y, q.y),
                    maxY: max(p.y, q.y), p: p, q: q, route: Int32(r)))
            }
        }
        pieces.sort { $0.minX < $1.minX }
        var count = 0
        for i in 0..<pieces.count {
            let a = pieces[i]
            let ra = routes[Int(a.route)]
            var j = i + 1
            while j < pieces.count {
                let b = pieces[j]
                j += 1
                if b.minX > a.maxX { break }
                if b.route == a.route || b.minY > a.maxY || b.maxY < a.minY { continue }
                let rb = routes[Int(b.route)]
                if ra.source == rb.source || ra.source == rb.target || ra.target == rb.source
                    || ra.target == rb.target
                {
                    continue
                }
                let o1 = orient(a.p, a.q, b.p), o2 = orient(a.p, a.q, b.q)
                if o1 == 0 || o2 == 0 || o1 == o2 { continue }
                let o3 = orient(b.p, b.q, a.p), o4 = orient(b.p, b.q, a.q)
                if o3 == 0 || o4 == 0 || o3 == o4 { continue }
                count += 1
            }
        }
        return count
    }

    private static func orient(_ a: Point, _ b: Point, _ c: Point) -> Int {
        let v = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        return v > 0 ? 1 : v < 0 ? -1 : 0
    }

    /// The polyline with its ends cut at the borders of boxes `a` (start) and `b` (end).
    public static func clip(_ points: [Point], _ a: Rect, _ b: Rect) -> [Point] {
        guard points.count >= 2 else { return points }
        let r = Array(cut(Array(cut(points, a).reversed()), b).reversed())
        return r.count >= 2 ? r : points
    }

    private static func cut(_ pts: [Point], _ box: Rect) -> [Point] {
        let x0 = box.origin.x, y0 = box.origin.y
        let x1 = x0 + box.size.width, y1 = y0 + box.size.height
        func inside(_ p: Point) -> Bool { x0 < p.x && p.x < x1 && y0 < p.y && p.y < y1 }
        var i = 0
        while i + 1 < pts.count && inside(pts[i + 1]) { i += 1 }
        if i + 1 >= pts.count || !inside(pts[i]) { return Array(pts[i...]) }
        let p = pts[i], q = pts[i + 1]
        let dx = q.x - p.x, dy = q.y - p.y
        let tx = dx > 0 ? (x1 - p.x) / dx : dx < 0 ? (x0 - p.x) / dx : Double.infinity
        let ty = dy > 0 ? (y1 - p.y) / dy : dy < 0 ? (y0 - p.y) / dy : Double.infinity
        let t = min(tx, ty)
        return [Point(p.x + t * dx, p.y + t * dy)] + pts[(i + 1)...]
    }
}
