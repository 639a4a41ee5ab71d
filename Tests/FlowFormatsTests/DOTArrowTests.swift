import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

/// DOT's arrowheads, `dir` and `style=invis` (#38).
@Suite struct DOTArrowTests {
    @Test func arrowNamesAndModifiers() {
        let cases: [(String, ArrowHead)] = [
            ("normal", .arrow), ("onormal", .hollowArrow), ("empty", .hollowArrow), ("inv", .inv),
            ("oinv", .hollowInv), ("invempty", .hollowInv), ("dot", .circle), ("odot", .hollowCircle),
            ("diamond", .diamond), ("odiamond", .hollowDiamond), ("ediamond", .hollowDiamond), ("box", .box),
            ("obox", .hollowBox), ("vee", .vee), ("open", .vee), ("ovee", .open), ("tee", .tee), ("crow", .crow),
            ("none", .none),
        ]
        for (name, kind) in cases {
            let a = DOTReader.arrow(name)
            #expect(a?.kind == kind, "\(name)")
            #expect(a?.dropped == [], "\(name)")
        }
        #expect(DOTReader.arrow("lnormal")?.kind == .arrow)
        #expect(DOTReader.arrow("lnormal")?.dropped == ["half arrowhead 'lnormal' drawn whole"])
        #expect(DOTReader.arrow("olbox")?.kind == .hollowBox)
        #expect(DOTReader.arrow("invdot")?.kind == .inv)
        #expect(DOTReader.arrow("invdot")?.dropped == ["arrowheads after the first are not drawn"])
        #expect(DOTReader.arrow("curve")?.dropped == ["arrowhead 'curve' drawn as open"])
        for bad in ["", "arrow", "o", "lr", "normalnormalnormalnormalnormal", "dotx"] {
            #expect(DOTReader.arrow(bad) == nil, "\(bad)")
        }
    }

    static func edges(_ text: String) throws -> (FormatImport, [FlowStyle]) {
        let r = try DOTReader.read(text)
        return (r, r.document.edges.map(\.style))
    }

    @Test func dirPicksTheEnds() throws {
        let (r, s) = try Self.edges("""
            digraph { a -> b [dir=back]; a -> c [dir=both, arrowtail=odot, arrowhead=inv]; a -> d [dir=none]
              a -> e [arrowhead=tee, arrowtail=crow]; a -> f [dir=back, arrowtail=diamond]; a -> g [arrowhead=lvee] }
            """)
        #expect(s[0].targetArrow == ArrowHead.none && s[0].sourceArrow == .arrow)
        #expect(s[1].targetArrow == .inv && s[1].sourceArrow == .hollowCircle)
        #expect(s[2].targetArrow == ArrowHead.none && s[2].sourceArrow == nil)
        // forward: the tail's kind is not drawn, as in Graphviz
        #expect(s[3].targetArrow == .tee && s[3].sourceArrow == nil)
        #expect(s[4].targetArrow == ArrowHead.none && s[4].sourceArrow == .diamond)
        #expect(s[5].targetArrow == .vee)
        #expect(r.warnings == ["edge arrowhead: half arrowhead 'lvee' drawn whole (1 edge)"])
    }

    @Test func undirectedGraphsHaveNoArrowheads() throws {
        let (_, s) = try Self.edges("graph { a -- b; b -- c [dir=forward]; c -- d [dir=both, arrowhead=odot] }")
        #expect(s[0].targetArrow == ArrowHead.none && s[0].sourceArrow == nil)
        #expect(s[1].targetArrow == nil)
        #expect(s[2].targetArrow == .hollowCircle && s[2].sourceArrow == .arrow)
    }

    @Test func invisibleElementsAreKept() throws {
        let r = try DOTReader.read("digraph { a [style=invis]; a -> b [style=\"invis\"]; subgraph cluster_x { style=invis; c } }")
        #expect(r.warnings.isEmpty)
        let nodes = Dictionary(uniqueKeysWithValues: r.document.nodes.map { ($0.id, $0) })
        #expect(nodes["a"]?.style.opacity == 0)
        #expect(nodes["cluster_x"]?.style.opacity == 0)
        #expect(r.document.edges[0].style.opacity == 0)
        // written back as `style=invis`, read back the same
        let s = FlowStore<JSONValue>()
        try s.load("digraph { a [style=invis]; a -> b [style=\"invis,dashed\"] }", format: .dot)
        let text = try s.text(.dot)
        #expect(text.contains("style=\"invis\"") && text.contains("style=\"dashed,invis\""))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .dot)
        #expect(back.edges.map(\.style) == s.edges.map(\.style))
        #expect(back.nodes.map(\.style) == s.nodes.map(\.style))
    }

    /// Every arrowhead kind written as DOT reads back as itself (but `cross`, which Graphviz
    /// lacks).
    @Test func arrowheadsRoundTrip() throws {
        for kind in ArrowHead.allCases where kind != .cross {
            let name = DOTWriter.arrowName(kind)
            #expect(DOTReader.arrow(name)?.kind == kind, "\(kind) -> \(name)")
        }
    }
}
