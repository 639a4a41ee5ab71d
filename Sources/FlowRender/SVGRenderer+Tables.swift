import FlowCore

// Tables: a node whose data holds `table` (a DOT HTML-like label's table as the reader laid
// it out) is drawn as that table, centred in the node's shape: its boxes with their
// colours, border sides and styles, its rules (`<HR/>`, `<VR/>`) and its cells' text in their
// fonts (docs/formats.md, "HTML-like tables").

extension SVGRenderer {
    /// The table stored in node `n`'s data (`table`), or nil.
    func storedTable(_ n: FlowNode<Data>) -> JSONObject? {
        guard case .object(let o)? = try? n.data.jsonValue(), case .object(let t)? = o["table"] else { return nil }
        return t
    }

    /// Whether the node's own outline is drawn around `table` (not for DOT's `plaintext`).
    static func outlinesTable(_ table: JSONObject) -> Bool {
        if case .bool(false)? = table["outline"] { return false }
        return true
    }

    /// Table `table` of node `n`: each table and cell a `rect` of class `shape cell` (its
    /// colours and border width inline), each text line a `text` placed by the cell's
    /// `align` and `valign`; nested tables inside their cells.
    func writeTable(_ w: inout ByteWriter, _ n: FlowNode<Data>, _ table: JSONObject, _ inline: FlowStyle) {
        let style = n.hasLook ? store.resolvedStyle(of: n) : FlowStyle()
        let box = Self.box(table)
        let f = n.frame
        let offset = Point(f.midX - box.midX, f.midY - box.midY)
        // gradients are numbered in drawing order, after the node's id
        var gradients = (prefix: Self.gradientID(node: n.id) + "-", count: 0)
        writeTable(&w, table, offset: offset, font: style.font, inline, depth: 0, &gradients)
    }

    private func writeTable(
        _ w: inout ByteWriter, _ table: JSONObject, offset: Point, font: TextFont, _ inline: FlowStyle, depth: Int,
        _ gradients: inout (prefix: String, count: Int)
    ) {
        writeBox(&w, table, offset: offset, &gradients)
        guard case .array(let cells)? = table["cells"] else { return }
        writeRules(&w, table, cells, offset: offset)
        for case .object(let cell) in cells {
            writeBox(&w, cell, offset: offset, &gradients)
            let r = Self.box(cell)
            let inset = Self.number(cell, "border") + Self.number(cell, "padding")
            let inner = Rect(r.x + offset.x + inset, r.y + offset.y + inset, max(0, r.width - 2 * inset), max(0, r.height - 2 * inset))
            if case .object(let nested)? = cell["table"], depth < 64 {
                writeTable(&w, nested, offset: offset, font: font, inline, depth: depth + 1, &gradients)
            } else if case .object(let image)? = cell["image"] {
                writeImage(&w, image, inner, cell)
            } else if let spans = Self.spans(cell["spans"]) {
                // text in several looks
                var align: String?, valign: String?
                if case .string(let a)? = cell["align"] { align = a }
                if case .string(let v)? = cell["valign"] { valign = v }
                writeSpans(&w, spans, in: inner, align: align, valign: valign, font: font, inline)
            } else if case .string(let text)? = cell["text"] {
                writeCellText(&w, text, inner, cell, font: font, inline)
            }
        }
    }

    /// A cell's `<IMG>` (`image`: `type`, `width`, `height`, `scale`?, `data` in base64) in
    /// `inner`: an SVG `image` with the bytes in a `data:` URL, at its own size placed by the
    /// cell's `align` and `valign`, or as `scale` says: true, as large as the cell holds
    /// (its shape kept); width, height, both: the cell's width, height, both (stretched).
    /// Nothing for an image that is not one of the three types or whose data is not base64.
    private func writeImage(_ w: inout ByteWriter, _ image: JSONObject, _ inner: Rect, _ cell: JSONObject) {
        guard case .string(let type)? = image["type"], ["image/png", "image/jpeg", "image/svg+xml"].contains(type),
            case .string(let data)? = image["data"],
            data.utf8.allSatisfy({ $0 < 128 && ($0 == 43 || $0 == 47 || $0 == 61 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)) })
        else { return }
        var size = Size(max(0, Self.number(image, "width")), max(0, Self.number(image, "height")))
        var aspect = "xMidYMid meet"
        switch image["scale"] {
        case .string("true")?: size = inner.size
        case .string("width")?: size.width = inner.width; aspect = "none"
        case .string("height")?: size.height = inner.height; aspect = "none"
        case .string("both")?: size = inner.size; aspect = "none"
        default: break
        }
        let fx: Double = switch cell["align"] { case .string("left")?: 0; case .string("right")?: 1; default: 0.5 }
        let fy: Double = switch cell["valign"] { case .string("top")?: 0; case .string("bottom")?: 1; default: 0.5 }
        let x = inner.x + (inner.width - size.width) * fx, y = inner.y + (inner.height - size.height) * fy
        w.raw("<image class=\"cell image\" x=\"")
        w.number(mapX(x))
        w.raw("\" y=\"")
        w.number(mapY(y))
        w.raw("\" width=\"")
        w.number(size.width * zoom)
        w.raw("\" height=\"")
        w.number(size.height * zoom)
        w.raw("\" preserveAspectRatio=\"")
        w.raw(aspect)
        w.raw("\" href=\"data:")
        w.raw(type)
        w.raw(";base64,")
        w.raw(data)
        w.raw("\"/>\n")
    }

    /// The lines of `text` in `inner`, each line placed by the cell's `align`, the block
    /// by its `valign`.
    private func writeCellText(_ w: inout ByteWriter, _ text: String, _ inner: Rect, _ cell: JSONObject, font: TextFont, _ inline: FlowStyle) {
        var font = font, inline = inline
        var face: String?
        if case .object(let f)? = cell["font"] {
            if case .number(let size)? = f["size"], size.isFinite, size >= 1, size <= 1000 {
                font.size = size
                inline.fontSize = size
            }
            if case .string(let c)? = f["color"], let colour = FlowColor(c) { inline.textColor = colour }
            if case .string(let name)? = f["face"] {
                face = String(name.unicodeScalars.filter { $0 != "'" && $0 != "\\" && $0 != ";" && $0 != "\"" })
            }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lh = font.lineHeight
        let block = Double(lines.count) * lh
        var top: Double
        switch cell["valign"] {
        case .string("top")?: top = inner.y
        case .string("bottom")?: top = inner.maxY - block
        default: top = inner.midY - block / 2
        }
        for line in lines {
            let width = TextMetrics.width(of: line, font: font)
            let x: Double
            switch cell["align"] {
            case .string("left")?: x = inner.x + width / 2
            case .string("right")?: x = inner.maxX - width / 2
            default: x = inner.midX
            }
            w.raw("<text class=\"title\"")
            writeInline(&w, inline, .nodeTitle)
            if let face { fontFamily(&w, face) }
            w.raw(" x=\"")
            w.number(mapX(x))
            w.raw("\" y=\"")
            w.number(mapY(top + lh / 2 + font.baselineOffset))
            w.raw("\">")
            w.escaped(String(line))
            w.raw("</text>\n")
            top += lh
        }
    }

    /// `font-family` (`face`, then sans-serif) added to the inline style just written, or
    /// an inline style of its own.
    private func fontFamily(_ w: inout ByteWriter, _ face: String) {
        if w.bytes.last == UInt8(ascii: "\"") && !w.bytes.suffix(2).elementsEqual("=\"".utf8) {
            w.bytes.removeLast()
            w.raw(";")
        } else {
            w.raw(" style=\"")
        }
        w.raw("font-family:'")
        w.escaped(face)
        w.raw("',sans-serif\"")
    }

    /// A table's or cell's box: its background (`fill`, else none) and its border (`border`
    /// wide, inside the box; `stroke`, else the theme's), on the `sides` given (all when
    /// none), with round corners, dashes or dots by its `style`; nothing of an `invis` one.
    /// A `gradient` (`FillGradient`) fills it instead, its id `gradients`' prefix and count.
    private func writeBox(_ w: inout ByteWriter, _ o: JSONObject, offset: Point, _ gradients: inout (prefix: String, count: Int)) {
        let style = Self.styleWords(o)
        if style.contains("invis") { return }
        let border = Self.number(o, "border")
        var fill = Self.color(o, "fill")
        guard border > 0 || fill != nil else { return }
        let r = Self.box(o)
        if fill != nil, let json = o["gradient"], let g = try? FillGradient(json: json, operation: "render", path: "gradient") {
            gradients.count += 1
            let id = gradients.prefix + String(gradients.count)
            writeGradient(&w, g, id: id, box: Rect(mapX(r.x + offset.x), mapY(r.y + offset.y), r.width * zoom, r.height * zoom))
            fill = "url(#" + id + ")"
        }
        var sides = "LTRB"
        if case .string(let s)? = o["sides"] { sides = s }
        let whole = sides.contains("L") && sides.contains("T") && sides.contains("R") && sides.contains("B")
        let inset = min(border / 2, r.width / 2, r.height / 2)
        let drawn = Rect(r.x + offset.x + inset, r.y + offset.y + inset, max(0, r.width - 2 * inset), max(0, r.height - 2 * inset))
        if !whole {
            // the background alone, then the sides' lines
            if fill != nil { rect(&w, drawn, fill: fill, border: 0, stroke: nil, style: style) }
            guard border > 0, !sides.isEmpty else { return }
            w.raw("<path class=\"shape cell\" style=\"fill:none")
            strokeDeclarations(&w, o, border: border, style: style)
            w.raw("\" d=\"")
            let corners = [
                (drawn.x, drawn.y), (drawn.maxX, drawn.y), (drawn.maxX, drawn.maxY), (drawn.x, drawn.maxY),
            ]
            // T from the top left corner, R from the top right, B from the bottom right, L
            // from the bottom left
            for (k, side) in ["T", "R", "B", "L"].enumerated() where sides.contains(side) {
                let (a, b) = (corners[k], corners[(k + 1) % 4])
                w.byte(UInt8(ascii: "M"))
                point(&w, Point(a.0, a.1))
                w.byte(UInt8(ascii: "L"))
                point(&w, Point(b.0, b.1))
            }
            w.raw("\"/>\n")
            return
        }
        rect(&w, drawn, fill: fill, border: border, stroke: o, style: style)
    }

    /// A `rect` of class `shape cell`: `fill` (else none), a border `border` wide in the
    /// colour of `stroke`'s `stroke` (else the theme's), rounded and dashed by `style`.
    private func rect(_ w: inout ByteWriter, _ r: Rect, fill: String?, border: Double, stroke: JSONObject?, style: [Substring]) {
        w.raw("<rect class=\"shape cell\" style=\"fill:")
        w.raw(fill ?? "none")
        if border > 0, let stroke {
            strokeDeclarations(&w, stroke, border: border, style: style)
        } else {
            w.raw(";stroke:none")
        }
        w.raw("\" x=\"")
        w.number(mapX(r.x))
        w.raw("\" y=\"")
        w.number(mapY(r.y))
        w.raw("\" width=\"")
        w.number(r.width * zoom)
        w.raw("\" height=\"")
        w.number(r.height * zoom)
        if style.contains("rounded") {
            // Graphviz's round corners: a radius of at most 12, less in a small box
            w.raw("\" rx=\"")
            w.number(min(12, r.width / 4, r.height / 4) * zoom)
        }
        w.raw("\"/>\n")
    }

    /// `;stroke:…;stroke-width:…` (and `stroke-dasharray` for dashed, dotted) of a border.
    private func strokeDeclarations(_ w: inout ByteWriter, _ o: JSONObject, border: Double, style: [Substring]) {
        if let s = Self.color(o, "stroke") {
            w.raw(";stroke:")
            w.raw(s)
        }
        w.raw(";stroke-width:")
        w.number(border * zoom)
        if style.contains("dashed") {
            w.raw(";stroke-dasharray:")
            w.number(5 * zoom)
            w.byte(32)
            w.number(2 * zoom)
        } else if style.contains("dotted") {
            w.raw(";stroke-dasharray:")
            w.number(1 * zoom)
            w.byte(32)
            w.number(5 * zoom)
        }
    }

    /// The table's rules: across the table above each row `hr` names, and along each cell
    /// marked `vr` between it and the cell before it, in the middle of the spacing between
    /// them, a line of the table's colour (else the theme's).
    private func writeRules(_ w: inout ByteWriter, _ table: JSONObject, _ cells: [JSONValue], offset: Point) {
        var above = Set<Int>()
        if case .array(let rows)? = table["hr"] {
            for case .number(let r) in rows where r.isFinite && r >= 1 && r < 1e6 { above.insert(Int(r)) }
        }
        var lines: [(Point, Point)] = []
        let t = Self.box(table), spacing = Self.number(table, "spacing"), border = Self.number(table, "border")
        if !above.isEmpty {
            var tops: [Int: Double] = [:]
            for case .object(let c) in cells {
                guard case .number(let r)? = c["row"], above.contains(Int(r)) else { continue }
                tops[Int(r)] = min(tops[Int(r)] ?? .infinity, Self.box(c).y)
            }
            for (_, y) in tops.sorted(by: { $0.key < $1.key }) {
                let at = y - spacing / 2
                lines.append((Point(t.x + border, at), Point(t.maxX - border, at)))
            }
        }
        for case .object(let c) in cells {
            guard case .bool(true)? = c["vr"] else { continue }
            let r = Self.box(c), at = r.x - spacing / 2
            lines.append((Point(at, r.y), Point(at, r.maxY)))
        }
        guard !lines.isEmpty else { return }
        w.raw("<path class=\"shape cell\" style=\"fill:none")
        strokeDeclarations(&w, table, border: 1, style: [])
        w.raw("\" d=\"")
        for (a, b) in lines {
            w.byte(UInt8(ascii: "M"))
            point(&w, Point(a.x + offset.x, a.y + offset.y))
            w.byte(UInt8(ascii: "L"))
            point(&w, Point(b.x + offset.x, b.y + offset.y))
        }
        w.raw("\"/>\n")
    }

    /// The words of `style` (rounded, dashed, dotted, invis).
    private static func styleWords(_ o: JSONObject) -> [Substring] {
        guard case .string(let s)? = o["style"] else { return [] }
        return s.split(separator: ",")
    }

    private static func number(_ o: JSONObject, _ key: String) -> Double {
        if case .number(let v)? = o[key], v.isFinite { return max(-1e6, min(v, 1e6)) }
        return 0
    }

    /// The colour at `key` as `#rrggbb(aa)`, nil when there is none or it is not a colour.
    private static func color(_ o: JSONObject, _ key: String) -> String? {
        guard case .string(let s)? = o[key], let c = FlowColor(s) else { return nil }
        return c.description
    }

    private static func box(_ o: JSONObject) -> Rect {
        Rect(number(o, "x"), number(o, "y"), max(0, number(o, "width")), max(0, number(o, "height")))
    }
}
