import FlowCore

/// Graphviz's HTML-like labels (docs/formats.md, "DOT"): a `<TABLE>` is drawn as a table
/// (`DOTHTMLTable`: spans, colours, borders, padding, alignment, fonts, rules, sides,
/// styles) and kept as a record too (rows stacked, cells side by side, a cell's `PORT` the
/// field's port), other markup is its text with `<BR/>` as line ends. What is not drawn
/// (images, gradients, …) is listed.
struct DOTHTMLLabel {
    /// The label in record syntax when it holds a table, else its text.
    var text: String
    var isRecord: Bool
    /// The outermost table, its cells placed on their grid (not yet sized).
    var table: DOTHTMLTable?
    /// The tags and attributes that are dropped (`<FONT>`, `BGCOLOR`, …), sorted.
    var dropped: [String]
    /// Whether all of the text is in `<B>` (in `<I>`): the node's font is bold (italic),
    /// and the tag is not dropped.
    var bold = false
    var italic = false
    /// A label without a table whose text is all in one `<FONT>`: that font (its colour and
    /// size the node's); nil otherwise.
    var font: DOTHTMLTable.Font?
    /// Whether the label has a `<FONT>` (drawn in a node's table or label, not elsewhere).
    var hasFonts = false
    /// A label without a table whose text changes its look part of the way (a `<FONT>`,
    /// `<B>`, `<U>`, … around part of it), or is decorated (`<U>`, `<S>`, `<O>`, `<SUB>`,
    /// `<SUP>`): its lines of runs (drawn as `tspan`s in a node); nil otherwise.
    var spans: [[DOTTextRun]]?
    /// The tags that change the look of part of the text (`<FONT>`, `<B>`, …), sorted, or
    /// `FACE` for a face round all of it: what is not drawn where `spans` are not (an
    /// edge's, cluster's or graph's label).
    var spanTags: [String] = []

    private struct Tag {
        var name: String
        var closing: Bool
        var selfClosing: Bool
        var attributes: [(String, String)]
    }

    private enum Item {
        case text(String)
        case tag(Tag)
    }

    private final class Table {
        var rows: [[Cell]] = []
        /// The rows (as written, empty ones counted) with an `<HR/>` above them.
        var rulesAbove: Set<Int> = []
        /// A `<VR/>` was read since the last cell of the current row.
        var ruleNext = false
        var attributes: [(String, String)]
        init(attributes: [(String, String)]) { self.attributes = attributes }
    }

    private final class Cell {
        var port: String?
        var text = ""
        var table: Table?
        /// The `<FONT>` in effect for the cell's first text; nil before any text.
        var font: DOTHTMLTable.Font?
        /// The cell's text in its looks, `\n` a line end.
        var runs: [DOTTextRun] = []
        /// Its `<IMG>`: the file and `SCALE`.
        var image: (src: String, scale: String?)?
        var ruleBefore = false
        var attributes: [(String, String)]
        init(attributes: [(String, String)]) {
            self.attributes = attributes
            port = attributes.first { $0.0 == "port" }?.1
        }
    }

    static let kept: Set<String> = ["table", "tr", "td", "br", "font", "hr", "vr", "b", "i", "u", "s", "o", "sub", "sup", "img"]
    /// The tags that change the look of the text inside them, and how they are named.
    static let lookTags: [String: String] = [
        "b": "<B>", "i": "<I>", "u": "<U>", "s": "<S>", "o": "<O>", "sub": "<SUB>", "sup": "<SUP>",
    ]
    /// The attributes drawn, by tag.
    static let keptAttributes: [String: Set<String>] = [
        "table": ["border", "cellborder", "cellpadding", "cellspacing", "bgcolor", "color", "align", "valign", "width", "height", "style", "gradientangle"],
        "td": ["port", "colspan", "rowspan", "border", "cellpadding", "bgcolor", "color", "align", "valign", "width", "height", "sides", "style", "gradientangle"],
        "br": ["align"],
        "font": ["color", "point-size", "face"],
        "img": ["src", "scale"],
    ]
    /// Tables nested deeper are not drawn (their text joins the cell around them): each
    /// level is a level of braces in the record (`RecordLabel` takes 64), and the record is
    /// written by recursion.
    static let maximumTableDepth = 32
    /// Tables nested deeper are drawn as their cells' text (`DOTHTMLTable` is laid out and
    /// drawn by recursion).
    static let maximumDrawnDepth = 8

    /// `readsImages`: whether an `<IMG>`'s file is read (not in a Lua sandbox).
    init(_ html: String, readsImages: Bool = true) {
        var dropped = Set<String>()
        let items = Self.items(html)
        var stack: [Table] = []
        var cells: [Cell] = []
        var top: Table?
        var plain = ""
        /// `<TABLE>`s opened past `maximumTableDepth` and not yet closed.
        var ignored = 0
        /// How many of each look tag (`lookTags`) are open.
        var open: [String: Int] = [:]
        var plainRuns: [DOTTextRun] = []
        var texts = (all: 0, bold: 0, italic: 0)
        /// The `<FONT>`s open, each merged with those around it.
        var fonts = [DOTHTMLTable.Font()]
        /// The font of the text outside tables: nil before any, `.some(nil)` when it changed.
        var plainFont: DOTHTMLTable.Font??
        for item in items {
            switch item {
            case .text(let t):
                let s = Self.decoded(t)
                if s.contains(where: { !$0.isWhitespace }) {
                    texts.all += 1
                    if open["b", default: 0] > 0 { texts.bold += 1 }
                    if open["i", default: 0] > 0 { texts.italic += 1 }
                    if let c = cells.last {
                        if c.font == nil { c.font = fonts.last! }
                    } else if stack.isEmpty {
                        plainFont = plainFont == nil || plainFont! == fonts.last! ? fonts.last! : .some(nil)
                    }
                }
                let run = DOTTextRun(
                    text: s, font: fonts.last!, bold: open["b", default: 0] > 0, italic: open["i", default: 0] > 0,
                    underline: open["u", default: 0] > 0, strike: open["s", default: 0] > 0, overline: open["o", default: 0] > 0,
                    shift: open["sup", default: 0] > 0 ? 1 : open["sub", default: 0] > 0 ? -1 : 0)
                if let c = cells.last {
                    c.text += s
                    c.runs.append(run)
                } else if stack.isEmpty {
                    plain += s
                    plainRuns.append(run)
                }
            case .tag(let tag):
                if !Self.kept.contains(tag.name) { dropped.insert("<\(tag.name.uppercased())>") }
                for (k, _) in tag.attributes where !(Self.keptAttributes[tag.name]?.contains(k) ?? false) {
                    dropped.insert(k.uppercased())
                }
                switch (tag.name, tag.closing) {
                case ("font", false) where !tag.selfClosing:
                    hasFonts = true
                    fonts.append(fonts.last!.with(Self.font(tag.attributes, dropped: &dropped)))
                case ("font", true):
                    if fonts.count > 1 { fonts.removeLast() }
                case ("hr", _) where ignored == 0:
                    if let t = stack.last { t.rulesAbove.insert(t.rows.count) }
                case ("vr", _) where ignored == 0:
                    stack.last?.ruleNext = true
                case (let name, let closing) where Self.lookTags[name] != nil && !tag.selfClosing:
                    open[name] = max(0, open[name, default: 0] + (closing ? -1 : 1))
                case ("table", false) where stack.count >= Self.maximumTableDepth || ignored > 0:
                    ignored += 1
                    dropped.insert("<TABLE> nested deeper than \(Self.maximumTableDepth) levels")
                case ("table", true) where ignored > 0:
                    ignored -= 1
                case ("tr", _) where ignored > 0, ("td", _) where ignored > 0:
                    break
                case ("table", false):
                    let t = Table(attributes: tag.attributes)
                    if let c = cells.last, c.table == nil { c.table = t }
                    stack.append(t)
                    if top == nil { top = t }
                case ("table", true):
                    if !stack.isEmpty { stack.removeLast() }
                case ("tr", false):
                    stack.last?.rows.append([])
                    stack.last?.ruleNext = false
                case ("td", false):
                    let c = Cell(attributes: tag.attributes)
                    if let t = stack.last {
                        if t.rows.isEmpty { t.rows.append([]) }
                        // a rule between two cells of a row, not before the first
                        c.ruleBefore = t.ruleNext && !t.rows[t.rows.count - 1].isEmpty
                        t.ruleNext = false
                        t.rows[t.rows.count - 1].append(c)
                    }
                    cells.append(c)
                    if tag.selfClosing { cells.removeLast() }
                case ("td", true):
                    if !cells.isEmpty { cells.removeLast() }
                case ("img", false) where ignored == 0:
                    let src = tag.attributes.first { $0.0 == "src" }?.1 ?? ""
                    let scale = tag.attributes.first { $0.0 == "scale" }?.1.lowercased()
                    if let c = cells.last, c.table == nil { c.image = (src, scale) } else { dropped.insert("<IMG> outside a table cell") }
                case ("br", _):
                    if let c = cells.last {
                        c.text += "\n"
                        c.runs.append(DOTTextRun(text: "\n"))
                    } else if stack.isEmpty {
                        plain += "\n"
                        plainRuns.append(DOTTextRun(text: "\n"))
                    }
                default: break
                }
            }
        }
        bold = texts.all > 0 && texts.bold == texts.all
        italic = texts.all > 0 && texts.italic == texts.all
        if top == nil {
            let lines = DOTTextRun.lines(plainRuns)
            let runs = lines.flatMap { $0 }
            if let first = runs.first, runs.contains(where: { !$0.looksLike(first) || $0.isDecorated }) {
                spans = lines
                spanTags = Self.changedTags(runs)
            } else if let f = plainFont, let f, !f.isEmpty {
                font = f
                if f.face != nil {
                    // a node draws the face as a run; elsewhere it is reported
                    spans = lines
                    spanTags = ["FACE"]
                }
            }
        }
        if let top {
            text = Self.record(top, horizontal: true)
            isRecord = true
            table = Self.table(top, depth: 1, bold: bold, italic: italic, readsImages: readsImages, dropped: &dropped)
        } else {
            text = Self.lines(plain).joined(separator: "\n")
            isRecord = false
        }
        self.dropped = dropped.sorted()
    }

    /// `t` (at nesting `depth`, the outermost 1) as a table to draw, its cells placed;
    /// attribute values that cannot be read are added to `dropped`. Tables nested deeper
    /// than `maximumDrawnDepth` are drawn as their cells' text.
    /// The tags whose look differs among `runs` or that decorate one, sorted.
    private static func changedTags(_ runs: [DOTTextRun]) -> [String] {
        guard let first = runs.first else { return [] }
        var out = Set<String>()
        for r in runs {
            if r.font != first.font { out.insert("<FONT>") }
            if r.bold != first.bold { out.insert("<B>") }
            if r.italic != first.italic { out.insert("<I>") }
            if r.underline { out.insert("<U>") }
            if r.strike { out.insert("<S>") }
            if r.overline { out.insert("<O>") }
            if r.shift < 0 { out.insert("<SUB>") }
            if r.shift > 0 { out.insert("<SUP>") }
        }
        return out.sorted()
    }

    /// `t`'s cells' text as lines of runs when their look changes part of the way, is
    /// decorated, or is bold (italic) where the label is not as a whole (`bold`, `italic`).
    private static func cellSpans(_ c: Cell, bold: Bool, italic: Bool) -> [[DOTTextRun]]? {
        let lines = DOTTextRun.lines(c.runs)
        let runs = lines.flatMap { $0 }
        guard let first = runs.first else { return nil }
        let plain = runs.allSatisfy { $0.looksLike(first) && !$0.isDecorated && $0.bold == bold && $0.italic == italic }
        return plain ? nil : lines
    }

    private static func table(
        _ t: Table, depth: Int, bold: Bool, italic: Bool, readsImages: Bool, dropped: inout Set<String>
    ) -> DOTHTMLTable {
        var out = DOTHTMLTable()
        func number(_ key: String, _ value: String, _ range: ClosedRange<Double>) -> Double? {
            if let v = Double(value.trimmingSpaces()), range.contains(v) { return v }
            dropped.insert("\(key.uppercased()) '\(value)'")
            return nil
        }
        func color(_ key: String, _ value: String) -> FlowColor? {
            if let c = parseColor(value) { return c }
            dropped.insert("\(key.uppercased()) '\(value)'")
            return nil
        }
        func side(_ key: String, _ value: String, _ allowed: Set<String>) -> String? {
            let v = value.trimmingSpaces().lowercased()
            if allowed.contains(v) { return v }
            dropped.insert("\(key.uppercased()) '\(value)'")
            return nil
        }
        let horizontal: Set<String> = ["left", "center", "right"], vertical: Set<String> = ["top", "middle", "bottom"]
        /// Reads an attribute of `look`; false for another.
        func read(_ k: String, _ v: String, _ look: inout DOTHTMLTable.Look) -> Bool {
            switch k {
            case "bgcolor" where v.contains(":"):
                // a gradient (`gradient`, once its STYLE and GRADIENTANGLE are read)
                look.fill = DOTReader.Builder.firstColor(v)
                if look.fill == nil { dropped.insert("BGCOLOR '\(v)'") }
            case "bgcolor": look.fill = color(k, v)
            case "gradientangle": break
            case "color": look.stroke = color(k, v)
            case "align": look.align = side(k, v, horizontal)
            case "valign": look.valign = side(k, v, vertical)
            case "width": look.width = number(k, v, 0...65535) ?? 0
            case "height": look.height = number(k, v, 0...65535) ?? 0
            case "style": look.style = styleWords(v, dropped: &dropped)
            default: return false
            }
            return true
        }
        /// The gradient of a table's or cell's `BGCOLOR` list, with its `STYLE` radial and
        /// `GRADIENTANGLE`; what is not drawn added to `dropped`.
        func gradient(_ attributes: [(String, String)]) -> FillGradient? {
            guard let list = attributes.last(where: { $0.0 == "bgcolor" })?.1, list.contains(":") else { return nil }
            let radial = attributes.contains { $0.0 == "style" && $0.1.lowercased().contains("radial") }
            let (g, problems) = DOTReader.gradient(list, radial: radial, angle: attributes.last { $0.0 == "gradientangle" }?.1)
            for p in problems { dropped.insert("BGCOLOR " + p) }
            return g
        }
        out.look.gradient = gradient(t.attributes)
        for (k, v) in t.attributes where !read(k, v, &out.look) {
            switch k {
            case "border": out.border = number(k, v, 0...127) ?? out.border
            case "cellborder": out.cellBorder = number(k, v, 0...127)
            case "cellpadding": out.padding = number(k, v, 0...255) ?? out.padding
            case "cellspacing": out.spacing = number(k, v, 0...127) ?? out.spacing
            default: break
            }
        }
        var rows: [[Int]] = []
        var rule = false
        for (r, row) in t.rows.enumerated() {
            // a rule above a row (or above empty rows before it) that has a row before it
            if t.rulesAbove.contains(r) { rule = true }
            if row.isEmpty { continue }
            if rule && !rows.isEmpty { out.rulesAbove.insert(rows.count) }
            rule = false
            rows.append([])
            for c in row {
                var cell = DOTHTMLTable.Cell()
                cell.port = c.port
                cell.lines = lines(c.text)
                cell.font = c.font ?? DOTHTMLTable.Font()
                cell.spans = c.table == nil ? cellSpans(c, bold: bold, italic: italic) : nil
                if let (src, scale) = c.image, c.table == nil {
                    // drawn from its file's bytes; what cannot be read is reported
                    let name = "<IMG SRC=\"\(src)\">"
                    if !readsImages {
                        dropped.insert(name + " (files are not read in a sandbox)")
                    } else {
                        switch DOTImage.load(src, scale: scale) {
                        case .success(let image): cell.image = image
                        case .failure(let e): dropped.insert(name + " " + e.reason)
                        }
                    }
                }
                cell.ruleBefore = c.ruleBefore
                if let inner = c.table, depth < Self.maximumDrawnDepth {
                    cell.table = table(inner, depth: depth + 1, bold: bold, italic: italic, readsImages: readsImages, dropped: &dropped)
                } else if let inner = c.table {
                    cell.lines = RecordLabel.leaves(RecordLabel.parse(record(inner, horizontal: true)))
                        .map { $0.lines.joined(separator: " ") }.filter { !$0.isEmpty }
                    dropped.insert("<TABLE> nested deeper than \(Self.maximumDrawnDepth) levels drawn as text")
                }
                cell.look.gradient = gradient(c.attributes)
                for (k, v) in c.attributes where !read(k, v, &cell.look) {
                    switch k {
                    case "colspan": cell.columns = Int(number(k, v, 1...65535) ?? 1)
                    case "rowspan": cell.rows = Int(number(k, v, 1...65535) ?? 1)
                    case "border": cell.border = number(k, v, 0...127)
                    case "cellpadding": cell.padding = number(k, v, 0...255)
                    case "sides":
                        let given = Set(v.uppercased().filter { !$0.isWhitespace })
                        if given.isSubset(of: "LTRB") {
                            cell.look.sides = String("LTRB".filter(given.contains))
                        } else {
                            dropped.insert("SIDES '\(v)'")
                        }
                    default: break
                    }
                }
                rows[rows.count - 1].append(out.cells.count)
                out.cells.append(cell)
            }
        }
        if !out.place(rowsOfCells: rows) {
            dropped.insert("COLSPAN or ROWSPAN past \(DOTHTMLTable.maximumSpan) or \(DOTHTMLTable.maximumPlaces) places")
        }
        return out
    }

    /// The words of a `STYLE` that are drawn (rounded, dashed, dotted, invis; solid is the
    /// default); others (radial, …) are added to `dropped`.
    private static func styleWords(_ value: String, dropped: inout Set<String>) -> [String] {
        var out: [String] = []
        for w in value.lowercased().split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) {
            switch w {
            case "rounded", "dashed", "dotted", "invis", "invisible": if !out.contains(w) { out.append(w == "invisible" ? "invis" : w) }
            case "solid", "radial": break  // radial: the BGCOLOR list's gradient
            default: dropped.insert("STYLE '\(w)'")
            }
        }
        return out
    }

    /// The font a `<FONT>` tag's attributes give; values that cannot be read are added to
    /// `dropped`.
    private static func font(_ attributes: [(String, String)], dropped: inout Set<String>) -> DOTHTMLTable.Font {
        var f = DOTHTMLTable.Font()
        for (k, v) in attributes {
            switch k {
            case "color":
                if let c = parseColor(v) { f.color = c } else { dropped.insert("COLOR '\(v)'") }
            case "point-size":
                if let n = Double(v.trimmingSpaces()), n >= 1, n <= 1000 { f.size = n } else { dropped.insert("POINT-SIZE '\(v)'") }
            case "face":
                let face = v.trimmingSpaces()
                if !face.isEmpty { f.face = face }
            default: break
            }
        }
        return f
    }

    /// `table` in record syntax where the fields around it lie side by side (`horizontal`)
    /// or are stacked: its rows stacked, each row's cells side by side.
    private static func record(_ table: Table, horizontal: Bool) -> String {
        let rows = table.rows.filter { !$0.isEmpty }
        func cell(_ c: Cell, horizontal: Bool) -> String {
            if let t = c.table { return record(t, horizontal: horizontal) }
            let port = c.port.map { "<" + escaped($0) + "> " } ?? ""
            return port + lines(c.text).map(escaped).joined(separator: "\\n")
        }
        func row(_ cells: [Cell], horizontal: Bool) -> String {
            // cells lie side by side: in a stacked context they need braces
            let body = cells.map { cell($0, horizontal: true) }.joined(separator: " | ")
            return horizontal || cells.count == 1 ? body : "{" + body + "}"
        }
        if rows.count == 1 { return row(rows[0], horizontal: horizontal) }
        let body = rows.map { row($0, horizontal: false) }.joined(separator: " | ")
        return horizontal ? "{" + body + "}" : body
    }

    /// The lines of `text` with their spaces collapsed and trimmed, blank lines dropped.
    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ") }
            .filter { !$0.isEmpty }
    }

    /// `s` with the characters of record syntax escaped.
    private static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            if "{}|<>\\".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// The text between the tags with the markup's line ends as spaces (only `<BR/>` breaks a
    /// line), and the tags.
    private static func items(_ html: String) -> [Item] {
        var out: [Item] = []
        var text = ""
        var it = Array(html)[...]
        while let c = it.first {
            it = it.dropFirst()
            guard c == "<" else { text.append(c == "\n" ? " " : c); continue }
            var body = ""
            var quote: Character?
            while let d = it.first {
                it = it.dropFirst()
                if let q = quote { if d == q { quote = nil } } else if d == "\"" || d == "'" { quote = d } else if d == ">" { break }
                body.append(d)
            }
            if !text.isEmpty { out.append(.text(text)); text = "" }
            if body.hasPrefix("!--") { continue }
            out.append(.tag(tag(body)))
        }
        if !text.isEmpty { out.append(.text(text)) }
        return out
    }

    private static func tag(_ body: String) -> Tag {
        var s = Substring(body)
        let closing = s.first == "/"
        if closing { s = s.dropFirst() }
        let selfClosing = s.last == "/"
        if selfClosing { s = s.dropLast() }
        let name = String(s.prefix { !$0.isWhitespace && $0 != "/" }).lowercased()
        s = s.dropFirst(name.count)
        var attributes: [(String, String)] = []
        while true {
            s = s.drop { $0.isWhitespace }
            let key = String(s.prefix { !$0.isWhitespace && $0 != "=" }).lowercased()
            guard !key.isEmpty else { break }
            s = s.dropFirst(key.count).drop { $0.isWhitespace }
            var value = ""
            if s.first == "=" {
                s = s.dropFirst().drop { $0.isWhitespace }
                if let q = s.first, q == "\"" || q == "'" {
                    s = s.dropFirst()
                    value = String(s.prefix { $0 != q })
                    s = s.dropFirst(value.count + 1)
                } else {
                    value = String(s.prefix { !$0.isWhitespace })
                    s = s.dropFirst(value.count)
                }
            }
            attributes.append((key, decoded(value)))
        }
        return Tag(name: name, closing: closing, selfClosing: selfClosing, attributes: attributes)
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and `&#N;`/`&#xN;` decoded.
    static func decoded(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var it = Array(s)[...]
        while let c = it.first {
            it = it.dropFirst()
            guard c == "&", let end = it.prefix(10).firstIndex(of: ";") else { out.append(c); continue }
            let name = String(it[it.startIndex..<end])
            var replacement: Character?
            switch name {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            case "nbsp": replacement = " "
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map(Character.init)
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map(Character.init)
                }
            }
            if let r = replacement {
                out.append(r)
                it = it[it.index(after: end)...]
            } else {
                out.append(c)
            }
        }
        return out
    }
}
