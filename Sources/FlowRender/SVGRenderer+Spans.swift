import FlowCore

// Text in several looks (docs/formats.md, "HTML-like labels"): a node whose data holds
// `spans` (a DOT HTML-like label whose `<FONT>`, `<B>`, `<U>`, … cover part of its text), or
// a table cell that does, is drawn a `text` a line, each run of one look a `tspan` with its
// colour, size, weight, slant, decoration, font family and baseline shift.

extension SVGRenderer {
    /// One run of `spans`: its text and what it sets.
    struct SpanRun {
        var text: String
        var color: FlowColor?, size: Double?, face: String?
        var bold = false, italic = false, underline = false, strike = false, overline = false
        var shift = 0

        /// The font it is measured in, `base` being its label's.
        func font(_ base: TextFont) -> TextFont { TextFont(size: size ?? base.size, bold: bold || base.bold) }
    }

    /// The lines of runs in `v` (`[[{"text", "color"?, "size"?, …}]]`), nil when it is not
    /// one (at most 1,000 lines of 1,000 runs).
    static func spans(_ v: JSONValue?) -> [[SpanRun]]? {
        guard case .array(let lines)? = v, !lines.isEmpty, lines.count <= 1000 else { return nil }
        var out: [[SpanRun]] = []
        for case .array(let line) in lines {
            guard line.count <= 1000 else { return nil }
            var runs: [SpanRun] = []
            for case .object(let o) in line {
                guard case .string(let text)? = o["text"] else { return nil }
                var r = SpanRun(text: text)
                if case .string(let c)? = o["color"] { r.color = FlowColor(c) }
                if case .number(let s)? = o["size"], s.isFinite, s >= 1, s <= 1000 { r.size = s }
                if case .string(let f)? = o["face"] {
                    r.face = String(f.unicodeScalars.filter { $0 != "'" && $0 != "\\" && $0 != ";" && $0 != "\"" })
                }
                r.bold = o["bold"] == .bool(true)
                r.italic = o["italic"] == .bool(true)
                r.underline = o["underline"] == .bool(true)
                r.strike = o["strike"] == .bool(true)
                r.overline = o["overline"] == .bool(true)
                if case .number(let s)? = o["shift"], s.isFinite { r.shift = s < 0 ? -1 : s > 0 ? 1 : 0 }
                runs.append(r)
            }
            out.append(runs)
        }
        return out
    }

    /// The lines of runs stored in node `n`'s data (`spans`), or nil.
    func storedSpans(_ n: FlowNode<Data>) -> [[SpanRun]]? {
        guard case .object(let o)? = try? n.data.jsonValue() else { return nil }
        return Self.spans(o["spans"])
    }

    /// `lines` in `box`: each line placed by `align` (left, right, else centred), the block
    /// by `valign` (top, bottom, else middle); each line as high as its largest font.
    func writeSpans(
        _ w: inout ByteWriter, _ lines: [[SpanRun]], in box: Rect, align: String?, valign: String?,
        font: TextFont, _ inline: FlowStyle
    ) {
        let heights = lines.map { line in line.map { $0.font(font).lineHeight }.max() ?? font.lineHeight }
        let block = heights.reduce(0, +)
        var top: Double
        switch valign {
        case "top"?: top = box.y
        case "bottom"?: top = box.maxY - block
        default: top = box.midY - block / 2
        }
        for (k, line) in lines.enumerated() {
            let width = line.reduce(0) { $0 + TextMetrics.width(of: $1.text, font: $1.font(font)) }
            let x: Double
            switch align {
            case "left"?: x = box.x
            case "right"?: x = box.maxX - width
            default: x = box.midX - width / 2
            }
            let largest = line.map { $0.font(font) }.max { $0.size < $1.size } ?? font
            w.raw("<text class=\"title\"")
            let before = w.bytes.count
            writeInline(&w, inline, .nodeTitle)
            if w.bytes.count > before {
                w.bytes.removeLast()  // the inline style's closing quote
                w.raw(";text-anchor:start\"")
            } else {
                w.raw(" style=\"text-anchor:start\"")
            }
            // the spaces between runs are kept (they begin a run)
            w.raw(" xml:space=\"preserve\" x=\"")
            w.number(mapX(x))
            w.raw("\" y=\"")
            w.number(mapY(top + heights[k] / 2 + largest.baselineOffset))
            w.raw("\">")
            for r in line { writeRun(&w, r) }
            w.raw("</text>\n")
            top += heights[k]
        }
    }

    /// One run: a `tspan` whose style sets what the run does.
    private func writeRun(_ w: inout ByteWriter, _ r: SpanRun) {
        var style: [String] = []
        if let c = r.color {
            style.append("fill:#" + c.hex)
            if c.alpha < 255 { style.append("fill-opacity:" + formatNumber((c.opacity * 1000).rounded() / 1000)) }
        }
        if let s = r.size { style.append("font-size:" + formatNumber((s * zoom * 100).rounded() / 100) + "px") }
        if r.bold { style.append("font-weight:bold") }
        if r.italic { style.append("font-style:italic") }
        let lines = [(r.underline, "underline"), (r.overline, "overline"), (r.strike, "line-through")].filter(\.0).map(\.1)
        if !lines.isEmpty { style.append("text-decoration:" + lines.joined(separator: " ")) }
        if let f = r.face { style.append("font-family:'" + f + "',sans-serif") }
        if r.shift != 0 { style.append("baseline-shift:" + (r.shift < 0 ? "sub" : "super")) }
        if style.isEmpty {
            w.raw("<tspan>")
        } else {
            w.raw("<tspan style=\"")
            w.escaped(style.joined(separator: ";"))
            w.raw("\">")
        }
        w.escaped(r.text)
        w.raw("</tspan>")
    }
}
