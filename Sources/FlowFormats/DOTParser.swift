import FlowCore

// A reader for the DOT language as the Graphviz grammar defines it (graph, digraph, strict;
// node, edge and attribute statements; edge chains; subgraphs; ports; quoted, HTML and
// numeral ids; comments and `#` lines). It builds a `DOTGraph`: every node, edge and
// cluster with the attributes that apply to it, defaults included. Nesting is limited
// (`maximumDepth`), so hostile input cannot overflow the stack.

/// One port reference: `a:p`, `a:p:ne` or `a:ne`.
struct DOTPort: Equatable {
    var name: String?
    var compass: String?
}

/// A parsed DOT graph, in statement order.
struct DOTGraph {
    struct Node {
        var id: String
        var attributes: DOTAttributes
        /// Index into `clusters` of the innermost cluster the node was placed in.
        var cluster: Int?
    }
    struct Edge {
        var tail: String
        var tailPort: DOTPort?
        var head: String
        var headPort: DOTPort?
        var attributes: DOTAttributes
    }
    struct Cluster {
        var id: String
        var parent: Int?
        var attributes: DOTAttributes
    }
    var strict = false
    var directed = true
    var id: String?
    var attributes = DOTAttributes()
    var nodes: [Node] = []
    var nodeIndex: [String: Int] = [:]
    var edges: [Edge] = []
    var clusters: [Cluster] = []
    var clusterIndex: [String: Int] = [:]
    /// Attributes of non-cluster subgraphs other than `rank`: reported, not mapped.
    var subgraphAttributes: [String] = []
    /// The `rank` of each non-cluster subgraph that has one (its last value), with the
    /// nodes the subgraph mentions (nested subgraphs' included), in subgraph order.
    var rankSets: [(rank: String, members: [String])] = []
    /// HTML strings (`<…>`) read: kept as their text, markup and all.
    var htmlStrings = 0
    /// Statements that join too many nodes each to each for the layout, their edges not
    /// made (`BendPointFloor`, in node numbers).
    var floor = BendPointFloor()
}

/// A syntax error at a line and column (both from 1).
struct DOTSyntaxError: Error {
    var line: Int
    var column: Int
    var message: String
    var description: String { "line \(line), column \(column): \(message)" }
}

struct DOTParser {
    enum Kind: Equatable { case id, html, lbrace, rbrace, lbracket, rbracket, equals, semicolon, comma, colon, edgeop, end }
    struct Token {
        var kind: Kind
        var text: String
        var line: Int
        var column: Int
        var quoted = false
    }

    static let maximumDepth = 64
    static let maximumIDLength = 1 << 16

    private var bytes: [UInt8]
    private var pos = 0
    private var line = 1
    private var lineStart = 0
    private var token: Token
    private var graph = DOTGraph()
    private let limits: FormatLimits
    private var countsFloor = true

    /// Parses `text`; throws `DOTSyntaxError`. A leading byte order mark is skipped.
    /// `countsFloor`: whether edge statements are held to `limits.bendPoints` as they are
    /// read (`BendPointFloor`).
    static func parse(_ text: String, limits: FormatLimits = FormatLimits(), countsFloor: Bool = true) throws(DOTSyntaxError) -> DOTGraph {
        var p = DOTParser(bytes: Array(text.utf8), limits: limits)
        p.countsFloor = countsFloor
        if p.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.pos = 3; p.lineStart = 3 }
        try p.advance()
        try p.parseGraph()
        return p.graph
    }

    private init(bytes: [UInt8], limits: FormatLimits) {
        self.bytes = bytes
        self.limits = limits
        self.token = Token(kind: .end, text: "", line: 1, column: 1)
    }

    // MARK: Tokens

    private func fail(_ message: String, at t: Token? = nil) -> DOTSyntaxError {
        let t = t ?? token
        return DOTSyntaxError(line: t.line, column: t.column, message: message)
    }

    private var column: Int { pos - lineStart + 1 }

    private mutating func skipSpace() throws(DOTSyntaxError) {
        var atLineStart = pos == 0 || bytes[pos - 1] == 10
        while pos < bytes.count {
            let c = bytes[pos]
            if c == 10 {
                pos += 1; line += 1; lineStart = pos; atLineStart = true
            } else if c == 32 || c == 9 || c == 13 || c == 12 || c == 11 {
                pos += 1
            } else if c == 35 && atLineStart {  // `#` line (C preprocessor output)
                while pos < bytes.count && bytes[pos] != 10 { pos += 1 }
            } else if c == 47 && pos + 1 < bytes.count && bytes[pos + 1] == 47 {
                while pos < bytes.count && bytes[pos] != 10 { pos += 1 }
            } else if c == 47 && pos + 1 < bytes.count && bytes[pos + 1] == 42 {
                let start = Token(kind: .end, text: "", line: line, column: column)
                pos += 2
                while true {
                    guard pos < bytes.count else { throw fail("unterminated comment", at: start) }
                    if bytes[pos] == 42 && pos + 1 < bytes.count && bytes[pos + 1] == 47 { pos += 2; break }
                    if bytes[pos] == 10 { line += 1; lineStart = pos + 1 }
                    pos += 1
                }
                atLineStart = false
            } else {
                return
            }
        }
    }

    private static func isIDByte(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || (c >= 48 && c <= 57) || c >= 128
    }

    private mutating func advance() throws(DOTSyntaxError) {
        try skipSpace()
        var t = Token(kind: .end, text: "", line: line, column: column)
        guard pos < bytes.count else { token = t; return }
        let c = bytes[pos]
        func single(_ k: Kind) { t.kind = k; t.text = String(UnicodeScalar(c)); pos += 1 }
        switch c {
        case UInt8(ascii: "{"): single(.lbrace)
        case UInt8(ascii: "}"): single(.rbrace)
        case UInt8(ascii: "["): single(.lbracket)
        case UInt8(ascii: "]"): single(.rbracket)
        case UInt8(ascii: "="): single(.equals)
        case UInt8(ascii: ";"): single(.semicolon)
        case UInt8(ascii: ","): single(.comma)
        case UInt8(ascii: ":"): single(.colon)
        case UInt8(ascii: "\""):
            t.kind = .id
            t.quoted = true
            t.text = try quoted(t)
        case UInt8(ascii: "<"):
            t.kind = .html
            t.text = try html(t)
            graph.htmlStrings += 1
        case UInt8(ascii: "-") where pos + 1 < bytes.count && (bytes[pos + 1] == 62 || bytes[pos + 1] == 45):
            t.kind = .edgeop
            t.text = bytes[pos + 1] == 62 ? "->" : "--"
            pos += 2
        default:
            if c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || (c >= 48 && c <= 57) {
                t.kind = .id
                t.text = numeral()
                if t.text.isEmpty { throw fail("unexpected character '\(Self.show(c))'", at: t) }
            } else if Self.isIDByte(c) {
                let start = pos
                while pos < bytes.count && Self.isIDByte(bytes[pos]) { pos += 1 }
                guard pos - start <= Self.maximumIDLength else { throw fail("id longer than \(Self.maximumIDLength) bytes", at: t) }
                t.kind = .id
                t.text = String(decoding: bytes[start..<pos], as: UTF8.self)
            } else {
                throw fail("unexpected character '\(Self.show(c))'", at: t)
            }
        }
        token = t
    }

    private static func show(_ c: UInt8) -> String {
        c >= 32 && c < 127 ? String(UnicodeScalar(c)) : "\\x" + String(c, radix: 16, uppercase: false)
    }

    private mutating func numeral() -> String {
        let start = pos
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        var digits = 0, dots = 0
        while pos < bytes.count {
            let c = bytes[pos]
            if c >= 48 && c <= 57 { digits += 1 } else if c == 46 && dots == 0 { dots += 1 } else { break }
            pos += 1
        }
        if digits == 0 { pos = start; return "" }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    /// A double-quoted string; `\"` is a quote, a backslash-newline joins lines, every
    /// other escape is kept for the attribute reader (`\n`, `\l`, `\N`, …). `"a" + "b"`
    /// pieces are joined in a loop (any number of them), and the joined string is held to
    /// `maximumIDLength` like a single one.
    private mutating func quoted(_ start: Token) throws(DOTSyntaxError) -> String {
        var out: [UInt8] = []
        var piece = start
        while true {
            try quotedPiece(piece, into: &out, start: start)
            // `"a" + "b"` concatenation
            let save = (pos, line, lineStart)
            try skipSpace()
            guard pos < bytes.count && bytes[pos] == UInt8(ascii: "+") else {
                (pos, line, lineStart) = save
                return String(decoding: out, as: UTF8.self)
            }
            pos += 1
            try skipSpace()
            guard pos < bytes.count && bytes[pos] == 34 else { throw fail("'+' must be followed by a quoted string") }
            piece = Token(kind: .id, text: "", line: line, column: column)
        }
    }

    /// One quoted piece, appended to `out`; `pos` is at its opening quote.
    private mutating func quotedPiece(_ piece: Token, into out: inout [UInt8], start: Token) throws(DOTSyntaxError) {
        pos += 1
        while true {
            guard pos < bytes.count else { throw fail("unterminated string", at: piece) }
            let c = bytes[pos]
            if c == 34 { pos += 1; return }
            if c == 92 && pos + 1 < bytes.count {
                let d = bytes[pos + 1]
                if d == 34 { out.append(34); pos += 2; continue }
                if d == 10 { pos += 2; line += 1; lineStart = pos; continue }
                if d == 13 && pos + 2 < bytes.count && bytes[pos + 2] == 10 { pos += 3; line += 1; lineStart = pos; continue }
                out.append(92); out.append(d); pos += 2
                continue
            }
            if c == 10 { line += 1; lineStart = pos + 1 }
            out.append(c)
            pos += 1
            guard out.count <= Self.maximumIDLength else { throw fail("string longer than \(Self.maximumIDLength) bytes", at: start) }
        }
    }

    /// An HTML string `<…>` with balanced angle brackets, kept as its text.
    private mutating func html(_ start: Token) throws(DOTSyntaxError) -> String {
        var depth = 0
        let begin = pos
        while true {
            guard pos < bytes.count else { throw fail("unterminated HTML string", at: start) }
            let c = bytes[pos]
            if c == 60 { depth += 1 } else if c == 62 { depth -= 1 } else if c == 10 { line += 1; lineStart = pos + 1 }
            pos += 1
            if depth == 0 { break }
            guard pos - begin <= Self.maximumIDLength else { throw fail("HTML string longer than \(Self.maximumIDLength) bytes", at: start) }
        }
        return String(decoding: bytes[(begin + 1)..<(pos - 1)], as: UTF8.self)
    }

    private func isKeyword(_ word: String) -> Bool {
        token.kind == .id && !token.quoted && token.text.lowercased() == word
    }

    private mutating func expect(_ k: Kind, _ what: String) throws(DOTSyntaxError) {
        guard token.kind == k else { throw fail("expected \(what), found \(describe(token))") }
        try advance()
    }

    private func describe(_ t: Token) -> String {
        switch t.kind {
        case .end: return "end of input"
        case .id: return "'\(t.text.count > 40 ? String(t.text.prefix(40)) + "…" : t.text)'"
        case .html: return "an HTML string"
        default: return "'\(t.text)'"
        }
    }

    private mutating func identifier(_ what: String) throws(DOTSyntaxError) -> String {
        guard token.kind == .id || token.kind == .html else { throw fail("expected \(what), found \(describe(token))") }
        let s = token.text
        try advance()
        return s
    }

    // MARK: Grammar

    /// Defaults and cluster of one (sub)graph scope.
    private struct Scope {
        var node = DOTAttributes()
        var edge = DOTAttributes()
        var cluster: Int?
        /// Nodes mentioned inside the scope, for edges to a subgraph.
        var members: [String] = []
        /// A non-cluster subgraph's `rank` attribute.
        var rank: String?
        /// Whether the scope is a cluster's own (not a subgraph inside it).
        var isCluster = false
    }

    private mutating func parseGraph() throws(DOTSyntaxError) {
        if isKeyword("strict") { graph.strict = true; try advance() }
        if isKeyword("digraph") {
            graph.directed = true
        } else if isKeyword("graph") {
            graph.directed = false
        } else {
            throw fail("expected 'graph' or 'digraph', found \(describe(token))")
        }
        try advance()
        if token.kind == .id || token.kind == .html { graph.id = token.text; try advance() }
        var scope = Scope()
        try expect(.lbrace, "'{'")
        try statements(&scope, depth: 1)
        try expect(.rbrace, "'}'")
        if token.kind != .end { throw fail("unexpected \(describe(token)) after the graph") }
    }

    private mutating func statements(_ scope: inout Scope, depth: Int) throws(DOTSyntaxError) {
        while token.kind != .rbrace && token.kind != .end {
            if probe.shouldStop() { throw fail("stopped: the work limit ran out") }
            try statement(&scope, depth: depth)
            if token.kind == .semicolon { try advance() }
        }
    }

    private mutating func statement(_ scope: inout Scope, depth: Int) throws(DOTSyntaxError) {
        if (isKeyword("graph") || isKeyword("node") || isKeyword("edge")) {
            let which = token.text.lowercased()
            let save = token
            try advance()
            if token.kind == .lbracket {
                let list = try attributeLists()
                switch which {
                case "node": scope.node.merge(list)
                case "edge": scope.edge.merge(list)
                default: graphAttributes(list, scope: &scope)
                }
                return
            }
            throw fail("expected '[' after '\(save.text)'")
        }
        if token.kind == .lbrace || isKeyword("subgraph") {
            let ends = try subgraph(&scope, depth: depth)
            try edgeTail(ends, &scope, depth: depth)
            return
        }
        let id = try identifier("a statement")
        if token.kind == .equals {
            try advance()
            // `label=<…>` as a statement is an HTML label as in a list
            let html = token.kind == .html
            let value = try identifier("a value after '='")
            var list = DOTAttributes()
            list.set(id, value, html: html)
            graphAttributes(list, scope: &scope)
            return
        }
        let port = try portIfAny()
        if token.kind == .edgeop {
            try edgeTail([(id, port)], &scope, depth: depth)
            return
        }
        let list = token.kind == .lbracket ? try attributeLists() : DOTAttributes()
        touchNode(id, &scope, attributes: list)
    }

    private mutating func portIfAny() throws(DOTSyntaxError) -> DOTPort? {
        guard token.kind == .colon else { return nil }
        try advance()
        let first = try identifier("a port after ':'")
        if token.kind == .colon {
            try advance()
            let compass = try identifier("a compass point after ':'")
            return DOTPort(name: first, compass: compass)
        }
        if ["n", "ne", "e", "se", "s", "sw", "w", "nw", "c", "_"].contains(first.lowercased()) {
            return DOTPort(name: nil, compass: first.lowercased())
        }
        return DOTPort(name: first, compass: nil)
    }

    private mutating func attributeLists() throws(DOTSyntaxError) -> DOTAttributes {
        var out = DOTAttributes()
        while token.kind == .lbracket {
            try advance()
            while token.kind != .rbracket {
                let key = try identifier("an attribute name")
                try expect(.equals, "'=' after '\(key)'")
                let html = token.kind == .html
                let value = try identifier("a value for '\(key)'")
                out.set(key, value, html: html)
                if token.kind == .comma || token.kind == .semicolon { try advance() }
            }
            try advance()
        }
        return out
    }

    private mutating func graphAttributes(_ list: DOTAttributes, scope: inout Scope) {
        var list = list
        // `rank` belongs to the subgraph that sets it (dot reads it on non-cluster ones)
        if subgraphDepth > 0 && !scope.isCluster, let rank = list["rank"] {
            scope.rank = rank
            var rest = DOTAttributes()
            for (k, v) in list where k != "rank" { rest.set(k, v, html: list.isHTML(k)) }
            list = rest
        }
        if let c = scope.cluster {
            graph.clusters[c].attributes.merge(list)
        } else if subgraphDepth == 0 {
            graph.attributes.merge(list)
        } else {
            graph.subgraphAttributes.append(contentsOf: list.map(\.0))
        }
    }

    private var subgraphDepth = 0
    /// The current `WorkLimit`, looked at between statements and while edges are made.
    private var probe = WorkLimitProbe(stride: 256)
    /// `tail \0 head` of every edge, for `strict` graphs.
    private var seenPairs = Set<String>()

    /// Creates the node on first sight (with the scope's node defaults) and adds `list`.
    private mutating func touchNode(_ id: String, _ scope: inout Scope, attributes list: DOTAttributes) {
        scope.members.append(id)
        if let i = graph.nodeIndex[id] {
            graph.nodes[i].attributes.merge(list)
            if let c = scope.cluster, graph.nodes[i].cluster != c, isInside(c, graph.nodes[i].cluster) {
                graph.nodes[i].cluster = c
            }
            return
        }
        graph.nodeIndex[id] = graph.nodes.count
        graph.nodes.append(DOTGraph.Node(id: id, attributes: scope.node.merging(list), cluster: scope.cluster))
    }

    /// Whether cluster `c` lies inside `outer` (nil: the root).
    private func isInside(_ c: Int, _ outer: Int?) -> Bool {
        guard let outer else { return true }
        var cursor: Int? = c
        while let k = cursor {
            if k == outer { return true }
            cursor = graph.clusters[k].parent
        }
        return false
    }

    /// `subgraph id { … }`, `subgraph { … }` or `{ … }`; returns the nodes it mentions.
    private mutating func subgraph(_ scope: inout Scope, depth: Int) throws(DOTSyntaxError) -> [(String, DOTPort?)] {
        guard depth <= Self.maximumDepth else { throw fail("subgraphs nested deeper than \(Self.maximumDepth) levels") }
        var name: String?
        if isKeyword("subgraph") {
            try advance()
            if token.kind == .id || token.kind == .html { name = token.text; try advance() }
        }
        var inner = Scope(node: scope.node, edge: scope.edge, cluster: scope.cluster)
        if let name, name.hasPrefix("cluster") {
            inner.isCluster = true
            if let existing = graph.clusterIndex[name] {
                inner.cluster = existing
            } else {
                graph.clusterIndex[name] = graph.clusters.count
                graph.clusters.append(DOTGraph.Cluster(id: name, parent: scope.cluster, attributes: DOTAttributes()))
                inner.cluster = graph.clusters.count - 1
            }
        }
        try expect(.lbrace, "'{'")
        subgraphDepth += 1
        try statements(&inner, depth: depth + 1)
        subgraphDepth -= 1
        try expect(.rbrace, "'}'")
        // A subgraph's nodes are a set, as in Graphviz: `a -> {b c b}` makes two edges.
        var seen = Set<String>()
        let members = inner.members.filter { seen.insert($0).inserted }
        scope.members.append(contentsOf: members)
        if let rank = inner.rank { graph.rankSets.append((rank, members)) }
        // Nodes first seen inside keep the subgraph's cluster; outer scopes see them too.
        return members.map { ($0, nil) }
    }

    /// The rest of an edge chain after its first operand (nothing when no edge operator follows).
    private mutating func edgeTail(_ first: [(String, DOTPort?)], _ scope: inout Scope, depth: Int) throws(DOTSyntaxError) {
        guard token.kind == .edgeop else {
            if token.kind == .lbracket { throw fail("attributes after a subgraph") }
            return
        }
        var operands: [[(String, DOTPort?)]] = [first]
        // mentioned here: a member of this subgraph (and its cluster) even when seen before
        for (id, _) in first { touchNode(id, &scope, attributes: DOTAttributes()) }
        let firstOp = token
        while token.kind == .edgeop {
            let op = token
            if graph.directed && op.text == "--" { throw fail("'--' in a digraph (use '->')", at: op) }
            if !graph.directed && op.text == "->" { throw fail("'->' in an undirected graph (use '--')", at: op) }
            try advance()
            if token.kind == .lbrace || isKeyword("subgraph") {
                operands.append(try subgraph(&scope, depth: depth))
            } else {
                let id = try identifier("a node or subgraph after '\(op.text)'")
                let port = try portIfAny()
                touchNode(id, &scope, attributes: DOTAttributes())
                operands.append([(id, port)])
            }
        }
        // Count before making: `{a1 … aN} -> {a1 … aN}` asks for N² edges.
        var count = 0
        for k in 1..<operands.count {
            let (pairs, o1) = operands[k - 1].count.multipliedReportingOverflow(by: operands[k].count)
            let (sum, o2) = count.addingReportingOverflow(pairs)
            count = o1 || o2 ? Int.max : sum
        }
        let before = graph.edges.count + graph.floor.skippedEdges
        if count > limits.edges - before {
            throw fail(limits.edgeMessage(statement: count, before: before), at: firstOp)
        }
        let list = scope.edge.merging(token.kind == .lbracket ? try attributeLists() : DOTAttributes())
        for k in 1..<operands.count {
            if countsFloor && Self.constrainsLayers(list) {
                let pairs = operands[k - 1].count * operands[k].count
                func numbers(_ o: [(String, DOTPort?)]) -> [Int] { o.compactMap { graph.nodeIndex[$0.0] } }
                // a strict undirected graph keeps one edge a pair, any other two
                if graph.floor.note(
                    numbers(operands[k - 1]), numbers(operands[k]), edges: pairs,
                    pairEdges: graph.strict && !graph.directed ? 1 : 2, limit: limits.bendPoints,
                    line: firstOp.line, column: firstOp.column)
                {
                    continue
                }
            }
            for (t, tp) in operands[k - 1] {
                if probe.shouldStop() { throw fail("stopped: the work limit ran out", at: firstOp) }
                for (h, hp) in operands[k] {
                    if graph.strict {
                        if t == h { continue }
                        let key = graph.directed || t < h ? t + "\u{0}" + h : h + "\u{0}" + t
                        guard seenPairs.insert(key).inserted else { continue }
                    }
                    graph.edges.append(DOTGraph.Edge(tail: t, tailPort: tp, head: h, headPort: hp, attributes: list))
                }
            }
        }
    }

    /// Whether edges with `attributes` keep their ends on different layers: no `minlen`
    /// below 1, no `constraint=false` (`BendPointFloor`).
    static func constrainsLayers(_ attributes: DOTAttributes) -> Bool {
        if let m = attributes["minlen"], !(Double(m.trimmingSpaces()).map { $0 >= 1 } ?? false) { return false }
        if let c = attributes["constraint"], !["true", "yes", "1", ""].contains(c.lowercased()) { return false }
        return true
    }
}
