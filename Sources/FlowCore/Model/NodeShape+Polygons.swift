#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The shapes drawn as polygons (Graphviz's triangle, house, trapezium, octagon, …): their
// corners in a frame, and from them what is inside, where the handles and ports sit on the
// outline and how wide a title may be (docs/rendering.md, "Shapes").

extension NodeShape {
    /// The corners of the outline in `f` for the shapes drawn as polygons (clockwise, in
    /// the store's y-down space); nil for the others.
    public func polygon(in f: Rect) -> [Point]? {
        let x = f.x, y = f.y, w = f.width, h = f.height
        func at(_ u: Double, _ v: Double) -> Point { Point(x + u * w, y + v * h) }
        switch self {
        case .triangle: return [at(0.5, 0), at(1, 1), at(0, 1)]
        case .invtriangle: return [at(0, 0), at(1, 0), at(0.5, 1)]
        case .house: return [at(0.5, 0), at(1, 0.4), at(1, 1), at(0, 1), at(0, 0.4)]
        case .invhouse: return [at(0, 0), at(1, 0), at(1, 0.6), at(0.5, 1), at(0, 0.6)]
        case .trapezium: return [at(0.2, 0), at(0.8, 0), at(1, 1), at(0, 1)]
        case .invtrapezium: return [at(0, 0), at(1, 0), at(0.8, 1), at(0.2, 1)]
        case .pentagon: return Self.regular(5, in: f)
        case .septagon: return Self.regular(7, in: f)
        case .octagon, .doubleoctagon, .tripleoctagon: return Self.regular(8, in: f)
        // a flag: a notch in the left side (Mermaid's `>text]`)
        case .asymmetric: return [at(0, 0), at(1, 0), at(1, 1), at(0, 1), Point(x + min(h / 4, w / 4), y + h / 2)]
        default: return nil
        }
    }

    /// The corners of a regular polygon with `n` sides (a flat bottom), stretched to fill
    /// `f`.
    static func regular(_ n: Int, in f: Rect) -> [Point] {
        // corners on the unit circle, the first at the bottom left of the flat bottom
        let step = 2 * Double.pi / Double(n)
        let start = Double.pi / 2 + step / 2
        let raw = (0..<n).map { k -> Point in
            let a = start + step * Double(k)
            return Point(cos(a), -sin(a))
        }
        let minX = raw.map(\.x).min()!, maxX = raw.map(\.x).max()!
        let minY = raw.map(\.y).min()!, maxY = raw.map(\.y).max()!
        return raw.reversed().map {
            Point(f.x + ($0.x - minX) / (maxX - minX) * f.width, f.y + ($0.y - minY) / (maxY - minY) * f.height)
        }
    }

    /// How many outlines a polygon shape draws, each `peripheryGap` inside the last.
    public var peripheries: Int {
        switch self {
        case .doubleoctagon, .doublecircle: return 2
        case .tripleoctagon: return 3
        default: return 1
        }
    }

    /// The size of the marks `msquare`, `mdiamond`, `box3d`, `component`, `tab` and
    /// `folder` draw on their outlines.
    public static func markSize(in f: Rect) -> Double { max(0, min(8, f.width / 8, f.height / 6)) }

    /// The gap between the outlines of a shape with several.
    public static let peripheryGap = 4.0

    /// Whether `p` lies inside the convex polygon `corners` (on its border counts).
    static func inside(_ p: Point, _ corners: [Point]) -> Bool {
        var sign = 0.0
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if abs(c) < 1e-9 { continue }
            if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
        }
        return true
    }

    /// Whether `p` lies on the border of the polygon `corners` (to within rounding).
    static func onBorder(_ p: Point, _ corners: [Point]) -> Bool {
        let tolerance = 1e-9 * max(1, abs(p.x), abs(p.y))
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let e = Point(b.x - a.x, b.y - a.y)
            let length = (e.x * e.x + e.y * e.y).squareRoot()
            guard length > 0 else { continue }
            let cross = abs(e.x * (p.y - a.y) - e.y * (p.x - a.x)) / length
            let t = ((p.x - a.x) * e.x + (p.y - a.y) * e.y) / (length * length)
            if cross <= tolerance * 100 && t >= -1e-9 && t <= 1 + 1e-9 { return true }
        }
        return false
    }

    /// Where the ray from `from` in direction `d` leaves the convex polygon `corners`
    /// (`from` inside it); `from` itself when it never does.
    static func exit(from: Point, _ d: Point, _ corners: [Point]) -> Point {
        var best = Double.infinity
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let e = Point(b.x - a.x, b.y - a.y)
            let den = d.x * e.y - d.y * e.x
            if abs(den) < 1e-12 { continue }
            let q = Point(a.x - from.x, a.y - from.y)
            let t = (q.x * e.y - q.y * e.x) / den
            let u = (q.x * d.y - q.y * d.x) / den
            if t >= -1e-9 && u >= -1e-9 && u <= 1 + 1e-9 { best = min(best, max(t, 0)) }
        }
        guard best.isFinite else { return from }
        return Point(from.x + d.x * best, from.y + d.y * best)
    }

    /// The width of the convex polygon `corners` along the horizontal line at `y` (0 when
    /// the line misses it).
    static func chord(at y: Double, _ corners: [Point]) -> Double {
        var lo = Double.infinity, hi = -Double.infinity
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            guard (a.y - y) * (b.y - y) <= 0 else { continue }
            if a.y == b.y {
                lo = min(lo, a.x, b.x)
                hi = max(hi, a.x, b.x)
            } else {
                let x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                lo = min(lo, x)
                hi = max(hi, x)
            }
        }
        return hi > lo ? hi - lo : 0
    }

    /// The text width a polygon shape leaves for a block `height` high centred at `centre`
    /// (a y): the narrower of its chords at the block's top and bottom.
    static func polygonTextWidth(_ corners: [Point], height: Double, centre: Double) -> Double {
        let half = height / 2
        return min(chord(at: centre - half, corners), chord(at: centre + half, corners))
    }
}
