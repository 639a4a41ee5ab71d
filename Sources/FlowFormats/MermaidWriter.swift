import FlowCore

/// A document as a Mermaid flowchart (docs/formats.md, "Mermaid"): groups as subgraphs
/// (with a `direction` their data holds), labels, shapes (a node's own, else its classes'),
/// classes (`classDef` from the class sheet), own styles (`style`), links by the edges'
/// styles with their classes resolved (kind and ends, then `linkStyle` for the rest).
/// Mermaid has no positions; the header's direction is the document's
/// (`DiagramLook.direction`, as read), else the one most edges run in.
public enum MermaidWriter {
    public static func write(_ doc: FlowDocument<JSONValue>) -> String {
        var names: [String: String] = [:]
        var taken = Set<String>()
        let ids = Set(doc.nodes.map(\.id))
        // the next number to try after each base name: renaming n ids costs O(n), not O(n²)
        var next: [String: Int] = [:]
        for n in doc.nodes {
            var name = isPlainID(n.id) ? n.id : "n"
            if name != n.id || taken.contains(name) {
                var k = next[name] ?? 1
                while taken.contains("\(name)\(k)") || ids.contains("\(name)\(k)") { k += 1 }
                next[name] = k + 1
                name = "\(name)\(k)"
            }
            taken.insert(name)
            names[n.id] = name
        }
        var out = ""
        if let t = doc.look.title {
            // the front matter's title, as a YAML double-quoted string
            var q = ""
            for c in t.unicodeScalars {
                switch c {
                case "\"": q += "\\\""
                case "\\": q += "\\\\"
                case "\n": q += "\\n"
                default:
                    // other control characters as `\uXXXX` (a line may not hold them)
                    if c.value < 32 || c.value == 127 {
                        let hex = String(c.value, radix: 16)
                        q += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        q.unicodeScalars.append(c)
                    }
                }
            }
            out += "---\ntitle: \"" + q + "\"\n---\n"
        }
        out += "flowchart " + direction(doc) + "\n"
        // what Mermaid cannot draw of a node, said in comments (MermaidWriter+Lost)
        for n in doc.nodes { for lost in lost(n, name: names[n.id]!, shape: doc.resolvedShape(of: n)) { out += "%% " + lost + "\n" } }
        GroupWalk.walk(doc.nodes) { step in
            switch step {
            case .close(let pad):
                out += pad + "end\n"
            case .open(let n, let pad):
                out += pad + "subgraph " + names[n.id]! + "[" + quote(n.data.title(nodeID: n.id)) + "]\n"
                if let d = n.data.string(at: "direction"), MermaidReader.Reader.direction(d) != nil {
                    out += pad + "  direction " + d + "\n"
                }
            case .node(let n, let pad):
                let (open, close) = brackets(doc.resolvedShape(of: n))
                out += pad + names[n.id]! + open + quote(tableText(n) ?? n.data.title(nodeID: n.id)) + close + "\n"
            }
        }
        var linkStyles: [String] = []
        var written = 0
        var lengths: [String: Int] = [:]
        for r in doc.look.edgeRanks { lengths[r.edge] = r.minLength }
        for e in doc.edges {
            guard let a = names[e.sourceNodeID], let b = names[e.targetNodeID] else { continue }
            let style = doc.resolvedStyle(e.style, classes: e.classes)
            let (kind, rest) = link(style, length: lengths[e.id] ?? 1)
            out += "  " + a + " " + kind + (e.label.map { "|" + quote($0) + "|" } ?? "") + " " + b + "\n"
            let s = styleText(rest)
            if !s.isEmpty { linkStyles.append("  linkStyle \(written) " + s + "\n") }
            written += 1
        }
        out += linkStyles.joined()
        for name in doc.classes.keys.sorted() {
            let s = styleText(doc.classes[name]!.style)
            if !s.isEmpty { out += "  classDef " + name + " " + s + "\n" }
        }
        for n in doc.nodes {
            for c in n.classes { out += "  class " + names[n.id]! + " " + c + "\n" }
            let s = styleText(n.style)
            if !s.isEmpty { out += "  style " + names[n.id]! + " " + s + "\n" }
        }
        return out
    }

    static let keywords: Set<String> = ["end", "graph", "flowchart", "subgraph", "class", "classDef", "style", "click", "linkStyle", "direction"]

    static func isPlainID(_ id: String) -> Bool {
        !id.isEmpty && !keywords.contains(id) && id.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
        }
    }

    /// The document's direction (`DiagramLook.direction`), else the one most edges run in.
    static func direction(_ doc: FlowDocument<JSONValue>) -> String {
        doc.look.direction?.rawValue ?? drawnDirection(doc)
    }

    /// LR or RL when most edges run sideways, else TB or BT, as they run.
    static func drawnDirection(_ doc: FlowDocument<JSONValue>) -> String {
        let byID = Dictionary(doc.nodes.map { ($0.id, $0.position) }, uniquingKeysWith: { a, _ in a })
        var dx = 0.0, dy = 0.0
        for e in doc.edges {
            guard let a = byID[e.sourceNodeID], let b = byID[e.targetNodeID] else { continue }
            dx += b.x - a.x
            dy += b.y - a.y
        }
        if abs(dx) > abs(dy) { return dx >= 0 ? "LR" : "RL" }
        return dy >= 0 ? "TB" : "BT"
    }

    static func brackets(_ s: NodeShape) -> (String, String) {
        switch s {
        case .rounded: return ("(", ")")
        case .subroutine: return ("[[", "]]")
        case .asymmetric: return (">", "]")
        case .rectangle, .document, .note, .record, .mrecord, .plain, .msquare, .box3d, .component, .tab, .folder,
            .triangle, .invtriangle, .house, .invhouse, .pentagon, .septagon, .octagon, .doubleoctagon,
            .tripleoctagon:
            return ("[", "]")
        case .mdiamond: return ("{", "}")
        case .doublecircle: return ("(((", ")))")
        case .trapezium: return ("[/", "\\]")
        case .invtrapezium: return ("[\\", "/]")
        case .stadium: return ("([", "])")
        case .diamond: return ("{", "}")
        case .hexagon: return ("{{", "}}")
        case .circle: return ("((", "))")
        case .ellipse: return ("([", "])")
        case .cylinder: return ("[(", ")]")
        case .parallelogram: return ("[/", "/]")
        }
    }

    /// The link for an edge's style, and what of the style the link does not say (for
    /// `linkStyle`): dashes other than the dotted link's `3 3`, a width other than the thick
    /// link's 3, colours, fonts. Arrowheads Mermaid has no link end for are drawn as arrows.
    /// A `length` over 1 (`EdgeRank.minLength`) adds a dash (a dot, an `=`) for each more
    /// layer; Mermaid has no shorter link than 1.
    static func link(_ s: FlowStyle, length: Int = 1) -> (String, FlowStyle) {
        let more = max(0, length - 1)
        func end(_ a: ArrowHead, tail: Bool) -> String {
            switch a {
            case .none: return ""
            case .circle, .hollowCircle: return "o"
            case .cross: return "x"
            default: return tail ? "<" : ">"
            }
        }
        let head = end(s.targetArrow ?? .arrow, tail: false)
        let tail = end(s.sourceArrow ?? .none, tail: true)
        var rest = s
        rest.targetArrow = nil
        rest.sourceArrow = nil
        if s.opacity == 0 {
            rest.opacity = nil
            return ("~~~", rest)
        }
        if let d = s.dash, !d.isEmpty {
            if d == [3, 3] { rest.dash = nil }
            return (tail + "-" + String(repeating: ".", count: 1 + more) + "-" + head, rest)
        }
        rest.dash = nil  // an empty pattern: solid, as the link is
        if let w = s.strokeWidth, w >= 3 {
            if w == 3 { rest.strokeWidth = nil }
            return (tail + String(repeating: "=", count: (head.isEmpty ? 3 : 2) + more) + head, rest)
        }
        return (tail + String(repeating: "-", count: (head.isEmpty ? 3 : 2) + more) + head, rest)
    }

    /// Text in quotes that reads back as `s`: a line end as `<br>`; `"` as `#quot;`; `#`,
    /// `|` (which ends a link text), `<`, a backquote and control characters as Mermaid's
    /// decimal entity codes (`#124;`).
    static func quote(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "#quot;"
            case "\n": out += "<br>"
            case "#", "|", "<", "`": out += "#\(c.value);"
            default:
                if c.value < 32 || c.value == 127 { out += "#\(c.value);" } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    static func styleText(_ s: FlowStyle) -> String {
        var a: [String] = []
        if let c = s.fill { a.append("fill:" + c.description) }
        if let c = s.stroke { a.append("stroke:" + c.description) }
        if let w = s.strokeWidth { a.append("stroke-width:" + formatNumber(w) + "px") }
        if let c = s.textColor { a.append("color:" + c.description) }
        if let d = s.dash, !d.isEmpty { a.append("stroke-dasharray:" + d.map(formatNumber).joined(separator: " ")) }
        if let f = s.fontSize { a.append("font-size:" + formatNumber(f) + "px") }
        if s.bold == true { a.append("font-weight:bold") }
        if s.italic == true { a.append("font-style:italic") }
        if let o = s.opacity { a.append("opacity:" + formatNumber(o)) }
        return a.joined(separator: ",")
    }
}
