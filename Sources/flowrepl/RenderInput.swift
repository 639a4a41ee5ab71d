// `flowrepl render`: one input's text, its format, and the -G/-N/-E attributes put in
// front of a DOT graph's own statements.
import FlowFormats

enum RenderInput {
    /// The format of text read from standard input (or a file whose extension names
    /// none): DOT when its first word is `strict`, `graph` or `digraph` followed by an id or
    /// `{`, a JSON document when it starts with `{`, else Mermaid.
    static func sniff(_ text: String) -> DiagramFormat {
        var rest = Substring(text)
        // comments a DOT file may open with (`//`, `/* */`, `#` lines)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("//") || rest.hasPrefix("#") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*"), let end = commentEnd(rest) {
                rest = rest[end...]
            } else {
                break
            }
        }
        if rest.hasPrefix("{") { return .json }
        let word = rest.prefix { $0.isLetter }.lowercased()
        guard word == "strict" || word == "graph" || word == "digraph" else { return .mermaid }
        // Mermaid's `graph TD` / `graph LR` line: a direction, then the end of the line
        let line = rest.dropFirst(word.count).prefix { $0 != "\n" }
        let after = String(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        return ["TB", "TD", "BT", "LR", "RL"].contains(after) ? .mermaid : .dot
    }

    /// `text` with `graph [..]; node [..]; edge [..];` right after the root graph's `{`, so
    /// the graph's own attributes, given later, override them (dot's -G/-N/-E). Nil when
    /// the text has no `{` outside comments and strings.
    static func withAttributes(_ text: String, _ options: RenderOptions) -> String? {
        guard let brace = rootBrace(text) else { return nil }
        func list(_ kind: String, _ pairs: [(String, String)]) -> String {
            guard !pairs.isEmpty else { return "" }
            return " \(kind) [" + pairs.map { "\($0.0)=\(quoted($0.1))" }.joined(separator: ", ") + "];"
        }
        let statements = list("graph", options.graphAttributes) + list("node", options.nodeAttributes)
            + list("edge", options.edgeAttributes)
        var out = text
        out.insert(contentsOf: statements + " ", at: out.index(after: brace))
        return out
    }

    /// A DOT string literal: `"` and `\` escaped, line breaks kept as `\n`.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    /// Where the block comment that `s` opens ends (after its `*/`).
    static func commentEnd(_ s: Substring) -> String.Index? {
        var i = s.index(s.startIndex, offsetBy: 2, limitedBy: s.endIndex) ?? s.endIndex
        while i < s.endIndex {
            if s[i...].hasPrefix("*/") { return s.index(i, offsetBy: 2) }
            i = s.index(after: i)
        }
        return nil
    }

    /// The first `{` outside comments and quoted strings.
    static func rootBrace(_ text: String) -> String.Index? {
        var i = text.startIndex
        func at(_ s: String) -> Bool { text[i...].hasPrefix(s) }
        while i < text.endIndex {
            let c = text[i]
            if at("//") || (c == "#" && (i == text.startIndex || text[text.index(before: i)] == "\n")) {
                i = text[i...].firstIndex(of: "\n") ?? text.endIndex
            } else if at("/*") {
                guard let end = commentEnd(text[i...]) else { return nil }
                i = end
            } else if c == "\"" {
                i = text.index(after: i)
                while i < text.endIndex && text[i] != "\"" {
                    if text[i] == "\\" { i = text.index(after: i) }
                    if i < text.endIndex { i = text.index(after: i) }
                }
                if i < text.endIndex { i = text.index(after: i) }
            } else if c == "{" {
                return i
            } else {
                i = text.index(after: i)
            }
        }
        return nil
    }
}
