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
}
