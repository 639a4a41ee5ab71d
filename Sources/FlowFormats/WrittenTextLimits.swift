import FlowCore

/// What the DOT and Mermaid readers take at most, checked on what the writers write, so a
/// writer never hands out text its own reader refuses (issue #43): groups nested no deeper
/// than the readers' nesting limit, DOT strings no longer than `DOTParser.maximumIDLength`,
/// Mermaid lines no longer than `MermaidReader.maximumLineLength`, DOT ids that have a DOT
/// form. A store past them fails `encode` with an error naming the limit instead.
enum WrittenTextLimits {
    /// Throws when `document`'s groups nest deeper than `format`'s reader takes.
    static func checkNesting(_ document: FlowDocument<JSONValue>, _ format: DiagramFormat, operation: String) throws(FlowError) {
        let limit = format == .dot ? DOTParser.maximumDepth : MermaidReader.maximumDepth
        let depth = GroupWalk.depth(document.nodes)
        guard depth > limit else { return }
        throw .invalidState(
            operation, "groups nested \(depth) levels deep; \(format == .dot ? "DOT" : "Mermaid") text nests subgraphs at most \(limit) levels (the reader's limit)")
    }

    /// Throws when an id of `document` has no DOT form that reads back as it is (see
    /// `DOTWriter.quote`: an odd run of backslashes before a quote, a line end or the end,
    /// in an id whose angle brackets do not balance; Graphviz cannot write it either).
    static func checkDOTIDs(_ document: FlowDocument<JSONValue>, operation: String) throws(FlowError) {
        func check(_ id: String, _ what: String) throws(FlowError) {
            guard DOTWriter.quoted(id, exact: true) == nil, !DOTWriter.htmlBalanced(id) else { return }
            throw .invalidState(
                operation, "\(what) id '\(FlowError.shown(id))' has no DOT form (an odd run of backslashes before a quote, a line end or its end, and unbalanced '<' '>')")
        }
        for n in document.nodes { try check(n.id, n.acceptsChildren ? "group" : "node") }
        for e in document.edges { try check(e.id, "edge") }
    }

    /// Throws when `text` (as `DOTWriter` writes it) holds a quoted or HTML string longer
    /// than the reader takes, naming its line.
    static func checkDOTStrings(_ text: String, operation: String) throws(FlowError) {
        let limit = DOTParser.maximumIDLength
        var line = 1
        var inQuotes = false, html = 0
        var length = 0
        var it = text.utf8.makeIterator()
        var escaped = false
        while let c = it.next() {
            if c == 10 { line += 1 }
            if inQuotes {
                if escaped {
                    escaped = false
                    length += c == 34 ? 1 : 2  // the reader keeps `\x` as two bytes, `\"` as one
                } else if c == 92 {
                    escaped = true
                } else if c == 34 {
                    inQuotes = false
                } else {
                    length += 1
                }
            } else if html > 0 {
                if c == 60 { html += 1 } else if c == 62 { html -= 1 }
                if html > 0 { length += 1 }
            } else if c == 34 {
                inQuotes = true
                length = 0
            } else if c == 60 {
                html = 1
                length = 0
            }
            if length > limit {
                throw .invalidState(
                    operation, "DOT line \(line) would hold a string longer than \(limit) bytes, the DOT reader's limit (DOTParser.maximumIDLength)")
            }
        }
    }

    /// Throws when a line of `text` is longer than the Mermaid reader takes, naming it.
    static func checkMermaidLines(_ text: String, operation: String) throws(FlowError) {
        let limit = MermaidReader.maximumLineLength
        var line = 1, length = 0
        for c in text.utf8 {
            if c == 10 {
                line += 1
                length = 0
                continue
            }
            length += 1
            if length > limit {
                throw .invalidState(
                    operation, "Mermaid line \(line) would be longer than \(limit) bytes, the Mermaid reader's limit (a title or label too long)")
            }
        }
    }
}
