import FlowCore

/// A piece of an HTML-like label's text in one look: the `<FONT>` around it (colour, size,
/// face), `<B>`, `<I>`, `<U>` (underline), `<S>` (struck through), `<O>` (overline),
/// `<SUB>`, `<SUP>`. A label (a cell) whose text changes its look part of the way is kept as
/// lines of runs (`spans`, docs/formats.md "HTML-like labels"), which the renderer draws as
/// `tspan`s and the DOT writer writes back with their tags.
struct DOTTextRun: Equatable {
    var text: String
    var font = DOTHTMLTable.Font()
    var bold = false, italic = false, underline = false, strike = false, overline = false
    /// -1 below the line (`<SUB>`), 1 above it (`<SUP>`), 0 on it.
    var shift = 0

    /// Whether `other` looks the same (its text aside).
    func looksLike(_ other: DOTTextRun) -> Bool {
        font == other.font && bold == other.bold && italic == other.italic && underline == other.underline
            && strike == other.strike && overline == other.overline && shift == other.shift
    }

    /// Whether the run is decorated (underline, strike, overline, sub- or superscript).
    var isDecorated: Bool { underline || strike || overline || shift != 0 }

    /// The font it is measured in, `base` being its label's (cell's).
    func measured(_ base: TextFont) -> TextFont {
        TextFont(size: font.size ?? base.size, bold: bold || base.bold)
    }

    /// `runs` (text with `\n` line ends) as lines of runs, as the label's lines are read:
    /// spaces collapsed and trimmed, empty lines dropped; a space between two words goes to
    /// the run of the word after it, neighbours that look the same joined.
    static func lines(_ runs: [DOTTextRun]) -> [[DOTTextRun]] {
        var out: [[DOTTextRun]] = []
        var line: [DOTTextRun] = []
        var started = false, space = false
        func endLine() {
            if !line.isEmpty { out.append(line) }
            line = []
            started = false
            space = false
        }
        for run in runs {
            var text = ""
            for c in run.text {
                if c == "\n" {
                    if !text.isEmpty { append(&line, run, text) }
                    text = ""
                    endLine()
                } else if c == " " || c == "\t" || c == "\r" {
                    if started { space = true }
                } else {
                    if space { text.append(" ") }
                    space = false
                    started = true
                    text.append(c)
                }
            }
            if !text.isEmpty { append(&line, run, text) }
        }
        endLine()
        return out
    }

    private static func append(_ line: inout [DOTTextRun], _ run: DOTTextRun, _ text: String) {
        if let last = line.last, last.looksLike(run) {
            line[line.count - 1].text += text
        } else {
            var r = run
            r.text = text
            line.append(r)
        }
    }

    /// The size of `lines` drawn in `base`: the widest line's runs side by side, each line
    /// as high as its largest font's line height.
    static func size(_ lines: [[DOTTextRun]], base: TextFont) -> Size {
        var w = 0.0, h = 0.0
        for line in lines {
            w = max(w, line.reduce(0) { $0 + TextMetrics.width(of: $1.text, font: $1.measured(base)) })
            h += line.map { $0.measured(base).lineHeight }.max() ?? base.lineHeight
        }
        return Size(w, h)
    }

    /// The run as JSON: `text` and what it sets (`color`, `size`, `face`, `bold`, `italic`,
    /// `underline`, `strike`, `overline`, `shift`).
    var json: JSONValue {
        var o = JSONObject([("text", .string(text))])
        if let c = font.color { o["color"] = .string(c.description) }
        if let s = font.size { o["size"] = .number((s * 1000).rounded() / 1000) }
        if let f = font.face { o["face"] = .string(f) }
        for (key, on) in [("bold", bold), ("italic", italic), ("underline", underline), ("strike", strike), ("overline", overline)] where on {
            o[key] = .bool(true)
        }
        if shift != 0 { o["shift"] = .number(Double(shift)) }
        return .object(o)
    }

    /// Lines of runs as JSON (`spans`): an array of lines, each an array of runs.
    static func json(_ lines: [[DOTTextRun]]) -> JSONValue {
        .array(lines.map { .array($0.map(\.json)) })
    }

    /// Lines of runs read back from `spans` (for the DOT writer); nil when it is not one.
    static func lines(json v: JSONValue?) -> [[DOTTextRun]]? {
        guard case .array(let lines)? = v else { return nil }
        var out: [[DOTTextRun]] = []
        for case .array(let line) in lines {
            var runs: [DOTTextRun] = []
            for case .object(let o) in line {
                guard case .string(let text)? = o["text"] else { return nil }
                var r = DOTTextRun(text: text)
                if case .string(let c)? = o["color"] { r.font.color = FlowColor(c) }
                if case .number(let s)? = o["size"], s.isFinite, s >= 1, s <= 1000 { r.font.size = s }
                if case .string(let f)? = o["face"] { r.font.face = f }
                r.bold = o["bold"] == .bool(true)
                r.italic = o["italic"] == .bool(true)
                r.underline = o["underline"] == .bool(true)
                r.strike = o["strike"] == .bool(true)
                r.overline = o["overline"] == .bool(true)
                if case .number(let s)? = o["shift"] { r.shift = s < 0 ? -1 : s > 0 ? 1 : 0 }
                runs.append(r)
            }
            out.append(runs)
        }
        return out
    }

    /// The runs as the HTML-like label's text: each run in its tags (`<FONT …>`, `<B>`, …),
    /// lines joined by `<BR/>`.
    static func html(_ lines: [[DOTTextRun]]) -> String {
        lines.map { line in
            line.map { r in
                var open = "", close = ""
                func wrap(_ tag: String, _ on: Bool) {
                    guard on else { return }
                    open += "<" + tag + ">"
                    close = "</" + tag + ">" + close
                }
                var font = ""
                if let c = r.font.color { font += " COLOR=\"" + DOTHTMLWriter.escaped(c.description) + "\"" }
                if let s = r.font.size { font += " POINT-SIZE=\"" + formatNumber(s) + "\"" }
                if let f = r.font.face { font += " FACE=\"" + DOTHTMLWriter.escaped(f) + "\"" }
                if !font.isEmpty {
                    open += "<FONT" + font + ">"
                    close = "</FONT>" + close
                }
                wrap("B", r.bold)
                wrap("I", r.italic)
                wrap("U", r.underline)
                wrap("S", r.strike)
                wrap("O", r.overline)
                wrap("SUB", r.shift < 0)
                wrap("SUP", r.shift > 0)
                return open + DOTHTMLWriter.escaped(r.text) + close
            }.joined()
        }.joined(separator: "<BR/>")
    }
}
