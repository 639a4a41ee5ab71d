import Testing

@testable import FlowCore
@testable import FlowRender

/// Elements with opacity 0 (DOT's `style=invis`, Mermaid's `~~~`) and the arrowhead
/// drawings (#38).
@Suite struct InvisibleAndMarkerTests {
    @Test func invisibleElementsAreLeftOut() throws {
        var hidden = node("hidden", 0, 200)
        hidden.style = FlowStyle(opacity: 0)
        var classed = node("classed", 200, 200)
        classed.classes = ["ghost"]
        var invisible = edge("invisible", "a", "source", "b", "target", label: "not shown")
        invisible.style = FlowStyle(opacity: 0)
        var faint = edge("faint", "a", "source", "hidden", "target")
        faint.style = FlowStyle(opacity: 0.5)
        let store = try makeStore(
            [node("a", 0, 0), node("b", 200, 0), hidden, classed],
            [invisible, faint, edge("ghostly", "b", "source", "classed", "target")])
        _ = try store.setClassStyles(["ghost": FlowClass(style: FlowStyle(opacity: 0))])
        let svg = try renderSVG(store)
        let doc = try SVGDocument(svg)
        #expect(doc.nodes.map { $0.attributes["id"] ?? "" } == ["node-a", "node-b"])
        #expect(doc.edgePaths.map { $0.attributes["id"] ?? "" } == ["edge-faint", "edge-ghostly"])
        #expect(!svg.contains("not shown") && !svg.contains("edge-invisible") && !svg.contains("node-hidden"))
        // the drawn edges' sources (a, b) show their dots; the targets are on invisible
        // nodes, and the invisible edge marks none (b's target)
        #expect(doc.elements("circle", class: "source").count == 2)
        #expect(doc.elements("circle", class: "target").count == 0)
        // it keeps its place in the store and in the picture's frame
        #expect(store.edgeCount == 3 && store.nodeCount == 4)
    }

    @Test func everyKindHasItsOwnDrawing() {
        var drawings = Set<String>()
        for kind in ArrowHead.allCases where kind != .none {
            let s = MarkerShape.of(kind)
            drawings.insert("\(s.path.map { "\($0.command) \($0.x) \($0.y)" }) \(s.paint) \(s.circle.map { "\($0.cx) \($0.r)" } ?? "-")")
            // the drawing lies in its box, and the tip at its far end
            for p in s.path {
                #expect(p.x >= 0 && p.x <= s.length && p.y >= 0 && p.y <= 2 * s.halfWidth, "\(kind)")
            }
            #expect(s.tip > 0 && s.tip <= s.length, "\(kind)")
        }
        #expect(drawings.count == ArrowHead.allCases.count - 1)
        // a circle is wider than a handle's dot: it does not read as one
        #expect(MarkerShape.of(.circle).circle!.r > Metrics.handleRadius)
        #expect(MarkerShape.of(.hollowCircle).circle!.r > Metrics.handleRadius)
    }

    @Test func diagramTitleAndBackground() throws {
        let store = try makeStore([node("a", 0, 0, 100, 40)])
        var doc = store.document()
        doc.look = DiagramLook(title: "Top <&>\nline", titlePlace: .top, fontName: "Helvetica", fontSize: 20, background: FlowColor("#ffffe0"))
        _ = try store.load(doc)
        let svg = try renderSVG(store)
        let parsed = try SVGDocument(svg)
        let title = parsed.elements("text", class: "diagram")
        #expect(title.count == 1)
        #expect(svg.contains("<tspan x=\"50\" y=\"-43.5\">Top &lt;&amp;&gt;</tspan><tspan x=\"50\" y=\"-18.5\">line</tspan>"))
        #expect(svg.contains("font-size:20px;font-family:'Helvetica',sans-serif"))
        #expect(svg.contains("<rect class=\"bg\" style=\"fill:#ffffe0\""))
        // the frame takes the title in: 2 lines of 25 and the gap above the node's reach
        #expect(svg.contains("viewBox=\"-9 -67 118 116\""))
        // at the bottom by default, in the default size
        doc.look = DiagramLook(title: "Bottom")
        _ = try store.load(doc)
        let bottom = try renderSVG(store)
        #expect(bottom.contains("font-size:14px\"><tspan x=\"50\" y=\"66.65\">Bottom</tspan>"))
        #expect(!bottom.contains("style=\"fill:#"))
    }
}
