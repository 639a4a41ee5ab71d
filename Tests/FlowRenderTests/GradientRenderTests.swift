import Foundation
import Testing

@testable import FlowCore
@testable import FlowRender

/// Nodes, groups and the page filled with a gradient (`FillGradient`: a node's data
/// `gradient`, the look's `backgroundGradient`), and handle dots on a drawn polygon.
@Suite struct GradientRenderTests {
    static func data(_ g: FillGradient) -> JSONValue {
        .object(JSONObject([("gradient", g.jsonValue)]))
    }

    static let red = FlowColor("#ff0000")!, blue = FlowColor("#0000ff")!

    /// The value of `attribute` in the first element that starts with `start`.
    static func attribute(_ svg: String, _ start: String, _ attribute: String) -> Double? {
        guard let element = svg.components(separatedBy: start).dropFirst().first?.prefix(while: { $0 != ">" }),
            let value = element.components(separatedBy: " \(attribute)=\"").dropFirst().first
        else { return nil }
        return Double(value.prefix { $0 != "\"" && $0 != "%" })
    }

    @Test func aLinearGradientRunsAcrossTheShapeAtItsAngle() throws {
        var style = FlowStyle()
        style.fill = Self.red
        let a = FlowNode(
            id: "a", position: Point(0, 0), size: Size(100, 50),
            data: Self.data(FillGradient(from: Self.red, to: Self.blue, angle: 90)), shape: .rectangle, style: style)
        let svg = try renderSVG(try makeStore([a]))
        #expect(svg.contains("<linearGradient id=\"gradient-node-a\" gradientUnits=\"userSpaceOnUse\""), "\(svg)")
        #expect(svg.contains("fill:url(#gradient-node-a)"))
        #expect(svg.contains("<stop offset=\"0\" style=\"stop-color:#ff0000\"/><stop offset=\"1\" style=\"stop-color:#0000ff\"/>"))
        // 90 degrees: from the bottom of the box up (Graphviz's angles turn counter-clockwise)
        let start = "<linearGradient id=\"gradient-node-a\""
        let (x1, x2) = (try #require(Self.attribute(svg, start, "x1")), try #require(Self.attribute(svg, start, "x2")))
        let (y1, y2) = (try #require(Self.attribute(svg, start, "y1")), try #require(Self.attribute(svg, start, "y2")))
        #expect(x1 == x2 && abs(y1 - y2 - 50) < 0.01, "\(x1) \(x2) \(y1) \(y2)")
        // the gradient comes before the shape it fills, inside the node's group
        let group = try #require(svg.components(separatedBy: "<g id=\"node-a\"").dropFirst().first)
        #expect(group.range(of: "<linearGradient")!.lowerBound < group.range(of: "<rect class=\"shape\"")!.lowerBound)
    }

    @Test func aRadialGradientWithASplitHasAHardEdge() throws {
        var style = FlowStyle()
        style.fill = Self.red
        let g = FillGradient(from: Self.red, to: Self.blue, split: 0.3, radial: true)
        let n = FlowNode(id: "a b", position: Point(0, 0), size: Size(80, 40), data: Self.data(g), shape: .ellipse, style: style)
        let svg = try renderSVG(try makeStore([n]))
        // an id that cannot stand in url(#…) as it is: its other characters in hex
        #expect(svg.contains("<radialGradient id=\"gradient-node-a_20b\" cx=\"50%\" cy=\"50%\" r=\"75%\" fx=\"50%\" fy=\"50%\">"), "\(svg)")
        #expect(svg.contains("<stop offset=\"0.299\" style=\"stop-color:#ff0000\"/><stop offset=\"0.3\" style=\"stop-color:#0000ff\"/>"))
        #expect(svg.contains("fill:url(#gradient-node-a_20b)"))
        // an angle moves the focus to that side: 90 degrees, the top
        let up = FlowNode(
            id: "u", position: Point(0, 0), size: Size(80, 40),
            data: Self.data(FillGradient(from: Self.red, to: Self.blue, radial: true, angle: 90)), shape: .ellipse, style: style)
        #expect(try renderSVG(try makeStore([up])).contains("fx=\"50%\" fy=\"0%\""))
    }

    @Test func groupsPolygonsAndThePageTakeGradients() throws {
        var style = FlowStyle()
        style.fill = Self.red
        let g = FillGradient(from: Self.red, to: Self.blue)
        let group = FlowNode(
            id: "c", position: Point(0, 0), size: Size(200, 120), data: Self.data(g), acceptsChildren: true, style: style)
        let points: [JSONValue] = [0.5, 0, 1, 1, 0, 1].map { .number($0) }
        var data = JSONObject([("gradient", g.jsonValue)])
        data["polygon"] = .object(JSONObject([("sides", .number(3)), ("points", .array(points))]))
        let p = FlowNode(id: "p", position: Point(300, 0), size: Size(60, 60), data: JSONValue.object(data), shape: .ellipse, style: style)
        let store = try makeStore([])
        var look = DiagramLook()
        look.background = FlowColor("#ffff00")
        look.backgroundGradient = FillGradient(from: FlowColor("#ffff00")!, to: FlowColor("#ffffff")!)
        _ = try store.load(FlowDocument(nodes: [group, p], look: look))
        let svg = try renderSVG(store)
        #expect(svg.contains("<linearGradient id=\"gradient-node-c\""))
        #expect(svg.contains("<linearGradient id=\"gradient-node-p\""))
        #expect(svg.contains("<path class=\"shape\" style=\"fill:#ff0000;fill:url(#gradient-node-p)\""), "\(svg)")
        #expect(svg.contains("<linearGradient id=\"gradient-page\""))
        #expect(svg.contains("<rect class=\"bg\" style=\"fill:url(#gradient-page)\""))
        // the look keeps it through its JSON
        let back = try DiagramLook(json: look.jsonValue, operation: "load")
        #expect(back == look)
    }

    @Test func aGradientThatIsNotOneIsRefusedWithItsPath() {
        let bad = JSONValue.object(JSONObject([("colors", .array([.string("#ff0000")]))]))
        #expect(throws: FlowError.invalidDocument("load", "diagram.backgroundGradient: colors: expected two colours (#rrggbb or #rrggbbaa)")) {
            _ = try DiagramLook(json: .object(JSONObject([("backgroundGradient", bad)])), operation: "load")
        }
        let angle = JSONValue.object(JSONObject([
            ("colors", .array([.string("#ff0000"), .string("#0000ff")])), ("angle", .number(400)),
        ]))
        #expect(throws: FlowError.invalidDocument("load", "diagram.backgroundGradient: angle: expected a number from 0 to 360")) {
            _ = try DiagramLook(json: .object(JSONObject([("backgroundGradient", angle)])), operation: "load")
        }
    }

    /// A handle's dot sits on the polygon drawn, not on the shape that stands in for it.
    @Test func handleDotsSitOnADrawnPolygon() throws {
        // a triangle pointing up over a 100 by 100 frame drawn in place of an ellipse: the
        // ellipse's left point (0, 50) lies outside it; the triangle's left side crosses
        // y = 50 at x = 25
        let points: [JSONValue] = [0.5, 0, 1, 1, 0, 1].map { .number($0) }
        let data = JSONValue.object(JSONObject([
            ("polygon", .object(JSONObject([("sides", .number(3)), ("points", .array(points))]))),
        ]))
        let handles = [HandleDeclaration(id: "w", type: .target, position: .left)]
        let n = FlowNode(id: "p", position: Point(0, 0), size: Size(100, 100), data: data, handles: handles, shape: .ellipse)
        let svg = try renderSVG(try makeStore([n]), options: SVGOptions(fit: false, width: 400, height: 400, handles: .all))
        let cx = try #require(Self.attribute(svg, "<circle class=\"handle target\"", "cx"))
        let cy = try #require(Self.attribute(svg, "<circle class=\"handle target\"", "cy"))
        #expect(abs(cx - 25) < 0.01 && abs(cy - 50) < 0.01, "\(cx) \(cy)")
    }
}
