import FlowCore
import FlowLayout

/// The text formats a store reads and writes besides its own JSON documents.
public enum DiagramFormat: String, Sendable, CaseIterable, FlowEnum {
    case json, dot, mermaid
    public static var valueName: String { "format" }

    /// The format a file name's extension names: `.json`, `.dot`/`.gv`, `.mmd`/`.mermaid`.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "json": self = .json
        case "dot", "gv": self = .dot
        case "mmd", "mermaid": self = .mermaid
        default: return nil
        }
    }
}

/// What a reader made of a DOT or Mermaid text: the document, what it could not map, the
/// layout direction the text asks for, and whether the nodes still need positions.
public struct FormatImport {
    public var document: FlowDocument<JSONValue>
    public var warnings: [String]
    public var direction: LayoutDirection
    public var needsLayout: Bool
}

/// What a DOT or Mermaid text may make a reader build (docs/formats.md, "Limits"). A
/// statement that would take the document past a limit is refused before anything is made,
/// with an error naming the limit: one line of text can ask for millions of edges
/// (`{a1 … aN} -> {a1 … aN}`, `a1 & … & aN --> a1 & … & aN`).
public struct FormatLimits: Sendable, Equatable {
    /// The default of `edges`.
    public static let defaultEdges = 200_000
    /// Most edges a document read from DOT or Mermaid may have (Lua: the `maximumEdges` option).
    public var edges: Int

    public init(edges: Int = FormatLimits.defaultEdges) {
        self.edges = max(0, edges)
    }

    /// The error text for a statement that would make `statement` edges after `before`.
    func edgeMessage(statement: Int, before: Int) -> String {
        let made = statement == Int.max ? "more than \(Int.max)" : "\(statement)"
        return "this statement would make \(made) edges, and the graph already has \(before): "
            + "more than the limit of \(edges) edges (maximumEdges)"
    }
}

/// Collects "not mapped" reports, one line per (what, name) with a count, in first-seen order.
struct WarningTally {
    private var order: [String] = []
    private var counts: [String: Int] = [:]
    private var units: [String: String] = [:]
    var plain: [String] = []

    mutating func add(_ message: String, unit: String) {
        if counts[message] == nil { order.append(message); units[message] = unit }
        counts[message, default: 0] += 1
    }

    /// Whether `name` can be a class name; a name that cannot is reported and dropped.
    mutating func keepsClass(_ name: String) -> Bool {
        do {
            try FlowClass.validateName(name, "load", "class")
            return true
        } catch {
            add("class '\(name)' is not a valid class name", unit: "")
            return false
        }
    }

    var lines: [String] {
        plain + order.map { m in
            let n = counts[m]!, u = units[m]!
            return u.isEmpty ? m : "\(m) (\(n) \(u)\(n == 1 ? "" : "s"))"
        }
    }
}

/// The colours DOT and Mermaid files name most; any other name is reported.
let namedColors: [String: String] = [
    "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#00ff00", "blue": "#0000ff",
    "yellow": "#ffff00", "cyan": "#00ffff", "magenta": "#ff00ff", "gray": "#c0c0c0", "grey": "#c0c0c0",
    "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3", "darkgray": "#a9a9a9", "darkgrey": "#a9a9a9",
    "orange": "#ffa500", "purple": "#a020f0", "pink": "#ffc0cb", "brown": "#a52a2a",
    "lightblue": "#add8e6", "lightyellow": "#ffffe0", "lightgreen": "#90ee90", "lightpink": "#ffb6c1",
    "navy": "#000080", "darkgreen": "#006400", "darkblue": "#00008b", "darkred": "#8b0000",
    "gold": "#ffd700", "salmon": "#fa8072", "violet": "#ee82ee", "turquoise": "#40e0d0",
    "beige": "#f5f5dc", "khaki": "#f0e68c", "tan": "#d2b48c", "coral": "#ff7f50",
    "crimson": "#dc143c", "firebrick": "#b22222", "forestgreen": "#228b22", "steelblue": "#4682b4",
    "skyblue": "#87ceeb", "lavender": "#e6e6fa", "ivory": "#fffff0", "wheat": "#f5deb3",
    "orchid": "#da70d6", "plum": "#dda0dd", "chartreuse": "#7fff00", "gold1": "#ffd700",
    "palegreen": "#98fb98", "lightcyan": "#e0ffff", "lightsalmon": "#ffa07a", "maroon": "#b03060",
    "olivedrab": "#6b8e23", "royalblue": "#4169e1", "slateblue": "#6a5acd", "tomato": "#ff6347",
    "whitesmoke": "#f5f5f5", "honeydew": "#f0fff0", "mintcream": "#f5fffa", "azure": "#f0ffff",
    "aliceblue": "#f0f8ff", "gainsboro": "#dcdcdc", "snow": "#fffafa", "seashell": "#fff5ee",
]

/// `#rgb`, `#rrggbb`, `#rrggbbaa` or a known name; nil otherwise.
func parseColor(_ text: String) -> FlowColor? {
    let t = text.trimmingSpaces().lowercased()
    if let c = FlowColor(t) { return c }
    if t.hasPrefix("#"), t.utf8.count == 4 {
        let d = Array(t.dropFirst())
        return FlowColor("#" + d.map { "\($0)\($0)" }.joined())
    }
    if let hex = namedColors[t] { return FlowColor(hex) }
    return nil
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return String(s)
    }
}

/// A node payload carrying `label` (or none when the title is the id).
func labelData(_ label: String?, id: String) -> JSONValue {
    guard let label, label != id else { return .object(JSONObject()) }
    return .object(JSONObject([("label", .string(label))]))
}
