import FlowCore
import FlowLayout
import TestSupport
import Testing

@testable import FlowFormats

/// Issue #43: text made to crash a reader, to make it work without end, or to make it build
/// far more than it says. Each gives a clear error or reads in linear time.
@Suite struct HostileInputTests {
    func concatenation(_ pieces: Int, piece: String = "x") -> String {
        "digraph { \"" + Array(repeating: piece, count: pieces).joined(separator: "\" + \"") + "\" }"
    }

    @Test func manyConcatenatedPiecesJoinWithoutRecursion() throws {
        // 60,000 pieces crashed the reader (one recursion per `+`)
        let r = try DOTReader.read(concatenation(60_000))
        #expect(r.document.nodes.map { $0.id.utf8.count } == [60_000])
    }

    @Test func theJoinedStringIsHeldToTheStringLimit() {
        let m = thrownMessage { _ = try DOTReader.read(concatenation(2, piece: String(repeating: "x", count: 40_000))) }
        #expect(m == "load: DOT: line 1, column 11: string longer than 65536 bytes", "\(m)")
        let many = thrownMessage { _ = try DOTReader.read(concatenation(70_000)) }
        #expect(many.hasSuffix("string longer than 65536 bytes"), "\(many)")
    }

    @Test func manyAttributesKeepTheirOrderAndTheLastValue() throws {
        // 100,000 unknown attributes took 70 s (each one searched the list before it)
        let n = 100_000
        var text = "digraph { a ["
        for i in 0..<n { text += "k\(i)=\(i), " }
        text += "k0=last] }"
        let graph = try DOTParser.parse(text)
        #expect(graph.nodes.count == 1)
        #expect(graph.nodes[0].attributes.count == n)
        #expect(graph.nodes[0].attributes["k0"] == "last")
        #expect(graph.nodes[0].attributes.pairs.last.map { $0.0 } == "k\(n - 1)")
        let r = try DOTReader.read(text)
        #expect(r.warnings.count == n)
    }

    @Test func anEdgeStatementPastTheEdgeLimitIsRefused() {
        let set = "{" + (1...500).map { "a\($0)" }.joined(separator: " ") + "}"
        let m = thrownMessage { _ = try DOTReader.read("digraph { \(set) -> \(set) }") }
        #expect(m.contains("this statement would make 250000 edges"), "\(m)")
        #expect(m.contains("the limit of 200000 edges (maximumEdges)"), "\(m)")
    }

    @Test func theEdgeLimitCountsTheWholeGraphAndCanBeSet() throws {
        let set = "{" + (1...20).map { "a\($0)" }.joined(separator: " ") + "}"
        let text = "digraph { x -> y; \(set) -> \(set) }"
        #expect(try DOTReader.read(text, limits: FormatLimits(edges: 401)).document.edges.count == 401)
        let m = thrownMessage { _ = try DOTReader.read(text, limits: FormatLimits(edges: 400)) }
        #expect(m == "load: DOT: line 1, column 92: this statement would make 400 edges, and the graph already has 1: more than the limit of 400 edges (maximumEdges)", "\(m)")
    }

    @Test func aMermaidStatementPastTheEdgeLimitIsRefused() throws {
        let group = (1...500).map { "a\($0)" }.joined(separator: " & ")
        let m = thrownMessage { _ = try MermaidReader.read("flowchart LR\n\(group) --> \(group)\n") }
        #expect(m.contains("line 2, column"), "\(m)")
        #expect(m.contains("this statement would make 250000 edges"), "\(m)")
        #expect(m.contains("the limit of 200000 edges (maximumEdges)"), "\(m)")
        let small = (1...20).map { "a\($0)" }.joined(separator: " & ")
        let text = "flowchart LR\n\(small) --> \(small)\n"
        #expect(try MermaidReader.read(text, limits: FormatLimits(edges: 400)).document.edges.count == 400)
        #expect(thrownMessage { _ = try MermaidReader.read(text, limits: FormatLimits(edges: 399)) }.contains("limit of 399 edges"))
    }

    @Test func aStoreLoadPassesTheLimitsOn() {
        let s = FlowStore<JSONValue>()
        let m = thrownMessage { try s.load("digraph { {a b} -> {c d} }", format: .dot, limits: FormatLimits(edges: 3)) }
        #expect(m.contains("limit of 3 edges"), "\(m)")
        #expect(s.nodeCount == 0)
    }

    static func everyToEvery(_ n: Int) -> String {
        let set = "{" + (1...n).map { "a\($0)" }.joined(separator: " ") + "}"
        return "digraph { \(set) -> \(set) }"
    }

    /// 1.1 kB of DOT whose N² edges span N layers: the layout built 330,000 bend points
    /// (55 s, 356 MB); 440 nodes ran past 300 s to 9.8 GB. Now the bend points are counted
    /// first (by the reader, `BendPointFloorTests`), and the layout keeps to its limits and
    /// the work limit.
    @Test(.timeLimit(.minutes(2))) func aDenseGraphLaysOutInTimeOrFailsNamingTheLimit() throws {
        let s = FlowStore<JSONValue>()
        let start = ContinuousClock.now
        let m = thrownMessage { try s.load(Self.everyToEvery(440), format: .dot) }
        #expect(m.hasPrefix("layout: the graph needs at least 28,201,360 bend points (the layers its edges cross)"), "\(m)")
        #expect(m.hasSuffix("; the limit is 1,000,000"), "\(m)")
        #expect(s.nodeCount == 0)
        let dense = thrownMessage {
            _ = try WorkLimit.$current.withValue(WorkLimit(seconds: 2)) { try s.load(Self.everyToEvery(100), format: .dot) }
        }
        #expect(dense == "no error" || dense == WorkLimit.stoppedError("layout").description, "\(dense)")
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(s.nodeCount == (dense == "no error" ? 100 : 0))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try DOTReader.read("\u{FEFF}digraph { a -> b }").document.edges.count == 1)
        #expect(try MermaidReader.read("\u{FEFF}flowchart LR\na --> b\n").document.edges.count == 1)
        let s = FlowStore<JSONValue>()
        try s.load("\u{FEFF}{\"version\": 1, \"nodes\": [], \"edges\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", format: .json)
        // the column after a mark counts from the first character after it
        let m = thrownMessage { _ = try DOTReader.read("\u{FEFF}digraph { a -> ; }") }
        #expect(m == "load: DOT: line 1, column 16: expected a node or subgraph after '->', found ';'", "\(m)")
    }

    /// #38: graphviz-doc's japanese.gv has `a -> { b c b }`; an edge set has each node once.
    @Test func anEdgeSetHasEachNodeOnce() throws {
        let r = try DOTReader.read("digraph { a -> { b c b }; { x x } -> y }")
        #expect(r.document.edges.map { "\($0.sourceNodeID)>\($0.targetNodeID)" } == ["a>b", "a>c", "x>y"])
        let path = "/usr/share/doc/graphviz/examples/graphs/directed/japanese.gv"
        guard let text = GraphvizExamples.contents(path) else { return }
        #expect(try DOTReader.read(text).document.edges.count == 8)  // as `gvpr` counts them
    }

    @Test func invalidUTF8IsRefusedWithItsOffset() {
        let m = thrownMessage { _ = try DiagramText.string([0x61, 0x62, 0xC3, 0xA9, 0xFF, 0x63], operation: "decode") }
        #expect(m == "decode: text is not valid UTF-8 (invalid byte at offset 4)", "\(m)")
        #expect(thrownMessage { _ = try DiagramText.string(Array("digraph { é }".utf8), operation: "decode") } == "no error")
        #expect(DiagramText.firstInvalidUTF8([0xE2, 0x82]) == 0)
    }

    @Test func anExportedZoomOutsideTheDefaultLimitsComesBack() throws {
        var c = FlowConfiguration()
        c.maxZoom = 10
        let a = FlowStore<JSONValue>(configuration: c)
        _ = try a.setViewport(Viewport(offset: Point(3, 4), zoom: 8))
        let text = try a.export()
        let b = FlowStore<JSONValue>()
        try b.load(text, format: .json, keepingZoom: true)
        #expect(b.viewport.zoom == 8)
        #expect(try b.export() == text)
        // a load into a store keeps clamping into that store's limits
        let d = FlowStore<JSONValue>()
        try d.load(text, format: .json)
        #expect(d.viewport.zoom == 4)
    }
}
