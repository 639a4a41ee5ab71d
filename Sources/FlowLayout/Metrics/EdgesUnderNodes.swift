import FlowCore

/// Counts the routes of a drawing that pass under a node: a piece of the route, clipped to
/// the outside of its own two node boxes as `DrawnCrossings` clips it, meets the inside of
/// another node's box. A crossing inside a box is hidden by the box, so a drawing can show
/// fewer crossings by running edges under nodes; this is the count that says so.
public enum EdgesUnderNodes {
    /// Routes of `routes` (`boxes[i]` is node i's frame) that pass under another node.
    public static func count(routes: [DrawnCrossings.Route], boxes: [Rect]) -> Int {
        guard !boxes.isEmpty else { return 0 }
        let index = FrameIndex(boxes)
        var count = 0
        for route in routes {
            let pts = DrawnCrossings.clip(route.points, boxes[route.source], boxes[route.target])
            guard pts.count >= 2 else { continue }
            let under = zip(pts, pts.dropFirst()).contains { p, q in
                index.contains(across: min(p.x, q.x), max(p.x, q.x)) { b in
                    b != route.source && b != route.target && meetsInside(p, q, boxes[b])
                }
            }
            if under { count += 1 }
        }
        return count
    }

    /// Whether the segment from `p` to `q` meets the open inside of `box` along a piece of
    /// positive length (touching a side or a corner does not count): Liang–Barsky clipping.
    static func meetsInside(_ p: Point, _ q: Point, _ box: Rect) -> Bool {
        let dx = q.x - p.x, dy = q.y - p.y
        var t0 = 0.0, t1 = 1.0
        let sides: [(Double, Double)] = [
            (-dx, p.x - box.origin.x), (dx, box.origin.x + box.size.width - p.x),
            (-dy, p.y - box.origin.y), (dy, box.origin.y + box.size.height - p.y),
        ]
        for (a, b) in sides {
            if a == 0 {
                if b <= 0 { return false }
            } else {
                let t = b / a
                if a < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            }
        }
        return t1 - t0 > 1e-9
    }
}
