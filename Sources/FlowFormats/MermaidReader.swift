import FlowCore
import FlowLayout

/// Mermaid flowchart text to a document (docs/formats.md, "Mermaid"). A line reader: each
/// statement is a node/edge chain, `subgraph … end`, `classDef`, `class`, `style` or
/// `direction`; anything else is reported in the warnings.
public enum MermaidReader {
    public static func read(_ text: String, operation: String = "load", limits: FormatLimits = FormatLimits()) throws(FlowError) -> FormatImport {
        var r = try reading(text, operation, Reader(limits: limits))
        if !r.floor.isEmpty {
            // a statement that joins too many nodes each to each, its edges not made
            if let refusal = r.floor.refusal(
                limit: limits.bendPoints, container: { r.nodes[$0].parentID },
                counts: { !r.nodes[$0].acceptsChildren && !r.nodes[$0].data.isPinned })
            {
                throw refusal
            }
            // later lines took its nodes apart: read again, making every edge
            r = try reading(text, operation, Reader(limits: limits, countsFloor: false))
        }
        return r.result()
    }

    private static func reading(_ text: String, _ operation: String, _ reader: Reader) throws(FlowError) -> Reader {
        var r = reader
        do {
            try r.run(text)
        } catch {
            throw .invalidDocument(operation, "Mermaid: \(error.description)")
        }
        try WorkLimit.check(operation)  // the reader stops early past the limit
        return r
    }

    struct SyntaxError: Error {
        var line: Int
        var column: Int
        var message: String
        var description: String { "line \(line), column \(column): \(message)" }
    }

    static let maximumDepth = 64
    static let maximumLineLength = 1 << 16

    /// Opening bracket, closing bracket, shape.
    static let brackets: [(String, String, NodeShape)] = [
        ("(((", ")))", .doublecircle), ("((", "))", .circle), ("([", "])", .stadium),
        ("[(", ")]", .cylinder), ("[[", "]]", .subroutine), ("[/", "/]", .parallelogram),
        ("[\\", "\\]", .parallelogram), ("[/", "\\]", .trapezium), ("[\\", "/]", .invtrapezium),
        ("{{", "}}", .hexagon), ("(", ")", .rounded), ("[", "]", .rectangle),
        ("{", "}", .diamond), (">", "]", .asymmetric),
    ]

    struct Reader {
        let limits: FormatLimits
        /// Whether statements are held to `limits.bendPoints` as they are read (`BendPointFloor`).
        var countsFloor = true
        var floor = BendPointFloor()
        var nodes: [FlowNode<JSONValue>] = []
        var index: [String: Int] = [:]
        var edges: [FlowEdge] = []
        var classes: [String: FlowClass] = [:]
        var tally = WarningTally()
        var direction = LayoutDirection.TB
        /// Whether the text names the graph's direction (in its header or a `direction`
        /// outside subgraphs): kept in the document's look.
        var directionGiven = false
        var groups: [String] = []
        var line = 0
        /// The front matter's title (`---`, `title: …`, `---` before the header).
        var look = DiagramLook()
        /// Inside the front matter.
        var frontMatter = false
        /// `linkStyle` lines: the link number (nil: `default`) and the style.
        var linkStyles: [(Int?, FlowStyle)] = []

        func fail(_ message: String, column: Int = 1) -> SyntaxError {
            SyntaxError(line: line, column: column, message: message)
        }

        mutating func run(_ text: String) throws(SyntaxError) {
            var header = false
            var probe = WorkLimitProbe(stride: 64)
            var text = Substring(text)
            if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }  // a byte order mark
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if probe.shouldStop() { return }
                line += 1
                guard raw.utf8.count <= MermaidReader.maximumLineLength else { throw fail("line longer than \(MermaidReader.maximumLineLength) bytes") }
                if raw.utf8.contains(where: { $0 < 32 && $0 != 9 && $0 != 13 }) { throw fail("control character in the text") }
                var s = String(raw).trimmingSpaces()
                if !header && (frontMatter || (s == "---" && line == 1)) {
                    // an indented line belongs to the key above it
                    if s == "---" { frontMatter.toggle() } else if raw.first != " " && raw.first != "\t" { frontMatterLine(s) }
                    continue
                }
                if s.hasPrefix("%%") {
                    if s.hasPrefix("%%{") { tally.add("directive '\(s.prefix(40))' is not supported", unit: "") }
                    continue
                }
                if s.isEmpty { continue }
                if !header {
                    let words = s.split(separator: " ", omittingEmptySubsequences: true)
                    guard let w = words.first, w == "flowchart" || w == "graph" else {
                        throw fail("expected 'flowchart' or 'graph' with a direction, found '\(s.prefix(40))'")
                    }
                    if words.count > 1 {
                        var d = String(words[1])
                        if d.hasSuffix(";") { d.removeLast() }
                        guard let dir = Self.direction(d) else { throw fail("unknown direction '\(d)' (expected TB, TD, BT, LR or RL)", column: w.count + 2) }
                        direction = dir
                        directionGiven = true
                    }
                    header = true
                    continue
                }
                if let semicolon = Self.splitPoint(s) {
                    // `a --> b; b --> c`: statements on one line
                    let rest = String(s[s.index(after: semicolon)...])
                    s = String(s[..<semicolon])
                    try statement(s)
                    for part in rest.split(separator: ";") where !String(part).trimmingSpaces().isEmpty { try statement(String(part).trimmingSpaces()) }
                    continue
                }
                try statement(s)
            }
            if frontMatter { throw fail("the front matter is not closed with '---'") }
            guard header else { throw fail("expected 'flowchart' or 'graph' with a direction, found end of input") }
            if !groups.isEmpty { throw fail("subgraph '\(groups.last!)' is not closed with 'end'") }
            applyLinkStyles()
        }

        /// The first `;` outside quotes and brackets.
        static func splitPoint(_ s: String) -> String.Index? {
            var quoted = false, depth = 0
            for i in s.indices {
                switch s[i] {
                case "\"": quoted.toggle()
                case "[", "(", "{": if !quoted { depth += 1 }
                case "]", ")", "}": if !quoted { depth -= 1 }
                case ";": if !quoted && depth <= 0 { return i }
                default: break
                }
            }
            return nil
        }

        static func direction(_ d: String) -> LayoutDirection? {
            switch d.uppercased() {
            case "TB", "TD": return .TB
            case "BT": return .BT
            case "LR": return .LR
            case "RL": return .RL
            default: return nil
            }
        }

        mutating func statement(_ s: String) throws(SyntaxError) {
            var s = s
            while s.hasSuffix(";") { s.removeLast() }
            let word = String(s.prefix { $0 != " " && $0 != "\t" })
            let rest = String(s.dropFirst(word.count)).trimmingSpaces()
            switch word {
            case "subgraph": try subgraph(rest)
            case "end":
                guard !groups.isEmpty else { throw fail("'end' without a subgraph") }
                groups.removeLast()
            case "classDef":
                let parts = rest.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { throw fail("classDef needs a name and styles") }
                let style = styleList(String(parts[1]), what: "classDef")
                for name in parts[0].split(separator: ",") {
                    if validClass(String(name)) { classes[String(name)] = FlowClass(style: style) }
                }
            case "class":
                let parts = rest.split(separator: " ")
                guard parts.count == 2 else { throw fail("class needs node ids and a class name") }
                guard validClass(String(parts[1])) else { return }
                for id in parts[0].split(separator: ",") {
                    let i = node(String(id))
                    nodes[i].classes += [String(parts[1])]
                }
            case "style":
                let parts = rest.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { throw fail("style needs a node id and styles") }
                let i = node(String(parts[0]))
                nodes[i].style = nodes[i].style.merged(with: styleList(String(parts[1]), what: "style"))
            case "direction":
                guard let d = Self.direction(rest) else {
                    tally.add("direction '\(rest.prefix(20))' is not a direction (expected TB, TD, BT, LR or RL)", unit: "line")
                    return
                }
                guard let g = groups.last, let i = index[g] else {
                    direction = d
                    directionGiven = true
                    return
                }
                // kept in the group's data (and written back); the layout runs one direction
                nodes[i].data = nodes[i].data.setting("direction", to: .string(d.rawValue))
                if d != direction {
                    tally.add("direction \(d.rawValue) inside a subgraph is kept in its data, not drawn: the layout lays the whole graph out \(direction.rawValue)", unit: "subgraph")
                }
            case "linkStyle": try linkStyle(rest)
            case "click", "accTitle", "accDescr", "callback", "href":
                tally.add("statement '\(word)' is not supported", unit: "line")
            default:
                if word.hasPrefix("accTitle") || word.hasPrefix("accDescr") {
                    tally.add("statement '\(word)' is not supported", unit: "line")
                    return
                }
                try chain(Array(s.unicodeScalars))
            }
        }

        mutating func validClass(_ name: String) -> Bool { tally.keepsClass(name) }

        /// A line of the front matter: `title: text` (in quotes or not) is the diagram's
        /// title; other keys (`config: …`, with what is indented below it) are reported.
        mutating func frontMatterLine(_ s: String) {
            guard !s.isEmpty else { return }
            guard s.hasPrefix("title:") else {
                if let colon = s.firstIndex(of: ":") {
                    tally.add("front matter '\(s[..<colon].prefix(20))' is not supported", unit: "line")
                }
                return
            }
            var t = String(s.dropFirst(6)).trimmingSpaces()
            if t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") {
                // a YAML double-quoted string: `\"`, `\\`, `\n`, `\t`, `\uXXXX` are its escapes
                var out = String.UnicodeScalarView()
                let u = Array(t.unicodeScalars.dropFirst().dropLast())
                var i = 0
                while i < u.count {
                    guard u[i] == "\\", i + 1 < u.count else { out.append(u[i]); i += 1; continue }
                    switch u[i + 1] {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "u" where i + 5 < u.count:
                        if let v = UInt32(String(String.UnicodeScalarView(u[(i + 2)...(i + 5)])), radix: 16), let c = Unicode.Scalar(v) {
                            out.append(c)
                            i += 6
                            continue
                        }
                        out.append(u[i + 1])
                    default: out.append(u[i + 1])
                    }
                    i += 2
                }
                t = String(out)
            } else if t.count >= 2, t.hasPrefix("'"), t.hasSuffix("'") {
                t = String(t.dropFirst().dropLast()).replacing("''", "'")
            }
            if !t.isEmpty { look.title = t }
        }

        /// `linkStyle 0,2 stroke:#f00,stroke-width:2px` or `linkStyle default …`: applied to
        /// the links by their order in the text once all are read.
        mutating func linkStyle(_ rest: String) throws(SyntaxError) {
            let parts = rest.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { throw fail("linkStyle needs link numbers (or 'default') and styles") }
            var styles = String(parts[1]).trimmingSpaces()
            if styles.hasPrefix("interpolate ") {
                let words = styles.split(separator: " ", maxSplits: 2)
                tally.add("linkStyle interpolate '\(words.count > 1 ? String(words[1]) : "")' is not mapped", unit: "line")
                styles = words.count > 2 ? String(words[2]) : ""
                if styles.isEmpty { return }
            }
            // a link has no inside: `fill:none` (which Mermaid's examples give links) says so
            let items = styles.split(separator: ",").filter { String($0).replacing(" ", "") != "fill:none" }
            let style = styleList(items.joined(separator: ","), what: "linkStyle")
            if parts[0] == "default" {
                linkStyles.append((nil, style))
                return
            }
            for n in parts[0].split(separator: ",") {
                guard let k = Int(String(n).trimmingSpaces()), k >= 0 else { throw fail("linkStyle: '\(n)' is not a link number (expected 0, 1, … or 'default')") }
                linkStyles.append((k, style))
            }
        }

        /// The `linkStyle` lines applied: `default` under the numbered ones.
        mutating func applyLinkStyles() {
            for (k, style) in linkStyles where k == nil {
                for i in edges.indices { edges[i].style = edges[i].style.merged(with: style) }
            }
            for case let (k?, style) in linkStyles {
                guard k < edges.count else {
                    tally.add("linkStyle names link \(k), and the graph has \(edges.count) link\(edges.count == 1 ? "" : "s")", unit: "line")
                    continue
                }
                edges[k].style = edges[k].style.merged(with: style)
            }
        }

        /// `fill:#f9f,stroke:#333,stroke-width:4px,color:#fff,stroke-dasharray: 5 5`.
        mutating func styleList(_ text: String, what: String) -> FlowStyle {
            var style = FlowStyle()
            for item in text.split(separator: ",") {
                let kv = item.split(separator: ":", maxSplits: 1).map { String($0).trimmingSpaces() }
                guard kv.count == 2 else { tally.add("\(what) entry '\(item)' is not a property", unit: ""); continue }
                var value = kv[1]
                if value.hasSuffix("!important") { value = String(value.dropLast(10)).trimmingSpaces() }
                let number = Double(value.hasSuffix("px") ? String(value.dropLast(2)) : value)
                switch kv[0] {
                case "fill": if let c = parseColor(value) { style.fill = c } else { tally.add("\(what) colour '\(value)' is not mapped", unit: "") }
                case "stroke": if let c = parseColor(value) { style.stroke = c } else { tally.add("\(what) colour '\(value)' is not mapped", unit: "") }
                case "color": if let c = parseColor(value) { style.textColor = c } else { tally.add("\(what) colour '\(value)' is not mapped", unit: "") }
                case "stroke-width": if let n = number, n >= 0, n.isFinite { style.strokeWidth = n } else { tally.add("\(what) stroke-width '\(value)' is not mapped", unit: "") }
                case "font-size": if let n = number, n > 0, n.isFinite { style.fontSize = n } else { tally.add("\(what) font-size '\(value)' is not mapped", unit: "") }
                case "opacity": if let n = number, n >= 0, n <= 1 { style.opacity = n } else { tally.add("\(what) opacity '\(value)' is not mapped", unit: "") }
                case "font-weight": style.bold = value == "bold" || (number ?? 0) >= 600
                case "font-style": style.italic = value == "italic"
                case "stroke-dasharray":
                    let d = value.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double(String($0)) }
                    if !d.isEmpty, d.allSatisfy({ $0 >= 0 && $0.isFinite }) { style.dash = d } else { tally.add("\(what) stroke-dasharray '\(value)' is not mapped", unit: "") }
                default: tally.add("\(what) property '\(kv[0])' is not mapped", unit: "")
                }
            }
            return style
        }

        mutating func subgraph(_ rest: String) throws(SyntaxError) {
            guard groups.count < MermaidReader.maximumDepth else { throw fail("subgraphs nested deeper than \(MermaidReader.maximumDepth) levels") }
            var id = rest, title: String?
            if let open = rest.firstIndex(of: "[") {
                id = String(rest[..<open]).trimmingSpaces()
                var t = String(rest[rest.index(after: open)...]).trimmingSpaces()
                if t.hasSuffix("]") { t.removeLast() }
                title = Self.text(t)
            } else if rest.hasPrefix("\"") {
                title = Self.text(rest)
                id = title!
            }
            if id.isEmpty { id = "subgraph\(nodes.count + 1)" }
            if title == nil && id.contains(" ") { title = id }
            let i: Int
            if let existing = index[id] {
                i = existing
                nodes[i].acceptsChildren = true
            } else {
                i = nodes.count
                index[id] = i
                nodes.append(FlowNode(id: id, position: .zero, size: Size(200, 120), data: labelData(title, id: id), acceptsChildren: true, autoSize: false))
            }
            if let t = title { nodes[i].data = labelData(t, id: id) }
            nodes[i].size = Size(200, 120)
            nodes[i].autoSize = false
            if let p = groups.last, p != id, !isAncestor(id, of: p) { nodes[i].parentID = p }
            groups.append(id)
        }

        /// Quotes removed, `<br>` and entity codes (`#quot;`, `#35;`, …) decoded.
        static func text(_ raw: String) -> String {
            var t = raw.trimmingSpaces()
            if t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") { t = String(t.dropFirst().dropLast()) }
            if t.count >= 2, t.hasPrefix("`"), t.hasSuffix("`") { t = String(t.dropFirst().dropLast()) }
            return entities(t.replacing("<br/>", "\n").replacing("<br>", "\n").replacing("<br />", "\n"))
        }

        static let namedEntities: [String: Unicode.Scalar] = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">", "num": "#"]

        /// `#quot;`, `#amp;`, `#lt;`, `#gt;`, `#num;` and decimal codes (`#9829;`) decoded in one
        /// pass (a decoded `#` starts nothing); anything else is kept as written.
        static func entities(_ t: String) -> String {
            guard t.contains("#") else { return t }
            let u = Array(t.unicodeScalars)
            var out = String.UnicodeScalarView()
            var i = 0
            while i < u.count {
                if u[i] == "#", let semi = u[(i + 1)...].prefix(12).firstIndex(of: ";"), semi > i + 1 {
                    let name = String(String.UnicodeScalarView(u[(i + 1)..<semi]))
                    if let c = namedEntities[name] ?? UInt32(name).flatMap(Unicode.Scalar.init) {
                        out.append(c)
                        i = semi + 1
                        continue
                    }
                }
                out.append(u[i])
                i += 1
            }
            return String(out)
        }

        /// The index of node `id`, created on first sight inside the current subgraph.
        mutating func node(_ id: String) -> Int {
            if let i = index[id] {
                if let g = groups.last, g != id, nodes[i].parentID == nil, !isAncestor(id, of: g) { nodes[i].parentID = g }
                return i
            }
            index[id] = nodes.count
            nodes.append(FlowNode(id: id, position: .zero, data: labelData(nil, id: id), parentID: groups.last, shape: .rectangle))
            return nodes.count - 1
        }

        func isAncestor(_ a: String, of b: String) -> Bool {
            var cursor: String? = b
            var steps = 0
            while let c = cursor, steps < 1000 {
                if c == a { return true }
                cursor = index[c].flatMap { nodes[$0].parentID }
                steps += 1
            }
            return false
        }

        // MARK: chains

        static func isIDScalar(_ c: Unicode.Scalar) -> Bool {
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_" || c.value >= 128
        }

        mutating func chain(_ u: [Unicode.Scalar]) throws(SyntaxError) {
            var p = 0
            var previous = try nodeGroup(u, &p)
            while true {
                skip(u, &p)
                if p >= u.count { return }
                let linkStart = p
                let link = try self.link(u, &p)
                skip(u, &p)
                let next = try nodeGroup(u, &p)
                // count before making: `a1 & … & aN --> a1 & … & aN` asks for N² edges
                let (count, overflow) = previous.count.multipliedReportingOverflow(by: next.count)
                let before = edges.count + floor.skippedEdges
                if overflow || count > limits.edges - before {
                    throw fail(limits.edgeMessage(statement: overflow ? Int.max : count, before: before), column: linkStart + 1)
                }
                if countsFloor, floor.note(
                    previous, next, edges: count, pairEdges: 2, limit: limits.bendPoints, line: line, column: linkStart + 1)
                {
                    previous = next
                    continue
                }
                for a in previous {
                    for b in next {
                        var style = FlowStyle()
                        if link.dotted { style.dash = [3, 3] }
                        if link.thick { style.strokeWidth = 3 }
                        if link.head != .arrow { style.targetArrow = link.head }
                        if let t = link.tail { style.sourceArrow = t }
                        if link.invisible { style.opacity = 0 }
                        if link.length != 1 { look.edgeRanks.append(EdgeRank("e\(edges.count + 1)", minLength: link.length)) }
                        edges.append(FlowEdge(
                            id: "e\(edges.count + 1)", sourceNodeID: nodes[a].id, sourceHandleID: "source",
                            targetNodeID: nodes[b].id, targetHandleID: "target",
                            label: link.text, style: style))
                    }
                }
                previous = next
            }
        }

        func skip(_ u: [Unicode.Scalar], _ p: inout Int) {
            while p < u.count && (u[p] == " " || u[p] == "\t" || u[p] == "\r") { p += 1 }
        }

        func starts(_ u: [Unicode.Scalar], _ p: Int, _ s: String) -> Bool {
            var i = p
            for c in s.unicodeScalars {
                guard i < u.count, u[i] == c else { return false }
                i += 1
            }
            return true
        }

        /// `a & b:::cls & c[text]`.
        mutating func nodeGroup(_ u: [Unicode.Scalar], _ p: inout Int) throws(SyntaxError) -> [Int] {
            var out: [Int] = []
            while true {
                skip(u, &p)
                out.append(try nodeRef(u, &p))
                skip(u, &p)
                guard p < u.count, u[p] == "&" else { return out }
                p += 1
            }
        }

        mutating func nodeRef(_ u: [Unicode.Scalar], _ p: inout Int) throws(SyntaxError) -> Int {
            let start = p
            while p < u.count && Self.isIDScalar(u[p]) {
                // `a-->b`: a dash ends the id only where a link starts
                p += 1
            }
            while p < u.count && (u[p] == "-" || u[p] == ".") && p + 1 < u.count && Self.isIDScalar(u[p + 1])
                && !(u[p] == "-" && (u[p + 1] == "o" || u[p + 1] == "x")) {
                p += 1
                while p < u.count && Self.isIDScalar(u[p]) { p += 1 }
            }
            guard p > start else {
                throw fail(p < u.count ? "expected a node id, found '\(u[p])'" : "expected a node id, found end of line", column: p + 1)
            }
            let id = String(String.UnicodeScalarView(u[start..<p]))
            let i = node(id)
            if p < u.count, u[p] == "@" {
                tally.add("node shape syntax '@{…}' is not supported", unit: "node")
                while p < u.count && u[p] != "}" { p += 1 }
                p += 1
            }
            for (open, close, shape) in MermaidReader.brackets where starts(u, p, open) {
                var q = p + open.unicodeScalars.count
                var quoted = false
                var end: Int?
                while q < u.count {
                    if u[q] == "\"" { quoted.toggle() }
                    if !quoted && starts(u, q, close) { end = q; break }
                    q += 1
                }
                guard let end else { continue }
                let raw = String(String.UnicodeScalarView(u[(p + open.unicodeScalars.count)..<end]))
                nodes[i].data = labelData(Self.text(raw), id: id)
                nodes[i].shape = shape
                p = end + close.unicodeScalars.count
                break
            }
            if starts(u, p, ":::") {
                p += 3
                let s = p
                while p < u.count && (Self.isIDScalar(u[p]) || u[p] == "-") { p += 1 }
                let name = String(String.UnicodeScalarView(u[s..<p]))
                if validClass(name) { nodes[i].classes += [name] }
            }
            return i
        }

        struct Link {
            var text: String?
            var dotted = false
            var thick = false
            var invisible = false
            var head: ArrowHead = .arrow
            var tail: ArrowHead?
            /// Mermaid's link length (`--->`: 2), the layers the link spans at least.
            var length = 1
        }

        static func isLinkScalar(_ c: Unicode.Scalar) -> Bool { c == "-" || c == "=" || c == "." || c == "~" }

        /// `-->`, `---`, `-.->`, `==>`, `~~~`, `<-->`, `--o`, `--x`, `-- text -->`, `-->|text|`.
        mutating func link(_ u: [Unicode.Scalar], _ p: inout Int) throws(SyntaxError) -> Link {
            var link = Link()
            let start = p
            if p < u.count, u[p] == "<" { link.tail = .arrow; p += 1 }
            else if p + 1 < u.count, (u[p] == "o" || u[p] == "x"), Self.isLinkScalar(u[p + 1]) { link.tail = u[p] == "o" ? .circle : .cross; p += 1 }
            var run = ""
            while p < u.count && Self.isLinkScalar(u[p]) { run.unicodeScalars.append(u[p]); p += 1 }
            guard run.count >= 2 || (run.count >= 1 && p < u.count && u[p] == ">") else {
                throw fail("expected a link ('-->', '---', '-.->', '==>', …)", column: start + 1)
            }
            // as Mermaid's lexer reads it, an `o` or `x` right after the dashes is a head
            // (`A---oB` is a circle link to B; `A--- oB` a link to oB)
            func ending(_ p: inout Int) -> Bool {
                guard p < u.count else { return false }
                switch u[p] {
                case ">": link.head = .arrow; p += 1; return true
                case "o": link.head = .circle; p += 1; return true
                case "x": link.head = .cross; p += 1; return true
                default: return false
                }
            }
            var closing = run
            var ended = ending(&p)
            if !ended {
                link.head = .none
                // `-- text -->`: text, then the rest of the link
                if (run == "--" || run == "==" || run == "-." ) && p < u.count && u[p] == " " {
                    var q = p
                    while q < u.count {
                        if Self.isLinkScalar(u[q]) && q + 1 < u.count && Self.isLinkScalar(u[q + 1]) { break }
                        q += 1
                    }
                    let t = String(String.UnicodeScalarView(u[p..<q])).trimmingSpaces()
                    if q < u.count && !t.isEmpty {
                        link.text = Self.text(t)
                        p = q
                        closing = ""
                        while p < u.count && Self.isLinkScalar(u[p]) {
                            run.unicodeScalars.append(u[p])
                            closing.unicodeScalars.append(u[p])
                            p += 1
                        }
                        ended = ending(&p)
                        if !ended { link.head = .none }
                    }
                }
            }
            if !ended && link.tail != nil { link.head = .none }
            link.dotted = run.contains(".")
            link.thick = run.contains("=")
            link.invisible = run.contains("~")
            // `-->` and `---` span 1, each further dash (dot in a dotted link, `=` in a thick
            // one) one more
            link.length = min(EdgeRank.maximumMinLength, max(1, link.dotted ? closing.count(where: { $0 == "." }) : closing.count - (ended ? 1 : 2)))
            skip(u, &p)
            if p < u.count && u[p] == "|" {
                var q = p + 1
                while q < u.count && u[q] != "|" { q += 1 }
                guard q < u.count else { throw fail("unterminated '|' link text", column: p + 1) }
                link.text = Self.text(String(String.UnicodeScalarView(u[(p + 1)..<q])))
                p = q + 1
            }
            return link
        }

        func result() -> FormatImport {
            // each subgraph before its members, in the order the writer writes them: a node
            // mentioned before the subgraph that takes it in (`a --> b` … `subgraph s` `b`)
            // reads back from the written text in the same place
            var ordered: [FlowNode<JSONValue>] = []
            ordered.reserveCapacity(nodes.count)
            GroupWalk.walk(nodes) { step in
                switch step {
                case .open(let n, _), .node(let n, _): ordered.append(n)
                case .close: break
                }
            }
            var look = look
            if directionGiven { look.direction = DiagramLook.Direction(direction) }
            return FormatImport(
                document: FlowDocument(nodes: ordered, edges: edges, classes: classes, look: look), warnings: tally.lines,
                direction: direction, needsLayout: true)
        }
    }
}
