import FlowCore
import TestSupport
import Testing

@testable import FlowFormats

/// Graphviz's shapes: each drawn as its own outline, what has none reported.
@Suite struct DOTShapeTests {
    @Test func namedShapesPolygonsAndPoints() throws {
        let r = try DOTReader.read("""
            digraph {
              a [shape=doublecircle]; b [shape=Mdiamond]; c [shape=Msquare]; d [shape=house];
              e [shape=plaintext]; f [shape=none]; g [shape=point]; h [shape=box3d];
              p3 [shape=polygon, sides=3]; p5 [shape=polygon, sides=5]; sk [shape=polygon, sides=4, skew=.4];
              di [shape=polygon, sides=4, distortion=-.5]; c2 [shape=circle, peripheries=2];
              o2 [shape=octagon, peripheries=2]; e1 [sides=7, skew=1, orientation=0];
              r [shape=polygon, sides=6, orientation=30]; z [shape=egg]
            }
            """)
        let shapes = Dictionary(uniqueKeysWithValues: r.document.nodes.map { ($0.id, $0.shape) })
        #expect(shapes["a"] == .doublecircle && shapes["b"] == .mdiamond && shapes["c"] == .msquare)
        #expect(shapes["d"] == .house && shapes["e"] == .plain && shapes["f"] == .plain && shapes["h"] == .box3d)
        #expect(shapes["p3"] == .triangle && shapes["p5"] == .pentagon && shapes["sk"] == .parallelogram)
        #expect(shapes["di"] == .trapezium && shapes["c2"] == .doublecircle && shapes["o2"] == .doubleoctagon)
        // sides and skew mean nothing to an ellipse: nothing is dropped
        #expect(shapes["e1"] == .ellipse)
        let point = try #require(r.document.nodes.first { $0.id == "g" })
        #expect(point.shape == .circle && point.size == Size(3.6, 3.6))
        #expect(point.data.title(nodeID: "g") == "")
        #expect(point.style.fill == FlowColor("#000000"))
        // a turned hexagon is drawn from its data (DOTPolygonTests)
        #expect(r.warnings == ["node shape 'egg' is not mapped (1 node)"])
    }
}
