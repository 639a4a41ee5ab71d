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
/// layout direction and spacing the text asks for, and whether the nodes still need positions.
public struct FormatImport {
    public var document: FlowDocument<JSONValue>
    public var warnings: [String]
    public var direction: LayoutDirection
    public var needsLayout: Bool
    /// Free space between neighbours in a layer and between layers, in points, for the
    /// layout of the import (DOT's `nodesep` and `ranksep`, or Graphviz's defaults); nil:
    /// `LayoutOptions`' own.
    public var nodeSpacing: Double? = nil
    public var layerSpacing: Double? = nil
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

    /// Most bend points the layout of the document may need (`LayoutLimits.bendPoints`, the
    /// layout's own default): a statement that joins so many nodes each to each that the
    /// layout would need more (`BendPointFloor`) is refused while the text is read.
    public var bendPoints: Int

    /// Whether an HTML-like label's `<IMG>` files are read (and drawn): not in a Lua
    /// sandbox, which reaches no file (docs/sandbox.md).
    public var readsImages = true

    /// What the error calls the edge limit.
    var edgeLimitName = "maximumEdges"

    public init(edges: Int = FormatLimits.defaultEdges, bendPoints: Int = LayoutLimits.defaultBendPoints) {
        self.edges = max(0, edges)
        self.bendPoints = max(0, bendPoints)
    }

    /// These limits, with a store's edge limit (`StoreLimits.edges`, a sandbox's) where it
    /// is lower, so it holds while a statement expands.
    func keeping(_ store: StoreLimits?) -> FormatLimits {
        guard let store, store.edges > 0, store.edges < edges else { return self }
        var out = self
        out.edges = store.edges
        out.edgeLimitName = "the store's limit"
        return out
    }

    /// The error text for a statement that would make `statement` edges after `before`.
    func edgeMessage(statement: Int, before: Int) -> String {
        let made = statement == Int.max ? "more than \(Int.max)" : "\(statement)"
        return "this statement would make \(made) edges, and the graph already has \(before): "
            + "more than the limit of \(edges) edges (\(edgeLimitName))"
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

/// `#rgb`, `#rrggbb`, `#rrggbbaa`, an X11 or SVG name (`/x11/` or `/svg/` before it allowed)
/// or Graphviz's HSV triple; nil otherwise.
func parseColor(_ text: String) -> FlowColor? {
    let t = text.trimmingSpaces().lowercased()
    if let c = FlowColor(t) { return c }
    if t.hasPrefix("#"), t.utf8.count == 4 {
        let d = Array(t.dropFirst())
        return FlowColor("#" + d.map { "\($0)\($0)" }.joined())
    }
    // `/x11/name` and `/svg/name` name a colour of that scheme
    var name = Substring(t)
    for scheme in ["/x11/", "/svg/"] where name.hasPrefix(scheme) { name = name.dropFirst(scheme.count) }
    if let hex = namedColors[String(name)] { return FlowColor(hex) }
    return hsvColor(t)
}

/// Graphviz's `H,S,V` or `H S V` (each 0 to 1) as a colour; nil for anything else.
func hsvColor(_ t: String) -> FlowColor? {
    let parts = t.split(whereSeparator: { $0 == "," || $0 == " " })
    guard parts.count == 3 else { return nil }
    let v = parts.compactMap { Double($0) }
    guard v.count == 3, v.allSatisfy({ $0 >= 0 && $0 <= 1 }) else { return nil }
    let h = v[0] * 6, s = v[1], value = v[2]
    let i = min(Int(h), 5), f = h - Double(i)
    let p = value * (1 - s), q = value * (1 - s * f), u = value * (1 - s * (1 - f))
    let (r, g, b): (Double, Double, Double)
    switch i {
    case 0: (r, g, b) = (value, u, p)
    case 1: (r, g, b) = (q, value, p)
    case 2: (r, g, b) = (p, value, u)
    case 3: (r, g, b) = (p, q, value)
    case 4: (r, g, b) = (u, p, value)
    default: (r, g, b) = (value, p, q)
    }
    func byte(_ x: Double) -> UInt8 { UInt8(min(255, max(0, (x * 255).rounded()))) }
    return FlowColor(red: byte(r), green: byte(g), blue: byte(b))
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

extension JSONValue {
    /// The object with `key` set to `value` (a value that is not an object becomes one).
    func setting(_ key: String, to value: JSONValue) -> JSONValue {
        var o: JSONObject
        if case .object(let existing) = self { o = existing } else { o = JSONObject() }
        o[key] = value
        return .object(o)
    }

    /// The string at `key` of an object, else nil.
    func string(at key: String) -> String? {
        if case .object(let o) = self, case .string(let s)? = o[key] { return s }
        return nil
    }
}
