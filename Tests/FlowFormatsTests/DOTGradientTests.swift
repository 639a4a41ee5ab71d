import FlowCore
import FlowRender
import Testing

@testable import FlowFormats

/// Graphviz's gradient fills: a colour list on a filled node or cluster, or as the graph's
/// `bgcolor`, with `gradientangle` and `style=radial`, read into `FillGradient`s, written
/// back and said lost in Mermaid (#38).
@Suite struct DOTGradientTests {
    static let red = FlowColor("#ff0000")!, blue = FlowColor("#0000ff")!

    static let graph = """
        digraph { bgcolor="yellow:white"; gradientangle=90; style=radial
          subgraph cluster_x { style=filled; fillcolor="red:blue"; gradientangle=270; b }
          subgraph cluster_y { bgcolor=yellow; d }
          a [style=filled, fillcolor="red:blue", gradientangle=45]
          c [style=radial, fillcolor="red;0.3:blue"]
          e [style=filled, fillcolor=red] }
        """

    static func gradient(_ n: FlowNode<JSONValue>) -> FillGradient? { FillGradient.stored(in: n.data) }

    @Test func colourListsBecomeGradients() throws {
        let r = try DOTReader.read(Self.graph)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        let nodes = Dictionary(uniqueKeysWithValues: r.document.nodes.map { ($0.id, $0) })
        #expect(Self.gradient(nodes["a"]!) == FillGradient(from: Self.red, to: Self.blue, angle: 45))
        #expect(Self.gradient(nodes["c"]!) == FillGradient(from: Self.red, to: Self.blue, split: 0.3, radial: true))
        #expect(Self.gradient(nodes["cluster_x"]!) == FillGradient(from: Self.red, to: Self.blue, angle: 270))
        // the first colour is the fill where no gradient is drawn
        #expect(nodes["a"]!.style.fill == Self.red && nodes["c"]!.style.fill == Self.red)
        // one colour: a plain fill; a cluster's bgcolor fills it
        #expect(Self.gradient(nodes["e"]!) == nil && nodes["e"]!.style.fill == Self.red)
        #expect(nodes["cluster_y"]!.style.fill == FlowColor("#ffff00"))
        #expect(r.document.look.backgroundGradient == FillGradient(
            from: FlowColor("#ffff00")!, to: FlowColor("#ffffff")!, radial: true, angle: 90))
        #expect(r.document.look.background == FlowColor("#ffff00"))
    }

    @Test func whatIsNotDrawnIsReported() throws {
        let r = try DOTReader.read("""
            digraph { a [style=filled, fillcolor="red:blue:green"]; b [style=filled, fillcolor="red;x:blue"]
              c [style=filled, fillcolor="red:nocolour"]; d [style=filled, fillcolor="red:blue", gradientangle=up] }
            """)
        #expect(r.warnings == [
            "node gradient: colours after the second are not drawn (as in Graphviz) (1 node)",
            "node colour weight 'x' is not a fraction (0 to 1) (1 node)",
            "node colour 'red:nocolour' is not mapped (1 node)",
            "node gradientangle 'up' is not an angle (1 node)",
        ])
        let nodes = r.document.nodes
        #expect(Self.gradient(nodes[0]) == FillGradient(from: Self.red, to: Self.blue))
        #expect(Self.gradient(nodes[2]) == nil && nodes[2].style.fill == Self.red)
    }

    @Test func writtenAndReadBack() throws {
        let s = FlowStore<JSONValue>()
        try s.load(Self.graph, format: .dot)
        let text = try s.text(.dot)
        #expect(text.contains("fillcolor=\"#ff0000:#0000ff\", gradientangle=45"), "\(text)")
        #expect(text.contains("fillcolor=\"#ff0000;0.3:#0000ff\""), "\(text)")
        #expect(text.contains("bgcolor=\"#ffff00:#ffffff\", gradientangle=90, style=radial"), "\(text)")
        let back = FlowStore<JSONValue>()
        let warnings = try back.load(text, format: .dot)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(back.diagramLook.backgroundGradient == s.diagramLook.backgroundGradient)
        for id in ["a", "c", "cluster_x", "e"] {
            #expect(back.node(id).flatMap(Self.gradient) == s.node(id).flatMap(Self.gradient), "\(id)")
        }
        // Mermaid fills with the first colour and says so
        let mermaid = try s.text(.mermaid)
        #expect(mermaid.contains("%% node a: a gradient from #ff0000 to #0000ff, filled with its first colour"), "\(mermaid)")
        #expect(mermaid.contains("%% subgraph cluster_x: a gradient from #ff0000 to #0000ff"), "\(mermaid)")
    }

    /// A table's or cell's `BGCOLOR` list, with `STYLE="radial"` and `GRADIENTANGLE`.
    @Test func tablesAndCellsTakeGradients() throws {
        let s = FlowStore<JSONValue>()
        let warnings = try s.load("""
            digraph { t [shape=plaintext, label=<<TABLE BGCOLOR="red:blue" GRADIENTANGLE="90"><TR>
              <TD BGCOLOR="yellow;0.5:green" STYLE="radial">c</TD></TR></TABLE>>] }
            """, format: .dot)
        #expect(warnings.isEmpty, "\(warnings)")
        guard case .object(let data) = s.node("t")!.data, case .object(let table)? = data["table"],
            case .array(let cells)? = table["cells"], case .object(let cell) = cells[0]
        else { Issue.record("no table"); return }
        #expect(table["gradient"] == FillGradient(from: Self.red, to: Self.blue, angle: 90).jsonValue)
        #expect(table["fill"] == .string("#ff0000"))
        #expect(cell["gradient"] == FillGradient(from: FlowColor("#ffff00")!, to: FlowColor("#00ff00")!, split: 0.5, radial: true).jsonValue)
        let svg = try renderSVG(s)
        #expect(svg.contains("<linearGradient id=\"gradient-node-t-1\"") && svg.contains("fill:url(#gradient-node-t-1)"), "\(svg)")
        #expect(svg.contains("<radialGradient id=\"gradient-node-t-2\"") && svg.contains("fill:url(#gradient-node-t-2)"))
        let dot = try s.text(.dot)
        #expect(dot.contains("BGCOLOR=\"#ff0000:#0000ff\"") && dot.contains("GRADIENTANGLE=\"90\""), "\(dot)")
        #expect(dot.contains("BGCOLOR=\"#ffff00;0.5:#00ff00\" STYLE=\"radial\""), "\(dot)")
        let back = FlowStore<JSONValue>()
        #expect(try back.load(dot, format: .dot).isEmpty)
        #expect(back.node("t")!.data == s.node("t")!.data)
    }
}
