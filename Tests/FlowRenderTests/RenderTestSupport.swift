import Foundation
import Testing

@testable import FlowCore
@testable import FlowRender

#if canImport(FoundationXML)
import FoundationXML
#endif

typealias Store = FlowStore<JSONValue>

/// A node with string data (its title) and the given handles.
func node(
    _ id: String, _ x: Double, _ y: Double, _ w: Double = 150, _ h: Double = 60,
    title: String? = nil, parent: String? = nil, container: Bool = false, z: Int = 0,
    handles: [HandleDeclaration] = HandleDeclaration.defaults
) -> FlowNode<JSONValue> {
    FlowNode(
        id: id, position: Point(x, y), size: Size(w, h), data: .string(title ?? id),
        parentID: parent, acceptsChildren: container, zIndex: z, handles: handles)
}

func edge(
    _ id: String, _ s: String, _ sh: String? = "source", _ t: String, _ th: String? = "target",
    type: EdgePathType = .bezier, label: String? = nil
) -> FlowEdge {
    FlowEdge(
        id: id, sourceNodeID: s, sourceHandleID: sh, targetNodeID: t, targetHandleID: th,
        pathType: type, label: label)
}

/// Horizontal handles: a target on the left, a source on the right.
let sideways = [
    HandleDeclaration(id: "target", type: .target, position: .left),
    HandleDeclaration(id: "source", type: .source, position: .right),
]

/// Builds a store from nodes and edges (throws on invalid input, so tests fail loudly).
func makeStore(
    _ nodes: [FlowNode<JSONValue>], _ edges: [FlowEdge] = [],
    configure: (inout FlowConfiguration) -> Void = { _ in }
) throws -> Store {
    var configuration = FlowConfiguration()
    configure(&configuration)
    let store = Store(configuration: configuration)
    for n in nodes { try store.addNode(n) }
    for e in edges { try store.addEdge(e) }
    return store
}

// MARK: - Golden files

enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// `RECORD_GOLDEN=1` rewrites the golden files instead of comparing with them.
    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" }

    /// Compares `svg` with `Golden/<name>.svg` (or records it), after checking that it is a
    /// well-formed SVG document.
    static func check(
        _ svg: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        _ = try SVGDocument(svg, sourceLocation: sourceLocation)
        let url = directory.appendingPathComponent(name + ".svg")
        if isRecording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try svg.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "missing golden file \(name).svg (run with RECORD_GOLDEN=1 to create it)",
                sourceLocation: sourceLocation)
            return
        }
        if svg != expected {
            let a = svg.split(separator: "\n", omittingEmptySubsequences: false)
            let b = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let got = i < a.count ? String(a[i]) : "<end>"
            let want = i < b.count ? String(b[i]) : "<end>"
            Issue.record(
                "\(name).svg differs at line \(i + 1):\n  got:      \(got)\n  expected: \(want)\n(RECORD_GOLDEN=1 rewrites the golden files)",
                sourceLocation: sourceLocation)
        }
    }
}

// MARK: - Parsed SVG

/// An element of a parsed document.
final class Element {
    let name: String
    let attributes: [String: String]
    var children: [Element] = []
    var text = ""
    weak var parent: Element?

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This element and all its descendants, in document order.
    var all: [Element] { [self] + children.flatMap(\.all) }

    var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }

    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }
}

/// An SVG document parsed with `XMLParser`, with the checks every rendered picture must pass.
struct SVGDocument {
    let root: Element

    init(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ParseFailure(
                message: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?") line \(parser.lineNumber)")
        }
        self.root = root
        check(svg, sourceLocation: sourceLocation)
    }

    struct ParseFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Every element in document order.
    var elements: [Element] { root.all }

    func elements(_ name: String, class cls: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (cls == nil || $0.classes.contains(cls!)) }
    }

    /// Node groups (`<g class="node …">`), their outlines, edge paths, node titles (lines
    /// joined by newlines) and label texts.
    var nodes: [Element] { elements("g", class: "node") }
    var nodeShapes: [Element] { elements.filter { $0.classes.contains("shape") } }
    var edgePaths: [Element] { elements("path", class: "edge") }
    var titles: [String] { elements("text", class: "title").map(Self.text) }

    /// The text of a `text` element: its lines joined by newlines when they are `tspan`s.
    static func text(_ e: Element) -> String {
        e.children.isEmpty ? e.text : e.children.map(\.text).joined(separator: "\n")
    }
    var labels: [String] { elements("text", class: "label-text").map(\.text) }

    /// The promises every picture keeps: root `svg` in the SVG namespace with a size and a
    /// view box; numbers with at most two decimals and never `-0`; every `url(#id)` and
    /// marker reference resolves; no duplicate ids.
    private func check(_ svg: String, sourceLocation: SourceLocation) {
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "), sourceLocation: sourceLocation)
        #expect(root.name == "svg", sourceLocation: sourceLocation)
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg", sourceLocation: sourceLocation)
        #expect(root.attributes["version"] == "1.1", sourceLocation: sourceLocation)
        let width = root.number("width") ?? 0
        let height = root.number("height") ?? 0
        #expect(width > 0 && height > 0, sourceLocation: sourceLocation)
        let viewBox = (root.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(viewBox.count == 4, sourceLocation: sourceLocation)

        let numeric: Set<String> = [
            "x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "refX", "refY", "markerWidth",
            "markerHeight", "stroke-width", "fill-opacity", "stroke-opacity",
        ]
        var ids: Set<String> = []
        for e in elements {
            if let id = e.attributes["id"] {
                #expect(ids.insert(id).inserted, "duplicate id \(id)", sourceLocation: sourceLocation)
            }
            for (k, v) in e.attributes where numeric.contains(k) {
                #expect(Self.isNumber(v), "\(e.name) \(k)=\"\(v)\"", sourceLocation: sourceLocation)
            }
            for k in ["d", "viewBox", "transform"] {
                guard let v = e.attributes[k] else { continue }
                for token in Self.numberTokens(v) {
                    #expect(Self.isNumber(token), "\(e.name) \(k) has \(token)", sourceLocation: sourceLocation)
                }
            }
        }
        // Every reference resolves.
        let style = elements("style").map(\.text).joined()
        for reference in Self.references(in: svg) {
            #expect(ids.contains(reference), "dangling reference #\(reference)", sourceLocation: sourceLocation)
        }
        #expect(!style.isEmpty || elements.count <= 2, sourceLocation: sourceLocation)
    }

    /// A number as the renderer writes them: no leading zeros, at most two decimals with no
    /// trailing zero, never `-0`.
    static func isNumber(_ s: String) -> Bool {
        s != "-0"
            && s.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]?[1-9])?$"#, options: .regularExpression) != nil
    }

    /// The numbers in path data, a view box or a transform.
    static func numberTokens(_ s: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        for c in s {
            if c.isNumber || c == "." || (c == "-" && current.isEmpty) {
                current.append(c)
            } else {
                if !current.isEmpty { tokens.append(current) }
                current = c == "-" ? "-" : ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    static func references(in svg: String) -> [String] {
        var result: [String] = []
        var rest = svg[...]
        while let r = rest.range(of: "url(#") {
            let tail = rest[r.upperBound...]
            guard let end = tail.firstIndex(of: ")") else { break }
            result.append(String(tail[..<end]))
            rest = tail[end...]
        }
        return result
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: Element?
    var stack: [Element] = []

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        let e = Element(name: name, attributes: attributes)
        if let parent = stack.last {
            parent.children.append(e)
            e.parent = parent
        } else {
            root = e
        }
        stack.append(e)
    }

    func parser(
        _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
        qualifiedName: String?
    ) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }
}
