import FlowCore
import FlowLayout
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
        let r = try read("digraph { rankdir=LR; a [fontname=Times]; b [fontname=Courier]; a -> b [weight=2] }")
        #expect(r.direction == .LR)
        #expect(r.warnings == ["node attribute 'fontname' is not mapped (2 nodes)", "edge attribute 'weight' is not mapped (1 edge)"])
    }

    @Test func positionsFlipY() throws {
        let r = try read("digraph { a [pos=\"36,100\", width=1, height=0.5]; b [pos=\"36,0\", width=1, height=0.5] }")
        #expect(!r.needsLayout)
        #expect(r.document.nodes[0].position == Point(0, -18))
        #expect(r.document.nodes[1].position == Point(0, 82))
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
