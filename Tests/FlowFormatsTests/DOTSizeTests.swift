import FlowCore
import FlowLayout
import TestSupport
import Testing

@testable import FlowFormats

/// DOT's `width`/`height` are minimums the label grows unless `fixedsize` is set, and an
/// imported graph is laid out at the sizes its nodes end with (no overlaps).
@Suite struct DOTSizeTests {
    @Test func widthAndHeightAreMinimumsTheTitleGrows() throws {
        let r = try DOTReader.read(
            "digraph { a [shape=box, width=.1, height=.1, label=\"a rather long title\"]; b [width=2, height=1, label=\"b\"] }",
            operation: "load")
        let a = r.document.nodes[0], b = r.document.nodes[1]
        #expect(a.size.width > 100 && a.size.height >= 20, "grown to show the title: \(a.size)")
        #expect(b.size == Size(144, 72), "a minimum the title fits in stays as it is")
    }

    @Test func fixedSizeKeepsTheSizeExactly() throws {
        for value in ["true", "shape"] {
            let r = try DOTReader.read(
                "digraph { a [shape=box, width=.5, height=.25, fixedsize=\(value), label=\"a rather long title\"] }",
                operation: "load")
            #expect(r.document.nodes[0].size == Size(36, 18))
        }
    }

    @Test func aSetSizeIsWrittenFixedAndReadBackTheSame() throws {
        let s = FlowStore<JSONValue>()
        try s.addNode(FlowNode(id: "a", position: Point(0, 0), size: Size(60, 30), data: .object(JSONObject([("label", .string("a title much wider than sixty"))]))))
        try s.addNode(FlowNode(id: "b", position: Point(0, 100), data: .object(JSONObject([("label", .string("fitted to its title, wrapped"))]))))
        let text = try s.text(.dot)
        #expect(text.contains("fixedsize=true"))
        let t = FlowStore<JSONValue>()
        try t.load(text, format: .dot)
        #expect(t.node("a")?.size == Size(60, 30))
        #expect(t.node("b")?.size == s.node("b")?.size)
    }

    @Test func importedNodesDoNotOverlapAfterTheirTitlesGrow() throws {
        // titles too long for the default frame, in ellipses (which need room around text)
        let names = (0..<6).map { "a_rather_long_node_name_\($0)" }
        let text = "digraph { " + names.map { "\"\($0)\"" }.joined(separator: " ") + "; "
            + names.dropFirst().map { "\"\(names[0])\" -> \"\($0)\"" }.joined(separator: "; ") + " }"
        let s = FlowStore<JSONValue>()
        try s.load(text, format: .dot)
        let frames = s.nodes.map { Rect(origin: $0.position, size: $0.size).insetBy(dx: 1, dy: 1) }
        for i in frames.indices {
            for j in frames.indices where j > i {
                #expect(!frames[i].intersects(frames[j]), "\(s.nodes[i].id) overlaps \(s.nodes[j].id)")
            }
        }
    }
}
