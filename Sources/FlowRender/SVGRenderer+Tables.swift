import FlowCore

// Tables: a record node whose data holds `table` (a DOT HTML-like label's table as the
// reader laid it out) is drawn as that table, centred in the node (docs/formats.md,
// "HTML-like labels").

extension SVGRenderer {
    /// The table stored in record node `n`'s data (`table`), or nil.
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
        writeTable(&w, table, offset: offset, font: style.font, inline, depth: 0)
    }

    private func writeTable(
        _ w: inout ByteWriter, _ table: JSONObject, offset: Point, font: TextFont, _ inline: FlowStyle, depth: Int
    ) {
        writeBox(&w, table, offset: offset)
        guard case .array(let cells)? = table["cells"] else { return }
        for case .object(let cell) in cells {
            writeBox(&w, cell, offset: offset)
            let r = Self.box(cell)
            let inset = Self.number(cell, "border") + Self.number(cell, "padding")
            let inner = Rect(r.x + offset.x + inset, r.y + offset.y + inset, max(0, r.width - 2 * inset), max(0, r.height - 2 * inset))
            if case .object(let nested)? = cell["table"], depth < 64 {
                writeTable(&w, nested, offset: offset, font: font, inline, depth: depth + 1)
            } else if case .string(let text)? = cell["text"] {
                writeCellText(&w, text, inner, cell, font: font, inline)
            }
        }
    }

    /// The lines of `text` in `inner`, each line placed by the cell's `align`, the block
    /// by its `valign`.
    private func writeCellText(_ w: inout ByteWriter, _ text: String, _ inner: Rect, _ cell: JSONObject, font: TextFont, _ inline: FlowStyle) {
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

    /// A table's or cell's box: its background (`fill`, else none) and its border (`border`
    /// wide, inside the box; `stroke`, else the theme's).
    private func writeBox(_ w: inout ByteWriter, _ o: JSONObject, offset: Point) {
        let border = Self.number(o, "border")
        let fill = Self.color(o, "fill")
        guard border > 0 || fill != nil else { return }
        let r = Self.box(o)
        let inset = min(border / 2, r.width / 2, r.height / 2)
        w.raw("<rect class=\"shape cell\" style=\"fill:")
        w.raw(fill ?? "none")
        if border > 0 {
            if let s = Self.color(o, "stroke") {
                w.raw(";stroke:")
                w.raw(s)
            }
            w.raw(";stroke-width:")
            w.number(border * zoom)
        } else {
            w.raw(";stroke:none")
        }
        w.raw("\" x=\"")
        w.number(mapX(r.x + offset.x + inset))
        w.raw("\" y=\"")
        w.number(mapY(r.y + offset.y + inset))
        w.raw("\" width=\"")
        w.number(max(0, r.width - 2 * inset) * zoom)
        w.raw("\" height=\"")
        w.number(max(0, r.height - 2 * inset) * zoom)
        w.raw("\"/>\n")
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
