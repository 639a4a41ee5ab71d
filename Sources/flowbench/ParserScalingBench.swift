@preconcurrency import Glibc
import FlowCore
import FlowFormats

/// The readers' and writers' worst cases (issue #43) at 1,000, 2,000 and 4,000 items: one
/// long `+` chain, one node with many attributes, one long edge chain, one edge set, a
/// statement of 50 edges an item (200,000 edges, the limit, at 4,000), a statement of
/// items² edges refused by the limit, deep subgraph nesting (blocks of 60 levels, under
/// the 64-level limit) in DOT and Mermaid, one `&` group, a JSON document of one long
/// parent chain, and writing many nodes. Each time is the best of eleven, the sizes taking
/// turns, after a warm-up run; the growth exponent from 1,000 to 4,000 items is
/// log(t4000 / t1000) / log 4 (target: at most 1.3).
enum ParserScalingBench {
    static let sizes = [1_000, 2_000, 4_000]
    static let exponentLimit = 1.3

    static let cases: [(name: String, run: @Sendable (Int) -> () -> Void)] = [
        ("dot.plusChain", { n in read(.dot, "digraph { \"" + Array(repeating: "x", count: n).joined(separator: "\" + \"") + "\" }") }),
        ("dot.attributes", { n in read(.dot, "digraph { a [" + (0..<n).map { "k\($0)=\($0)" }.joined(separator: ", ") + "] }") }),
        ("dot.edgeChain", { n in read(.dot, "digraph { " + (0..<n).map { "a\($0)" }.joined(separator: " -> ") + " }") }),
        ("dot.edgeSet", { n in read(.dot, "digraph { a -> {" + (0..<n).map { "b\($0)" }.joined(separator: " ") + "} }") }),
        ("dot.nesting", { n in read(.dot, "digraph { " + nested(n, open: { "subgraph cluster_\($0) { x\($0) " }, close: "} ") + "}") }),
        // a statement of 50 edges an item: 200,000 edges (the limit) at 4,000 items
        ("dot.expansion", { n in read(.dot, "digraph { {" + ids("a", n, " ") + "} -> {" + ids("b", 50, " ") + "} }") }),
        // an item-by-item statement past the limit, refused before any edge is made
        ("dot.refused", { n in refused(.dot, "digraph { {" + ids("a", n, " ") + "} -> {" + ids("a", n, " ") + "} }") }),
        ("mermaid.expansion", { n in read(.mermaid, "flowchart LR\n" + ids("a", n, " & ") + " --> " + ids("b", 50, " & ") + "\n") }),
        ("mermaid.refused", { n in refused(.mermaid, "flowchart LR\n" + ids("a", n, " & ") + " --> " + ids("a", n, " & ") + "\n") }),
        ("json.parentChain", { n in read(.json, parentChain(n)) }),
        ("mermaid.ampersand", { n in read(.mermaid, "flowchart LR\n" + (0..<n).map { "a\($0)" }.joined(separator: " & ") + " --> b\n") }),
        ("mermaid.edgeChain", { n in read(.mermaid, "flowchart LR\n" + (0..<n).map { "a\($0)" }.joined(separator: " --> ") + "\n") }),
        ("mermaid.nesting", { n in read(.mermaid, "flowchart LR\n" + nested(n, open: { "subgraph s\($0)\nx\($0)\n" }, close: "end\n")) }),
        ("dot.write", { n in write(.dot, n) }),
        ("mermaid.write", { n in write(.mermaid, n) }),
    ]

    /// `prefix0`, `prefix1`, … `prefix(n-1)` joined by `separator`.
    static func ids(_ prefix: String, _ n: Int, _ separator: String) -> String {
        (0..<n).map { "\(prefix)\($0)" }.joined(separator: separator)
    }

    /// A JSON document of `n` groups, each inside the one before.
    static func parentChain(_ n: Int) -> String {
        let nodes = (0..<n).map { i in
            #"{"id":"g\#(i)","position":[0,0],"size":[10,10],"acceptsChildren":true"#
                + (i == 0 ? "" : #","parentID":"g\#(i - 1)""#) + "}"
        }
        return #"{"nodes":["# + nodes.joined(separator: ",") + #"],"edges":[],"viewport":{"offset":[0,0],"zoom":1}}"#
    }

    /// `n` groups in blocks nested 60 deep.
    static func nested(_ n: Int, open: (Int) -> String, close: String) -> String {
        var out = ""
        var i = 0
        while i < n {
            let depth = min(60, n - i)
            for k in 0..<depth { out += open(i + k) }
            out += String(repeating: close, count: depth)
            i += depth
        }
        return out
    }

    static func read(_ format: DiagramFormat, _ text: String) -> () -> Void {
        {
            switch format {
            case .dot: _ = try! DOTReader.read(text)
            case .mermaid: _ = try! MermaidReader.read(text)
            case .json: _ = try! FlowStore<JSONValue>().load(FlowDocument<JSONValue>.decode(text))
            }
        }
    }

    /// Reading `text`, which the reader refuses (a statement past the edge limit).
    static func refused(_ format: DiagramFormat, _ text: String) -> () -> Void {
        {
            switch format {
            // invariant: each case is built past a reader's limit (a benchmark's own check)
            case .dot: precondition((try? DOTReader.read(text)) == nil)  // invariant: refused
            case .mermaid: precondition((try? MermaidReader.read(text)) == nil)  // invariant: refused
            case .json: precondition((try? FlowDocument<JSONValue>.decode(text)) == nil)  // invariant: refused
            }
        }
    }

    /// Writing `n` nodes whose ids Mermaid renames, with labels that need escaping, and an edge each.
    static func write(_ format: DiagramFormat, _ n: Int) -> () -> Void {
        let nodes = (0..<n).map { i in
            FlowNode<JSONValue>(
                id: "node \(i)", position: Point(Double(i) * 10, 0), size: Size(8, 8),
                data: .object(JSONObject([("label", .string("a \"\(i)\" | \\ <b>"))])))
        }
        let edges = (1..<n).map { FlowEdge(id: "e\($0)", sourceNodeID: "node \($0 - 1)", targetNodeID: "node \($0)", label: "x|\($0)") }
        let store = FlowStore<JSONValue>()
        _ = try! store.load(FlowDocument(nodes: nodes, edges: edges))
        return { _ = try! store.text(format) }
    }

    static func run(into report: Report) {
        for c in cases {
            progress("parser scaling \(c.name)")
            Growth.measure("parsers.\(c.name)", sizes: sizes, rounds: 11, into: report, c.run)
        }
    }
}
