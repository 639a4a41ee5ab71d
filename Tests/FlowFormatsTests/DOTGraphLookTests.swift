import FlowCore
import Testing

@testable import FlowFormats

/// DOT's graph `label`, `labelloc`, `fontname`, `fontsize`, `fontcolor`, `bgcolor`: the
/// diagram's look, read, written and read back (#38).
@Suite struct DOTGraphLookTests {
    @Test func graphAttributesBecomeTheLook() throws {
        let r = try DOTReader.read("""
            digraph G { label="\\G: title\\nline"; labelloc=t; fontname="Helvetica"; fontsize=20; fontcolor=navy;
              bgcolor="lightyellow:white"; a -> b }
            """)
        #expect(r.warnings.isEmpty)
        var look = DiagramLook(
            title: "G: title\nline", titlePlace: .top, fontName: "Helvetica", fontSize: 20,
            textColor: FlowColor("#000080"), background: FlowColor("#ffffe0"))
        // a colour list blends its colours (DOTGradientTests)
        look.backgroundGradient = FillGradient(from: FlowColor("#ffffe0")!, to: FlowColor("#ffffff")!)
        #expect(r.document.look == look)
        let bad = try DOTReader.read("digraph { labelloc=x; fontsize=big; bgcolor=nocolour; a }")
        #expect(bad.warnings == [
            "graph labelloc 'x' is not a place (expected t or b)", "graph fontsize 'big' is not a size",
            "graph colour 'nocolour' is not mapped",
        ])
        #expect(bad.document.look.isEmpty)
    }

    @Test func writtenAndReadBack() throws {
        let s = FlowStore<JSONValue>()
        try s.load("digraph { label=\"A \\\"quoted\\\" title\"; bgcolor=\"#ffeedd\"; fontsize=9; a -> b }", format: .dot)
        #expect(s.diagramLook.title == "A \"quoted\" title")
        let text = try s.text(.dot)
        #expect(text.contains("label=\"A \\\"quoted\\\" title\", fontsize=9, bgcolor=\"#ffeedd\""))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .dot)
        #expect(back.diagramLook == s.diagramLook)
        // an empty graph keeps its look too
        let empty = FlowStore<JSONValue>()
        try empty.load("graph { label=\"nothing\" }", format: .dot)
        #expect(try empty.text(.dot) == "digraph {\n  graph [label=\"nothing\"];\n}\n")
    }
}
