import FlowCore

// Polygons: a node whose data holds `polygon` (a DOT polygon no shape draws as it is: more
// sides, a rotation, extra outlines; its corners placed by the reader) is drawn as that
// polygon over its frame (docs/formats.md, "Polygons").

extension SVGRenderer {
    /// The polygon stored in node `n`'s data (`polygon`): its corners (`points`, 3 to 100)
    /// or an ellipse (`sides` 0), else nil.
    func storedPolygon(_ n: FlowNode<Data>) -> JSONObject? {
        guard case .object(let o)? = try? n.data.jsonValue(), case .object(let p)? = o["polygon"] else { return nil }
        if case .number(0)? = p["sides"] { return p }
        guard let points = Self.corners(p), points.count >= 3, points.count <= 100 else { return nil }
        return p
    }

    /// The corners of polygon `p` (`points`: x, y pairs in the unit box), nil when they are
    /// not numbers in pairs.
    static func corners(_ p: JSONObject) -> [Point]? {
        guard case .array(let a)? = p["points"], a.count % 2 == 0 else { return nil }
        var out: [Point] = []
        out.reserveCapacity(a.count / 2)
        for i in stride(from: 0, to: a.count, by: 2) {
            guard case .number(let x) = a[i], case .number(let y) = a[i + 1], x.isFinite, y.isFinite else { return nil }
            out.append(Point(max(-100, min(x, 100)), max(-100, min(y, 100))))
        }
        return out
    }

    /// The number of outlines of polygon `p` (`peripheries`, 1 to 16).
    static func peripheries(_ p: JSONObject) -> Int {
        if case .number(let v)? = p["peripheries"], v.isFinite { return Int(max(1, min(v, 16))) }
        return 1
    }

    /// Polygon `p` in frame `f`: one `path` of class `shape` with an outline for each of its
    /// `peripheries` (at most 16), as Graphviz draws them: the innermost at `points`, each
    /// next one 4 further out, its sides parallel to the last's (an ellipse's outermost on
    /// the frame, each next one 4 inside it).
    /// `fill`: a gradient's `url(#…)` that fills it.
    func writePolygon(_ w: inout ByteWriter, _ p: JSONObject, _ f: Rect, _ inline: FlowStyle, fill: String? = nil) {
        let count = Self.peripheries(p)
        let corners = Self.corners(p) ?? []
        w.raw("<path class=\"shape\"")
        writeInline(&w, inline, .nodeShape, fill: fill)
        w.raw(" d=\"")
        let inner = corners.map { Point(f.x + $0.x * f.width, f.y + $0.y * f.height) }
        for k in 0..<count {
            if corners.count < 3 {
                let inset = Double(k) * 4
                ellipse(&w, f.insetBy(dx: min(inset, f.width / 2), dy: min(inset, f.height / 2)))
            } else {
                polygon(&w, PolygonOutline.offset(inner, by: Double(k) * 4))
            }
        }
        w.raw("\"/>\n")
    }

    /// The outermost outline of the polygon drawn for node `n` in frame `f` (where its edges
    /// end), nil when it draws none or an ellipse (which its shape draws).
    func polygonOutline(_ n: FlowNode<Data>, _ f: Rect) -> [Point]? {
        guard !n.acceptsChildren, let p = storedPolygon(n), let corners = Self.corners(p), corners.count >= 3 else { return nil }
        let inner = corners.map { Point(f.x + $0.x * f.width, f.y + $0.y * f.height) }
        return PolygonOutline.offset(inner, by: Double(Self.peripheries(p) - 1) * 4)
    }

    /// `end` moved onto `outline` along the line from the middle of `f` through it (an end
    /// at the middle stays).
    static func clipped(_ end: EdgeEnd, to outline: [Point]?, in f: Rect) -> EdgeEnd {
        guard let outline, end.position != .center,
            let p = PolygonOutline.exit(from: Point(f.midX, f.midY), toward: end.point, outline)
        else { return end }
        return EdgeEnd(point: p, position: end.position)
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
}
