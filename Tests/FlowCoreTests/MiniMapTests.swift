import Testing

@testable import FlowCore

/// store-semantics §9: the minimap (default 200×150).
@Suite struct MiniMapTests {
    private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        abs(a - b) <= tolerance
    }

    private func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
        close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
            && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
    }

    private let twoNodes = [
        MiniMapGeometry.Node(frame: Rect(0, 0, 100, 50), isSelected: true),
        MiniMapGeometry.Node(frame: Rect(200, 100, 100, 50)),
    ]

    @Test func layoutOfTwoNodes() {
        let map = MiniMapGeometry(nodes: twoNodes, viewport: Viewport(), canvasSize: Size(800, 600))
        #expect(map.size == Size(200, 150))
        #expect(map.worldBounds == Rect(-50, -50, 400, 250))  // node bounds grown by 50
        #expect(map.scale == 0.5)  // min(200/400, 150/250)
        #expect(map.contentOrigin == Point(0, 12.5))
        #expect(
            map.nodes == [
                MiniMapGeometry.Node(frame: Rect(25, 37.5, 50, 25), isSelected: true),
                MiniMapGeometry.Node(frame: Rect(125, 87.5, 50, 25), isSelected: false),
            ])
        #expect(map.viewportRect == Rect(25, 37.5, 400, 300))
    }

    @Test func panCentresTheViewOnTheClickedPoint() {
        let map = MiniMapGeometry(nodes: twoNodes, viewport: Viewport(), canvasSize: Size(800, 600))
        #expect(map.canvasPoint(forMiniMapPoint: Point(50, 50)) == Point(50, 25))
        let delta = map.panDelta(forMiniMapPoint: Point(50, 50))
        #expect(delta == Point(350, 275))
        let panned = Viewport(offset: Viewport().offset + delta, zoom: 1)
        #expect(panned.screenToCanvas(Point(400, 300)) == Point(50, 25))
    }

    @Test func zoomedViewport() {
        let viewport = Viewport(offset: Point(-100, -50), zoom: 2)
        let map = MiniMapGeometry(nodes: twoNodes, viewport: viewport, canvasSize: Size(800, 600))
        // Visible canvas (50, 25)–(450, 325).
        #expect(map.viewportRect == Rect(50, 50, 200, 150))
        let delta = map.panDelta(forMiniMapPoint: Point(150, 100))
        #expect(delta == Point(0, 100))
        let panned = Viewport(offset: viewport.offset + delta, zoom: 2)
        #expect(panned.screenToCanvas(Point(400, 300)) == Point(250, 125))
    }

    @Test func nodesAreAtLeastTwoByTwo() {
        let nodes = [
            MiniMapGeometry.Node(frame: Rect(10, 10, 1, 1)),
            MiniMapGeometry.Node(frame: Rect(400, 10, 0, 300)),
        ]
        let map = MiniMapGeometry(nodes: nodes, viewport: Viewport(), canvasSize: Size(800, 600))
        for (node, input) in zip(map.nodes, nodes) {
            #expect(node.frame.width >= 2 && node.frame.height >= 2)
            let centre = map.miniMapPoint(forCanvasPoint: input.frame.center)
            #expect(close(node.frame.midX, centre.x) && close(node.frame.midY, centre.y))
        }
        #expect(map.nodes[0].frame.width == 2 && map.nodes[0].frame.height == 2)
        #expect(map.nodes[1].frame.width == 2 && map.nodes[1].frame.height > 2)
    }

    @Test func withoutNodesTheWorldIsTheVisibleCanvasGrownByItsSize() {
        let map = MiniMapGeometry(nodes: [], viewport: Viewport(), canvasSize: Size(800, 600))
        #expect(map.worldBounds == Rect(-800, -600, 2400, 1800))
        #expect(close(map.scale, 1.0 / 12))
        #expect(close(map.contentOrigin.x, 0) && close(map.contentOrigin.y, 0))
        #expect(close(map.viewportRect, Rect(800.0 / 12, 50, 800.0 / 12, 50)))
        #expect(map.nodes.isEmpty)
    }

    @Test func customSizeAndDrawOrder() {
        let nodes = (0..<5).map {
            MiniMapGeometry.Node(frame: Rect(Double($0) * 100, 0, 50, 50), isSelected: $0 % 2 == 0)
        }
        let map = MiniMapGeometry(
            nodes: nodes, viewport: Viewport(), canvasSize: Size(800, 600), size: Size(100, 100))
        #expect(map.size == Size(100, 100))
        #expect(map.worldBounds == Rect(-50, -50, 550, 150))
        #expect(close(map.scale, 100.0 / 550))
        #expect(map.nodes.map(\.isSelected) == [true, false, true, false, true])
        #expect(map.nodes.map(\.frame.midX) == map.nodes.map(\.frame.midX).sorted())
    }

    @Test func miniMapAndCanvasPointsRoundTrip() {
        let map = MiniMapGeometry(
            nodes: twoNodes, viewport: Viewport(offset: Point(13, -7), zoom: 0.75),
            canvasSize: Size(640, 480))
        for m in [Point(0, 0), Point(37.25, 99.5), Point(200, 150)] {
            let back = map.miniMapPoint(forCanvasPoint: map.canvasPoint(forMiniMapPoint: m))
            #expect(close(back.x, m.x) && close(back.y, m.y))
        }
    }

    @Test func degenerateInputsDoNotTrap() {
        let empty = MiniMapGeometry(nodes: [], viewport: Viewport(), canvasSize: .zero)
        #expect(empty.worldBounds == .zero)
        #expect(empty.scale == 150)  // sizes below 1 count as 1
        #expect(empty.contentOrigin == Point(100, 75))
        let odd = MiniMapGeometry(
            nodes: [MiniMapGeometry.Node(frame: Rect(.nan, 0, .infinity, -5))],
            viewport: Viewport(offset: .zero, zoom: 0), canvasSize: Size(10, 10), size: .zero)
        _ = odd.panDelta(forMiniMapPoint: Point(1, 1))
    }
}
