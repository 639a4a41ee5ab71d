/// The geometry of a drawn polygon's outline (a DOT polygon's, docs/formats.md "Polygons"):
/// the outline of an extra periphery around it, and where a ray from inside leaves it.
public enum PolygonOutline {
    /// `corners` with each side moved `distance` outward, parallel to itself, the corners
    /// where the moved sides meet (as Graphviz places a polygon's outer peripheries). Either
    /// turn of the corners; a corner where the sides fold back is moved along its first
    /// side's normal.
    public static func offset(_ corners: [Point], by distance: Double) -> [Point] {
        let n = corners.count
        guard n >= 3, distance != 0 else { return corners }
        var area = 0.0
        for i in 0..<n {
            let (a, b) = (corners[i], corners[(i + 1) % n])
            area += a.x * b.y - b.x * a.y
        }
        let sign: Double = area >= 0 ? 1 : -1
        /// The outward unit normal of the side from corner `i` to the next.
        func normal(_ i: Int) -> Point? {
            let (a, b) = (corners[i], corners[(i + 1) % n])
            let dx = b.x - a.x, dy = b.y - a.y
            let l = (dx * dx + dy * dy).squareRoot()
            guard l > 1e-12 else { return nil }
            return Point(sign * dy / l, -sign * dx / l)
        }
        var normals: [Point?] = (0..<n).map(normal)
        // a side of no length takes its neighbour's normal
        for i in 0..<n where normals[i] == nil { normals[i] = normals[(i + n - 1) % n] ?? normals[(i + 1) % n] }
        return (0..<n).map { i in
            guard let n1 = normals[(i + n - 1) % n], let n2 = normals[i] else { return corners[i] }
            let c = 1 + n1.x * n2.x + n1.y * n2.y
            let k = c > 1e-6 ? distance / c : distance
            let v = c > 1e-6 ? Point(n1.x + n2.x, n1.y + n2.y) : n1
            return Point(corners[i].x + v.x * k, corners[i].y + v.y * k)
        }
    }

    /// Where the ray from `inside` through `toward` last crosses the outline of `corners`
    /// (for a convex outline around `inside`, where it leaves it); nil when it crosses none
    /// or the two points are one.
    public static func exit(from inside: Point, toward: Point, _ corners: [Point]) -> Point? {
        let dx = toward.x - inside.x, dy = toward.y - inside.y
        guard corners.count >= 3, dx * dx + dy * dy > 1e-18 else { return nil }
        var best: Double?
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let ex = b.x - a.x, ey = b.y - a.y
            let den = dx * ey - dy * ex
            guard abs(den) > 1e-12 else { continue }
            let wx = a.x - inside.x, wy = a.y - inside.y
            let t = (wx * ey - wy * ex) / den  // along the ray
            let u = (wx * dy - wy * dx) / den  // along the side
            if t >= 0 && u >= -1e-9 && u <= 1 + 1e-9 { best = max(best ?? t, t) }
        }
        return best.map { Point(inside.x + dx * $0, inside.y + dy * $0) }
    }
}
