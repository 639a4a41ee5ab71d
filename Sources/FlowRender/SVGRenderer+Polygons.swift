import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Polygons: a node whose data holds `polygon` (a DOT polygon no shape draws as it is: more
// sides, a rotation, extra outlines) is drawn as that polygon over its frame (docs/formats.md,
// "Polygons").

extension SVGRenderer {
    /// The polygon stored in node `n`'s data (`polygon`) with 3 to 100 sides (0 for an
    /// ellipse), or nil.
    func storedPolygon(_ n: FlowNode<Data>) -> JSONObject? {
        guard case .object(let o)? = try? n.data.jsonValue(), case .object(let p)? = o["polygon"],
            case .number(let sides)? = p["sides"], sides >= 3 && sides <= 100 || sides == 0
        else { return nil }
        return p
    }

    /// Polygon `p` in frame `f`: one `path` of class `shape` with an outline for each of its
    /// `peripheries`, the outermost on the frame, each next one 4 inside it.
    func writePolygon(_ w: inout ByteWriter, _ p: JSONObject, _ f: Rect, _ inline: FlowStyle) {
        func number(_ key: String, _ fallback: Double) -> Double {
            if case .number(let v)? = p[key], v.isFinite { return max(-1e6, min(v, 1e6)) }
            return fallback
        }
        let vertices = Self.polygonVertices(
            sides: Int(number("sides", 4)), orientation: number("orientation", 0), skew: number("skew", 0),
            distortion: number("distortion", 0))
        let regular: Bool
        if case .bool(true)? = p["regular"] { regular = true } else { regular = false }
        let count = Int(max(1, min(number("peripheries", 1), 16)))
        w.raw("<path class=\"shape\"")
        writeInline(&w, inline, .nodeShape)
        w.raw(" d=\"")
        for k in 0..<count {
            let inset = Double(k) * 4
            let r = f.insetBy(dx: min(inset, f.width / 2), dy: min(inset, f.height / 2))
            if number("sides", 4) == 0 { ellipse(&w, r) } else { polygon(&w, Self.fitted(vertices, in: r, uniform: regular)) }
        }
        w.raw("\"/>\n")
    }

    /// An ellipse filling `r`, as two arcs.
    private func ellipse(_ w: inout ByteWriter, _ r: Rect) {
        for (i, x) in [r.x, r.maxX, r.x].enumerated() {
            if i == 0 {
                w.byte(UInt8(ascii: "M"))
            } else {
                w.byte(UInt8(ascii: "A"))
                w.number(r.width / 2 * zoom)
                w.byte(32)
                w.number(r.height / 2 * zoom)
                w.raw(" 0 1 0 ")
            }
            w.number(mapX(x))
            w.byte(32)
            w.number(mapY(r.midY))
        }
        w.byte(UInt8(ascii: "Z"))
    }

    /// The corners of a polygon of `sides` sides around the origin (radius 1, y down), a side
    /// at the bottom; the top widened by `distortion` and moved right by `skew`, then turned
    /// `orientation` degrees counter-clockwise (Graphviz's meanings).
    static func polygonVertices(sides: Int, orientation: Double, skew: Double, distortion: Double) -> [Point] {
        let n = max(3, sides)
        let turn = orientation * .pi / 180
        return (0..<n).map { i in
            let a = Double.pi / 2 + Double.pi / Double(n) + Double(i) * 2 * Double.pi / Double(n)
            var x = cos(a), y = sin(a)
            x = x * (1 - distortion * y) - skew * y
            (x, y) = (x * cos(turn) + y * sin(turn), -x * sin(turn) + y * cos(turn))
            return Point(x, y)
        }
    }

    /// `points` scaled and moved to fill `r` (the same scale both ways when `uniform`,
    /// centred).
    static func fitted(_ points: [Point], in r: Rect, uniform: Bool) -> [Point] {
        let xs = points.map(\.x), ys = points.map(\.y)
        let (x0, x1, y0, y1) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
        var sx = (x1 - x0) > 1e-9 ? r.width / (x1 - x0) : 0
        var sy = (y1 - y0) > 1e-9 ? r.height / (y1 - y0) : 0
        if uniform { (sx, sy) = (min(sx, sy), min(sx, sy)) }
        let cx = (x0 + x1) / 2, cy = (y0 + y1) / 2
        return points.map { Point(r.midX + ($0.x - cx) * sx, r.midY + ($0.y - cy) * sy) }
    }
}
