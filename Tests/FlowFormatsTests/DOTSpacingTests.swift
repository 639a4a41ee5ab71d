import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

/// DOT's graph `nodesep` and `ranksep` (inches) space the layout of the import, Graphviz's
/// defaults (0.25 and 0.5 inches) when absent; edge `weight` weighs an edge in the ranking
/// and in the positions along the layers.
@Suite struct DOTSpacingTests {
    /// The import's spacing in points, and its warnings.
    static func spacing(_ attributes: String) throws -> (node: Double?, layer: Double?, warnings: [String]) {
        let i = try DOTReader.read("digraph { \(attributes) a -> b }")
        return (i.nodeSpacing, i.layerSpacing, i.warnings)
    }

    @Test func nodesepAndRanksepAreRead() throws {
        let none = try Self.spacing("")
        #expect(none.node == 18 && none.layer == 36 && none.warnings.isEmpty)
        let set = try Self.spacing("nodesep=1; ranksep=\"0.75\";")
        #expect(set.node == 72 && set.layer == 54 && set.warnings.isEmpty)
        // below Graphviz's minimum of 0.02 inches: the minimum
        let tight = try Self.spacing("nodesep=0; ranksep=0.01;")
        #expect(abs(tight.node! - 1.44) < 1e-9 && abs(tight.layer! - 1.44) < 1e-9)
        // a list: dot reads the first number; `equally` spaces the ranks equally
        let equally = try Self.spacing("ranksep=\"1.2 equally\";")
        #expect(abs(equally.layer! - 86.4) < 1e-9)
        #expect(equally.warnings.isEmpty)
        let list = try Self.spacing("ranksep=\"1 2 3\";")
        #expect(list.layer == 72 && list.warnings.isEmpty)
        let bad = try Self.spacing("nodesep=wide; ranksep=-1;")
        #expect(bad.node == 18 && bad.layer == 36)
        #expect(bad.warnings == [
            "graph nodesep 'wide' is not a length in inches (0.02 to 1000)",
            "graph ranksep '-1' is not a length in inches (0.02 to 1000)",
        ])
        // Mermaid leaves the layout's own spacing
        let m = try MermaidReader.read("flowchart TB\n a --> b")
        #expect(m.nodeSpacing == nil && m.layerSpacing == nil)
    }

    /// The gaps the layout leaves: between two nodes of a rank and between two ranks.
    static func gaps(_ attributes: String) throws -> (node: Double, layer: Double) {
        let s = FlowStore<JSONValue>()
        try s.load("digraph { \(attributes) node [shape=box, fixedsize=true, width=1, height=0.5]; a -> b; a -> c }", format: .dot)
        let a = s.node("a")!, b = s.node("b")!, c = s.node("c")!
        let (left, right) = b.position.x < c.position.x ? (b, c) : (c, b)
        return (right.position.x - left.position.x - left.size.width, b.position.y - a.position.y - a.size.height)
    }

    @Test func theLayoutIsSpacedAsDotSpacesIt() throws {
        // ranks at least 50 apart, where the curves between them bend without turning back
        let defaults = try Self.gaps("")
        #expect(defaults.node == 18 && defaults.layer == LayoutOptions.curveLayerSpacing)
        let wide = try Self.gaps("nodesep=1; ranksep=1.5;")
        #expect(wide.node == 72 && wide.layer == 108)
        // unconnected parts lie side by side in dot's ranks, nodesep apart
        for (attributes, gap) in [("", 18.0), ("nodesep=1;", 72)] {
            let s = FlowStore<JSONValue>()
            try s.load("digraph { \(attributes) node [shape=box, fixedsize=true, width=1]; a -> b; c -> d }", format: .dot)
            let (a, c) = (s.node("a")!.frame, s.node("c")!.frame)
            #expect(max(c.minX - a.maxX, a.minX - c.maxX) == gap, "\(attributes)")
        }
    }

    /// `ranksep=equally` (alone or after a length): every rank's centre as far from the
    /// next as the farthest two, as dot draws it (a -> b 2.75 inches apart beside b -> c,
    /// both 1.5 and 2.75 without `equally`).
    @Test func equallySpacesTheRanksEqually() throws {
        func centres(_ ranksep: String) throws -> [Double] {
            let s = FlowStore<JSONValue>()
            try s.load(
                "digraph { ranksep=\"\(ranksep)\"; node [shape=box, fixedsize=true, width=1, height=0.5]; c [height=3]; a -> b -> c }",
                format: .dot)
            return ["a", "b", "c"].map { s.node($0)!.frame.midY }
        }
        let plain = try centres("1"), equal = try centres("1 equally")
        #expect(plain[1] - plain[0] == 108 && plain[2] - plain[1] == 198)
        #expect(equal[1] - equal[0] == 198 && equal[2] - equal[1] == 198)
        // `equally` alone keeps Graphviz's 0.5 inches, drawn 50 apart
        let alone = try centres("equally")
        #expect(alone[1] - alone[0] == 176 && alone[2] - alone[1] == 176)
    }

    /// The graph's `nodesep` and `ranksep` are kept in the document as read (in points, not
    /// floored), written back by `store:dot()` and through a JSON export; a later layout
    /// taking the document's spacing (`LayoutOptions(diagram:)`) spaces it as the import did.
    @Test func theDocumentKeepsTheSpacing() throws {
        let s = FlowStore<JSONValue>()
        try s.load(
            "digraph { nodesep=1; ranksep=\"0.25 equally\"; node [shape=box, fixedsize=true, width=1, height=0.5]; a -> b; a -> c }",
            format: .dot)
        let look = s.diagramLook
        #expect(look.nodeSpacing == 72 && look.layerSpacing == 18 && look.equalLayerSpacing)
        let options = LayoutOptions(diagram: look)
        #expect(options.nodeSpacing == 72 && options.componentSpacing == 72 && options.edgeSpacing == 36)
        #expect(options.layerSpacing == LayoutOptions.curveLayerSpacing && options.equalLayerSpacing)
        let placed = s.nodes.map(\.frame)
        try s.layout(LayoutRequest(options: options))
        #expect(s.nodes.map(\.frame) == placed)
        let text = try s.text(.dot)
        #expect(text.contains("nodesep=1, ranksep=\"0.25 equally\""))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .dot)
        #expect(back.diagramLook == look)
        #expect(try FlowDocument<JSONValue>.decode(s.export()).look == look)
        // absent: nothing kept, nothing written, the layout's own spacing
        let plain = FlowStore<JSONValue>()
        try plain.load("digraph { a -> b }", format: .dot)
        #expect(plain.diagramLook.nodeSpacing == nil && plain.diagramLook.layerSpacing == nil)
        #expect(try !plain.text(.dot).contains("sep="))
        #expect(LayoutOptions(diagram: plain.diagramLook) == LayoutOptions())
        // a spacing kept to the point's thousandth reads back exactly
        var odd = DiagramLook()
        odd.nodeSpacing = 50.123
        odd.layerSpacing = 1.44
        #expect(DOTWriter.lookAttributes(odd) == ["nodesep=0.696153", "ranksep=\"0.02\""])
    }

    @Test func weightIsReadAndWrittenBack() throws {
        let s = FlowStore<JSONValue>()
        let warnings = try s.load(
            "digraph { a -> b [weight=5]; b -> c [weight=0]; c -> d [weight=1.5]; d -> e [weight=-1]; e -> f [weight=20000] }",
            format: .dot)
        #expect(s.diagramLook.edgeRanks == [EdgeRank("e1", weight: 5), EdgeRank("e2", weight: 0)])
        #expect(warnings == [
            "edge weight '1.5' is not a weight (an integer from 0 to 10000) (1 edge)",
            "edge weight '-1' is not a weight (an integer from 0 to 10000) (1 edge)",
            "edge weight '20000' is not a weight (an integer from 0 to 10000) (1 edge)",
        ])
        let text = try s.text(.dot)
        #expect(text.contains("[id=\"e1\", weight=5]") && text.contains("[id=\"e2\", weight=0]"))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .dot)
        #expect(back.diagramLook.edgeRanks == s.diagramLook.edgeRanks)
    }

    /// `r -> a -> b` beside `r -> c1 -> c2 -> b`: `a` may sit on either middle rank, and the
    /// heavier of its two edges is the short one, as in dot.
    @Test func weightPicksTheRank() throws {
        func rankOfA(_ ra: Int, _ ab: Int) throws -> String {
            let s = FlowStore<JSONValue>()
            try s.load("digraph { r -> c1 -> c2 -> b; r -> a [weight=\(ra)]; a -> b [weight=\(ab)] }", format: .dot)
            let y = s.node("a")!.position.y
            return y == s.node("c1")!.position.y ? "c1" : y == s.node("c2")!.position.y ? "c2" : "other"
        }
        #expect(try rankOfA(5, 1) == "c1")
        #expect(try rankOfA(1, 5) == "c2")
        #expect(try rankOfA(0, 1) == "c2")
    }

    /// In the positions along a layer a heavy edge runs straight: `a` over the node its
    /// heavy edge goes to, not over the middle of its three children.
    @Test func aHeavyEdgeRunsStraight() throws {
        func offset(_ weight: Int) throws -> Double {
            let s = FlowStore<JSONValue>()
            try s.load("digraph { node [shape=box, fixedsize=true]; a -> b; a -> c; a -> d [weight=\(weight)] }", format: .dot)
            return abs(s.node("a")!.frame.midX - s.node("d")!.frame.midX)
        }
        #expect(try offset(1) > 10)
        #expect(try offset(10) == 0)
    }
}
