import Testing
@testable import FlowCore

@Suite("Viewport") struct ViewportTests {
    @Test func zoomExamples() throws {
        let s = Store()
        try s.zoom(by: 2, anchor: Point(100, 50))
        #expect(s.viewport == Viewport(offset: Point(-100, -50), zoom: 2))
        try s.zoom(by: 100, anchor: Point(0, 0))
        #expect(s.viewport == Viewport(offset: Point(-200, -100), zoom: 4))
        try s.zoom(by: 0.0001, anchor: Point(10, 10))
        #expect(s.viewport.zoom == 0.1)
        #expect(abs(s.viewport.offset.x - 4.75) < 1e-12 && abs(s.viewport.offset.y - 7.25) < 1e-12)
    }

    @Test func fitToContentExamples() throws {
        let s = Store()
        #expect(try s.fitToContent(canvasSize: Size(800, 600)) == false)
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.addNode(node("b", 200, 100, 100, 50))
        try s.fitToContent(canvasSize: Size(800, 600))
        #expect(s.viewport == Viewport(offset: Point(250, 225), zoom: 1))
        try s.moveNode("b", to: Point(500, 400))
        try s.fitToContent(canvasSize: Size(300, 200))
        #expect(abs(s.viewport.zoom - 200.0 / 550) < 1e-12)
        #expect(abs(s.viewport.offset.x - 40.90909090909091) < 1e-9)
        #expect(abs(s.viewport.offset.y - 18.181818181818183) < 1e-9)
        try s.fitToContent(canvasSize: Size(300, 200), padding: 0)
        #expect(abs(s.viewport.zoom - 0.4444444444444444) < 1e-12)
        #expect(abs(s.viewport.offset.x - 16.666666666666668) < 1e-9 && abs(s.viewport.offset.y) < 1e-9)
    }

    @Test func panAndZoomRespectTheirFlags() throws {
        var cfg = FlowConfiguration()
        cfg.panEnabled = false
        cfg.zoomEnabled = false
        let s = Store(configuration: cfg)
        #expect(try s.pan(by: Point(5, 5)) == false)
        #expect(try s.zoom(by: 2, anchor: .zero) == false)
        #expect(s.viewport == Viewport())
        s.configuration.panEnabled = true
        #expect(try s.pan(by: Point(5, 5)))
        #expect(s.viewport.offset == Point(5, 5))
    }

    @Test func zoomLimitsAreClampedOnEverySetAndReclampTheZoom() throws {
        let s = Store()
        try s.setViewport(Viewport(offset: Point(3, 4), zoom: 3))
        s.configuration.maxZoom = 2
        #expect(s.viewport == Viewport(offset: Point(3, 4), zoom: 2))
        s.configuration.minZoom = 0
        #expect(s.configuration.minZoom == 0.01)
        var c = FlowConfiguration()
        c.minZoom = 0
        c.maxZoom = -1
        #expect(c.minZoom == 0.01 && c.maxZoom == 0.01)
        #expect(throws: FlowError.self) { try s.setViewport(Viewport(offset: .zero, zoom: .nan)) }
    }

    @Test func conversions() {
        let v = Viewport(offset: Point(10, 20), zoom: 2)
        #expect(v.canvasToScreen(Point(10, 20)) == Point(30, 60))
        #expect(v.screenToCanvas(Point(30, 60)) == Point(10, 20))
        #expect(Viewport(offset: .zero, zoom: 0).screenToCanvas(Point(1, 1)) == Point(100, 100))
    }

    @Test func nodeBoundsExample() throws {
        let s = Store()
        #expect(s.nodeBounds() == .zero)
        try s.addNode(node("a", 10, 20, 100, 50))
        try s.addNode(node("b", 200, 300, 80, 40))
        let b = s.nodeBounds()
        #expect(b.minX == 10 && b.minY == 20 && b.maxX == 280 && b.maxY == 340)
        try s.removeNode("b")
        #expect(s.nodeBounds() == Rect(10, 20, 100, 50))
    }
}
