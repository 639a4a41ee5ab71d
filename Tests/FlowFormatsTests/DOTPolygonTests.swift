import FlowCore
import TestSupport
import Testing

@testable import FlowFormats

/// Graphviz polygons no shape draws as they are (any side count, a rotation, extra outlines)
/// kept in the node's data as `polygon`; `regular` makes the node square.
@Suite struct DOTPolygonTests {
    static func polygon(_ n: FlowNode<JSONValue>) -> JSONObject? {
        guard case .object(let o) = n.data, case .object(let p)? = o["polygon"] else { return nil }
        return p
    }

    @Test func sidesTurnsAndOutlinesAreKept() throws {
        let r = try DOTReader.read("""
            digraph { node [shape=polygon];
              nine [sides=9]; ten [sides=10, peripheries=3, skew=.2]; turned [sides=5, orientation=20];
              same [sides=4, orientation=90]; tri [shape=triangle, orientation=180];
              twice [sides=6, peripheries=2]; oval [sides=0, peripheries=2]; hex [sides=6] }
            """)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        let n = Dictionary(uniqueKeysWithValues: r.document.nodes.map { ($0.id, $0) })
        #expect(Self.polygon(n["nine"]!)?["sides"] == .number(9) && n["nine"]!.shape == .ellipse)
        let ten = Self.polygon(n["ten"]!)
        #expect(ten?["peripheries"] == .number(3) && ten?["skew"] == .number(0.2))
        #expect(Self.polygon(n["turned"]!)?["orientation"] == .number(20) && n["turned"]!.shape == .ellipse)
        // a quarter turn leaves a square as it was; a triangle upside down is one
        #expect(Self.polygon(n["same"]!) == nil && n["same"]!.shape == .rectangle)
        #expect(Self.polygon(n["tri"]!)?["orientation"] == .number(180))
        #expect(Self.polygon(n["twice"]!)?["peripheries"] == .number(2) && n["twice"]!.shape == .hexagon)
        #expect(Self.polygon(n["oval"]!)?["sides"] == .number(0) && n["oval"]!.shape == .ellipse)
        // what a shape draws by itself stores nothing
        #expect(Self.polygon(n["hex"]!) == nil && n["hex"]!.shape == .hexagon)
    }

    @Test func regularNodesAreSquare() throws {
        let r = try DOTReader.read("""
            digraph { a [shape=polygon, sides=5, regular=true, orientation=10, label="a long label"]; b [shape=box, regular=1] }
            """)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        for n in r.document.nodes {
            let s = try #require(n.size)
            #expect(s.width == s.height, "\(n.id): \(s)")
        }
        #expect(Self.polygon(r.document.nodes[0])?["regular"] == .bool(true))
    }

    /// What the reader stores passes the store's check and survives export and decode.
    @Test func aPolygonNodeRoundTrips() throws {
        let store = FlowStore<JSONValue>()
        let warnings = try store.load("digraph { a [shape=polygon, sides=12, peripheries=2, orientation=7.5, distortion=-.3] }", format: .dot)
        #expect(warnings.isEmpty, "\(warnings)")
        let again = FlowStore<JSONValue>()
        _ = try again.load(store.text(.json), format: .json)
        #expect(again.document().nodes == store.document().nodes)
        #expect(Self.polygon(again.document().nodes[0])?["distortion"] == .number(-0.3))
    }
}

/// Where the reader puts a polygon's corners, and how it sizes the node around the title.
@Suite struct DOTPolygonCornerTests {
    @Test func cornersFillTheUnitBox() {
        let square = DOTPolygon().corners
        #expect(Set(square.map { ($0.x * 1000).rounded() / 1000 }) == [0, 1])
        #expect(Set(square.map { ($0.y * 1000).rounded() / 1000 }) == [0, 1])
        // a triangle turned a quarter counter-clockwise points left
        let t = DOTPolygon(sides: 3, orientation: 90).corners
        #expect(t.min { $0.x < $1.x }.map { abs($0.y - 0.5) < 1e-9 } == true)
        // widened at the top, moved right at the top
        let d = DOTPolygon(distortion: 0.5).corners.filter { $0.y < 0.5 }.map(\.x)
        #expect(d.min()! < 1e-9 && d.max()! > 1 - 1e-9)
        let s = DOTPolygon(skew: 0.5).corners
        #expect(s.filter { $0.y < 0.5 }.map(\.x).max()! > s.filter { $0.y > 0.5 }.map(\.x).max()!)
    }

    @Test func aTurnedPolygonGrowsAroundItsTitle() throws {
        let r = try DOTReader.read("""
            digraph { a [shape=polygon, sides=4, orientation=45, label="MMMMMMMMMM\\nMMMMMMMMMM\\nMMMMMMMMMM"] }
            """)
        let a = r.document.nodes[0]
        let size = try #require(a.size)
        let font = a.style.font
        let text = Size(TextMetrics.width(of: "MMMMMMMMMM", font: font) + 16, 3 * font.lineHeight + 8)
        // a diamond holds a box of half its width and height: the title and its margin fit,
        // and the node is not much larger
        #expect(DOTPolygon(orientation: 45).holds(text, in: size))
        #expect(size.width >= 2 * text.width - 1e-6 && size.width <= 2.3 * text.width, "\(size) \(text)")
        #expect(a.autoSize == false)
    }
}
