import FlowCore

/// Counts the routes of a drawing that pass under a node: a piece of the route, clipped to
/// the outside of its own two node boxes as `DrawnCrossings` clips it, meets the inside of
/// another node's box. A crossing inside a box is hidden by the box, so a drawing can show
/// fewer crossings by running edges under nodes; this is the count that says so.
public enum EdgesUnderNodes {
    /// Routes of `routes` (`boxes[i]` is node i's frame) that pass under another node.
    public static func count(routes: [DrawnCrossings.Route], boxes: [Rect]) -> Int {
        guard !boxes.isEmpty else { return 0 }
        // Boxes by their left side, with the widest width, to find those a piece may meet.
        let order = boxes.indices.sorted { (boxes[$0].origin.x, $0) < (boxes[$1].origin.x, $1) }
        let lefts = order.map { boxes[$0].origin.x }
        let widest = boxes.reduce(0) { max($0, $1.size.width) }
        var count = 0
        for route in routes {
            let pts = DrawnCrossings.clip(route.points, boxes[route.source], boxes[route.target])
            guard pts.count >= 2 else { continue }
            var under = false
            for i in 0..<(pts.count - 1) where !under {
                let p = pts[i], q = pts[i + 1]
                let lo = min(p.x, q.x) - widest, hi = max(p.x, q.x)
                var k = first(lefts, atLeast: lo)
                while k < order.count && lefts[k] <= hi {
                    let b = order[k]
                    k += 1
                    if b == route.source || b == route.target { continue }
                    if meetsInside(p, q, boxes[b]) {
                        under = true
                        break
                    }
                }
            }
            if under { count += 1 }
        }
        return count
    }

    /// The first index whose value is at least `x` (binary search of sorted `values`).
    private static func first(_ values: [Double], atLeast x: Double) -> Int {
        var lo = 0, hi = values.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
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
