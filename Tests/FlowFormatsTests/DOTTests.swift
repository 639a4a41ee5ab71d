import FlowCore
import FlowLayout
import TestSupport
import Testing

@testable import FlowFormats

@Suite struct DOTReaderTests {
    func read(_ text: String) throws -> FormatImport { try DOTReader.read(text) }

    @Test func nodesEdgesChainsAndDefaults() throws {
        let r = try read("""
            /* comment */ digraph G {
              // line comment
              node [shape=box];
              a -> b -> c [label="x"];
              d [label="D\\nline", shape=circle, color=red];
            }
            """)
        #expect(r.document.nodes.map(\.id) == ["a", "b", "c", "d"])
        #expect(r.document.edges.map { "\($0.sourceNodeID)>\($0.targetNodeID)" } == ["a>b", "b>c"])
        #expect(r.document.edges.allSatisfy { $0.label == "x" })
        #expect(r.document.nodes[0].shape == .rectangle)
        #expect(r.document.nodes[3].shape == .circle)
        #expect(r.document.nodes[3].data.title(nodeID: "d") == "D\nline")
        #expect(r.document.nodes[3].style.stroke == FlowColor("#ff0000"))
        #expect(r.needsLayout)
        #expect(r.warnings.isEmpty)
    }

    @Test func clustersNestAndSubgraphEdges() throws {
        let r = try read("""
            graph { subgraph cluster_a { label="A"; x; subgraph cluster_b { y } } z -- {x y} }
            """)
        let byID = Dictionary(uniqueKeysWithValues: r.document.nodes.map { ($0.id, $0) })
        #expect(byID["cluster_a"]?.acceptsChildren == true)
        #expect(byID["cluster_b"]?.parentID == "cluster_a")
        #expect(byID["x"]?.parentID == "cluster_a")
        #expect(byID["y"]?.parentID == "cluster_b")
        #expect(byID["z"]?.parentID == nil)
        #expect(r.document.edges.count == 2)
        #expect(r.document.edges.allSatisfy { $0.style.targetArrow == ArrowHead.none })
    }

    @Test func unmappedAttributesAreReported() throws {
        let r = try read("digraph { rankdir=LR; a [fontname=Times]; b [fontname=Courier]; a -> b [headclip=false] }")
        #expect(r.direction == .LR)
        #expect(r.warnings == ["node attribute 'fontname' is not mapped (2 nodes)", "edge attribute 'headclip' is not mapped (1 edge)"])
    }

    @Test func positionsFlipY() throws {
        let r = try read("digraph { a [pos=\"36,100\", width=1, height=0.5]; b [pos=\"36,0\", width=1, height=0.5] }")
        #expect(!r.needsLayout)
        #expect(r.document.nodes[0].position == Point(0, 0))
        #expect(r.document.nodes[1].position == Point(0, 100))
        #expect(r.document.nodes[0].size == Size(72, 36))
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(throws: FlowError.self) { try read("digraph {\n  a -> ;\n}") }
        do {
            _ = try read("digraph {\n  a -> ;\n}")
        } catch {
            #expect("\(error)".contains("line 2, column 8"))
        }
    }

    @Test func hostileInputFailsCleanly() {
        let deep = "digraph { " + String(repeating: "{ ", count: 100_000) + "a" + String(repeating: " }", count: 100_000) + " }"
        #expect(throws: FlowError.self) { try read(deep) }
        #expect(throws: FlowError.self) { try read("digraph { a\u{0}b }") }
        #expect(throws: FlowError.self) { try read("digraph { \"" + String(repeating: "x", count: 100_000) + "\" }") }
        #expect(throws: FlowError.self) { try read("digraph { a -> b ") }
    }

    @Test func subgraphsNamedAgainDoNotMakeCycles() throws {
        let s = FlowStore<JSONValue>()
        let w = try s.load("digraph { subgraph cluster_a { subgraph cluster_b { subgraph cluster_a { x } } } }", format: .dot)
        #expect(w.isEmpty)
        #expect(s.node("cluster_b")?.parentID == "cluster_a")
        #expect(s.node("cluster_a")?.parentID == nil)
        let m = FlowStore<JSONValue>()
        let mw = try m.load("flowchart TD\nsubgraph a\nsubgraph b\nsubgraph a\nx\nend\nend\nend", format: .mermaid)
        #expect(mw.isEmpty)
        #expect(m.node("a")?.parentID == nil)
        #expect(m.node("b")?.parentID == "a")
    }

    @Test func loadReplacesTheStoreAndKeepsItOnError() throws {
        let s = FlowStore<JSONValue>()
        try s.load("digraph { a -> b }", format: .dot)
        #expect(s.nodes.map(\.id) == ["a", "b"])
        #expect(throws: FlowError.self) { try s.load("digraph { a -> }", format: .dot) }
        #expect(s.nodes.map(\.id) == ["a", "b"])
        // laid out: b below a
        #expect(s.node("b")!.position.y > s.node("a")!.position.y)
    }
}

/// DOT → store → DOT → store keeps nodes, edges, labels, groups and shapes.
@Suite struct DOTRoundTripTests {
    struct Summary: Equatable {
        var nodes: [String]
        var edges: [String]
    }

    static func summary(_ s: FlowStore<JSONValue>) -> Summary {
        Summary(
            nodes: s.nodes.map { n in
                "\(n.id)|\(n.data.title(nodeID: n.id))|\(n.parentID ?? "-")|\(n.shape?.rawValue ?? "-")|\(n.acceptsChildren)"
            }.sorted(),
            edges: s.edges.map { e in
                "\(e.sourceNodeID)>\(e.targetNodeID)|\(e.label ?? "-")|\(e.sourceHandleID ?? "-")|\(e.targetHandleID ?? "-")"
            }.sorted())
    }

    /// Loads `text`, writes DOT, loads that, and compares.
    static func roundTrip(_ text: String) throws -> (Summary, Summary) {
        let a = FlowStore<JSONValue>()
        try a.load(text, format: .dot)
        let b = FlowStore<JSONValue>()
        try b.load(a.text(.dot), format: .dot)
        return (summary(a), summary(b))
    }

    @Test func generatedGraphs() throws {
        var rng = SplitMix64(seed: 7)
        let shapes = ["box", "ellipse", "circle", "diamond", "hexagon", "note", "cylinder", "parallelogram"]
        for round in 0..<20 {
            let n = 2 + Int(rng.next() % 30)
            var text = round % 2 == 0 ? "digraph {\n" : "graph {\n"
            let op = round % 2 == 0 ? "->" : "--"
            var open = 0
            for i in 0..<n {
                if rng.next() % 5 == 0 { text += "subgraph cluster_\(round)_\(i) { label=\"C \(i)\"\n"; open += 1 }
                text += "n\(i) [label=\"N \\\"\(i)\\\"\", shape=\(shapes[Int(rng.next() % UInt64(shapes.count))])]\n"
                if open > 0 && rng.next() % 3 == 0 { text += "}\n"; open -= 1 }
            }
            text += String(repeating: "}\n", count: open)
            for _ in 0..<(n + Int(rng.next() % UInt64(n))) {
                let a = Int(rng.next() % UInt64(n)), b = Int(rng.next() % UInt64(n))
                text += "n\(a) \(op) n\(b)" + (rng.next() % 3 == 0 ? " [label=\"l\(a)\"]" : "") + "\n"
            }
            text += "}\n"
            let (first, second) = try Self.roundTrip(text)
            #expect(first == second, "round \(round)")
            #expect(first.nodes.count >= n)
        }
    }

    @Test func portsBecomeHandles() throws {
        let (first, second) = try Self.roundTrip("digraph { a:s -> b:n; a:e -> c:w }")
        #expect(first.edges.contains("a>b|-|out-bottom|in-top"))
        #expect(first == second)
    }

    /// Every `.gv`/`.dot` file of the Graphviz Debian packages (graphviz-doc's examples).
    @Test func graphvizExampleFiles() throws {
        let files = GraphvizExamples.files()
        guard !files.isEmpty else {
            print("skipped: no Graphviz example files (install graphviz-doc: scripts/setup)")
            return
        }
        var read = 0
        for path in files {
            guard let text = GraphvizExamples.contents(path) else { continue }
            let a = FlowStore<JSONValue>()
            do {
                try a.load(text, format: .dot)
            } catch {
                Issue.record("\(path): \(error)")
                continue
            }
            let b = FlowStore<JSONValue>()
            try b.load(a.text(.dot), format: .dot)
            #expect(Self.summary(a) == Self.summary(b), "\(path)")
            read += 1
        }
        print("read and round-tripped \(read) Graphviz example files")
    }
}
