import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

/// DOT's `rank` on subgraphs (`{rank=same; a; b}`, min, max, source, sink): read into the
/// document's rank sets (`DiagramLook.ranks`) instead of a warning, honoured by the layout,
/// and written back by `store:dot()`.
@Suite struct DOTRankTests {
    static let text = """
        digraph {
          a -> b -> c; x -> y; s -> t; a -> s
          {rank=same; c; y}
          subgraph top { rank = source; s }
          subgraph cluster_g { {rank=max; t} p -> q }
          subgraph other { label="kept"; rank=sideways; a }
        }
        """

    @Test func rankSubgraphsAreRead() throws {
        let s = FlowStore<JSONValue>()
        let warnings = try s.load(Self.text, format: .dot)
        #expect(s.diagramLook.ranks == [RankSet(.same, ["c", "y"]), RankSet(.source, ["s"]), RankSet(.max, ["t"])])
        #expect(warnings == [
            "subgraph attribute 'label' is not mapped (1 subgraph)",
            "subgraph rank 'sideways' is not a rank (expected same, min, max, source or sink) (1 subgraph)",
        ])
        // inside a cluster, the set's subgraph does not give the cluster its rank
        #expect(s.node("t")?.parentID == "cluster_g")
    }

    /// `minlen` between two nodes of one rank set is dot's sideways spacing: their free
    /// space is that many `nodesep`s (dot draws `a` and `b` 0.5 inches apart here); elsewhere
    /// it is a length in layers. Both honoured, neither reported.
    @Test func aSidewaysMinlenSpacesTheEnds() throws {
        func gap(_ minlen: Int) throws -> Double {
            let s = FlowStore<JSONValue>()
            let warnings = try s.load(
                "digraph { node [shape=box, fixedsize=true, width=1]; {rank=same; a -> b [minlen=\(minlen)]} c -> d [minlen=2] a -> c [minlen=3] }",
                format: .dot)
            #expect(warnings.isEmpty)
            #expect(s.diagramLook.edgeRanks.map(\.minLength) == [minlen, 2, 3].filter { $0 != 1 })
            let (a, b) = (s.node("a")!.frame, s.node("b")!.frame)
            #expect(a.minY == b.minY)
            return max(b.minX - a.maxX, a.minX - b.maxX)
        }
        #expect(try gap(1) == 18)
        #expect(try gap(2) == 36)
        #expect(try gap(5) == 90)
    }

    /// dot keeps the ends of a flat edge `minlen` x `nodesep` apart whatever lies between
    /// them: `m` sits between `a` and `b` here (crossing reduction puts it there), and dot
    /// draws `a` and `b` 5 inches apart, centre to centre.
    @Test func aSidewaysMinlenSpacesEndsThatAreNotNeighbours() throws {
        let s = FlowStore<JSONValue>()
        let warnings = try s.load(
            """
            digraph { node [shape=box, fixedsize=true, width=1, height=0.5];
              r1 -> a; r1 -> m; r2 -> m; r2 -> b; r1 -> x1; r2 -> x2; r1 -> a2; r2 -> b2; a2 -> a; b2 -> b;
              {rank=same; a; m; b} a -> b [minlen=20] }
            """, format: .dot)
        #expect(warnings.isEmpty)
        let (a, m, b) = (s.node("a")!.frame, s.node("m")!.frame, s.node("b")!.frame)
        #expect(a.minY == m.minY && m.minY == b.minY)
        #expect(a.maxX < m.minX && m.maxX < b.minX)
        #expect(b.minX - a.maxX == 20 * 18)
    }

    @Test func theLayoutHonoursThem() throws {
        let s = FlowStore<JSONValue>()
        try s.load(Self.text, format: .dot)
        try s.layout()
        func y(_ id: String) -> Double {
            var n = s.node(id)!
            var y = n.position.y + n.size.height / 2
            while let p = n.parentID, let g = s.node(p) { y += g.position.y; n = g }
            return y
        }
        #expect(y("c") == y("y"))
        let ys = ["a", "b", "c", "x", "y", "t", "p", "q"].map(y)
        #expect(y("s") < ys.min()!)
    }

    @Test func dotToStoreToDotKeepsThem() throws {
        let s = FlowStore<JSONValue>()
        try s.load(Self.text, format: .dot)
        let text = try s.text(.dot)
        #expect(text.contains("  {rank=same; \"c\"; \"y\"; }\n"))
        #expect(text.contains("  {rank=source; \"s\"; }\n"))
        let back = FlowStore<JSONValue>()
        let warnings = try back.load(text, format: .dot)
        #expect(!warnings.contains { $0.contains("rank") })
        #expect(back.diagramLook.ranks == s.diagramLook.ranks)
        #expect(back.node("t")?.parentID == s.node("t")?.parentID)
        #expect(try back.text(.dot) == text)
    }

    @Test func aNodeSeenBeforeIsAMemberWhereItIsNamed() throws {
        // `a` starts an edge statement inside the set after it was made outside (KW91.gv)
        let s = FlowStore<JSONValue>()
        try s.load("digraph { a -> b; subgraph cluster_g { {rank=same; a -> x} } }", format: .dot)
        #expect(s.diagramLook.ranks == [RankSet(.same, ["a", "x"])])
        #expect(s.node("a")?.parentID == "cluster_g")
    }

    @Test func theRootGraphsRankIsNotOne() throws {
        // dot reads `rank` on subgraphs only
        let s = FlowStore<JSONValue>()
        let warnings = try s.load("digraph { rank=same; a -> b }", format: .dot)
        #expect(warnings == ["graph attribute 'rank' is not mapped"])
        #expect(s.diagramLook.ranks.isEmpty)
    }

    @Test func edgeMinlenAndConstraintAreReadHonouredAndWrittenBack() throws {
        let text = """
            digraph {
              a -> b; b -> c; c -> a [constraint=false]; a -> d [minlen=3]; x -> y [minlen=0]
              p -> q [minlen=two]; q -> r [constraint=maybe]; r -> p [constraint=true, minlen=1]
            }
            """
        let s = FlowStore<JSONValue>()
        let warnings = try s.load(text, format: .dot)
        #expect(s.diagramLook.edgeRanks == [
            EdgeRank("e3", constraint: false), EdgeRank("e4", minLength: 3), EdgeRank("e5", minLength: 0),
        ])
        #expect(warnings == [
            "edge minlen 'two' is not a length (0 to 1000) (1 edge)",
            "edge constraint 'maybe' is not a boolean (1 edge)",
        ])
        try s.layout()
        func y(_ id: String) -> Double { s.node(id)!.position.y + s.node(id)!.size.height / 2 }
        #expect(y("a") < y("b") && y("b") < y("c"), "c -> a does not hold a below c")
        #expect(y("d") > y("c"))
        #expect(y("x") == y("y"))
        let dot = try s.text(.dot)
        #expect(dot.contains("[id=\"e3\", constraint=false]"))
        #expect(dot.contains("[id=\"e4\", minlen=3]"))
        #expect(dot.contains("[id=\"e5\", minlen=0]"))
        let back = FlowStore<JSONValue>()
        #expect(try back.load(dot, format: .dot).isEmpty)
        #expect(back.diagramLook.edgeRanks == s.diagramLook.edgeRanks)
        #expect(try back.text(.dot) == dot)
    }
}
