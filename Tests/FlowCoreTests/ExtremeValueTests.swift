import TestSupport
import Testing
@testable import FlowCore

/// Every state the API accepts can be written out (issue #25): random calls with extreme
/// numbers either throw or leave a store that `export()` writes and `load` reads back.
@Suite("Property: extreme numbers never make a store that cannot be exported") struct ExtremeValueTests {
    static let extremes: [Double] = [
        0, 1, -1, 1e-300, -1e-300, 1e15, -1e15, 1e16, 1e300, -1e300, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .infinity, .nan, 5e-324, 123.5,
    ]

    static func number(_ rng: inout SplitMix64) -> Double {
        rng.chance(30) ? rng.uniform(-1000, 1000) : rng.pick(extremes)
    }

    static func point(_ rng: inout SplitMix64) -> Point { Point(number(&rng), number(&rng)) }

    static func randomCall(_ s: Store, _ rng: inout SplitMix64) throws(FlowError) {
        let ids = s.nodes.map(\.id)
        let id = ids.isEmpty ? "n1" : rng.pick(ids)
        switch rng.below(14) {
        case 0:
            let z = rng.pick([0, 1, -1, Int.min, Int.max, 1 << 53, -(1 << 53) - 1])
            try s.addNode(FlowNode(id: s.nextNodeID(), position: point(&rng), size: Size(40, 30), data: .null, zIndex: z))
        case 1: try s.moveNode(id, to: point(&rng))
        case 2: try s.pan(by: point(&rng))
        case 3: try s.zoom(by: number(&rng), anchor: point(&rng))
        case 4: try s.scroll(by: point(&rng))
        case 5: try s.magnify(by: number(&rng), at: point(&rng))
        case 6: try s.fitToContent(canvasSize: Size(number(&rng), number(&rng)), padding: number(&rng))
        case 7: try s.setViewport(Viewport(offset: point(&rng), zoom: number(&rng)))
        case 8:
            var c = s.configuration
            c.snapToGrid = true
            c.gridSize = number(&rng)
            c.minZoom = number(&rng)
            c.maxZoom = number(&rng)
            s.configuration = c
        case 9:
            try s.interaction.pointerDown(at: point(&rng))
            try s.interaction.pointerMove(to: point(&rng))
            try s.interaction.pointerUp(at: point(&rng))
        case 10:
            let spring = FlowAnimation.spring(response: number(&rng), dampingFraction: number(&rng))
            try s.interaction.setNodePositions([(id, point(&rng))], animation: spring)
            for _ in 0..<200 where try s.interaction.tick(1.0 / 60) {}
        case 11:
            if ids.count >= 2 { _ = try s.addEdge(FlowEdge(id: s.nextEdgeID(), sourceNodeID: ids[0], targetNodeID: id)) }
        case 12: try s.updateNodeSize(id, to: Size(number(&rng), number(&rng)))
        default:
            try s.updateNode(id) { $0.zIndex = rng.pick([Int.min, -5, 7, Int.max]) }
        }
    }

    @Test func exportAlwaysSucceeds() throws {
        for seed in 1...40 {
            var rng = SplitMix64(seed: UInt64(seed))
            let s = Store()
            for step in 0..<150 {
                try? Self.randomCall(s, &rng)
                let text: String
                do { text = try s.export() } catch {
                    Issue.record("seed \(seed) step \(step): \(error)")
                    return
                }
                for e in s.edges {
                    let g = try s.edgeGeometry(e.id)
                    let d = g.path.svgPathData
                    #expect(g.bounds.size.width.isFinite && !d.contains("nan") && !d.contains("inf"), "seed \(seed) step \(step): \(d)")
                }
                if step % 50 == 49 {
                    let copy = Store(configuration: s.configuration)
                    _ = try copy.load(json: text)
                    #expect(try copy.export() == text, "seed \(seed) step \(step): load(export()) round trip")
                }
            }
        }
    }

    @Test func loadClampsZoomIntoTheLimits() throws {
        var c = FlowConfiguration()
        c.maxZoom = 2
        let s = Store(configuration: c)
        _ = try s.load(json: #"{"version": 1, "nodes": [], "edges": [], "viewport": {"offset": [0, 0], "zoom": 50}}"#)
        #expect(s.viewport.zoom == 2)
    }

    @Test func aFineGridKeepsPositionsFinite() throws {
        var c = FlowConfiguration()
        c.snapToGrid = true
        c.gridSize = 1e-300
        let s = Store(configuration: c)
        try s.addNode(FlowNode(id: "a", position: .zero, size: Size(10, 10), data: .null))
        try s.moveNode("a", to: Point(1e10, 1e10))
        #expect(s.node("a")?.position == Point(1e10, 1e10))
    }
}
