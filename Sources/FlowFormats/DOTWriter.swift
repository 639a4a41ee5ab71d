import FlowCore

/// A document as DOT text (docs/formats.md, "DOT"): groups as clusters, nested; labels,
/// shapes, styles and classes as attributes; positions as `pos` in points with y up and
/// sizes as `width`/`height` in inches, so `neato -n` keeps the layout and `dot` draws its own.
public enum DOTWriter {
    public static func write(_ doc: FlowDocument<JSONValue>) -> String {
        // DOT has no class sheet: what the classes give is written on each element
        let doc = doc.resolvingClasses()
        var out = "digraph {\n"
        var bottom = 0.0, right = 0.0
        for n in doc.nodes {
            bottom = max(bottom, n.position.y + n.size.height)
            right = max(right, n.position.x + n.size.width)
        }
        var graph: [String] = []
        if !doc.nodes.isEmpty { graph.append("bb=" + quote("0,0," + num(right) + "," + num(bottom))) }
        graph += lookAttributes(doc.look)
        if !graph.isEmpty { out += "  graph [" + graph.joined(separator: ", ") + "];\n" }
        GroupWalk.walk(doc.nodes) { step in
            switch step {
            case .close(let pad):
                out += pad + "}\n"
            case .open(let n, let pad):
                out += pad + "subgraph " + quote(clusterID(n.id)) + " {\n"
                var attrs = groupAttributes(n)
                let f = n.frame
                attrs.append("bb=" + quote([f.origin.x, bottom - f.origin.y - f.size.height, f.origin.x + f.size.width, bottom - f.origin.y].map(num).joined(separator: ",")))
                out += pad + "  graph [" + attrs.joined(separator: ", ") + "];\n"
            case .node(let n, let pad):
                out += pad + quote(n.id)
                let attrs = nodeAttributes(n, bottom: bottom, sideways: doc.look.direction.map { $0 == .LR || $0 == .RL } ?? false)
                if !attrs.isEmpty { out += " [" + attrs.joined(separator: ", ") + "]" }
                out += ";\n"
            }
        }
        // rank constraints as the anonymous subgraphs dot reads them from
        for r in doc.look.ranks {
            out += "  {rank=" + r.kind.rawValue + "; " + r.nodes.map { quote($0) + "; " }.joined() + "}\n"
        }
        let byID = Dictionary(doc.nodes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var edgeRanks: [String: EdgeRank] = [:]
        for r in doc.look.edgeRanks { edgeRanks[r.edge] = r }
        for e in doc.edges {
            out += "  " + endpoint(e.sourceNodeID, e.sourceHandleID, byID) + " -> " + endpoint(e.targetNodeID, e.targetHandleID, byID)
            var attrs = ["id=" + quote(e.id)]
            if let l = e.label { attrs.append("label=" + quoteLabel(l)) }
            attrs += styleAttributes(e.style, node: false)
            if let a = e.style.targetArrow { attrs.append("arrowhead=" + arrowName(a)) }
            if let a = e.style.sourceArrow { attrs.append("dir=both"); attrs.append("arrowtail=" + arrowName(a)) }
            if !e.classes.isEmpty { attrs.append("class=" + quote(e.classes.joined(separator: " "))) }
            if let r = edgeRanks[e.id] {
                if r.minLength != 1 { attrs.append("minlen=\(r.minLength)") }
                if !r.constraint { attrs.append("constraint=false") }
                if r.weight != 1 { attrs.append("weight=\(r.weight)") }
            }
            out += " [" + attrs.joined(separator: ", ") + "];\n"
        }
        out += "}\n"
        return out
    }

    /// The diagram's title and page colour as graph attributes.
    static func lookAttributes(_ look: DiagramLook) -> [String] {
        var a: [String] = []
        if let t = look.title { a.append("label=" + quoteLabel(t)) }
        if let p = look.titlePlace { a.append("labelloc=" + (p == .top ? "t" : "b")) }
        if let f = look.fontName { a.append("fontname=" + quote(f)) }
        if let s = look.fontSize { a.append("fontsize=" + value(num(s))) }
        if let c = look.textColor { a.append("fontcolor=" + quote(c.description)) }
        if let g = look.backgroundGradient {
            a += gradientAttributes(g, colorKey: "bgcolor")
            if g.radial { a.append("style=radial") }
        } else if let c = look.background {
            a.append("bgcolor=" + quote(c.description))
        }
        if let d = look.direction { a.append("rankdir=" + d.rawValue) }
        if let s = look.nodeSpacing { a.append("nodesep=" + value(inches(s))) }
        if look.layerSpacing != nil || look.equalLayerSpacing {
            let words = [look.layerSpacing.map(inches), look.equalLayerSpacing ? "equally" : nil].compactMap { $0 }
            a.append("ranksep=" + quote(words.joined(separator: " ")))
        }
        return a
    }

    /// A record's title (fields as drawn, side by side at the top level) as the label of a
    /// graph written `sideways` (`rankdir=LR`/`RL`), where dot and the reader stack the
    /// top-level fields: the title's outer braces taken off, or braces put round it.
    static func recordLabel(_ title: String, sideways: Bool) -> String {
        guard sideways else { return title }
        guard title.hasPrefix("{") && title.hasSuffix("}") && title.count >= 2 else { return "{" + title + "}" }
        var depth = 0, escaped = false, closedEarly = false
        for (i, c) in title.enumerated() {
            if escaped { escaped = false; continue }
            switch c {
            case "\\": escaped = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 && i != title.count - 1 { closedEarly = true }
            default: break
            }
        }
        guard !closedEarly, !escaped, depth == 0 else { return "{" + title + "}" }
        return String(title.dropFirst().dropLast())
    }

    /// A spacing in points as inches, to a millionth: read back (× 72, to 1/1000) it gives
    /// the points again.
    static func inches(_ points: Double) -> String { formatNumber((points / 72 * 1e6).rounded() / 1e6) }

    /// Whether node `n` holds a table (its data's `table`), its title kept in record syntax.
    static func hasTable(_ n: FlowNode<JSONValue>) -> Bool {
        if case .object(let data) = n.data, case .object? = data["table"] { return true }
        return false
    }

    static func clusterID(_ id: String) -> String { id.hasPrefix("cluster") ? id : "cluster_" + id }

    /// A record field's port (`name`, or `name:compass`) for handle `handle` of a record
    /// node that has a field of that name (the reader names the handle `out-name` or
    /// `in-name:compass`); nil for other handles.
    static func recordPort(_ handle: String, _ n: FlowNode<JSONValue>) -> String? {
        guard (n.shape ?? .rounded).isRecord || hasTable(n), let dash = handle.firstIndex(of: "-") else { return nil }
        let rest = handle[handle.index(after: dash)...]
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let record = RecordLabel.parse(title(n) ?? n.id)
        guard RecordLabel.field(named: name, in: record) != nil else { return nil }
        return quote(name) + (parts.count > 1 ? ":" + parts[1] : "")
    }

    static func endpoint(_ node: String, _ handle: String?, _ byID: [String: FlowNode<JSONValue>]) -> String {
        let id = byID[node].map { $0.acceptsChildren ? clusterID($0.id) : $0.id } ?? node
        guard let handle, let n = byID[node], let h = n.handle(handle) else { return quote(id) }
        // an edge without a port reads back on the default handles (`source`, `target`)
        if handle == "source" || handle == "target" { return quote(id) }
        if let port = recordPort(handle, n) { return quote(id) + ":" + port }
        let compass: String
        switch h.position {
        case .top: compass = "n"
        case .bottom: compass = "s"
        case .left: compass = "w"
        case .right: compass = "e"
        case .center: compass = "c"
        }
        return quote(id) + ":" + compass
    }

    static func title(_ n: FlowNode<JSONValue>) -> String? {
        let t = n.data.title(nodeID: n.id)
        return t == n.id ? nil : t
    }

    static func groupAttributes(_ n: FlowNode<JSONValue>) -> [String] {
        var a: [String] = []
        if clusterID(n.id) != n.id { a.append("id=" + quote(n.id)) }
        let t = n.data.title(nodeID: n.id)
        if t != clusterID(n.id) { a.append("label=" + quoteLabel(t)) }
        a += styleAttributes(n.style, node: true)
        if n.shape == .rounded { a.append("style=rounded") }
        if let g = FillGradient.stored(in: n.data) {
            a.removeAll { $0.hasPrefix("fillcolor=") }
            a += gradientAttributes(g, colorKey: "fillcolor")
            a.append("style=" + (g.radial ? "radial" : "filled"))
        }
        if !n.classes.isEmpty { a.append("class=" + quote(n.classes.joined(separator: " "))) }
        return a
    }

    /// `sideways`: the graph is written with `rankdir=LR` or `RL`, which turns a record's
    /// fields a quarter turn (`recordLabel`).
    static func nodeAttributes(_ n: FlowNode<JSONValue>, bottom: Double, sideways: Bool = false) -> [String] {
        var a: [String] = []
        let drawn = drawnShape(n)
        if let html = drawn?.label {
            a.append("label=<" + html + ">")
        } else if case .object(let data) = n.data, let spans = DOTTextRun.lines(json: data["spans"]), !spans.isEmpty {
            // text in several looks: an HTML-like label of its runs
            a.append("label=<" + DOTTextRun.html(spans) + ">")
        } else if let t = title(n) {
            // a record's title is record syntax: its backslashes are escapes to keep
            a.append("label=" + ((n.shape ?? .rounded).isRecord || hasTable(n) ? quoteRecord(recordLabel(t, sideways: sideways)) : quoteLabel(t)))
        }
        var styles: [String] = []
        if let drawn {
            a += drawn.attributes
            styles += drawn.styles
        } else {
            a += shapeAttributes(n, &styles)
        }
        var st = styleAttributes(n.style, node: true)
        if let i = st.firstIndex(where: { $0.hasPrefix("style=") }) {
            styles.append(String(st[i].dropFirst(7).dropLast()))
            st.remove(at: i)
        }
        if n.style.fill != nil { styles.append("filled") }
        if let g = FillGradient.stored(in: n.data) {
            st.removeAll { $0.hasPrefix("fillcolor=") }
            st += gradientAttributes(g, colorKey: "fillcolor")
            if g.radial { styles.append("radial") }
        }
        a += st
        if !styles.isEmpty { a.append("style=" + quote(styles.joined(separator: ","))) }
        if !n.classes.isEmpty { a.append("class=" + quote(n.classes.joined(separator: " "))) }
        let cx = n.position.x + n.size.width / 2, cy = bottom - (n.position.y + n.size.height / 2)
        a.append("pos=" + quote(num(cx) + "," + num(cy)))
        // inches to 6 places: the reader's 1/1000 px rounding gives the size back exactly
        let size = drawn?.size ?? n.size
        a.append("width=" + value(inches(size.width)))
        a.append("height=" + value(inches(size.height)))
        // a size the user set is exact; DOT's sizes are minimums the label may grow (a
        // table's node is sized round its table again, to the size written)
        if !n.autoSize && !(drawn?.label != nil) { a.append("fixedsize=true") }
        return a
    }

    /// The shape attributes of node `n` (its style words added to `styles`).
    static func shapeAttributes(_ n: FlowNode<JSONValue>, _ styles: inout [String]) -> [String] {
        var a: [String] = []
        switch n.shape ?? .rounded {
        case .rounded, .stadium: a.append("shape=box"); styles.append("rounded")
        case .rectangle, .document: a.append("shape=box")
        // Graphviz has neither: a box with a line inside each side, a flag
        case .subroutine: a.append("shape=box"); a.append("peripheries=2")
        case .asymmetric: a.append("shape=cds")
        case .ellipse: a.append("shape=ellipse")
        case .circle: a.append("shape=circle")
        case .diamond: a.append("shape=diamond")
        case .hexagon: a.append("shape=hexagon")
        case .parallelogram: a.append("shape=parallelogram")
        case .cylinder: a.append("shape=cylinder")
        case .note: a.append("shape=note")
        case .record: a.append("shape=record")
        case .mrecord: a.append("shape=Mrecord")
        case .plain: a.append("shape=plaintext")
        case .msquare: a.append("shape=Msquare")
        case .mdiamond: a.append("shape=Mdiamond")
        case .doublecircle, .triangle, .invtriangle, .house, .invhouse, .trapezium, .invtrapezium, .pentagon,
            .septagon, .octagon, .doubleoctagon, .tripleoctagon, .box3d, .component, .tab, .folder:
            a.append("shape=" + (n.shape ?? .rounded).rawValue)
        }
        return a
    }

    /// A gradient as a colour list at `colorKey` (`#ff0000;0.3:#0000ff` with a split) and its
    /// `gradientangle`.
    static func gradientAttributes(_ g: FillGradient, colorKey: String) -> [String] {
        let first = g.from.description + (g.split.map { ";" + formatNumber($0) } ?? "")
        var a = [colorKey + "=" + quote(first + ":" + g.to.description)]
        if g.angle != 0 { a.append("gradientangle=" + value(num(g.angle))) }
        return a
    }

    /// Colours, width, dashes and font size.
    static func styleAttributes(_ s: FlowStyle, node: Bool) -> [String] {
        var a: [String] = []
        if let c = s.stroke { a.append("color=" + quote(c.description)) }
        if let c = s.fill { a.append("fillcolor=" + quote(c.description)) }
        if let c = s.textColor { a.append("fontcolor=" + quote(c.description)) }
        if let w = s.strokeWidth { a.append("penwidth=" + value(num(w))) }
        if let f = s.fontSize { a.append("fontsize=" + value(num(f))) }
        var styles: [String] = []
        if let d = s.dash, !d.isEmpty { styles.append(d.first! <= 2 ? "dotted" : "dashed") }
        if s.opacity == 0 { styles.append("invis") }
        if !styles.isEmpty { a.append("style=\"" + styles.joined(separator: ",") + "\"") }
        return a
    }

    static func arrowName(_ a: ArrowHead) -> String {
        switch a {
        case .none: return "none"
        case .arrow: return "normal"
        case .open: return "ovee"
        case .diamond: return "diamond"
        case .circle: return "dot"
        case .hollowArrow: return "onormal"
        case .hollowDiamond: return "odiamond"
        case .hollowCircle: return "odot"
        case .hollowBox: return "obox"
        case .hollowInv: return "oinv"
        case .inv, .vee, .tee, .crow, .box: return a.rawValue
        case .cross: return "tee"  // Graphviz has no cross: the closest mark across the line
        }
    }

    static func num(_ v: Double) -> String { formatNumber((v * 1000).rounded() / 1000) }

    /// A number written as an attribute's whole value: DOT's numerals have no exponent, so a
    /// very large or small one (`1.5e+28`) is quoted, as Graphviz reads it.
    static func value(_ number: String) -> String {
        number.allSatisfy { "0123456789.-".contains($0) } ? number : quote(number)
    }

    /// An id or value as DOT text that reads back as `s`. In a quoted DOT string only `\"`
    /// is an escape, `\\` stays two backslashes and a backslash before a line end joins
    /// lines (Graphviz's rules, which the reader follows), so a string with an odd run of
    /// backslashes before a quote, a line end or its end has no quoted form: it is written
    /// as an HTML string `<…>` when its angle brackets balance. Otherwise (Graphviz cannot
    /// write it either) the run gets one more backslash, so the text still reads;
    /// `FlowStore.text(.dot)` refuses such an id instead (`WrittenTextLimits.checkDOTIDs`).
    static func quote(_ s: String) -> String {
        if let q = quoted(s, exact: true) { return q }
        if htmlBalanced(s) { return "<" + s + ">" }
        return quoted(s, exact: false)!
    }

    /// `s` in quotes, `"` escaped; nil (when `exact`) if it has no quoted form.
    static func quoted(_ s: String, exact: Bool) -> String? {
        var out: [UInt8] = [34]
        let u = Array(s.utf8)
        var run = 0
        for (i, c) in u.enumerated() {
            if c == 92 { run += 1; out.append(c); continue }
            let endsRun = c == 34 || c == 10 || (c == 13 && i + 1 < u.count && u[i + 1] == 10)
            if run % 2 == 1 && endsRun {
                if exact { return nil }
                out.append(92)
            }
            run = 0
            if c == 34 { out.append(92) }
            out.append(c)
        }
        if run % 2 == 1 {
            if exact { return nil }
            out.append(92)
        }
        out.append(34)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `s` can be the inside of an HTML string: `<` and `>` balance and no prefix
    /// closes more than it opens.
    static func htmlBalanced(_ s: String) -> Bool {
        var depth = 0
        for c in s.utf8 {
            if c == 60 { depth += 1 } else if c == 62 { depth -= 1; if depth < 0 { return false } }
        }
        return depth == 0
    }

    /// A record label in quotes: its backslashes kept (they escape record syntax), `"`
    /// escaped, line ends as `\n`.
    static func quoteRecord(_ s: String) -> String { "\"" + escapedLabel(s, backslash: "\\") + "\"" }

    /// A quoted label: backslashes doubled so `\N` and friends are not expanded, line ends as
    /// `\n`, and one more `\n` after a final line end (the reader, like Graphviz, takes a
    /// final `\n` as the end of the last line).
    static func quoteLabel(_ s: String) -> String {
        let end = s.unicodeScalars.last == "\n" ? "\\n" : ""
        return "\"" + escapedLabel(s, backslash: "\\\\") + end + "\""
    }

    /// `s` with `"` escaped, line ends as `\n` and each backslash as `backslash`.
    static func escapedLabel(_ s: String, backslash: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += backslash
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

