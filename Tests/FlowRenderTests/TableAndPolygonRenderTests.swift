import Foundation
import Testing

@testable import FlowCore
@testable import FlowRender

/// Record nodes holding a DOT table in their data (`table`) drawn as the table; nodes
/// holding a polygon (`polygon`) drawn as it.
@Suite struct TableAndPolygonRenderTests {
    static func cell(_ x: Double, _ text: String, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        .object(JSONObject([
            ("x", .number(x)), ("y", .number(3)), ("width", .number(40)), ("height", .number(20)),
            ("border", .number(1)), ("padding", .number(2)), ("text", .string(text)),
        ] + extra))
    }

    @Test func tablesDrawTheirCells() throws {
        let table = JSONValue.object(JSONObject([
            ("x", .number(0)), ("y", .number(0)), ("width", .number(88)), ("height", .number(26)),
            ("border", .number(1)), ("fill", .string("#d3d3d3")), ("outline", .bool(false)),
            ("cells", .array([
                Self.cell(3, "left", [("fill", .string("#ffff00")), ("align", .string("left"))]),
                Self.cell(45, "right", [("stroke", .string("#ff0000")), ("fill", .string("url(#x)"))]),
            ])),
        ]))
        let data = JSONValue.object(JSONObject([("label", .string("left | right")), ("table", table)]))
        let store = try makeStore([FlowNode(id: "t", position: Point(0, 0), size: Size(88, 26), data: data, shape: .record)])
        let svg = try renderSVG(store)
        // the table and its two cells; no node outline, no record separators
        #expect(svg.components(separatedBy: "class=\"shape cell\"").count == 4)
        #expect(!svg.contains("class=\"shape fields\"") && !svg.contains("<rect class=\"shape\""))
        #expect(svg.contains("fill:#d3d3d3") && svg.contains("fill:#ffff00") && svg.contains("stroke:#ff0000"))
        // a colour that is not one is not written
        #expect(!svg.contains("url("))
        // `left` starts at its cell's left (border 1, padding 2): its middle is left of the cell's
        #expect(svg.contains(">left<") && svg.contains(">right<"))
        let x = try #require(svg.components(separatedBy: "\">left<").first?.components(separatedBy: "x=\"").last)
        let left = try #require(Double(x.prefix { $0 != "\"" }))
        #expect(left < 3 + 20)
    }

    @Test func polygonsDrawEverySideAndOutline() throws {
        // nine corners around the middle of the unit box
        let points: [JSONValue] = (0..<9).flatMap { i -> [JSONValue] in
            let a = Double(i) * 2 * Double.pi / 9
            return [.number(0.5 + 0.5 * cos(a)), .number(0.5 + 0.5 * sin(a))]
        }
        let polygon = JSONValue.object(JSONObject([("sides", .number(9)), ("peripheries", .number(2)), ("points", .array(points))]))
        let data = JSONValue.object(JSONObject([("polygon", polygon)]))
        let store = try makeStore([FlowNode(id: "p", position: Point(0, 0), size: Size(90, 60), data: data, shape: .ellipse)])
        let svg = try renderSVG(store)
        #expect(!svg.contains("<ellipse"))
        let path = try #require(svg.components(separatedBy: "<path class=\"shape\"").dropFirst().first)
        let d = path.prefix { $0 != "/" }
        // two outlines of nine corners each
        #expect(d.filter { $0 == "M" }.count == 2 && d.filter { $0 == "L" }.count == 16)
        // corners that are not numbers in pairs: the node's own shape
        let bad = JSONValue.object(JSONObject([("polygon", .object(JSONObject([("sides", .number(3)), ("points", .array([.number(1)]))])))]))
        let other = try makeStore([FlowNode(id: "q", position: Point(0, 0), size: Size(90, 60), data: bad, shape: .ellipse)])
        #expect(try renderSVG(other).contains("<ellipse"))
    }

    /// Issue #38: rules, sides, styles and fonts of a table are drawn.
    @Test func tablesDrawRulesSidesStylesAndFonts() throws {
        let table = JSONValue.object(JSONObject([
            ("x", .number(0)), ("y", .number(0)), ("width", .number(88)), ("height", .number(50)),
            ("border", .number(1)), ("spacing", .number(2)), ("style", .string("rounded")), ("hr", .array([.number(1)])),
            ("cells", .array([
                Self.cell(3, "left", [("row", .number(0)), ("sides", .string("LB")), ("style", .string("dashed"))]),
                Self.cell(45, "right", [("row", .number(0)), ("vr", .bool(true)),
                    ("font", .object(JSONObject([("color", .string("#ff0000")), ("size", .number(20)), ("face", .string("Courier'"))])))]),
                .object(JSONObject([
                    ("x", .number(3)), ("y", .number(27)), ("width", .number(82)), ("height", .number(20)), ("row", .number(1)),
                    ("border", .number(1)), ("padding", .number(2)), ("text", .string("low")), ("style", .string("invis")),
                ])),
            ])),
        ]))
        let data = JSONValue.object(JSONObject([("label", .string("left | right")), ("table", table)]))
        let store = try makeStore([FlowNode(id: "t", position: Point(0, 0), size: Size(88, 50), data: data, shape: .record)])
        let svg = try renderSVG(store)
        // the rounded table, the dashed cell's two sides, the rules (one across, one along)
        #expect(svg.contains(" rx=\""))
        #expect(svg.contains("stroke-dasharray:5 2\" d=\"M") && svg.contains(">\n<text"))
        let sides = try #require(svg.components(separatedBy: "stroke-dasharray:5 2\" d=\"").dropFirst().first)
        #expect(sides.prefix { $0 != "\"" }.filter { $0 == "M" }.count == 2)
        let rules = try #require(svg.components(separatedBy: "<path class=\"shape cell\"").dropFirst().first)
        #expect(rules.prefix { $0 != "/" }.filter { $0 == "M" }.count == 2)
        // the font's colour, size and face (its quote taken out)
        #expect(svg.contains("fill:#ff0000;font-size:20px;font-family:'Courier',sans-serif\""))
        // an invisible cell draws no box, only its text
        #expect(svg.components(separatedBy: "<rect class=\"shape cell\"").count == 3)
        #expect(svg.contains(">low<"))
    }

    /// Issue #38: an edge ends on the outline of a turned polygon, not on the ellipse drawn
    /// for edges before; with three outlines, on the outermost.
    @Test func edgesEndOnThePolygonsOutline() throws {
        // a square turned 45 degrees in a 100 by 100 box: a diamond, its corners at the
        // middles of the sides
        let points: [JSONValue] = [0.5, 0, 1, 0.5, 0.5, 1, 0, 0.5].map { .number($0) }
        func node(_ id: String, _ y: Double, peripheries: Double) -> FlowNode<JSONValue> {
            let polygon = JSONValue.object(JSONObject([
                ("sides", .number(4)), ("orientation", .number(45)), ("peripheries", .number(peripheries)), ("points", .array(points)),
            ]))
            return FlowNode(id: id, position: Point(0, y), size: Size(100, 100), data: .object(JSONObject([("polygon", polygon)])), shape: .ellipse)
        }
        let edge = FlowEdge(id: "e", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target", pathType: .straight)
        let store = try makeStore([node("a", 0, peripheries: 1), node("b", 300, peripheries: 1)], [edge])
        var svg = try renderSVG(store)
        let d = try #require(svg.components(separatedBy: "id=\"edge-e\"").dropFirst().first?.components(separatedBy: " d=\"M").dropFirst().first)
        // from the bottom corner of a (50, 100) to the top corner of b (50, 300)
        #expect(d.hasPrefix("50 100") && d.contains("50 300"), "\(d.prefix(80))")
        // an edge ending right of the middle meets the diamond's side inside the box
        let side = FlowEdge(id: "s", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "c", targetHandleID: "target", pathType: .straight)
        var c = node("c", 0, peripheries: 3)
        c.position = Point(400, 0)
        let wide = try makeStore([node("a", 0, peripheries: 1), c], [side])
        svg = try renderSVG(wide)
        let e = try #require(svg.components(separatedBy: "id=\"edge-s\"").dropFirst().first?.components(separatedBy: " d=\"M").dropFirst().first)
        // c's outermost outline is the diamond 8 further out (the offset of its sides by
        // 8, 11.3 at the corners): its top corner 11.3 above the box
        let end = e.prefix { $0 != "\"" }.split(whereSeparator: { $0 == " " || $0 == "L" }).suffix(2).compactMap { Double($0) }
        #expect(end.count == 2 && abs(end[0] - 450) < 0.01 && abs(end[1] + 11.314) < 0.01, "\(e.prefix(80))")
    }
}
