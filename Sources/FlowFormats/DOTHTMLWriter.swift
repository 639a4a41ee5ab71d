import FlowCore

/// A node's table (its data's `table`, as `DOTHTMLTable.json` keeps it) written back as the
/// HTML-like label it was read from (docs/formats.md, "HTML-like tables"): its rows and
/// `<HR/>`s, its cells with their spans, ports, borders, padding, colours, alignment,
/// minimum sizes, sides and styles, `<VR/>`s, fonts, text lines and nested tables, so
/// that dot draws the table and the reader lays it out again as it was.
enum DOTHTMLWriter {
    /// The label (without the `<` `>` around an HTML string), in `<B>`, `<I>` when the
    /// node's font is bold, italic; nil when `table` is not a table the reader made (no
    /// grid places: the caller writes the record).
    static func label(_ table: JSONValue, bold: Bool, italic: Bool) -> String? {
        guard case .object(let t) = table, var out = self.table(t, depth: 1) else { return nil }
        if italic { out = "<I>" + out + "</I>" }
        if bold { out = "<B>" + out + "</B>" }
        return out
    }

    private static func table(_ t: JSONObject, depth: Int) -> String? {
        guard depth <= DOTHTMLLabel.maximumDrawnDepth, case .array(let list)? = t["cells"] else { return nil }
        var out = "<TABLE"
        attribute(&out, "BORDER", t["border"])
        attribute(&out, "CELLSPACING", t["spacing"])
        attribute(&out, "CELLBORDER", t["cellborder"])
        look(&out, t)
        out += ">"
        var rules = Set<Int>()
        if case .array(let rows)? = t["hr"] { for case .number(let r) in rows { rules.insert(Int(r)) } }
        var row = -1
        for case .object(let c) in list {
            guard case .number(let r)? = c["row"], r == r.rounded(), Int(r) >= max(row, 0), Int(r) <= row + 1 else { return nil }
            if Int(r) > row {
                if row >= 0 { out += "</TR>" }
                row = Int(r)
                if rules.contains(row) { out += "<HR/>" }
                out += "<TR>"
            }
            guard let cell = cell(c, depth: depth) else { return nil }
            out += cell
        }
        if row >= 0 { out += "</TR>" }
        return out + "</TABLE>"
    }

    private static func cell(_ c: JSONObject, depth: Int) -> String? {
        var out = ""
        if case .bool(true)? = c["vr"] { out += "<VR/>" }
        out += "<TD"
        if case .string(let p)? = c["port"] { out += " PORT=\"" + escaped(p) + "\"" }
        attribute(&out, "COLSPAN", c["columns"])
        attribute(&out, "ROWSPAN", c["rows"])
        attribute(&out, "BORDER", c["border"])
        attribute(&out, "CELLPADDING", c["padding"])
        look(&out, c)
        if case .string(let s)? = c["sides"] { out += " SIDES=\"" + escaped(s) + "\"" }
        out += ">"
        if case .object(let nested)? = c["table"] {
            guard let inner = table(nested, depth: depth + 1) else { return nil }
            out += inner
        } else if case .object(let image)? = c["image"], case .string(let src)? = image["src"] {
            out += "<IMG SRC=\"" + escaped(src) + "\""
            if case .string(let scale)? = image["scale"] { out += " SCALE=\"" + escaped(scale) + "\"" }
            out += "/>"
        } else if let spans = DOTTextRun.lines(json: c["spans"]), !spans.isEmpty {
            // text in several looks: each run in its tags
            out += DOTTextRun.html(spans)
        } else if case .string(let text)? = c["text"] {
            var body = text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
                .joined(separator: "<BR/>")
            if case .object(let f)? = c["font"] {
                var open = "<FONT"
                if case .string(let color)? = f["color"] { open += " COLOR=\"" + escaped(color) + "\"" }
                attribute(&open, "POINT-SIZE", f["size"])
                if case .string(let face)? = f["face"] { open += " FACE=\"" + escaped(face) + "\"" }
                if open != "<FONT" { body = open + ">" + body + "</FONT>" }
            }
            out += body
        }
        return out + "</TD>"
    }

    /// What a table and a cell both have: colours, alignment, minimum size, style.
    private static func look(_ out: inout String, _ o: JSONObject) {
        let gradient = o["gradient"].flatMap { try? FillGradient(json: $0, operation: "dot", path: "gradient") }
        for (key, name) in [("fill", "BGCOLOR"), ("stroke", "COLOR"), ("align", "ALIGN"), ("valign", "VALIGN"), ("style", "STYLE")] {
            guard case .string(var v)? = o[key] else {
                if key == "style", gradient?.radial == true { out += " STYLE=\"radial\"" }
                continue
            }
            if key == "fill", let g = gradient {
                // the gradient's colour list
                v = g.from.description + (g.split.map { ";" + formatNumber($0) } ?? "") + ":" + g.to.description
            }
            if key == "style", gradient?.radial == true { v += ",radial" }
            out += " " + name + "=\"" + escaped(v) + "\""
        }
        if let g = gradient, g.angle != 0 { out += " GRADIENTANGLE=\"" + formatNumber(g.angle) + "\"" }
        attribute(&out, "WIDTH", o["minWidth"])
        attribute(&out, "HEIGHT", o["minHeight"])
    }

    /// ` NAME="number"` for a finite number.
    private static func attribute(_ out: inout String, _ name: String, _ value: JSONValue?) {
        guard case .number(let v)? = value, v.isFinite else { return }
        out += " " + name + "=\"" + formatNumber(v) + "\""
    }

    /// The characters an HTML string writes as entities.
    static let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"]

    /// `s` with `&`, `<`, `>` and `"` as entities.
    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            if let e = entities[c] { out += e } else { out.append(c) }
        }
        return out
    }
}
