import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

/// A DOT graph's `rankdir` and a Mermaid flowchart's direction are kept in the document
/// (`DiagramLook.direction`), as its spacing is: the direction of a later layout that names
/// none (`FlowStore.layout()`, Lua's `store:layout{}`), written back by `store:dot()` and
/// `store:mermaid()`, kept through an export (#38).
@Suite struct DiagramDirectionTests {
    /// Where `b` lies from `a`: "right", "left", "below" or "above".
    static func way(_ s: FlowStore<JSONValue>, _ a: String = "a", _ b: String = "b") -> String {
        let p = s.node(a)!.frame, q = s.node(b)!.frame
        let dx = q.midX - p.midX, dy = q.midY - p.midY
        if abs(dx) > abs(dy) { return dx > 0 ? "right" : "left" }
        return dy > 0 ? "below" : "above"
    }

    @Test func dotKeepsRankdir() throws {
        let s = FlowStore<JSONValue>()
        try s.load("digraph { rankdir=LR; a -> b }", format: .dot)
        #expect(s.diagramLook.direction == .LR)
        #expect(Self.way(s) == "right")
        // a layout naming no direction takes the document's; an explicit request its own
        try s.layout(LayoutRequest())
        #expect(Self.way(s) == "below")
        try s.layout()
        #expect(Self.way(s) == "right")
        var request = LayoutRequest(diagram: s.diagramLook)
        #expect(request.options.direction == .LR)
        request.options.direction = .BT
        try s.layout(request)
        #expect(Self.way(s) == "above")
        #expect(s.diagramLook.direction == .LR)
        #expect(LayoutOptions(diagram: s.diagramLook, direction: .RL).direction == .RL)
        // written back, read back, exported
        let text = try s.text(.dot)
        #expect(text.contains("rankdir=LR"))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .dot)
        #expect(back.diagramLook.direction == .LR)
        #expect(try FlowDocument<JSONValue>.decode(s.export()).look.direction == .LR)
        #expect(try s.export().contains("\"direction\": \"LR\""))
        // absent: nothing kept, nothing written, top to bottom
        let plain = FlowStore<JSONValue>()
        try plain.load("digraph { a -> b }", format: .dot)
        #expect(plain.diagramLook.direction == nil)
        #expect(try !plain.text(.dot).contains("rankdir"))
        let bt = FlowStore<JSONValue>()
        try bt.load("digraph { rankdir=bt; a -> b }", format: .dot)
        #expect(bt.diagramLook.direction == .BT)
    }

    @Test func mermaidKeepsItsDirection() throws {
        let s = FlowStore<JSONValue>()
        try s.load("flowchart RL\n a --> b", format: .mermaid)
        #expect(s.diagramLook.direction == .RL)
        #expect(Self.way(s) == "left")
        // laid out top to bottom by an explicit request, the header still says the document's
        try s.layout(LayoutRequest())
        #expect(Self.way(s) == "below")
        #expect(try s.text(.mermaid).hasPrefix("flowchart RL\n"))
        #expect(try s.text(.dot).contains("rankdir=RL"))
        try s.layout()
        #expect(Self.way(s) == "left")
        // TD is TB; a direction outside subgraphs names the graph's; none: nothing kept,
        // the header the drawn direction
        let lr = FlowStore<JSONValue>()
        try lr.load("flowchart LR\n a --> b", format: .mermaid)
        #expect(lr.diagramLook.direction == .LR)
        try lr.layout(LayoutRequest())
        try lr.layout()
        #expect(Self.way(lr) == "right")
        #expect(try lr.text(.mermaid).hasPrefix("flowchart LR\n"))
        let td = FlowStore<JSONValue>()
        try td.load("graph TD\n a --> b", format: .mermaid)
        #expect(td.diagramLook.direction == .TB)
        let late = FlowStore<JSONValue>()
        try late.load("flowchart\n direction BT\n a --> b", format: .mermaid)
        #expect(late.diagramLook.direction == .BT)
        #expect(Self.way(late) == "above")
        let none = FlowStore<JSONValue>()
        try none.load("flowchart\n a --> b", format: .mermaid)
        #expect(none.diagramLook.direction == nil)
        #expect(try none.text(.mermaid).hasPrefix("flowchart TB\n"))
    }

    /// dot stacks a record's top-level fields in a graph laid out sideways, and the reader
    /// keeps them so by putting braces round the label; written with `rankdir=LR` the title
    /// loses them again, so it reads back as it was, and dot draws it as we do.
    @Test func recordsReadBackSideways() throws {
        let s = FlowStore<JSONValue>()
        try s.load("digraph { rankdir=LR; node [shape=record]; a [label=\"<x> x|{<y> y|z}\"]; b; a:y -> b }", format: .dot)
        #expect(s.node("a")!.data.title(nodeID: "a") == "{<x> x|{<y> y|z}}")
        let text = try s.text(.dot)
        #expect(text.contains("label=\"<x> x|{<y> y|z}\""))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .dot)
        #expect(back.node("a")!.data.title(nodeID: "a") == "{<x> x|{<y> y|z}}")
        #expect(back.edges[0].sourceHandleID == s.edges[0].sourceHandleID)
        #expect(back.node("a")!.handles == s.node("a")!.handles)
        // a title that is not one braced group gets braces
        #expect(DOTWriter.recordLabel("{a}|{b}", sideways: true) == "{{a}|{b}}")
        #expect(DOTWriter.recordLabel("a|b", sideways: true) == "{a|b}")
        #expect(DOTWriter.recordLabel("{a\\}", sideways: true) == "{{a\\}}")
        #expect(DOTWriter.recordLabel("{a|b}", sideways: false) == "{a|b}")
    }
}
