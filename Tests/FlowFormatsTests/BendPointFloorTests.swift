import FlowCore
import FlowLayout
import TestSupport
import Testing

@testable import FlowFormats

/// Issue #43: text whose layout would need more bend points than the layout's limit is
/// refused while it is read, before any store or layout plan is built for it (`BendPointFloor`):
/// 2.6 kB of Mermaid making 180,000 edges took 8 s of a debug build to be refused by the
/// layout, half of it loading a store and half preparing the layout.
@Suite struct BendPointFloorTests {
    static func names(_ n: Int, _ separator: String) -> String {
        (1...n).map { "a\($0)" }.joined(separator: separator)
    }

    /// `a1 & … & aN --> a1 & … & aN --> a1 & … & aN`: 2N² edges.
    static func mermaidClique(_ n: Int, then more: String = "") -> String {
        let group = names(n, " & ")
        return "flowchart LR\n\(group) --> \(group) --> \(group)\n\(more)"
    }

    static func dotClique(_ n: Int, strict: Bool = false, directed: Bool = true, then more: String = "") -> String {
        let set = "{" + names(n, " ") + "}"
        return "\(strict ? "strict " : "")\(directed ? "digraph" : "graph") { \(set) \(directed ? "->" : "--") \(set); \(more) }"
    }

    @Test func theReaderRefusesAStatementTheLayoutWouldRefuse() {
        // 300 nodes, 180,000 edges: the reader itself refuses, naming the statement
        let m = thrownMessage { _ = try MermaidReader.read(Self.mermaidClique(300)) }
        #expect(
            m == "layout: the graph needs at least 8,910,200 bend points (the layers its edges cross): the statement at line 2, column 1991 joins 300 nodes each to each, so no two share a layer; the limit is 1,000,000",
            "\(m)")
        let d = thrownMessage { _ = try DOTReader.read(Self.dotClique(440)) }
        #expect(d.hasPrefix("layout: the graph needs at least 28,201,360 bend points"), "\(d)")
        #expect(d.contains("joins 440 nodes each to each"), "\(d)")
        // and a store load refuses before it builds anything
        let s = FlowStore<JSONValue>()
        let l = thrownMessage { try s.load(Self.mermaidClique(300), format: .mermaid) }
        #expect(l == m, "\(l)")
        #expect(s.nodeCount == 0)
    }

    @Test func theBoundIsTwoEdgesAPairForEveryThreeNodes() {
        let limits = FormatLimits(bendPoints: 100)
        // C(10, 3) = 120 triples, two edges a pair
        let m = thrownMessage { _ = try DOTReader.read(Self.dotClique(10), limits: limits) }
        #expect(m.hasPrefix("layout: the graph needs at least 240 bend points"), "\(m)")
        #expect(m.contains("line 1, column 44"), "\(m)")
        // a strict undirected graph keeps one edge a pair
        let strict = thrownMessage { _ = try DOTReader.read(Self.dotClique(10, strict: true, directed: false), limits: limits) }
        #expect(strict.hasPrefix("layout: the graph needs at least 120 bend points"), "\(strict)")
        #expect(BendPointFloor.bound(nodes: 2, pairEdges: 2) == 0)
        #expect(BendPointFloor.bound(nodes: 440, pairEdges: 2) == 28_201_360)
        #expect(BendPointFloor.bound(nodes: 1 << 40, pairEdges: 2) == .max)
    }

    /// The bound is one the layout reaches: laid out without the reader's check, the same
    /// graph fails the layout's own count at the bound less one.
    @Test func theLayoutNeedsAtLeastTheBound() throws {
        for text in [Self.dotClique(10), Self.mermaidClique(10)] {
            let format: DiagramFormat = text.hasPrefix("flowchart") ? .mermaid : .dot
            let s = FlowStore<JSONValue>()
            try s.load(text, format: format, limits: FormatLimits(bendPoints: .max))
            var request = LayoutRequest()
            request.maximumBendPoints = 239
            let m = thrownMessage { _ = try s.layout(request) }
            let count = m.split(separator: " ").dropFirst(4).first.flatMap { Int(String($0.filter { $0 != "," })) }
            #expect(m.hasPrefix("layout: the graph needs "), "\(m)")
            #expect((count ?? 0) >= 240, "\(m)")
        }
    }

    /// Nodes that later lines put apart (into groups of their own, on one rank, or all
    /// given positions) are not counted together: the text is read again, every edge made.
    @Test func nodesTakenApartLaterAreReadAsTheyWere() throws {
        let limits = FormatLimits(bendPoints: 100)
        let apart = (1...10).map { "subgraph s\($0)\na\($0)\nend" }.joined(separator: "\n")
        let grouped = try MermaidReader.read(Self.mermaidClique(10, then: apart), limits: limits)
        let plain = try MermaidReader.read(Self.mermaidClique(10, then: apart), limits: FormatLimits(bendPoints: .max))
        #expect(grouped.document.edges.count == 200)
        #expect(grouped.document == plain.document)
        // a rank constraint holding all but three
        let ranked = try DOTReader.read(Self.dotClique(10, then: "{rank=same; \(Self.names(7, " "))}"), limits: limits)
        #expect(ranked.document.edges.count == 100)
        // minlen=0 lets ends share a layer
        let flat = try DOTReader.read("digraph { {\(Self.names(10, " "))} -> {\(Self.names(10, " "))} [minlen=0] }", limits: limits)
        #expect(flat.document.edges.count == 100)
        // every node placed: not laid out
        let placed = (1...10).map { "a\($0) [pos=\"\($0 * 10),0\"]" }.joined(separator: "; ")
        let positioned = try DOTReader.read(Self.dotClique(10, then: placed), limits: limits)
        #expect(!positioned.needsLayout)
        #expect(positioned.document.edges.count == 100)
        // the nodes of one group are counted together
        let inside = thrownMessage {
            _ = try MermaidReader.read("flowchart LR\nsubgraph g\n\(Self.names(10, " & ")) --> \(Self.names(10, " & "))\nend\n", limits: limits)
        }
        #expect(inside.hasPrefix("layout: the graph needs at least 240 bend points"), "\(inside)")
    }

    @Test func theEdgeLimitStillCountsTheStatementsNotMade() {
        // 2 × 300² edges noted, then 20,001 more: past 200,000 (the edge limit comes first)
        let more = "b1 & b2 & b3 --> " + (1...6_667).map { "c\($0)" }.joined(separator: " & ")
        let m = thrownMessage { _ = try MermaidReader.read(Self.mermaidClique(300, then: more)) }
        #expect(m.contains("line 3, column 14: this statement would make 20001 edges, and the graph already has 180000"), "\(m)")
    }
}
