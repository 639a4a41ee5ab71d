import Testing

@testable import FlowCore
@testable import FlowRender

/// Records drawn with their fields; edges without arrowheads draw no handle dots.
@Suite struct RecordRenderTests {
    @Test func recordsDrawTheirFields() throws {
        let store = try makeStore([
            FlowNode(
                id: "r", position: Point(0, 0), size: Size(120, 40), data: .string("<a> one|{two|three}"),
                shape: .record),
            FlowNode(id: "m", position: Point(0, 100), size: Size(120, 40), data: .string("x|y"), shape: .mrecord),
        ])
        let svg = try renderSVG(store)
        // one path of separators per record: two lines in the first, one in the second
        #expect(svg.components(separatedBy: "class=\"shape fields\"").count == 3)
        for text in [">one<", ">two<", ">three<", ">x<", ">y<"] { #expect(svg.contains(text), "\(text)") }
        // the record syntax itself is not shown
        #expect(!svg.contains("&lt;a&gt;"))
        #expect(!svg.contains("|"))
        // Mrecord has rounded corners, record square ones
        #expect(svg.contains("rx="))
    }

    @Test func edgesWithoutArrowheadsDrawNoHandleDots() throws {
        var plain = edge("e", "a", "source", "b", "target")
        plain.style.targetArrow = ArrowHead.none
        let store = try makeStore([node("a", 0, 0), node("b", 0, 200)], [plain])
        let svg = try renderSVG(store)
        #expect(!svg.contains("class=\"handle"))
        var directed = edge("d", "a", "source", "b", "target")
        directed.style.targetArrow = ArrowHead.arrow
        try store.addEdge(directed)
        #expect(try renderSVG(store).contains("class=\"handle source\""))
    }
}
