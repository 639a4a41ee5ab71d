import Testing
@testable import FlowCore

/// The selection context (store-semantics §13) and the minimap through the store (§9).
@Suite("Selection context and minimap") struct SelectionContextTests {
    @Test func workedExample() throws {
        let s = Store()
        try s.addNode(node("n1", 10, 20, 100, 50))
        try s.addNode(node("n2", 200, 100, 80, 40))
        try s.addNode(node("other", 1000, 1000, 10, 10))
        try s.setViewport(Viewport(offset: Point(10, 20), zoom: 2))
        #expect(try s.selectionContext(canvasSize: Size(800, 600)) == nil)
        try s.selectNode("n2")
        try s.selectNode("n1", exclusive: false)
        let c = try #require(try s.selectionContext(canvasSize: Size(800, 600)))
        #expect(c.selectedNodeIDs == ["n1", "n2"] && c.nodes.map(\.id) == ["n1", "n2"])
        #expect(c.edges.isEmpty && c.edgeFrames.isEmpty && !c.isEmpty)
        #expect(c.boundsInCanvas == Rect(10, 20, 270, 120))
        #expect(c.boundsInScreen == Rect(30, 60, 540, 240))
        #expect(c.nodeFrames.map(\.screen) == [Rect(30, 60, 200, 100), Rect(410, 220, 160, 80)])
        #expect(c.nodeFrames.map(\.canvas) == [Rect(10, 20, 100, 50), Rect(200, 100, 80, 40)])
        #expect(c.viewport == s.viewport && c.canvasSize == Size(800, 600))
    }

    @Test func edgeFrames() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 60))  // centre (50, 30)
        try s.addNode(node("b", 300, 100, 100, 60))  // centre (350, 130)
        var e = edge("e", "a", "b")
        e.pathType = .straight
        try s.addEdge(e)
        var flat = edge("f", "a", "b")
        flat.pathType = .straight
        try s.addEdge(flat)
        try s.selectEdge("e")
        let c = try #require(try s.selectionContext(canvasSize: Size(800, 600)))
        #expect(c.edgeFrames.map(\.canvas) == [Rect(49, 29, 302, 102)])
        #expect(c.boundsInCanvas == Rect(49, 29, 302, 102))
        #expect(c.nodes.isEmpty && c.selectedEdgeIDs == ["e"])
        try s.moveNode("b", to: Point(300, 0))  // both edges now run flat along y = 30
        try s.selectEdge("f")
        let flatContext = try #require(try s.selectionContext(canvasSize: Size(800, 600)))
        #expect(flatContext.edgeFrames.first?.canvas == Rect(49, 29, 302, 2))
        #expect(throws: FlowError.self) { try s.selectionContext(canvasSize: Size(-1, 1)) }
    }

    @Test func miniMapThroughTheStore() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50, z: 1))
        try s.addNode(node("b", 400, 300, 100, 50))
        try s.selectNode("a")
        let m = try s.interaction.miniMap(canvasSize: Size(800, 600))
        let direct = MiniMapGeometry(
            nodes: [.init(frame: Rect(400, 300, 100, 50)), .init(frame: Rect(0, 0, 100, 50), isSelected: true)],
            viewport: s.viewport, canvasSize: Size(800, 600))
        #expect(m == direct)  // back to front: b (z 0) before a (z 1)

        let target = Point(150, 100)
        #expect(try s.interaction.miniMapPan(to: target, canvasSize: Size(800, 600)))
        let centre = s.screenToCanvas(Point(400, 300))
        let wanted = m.canvasPoint(forMiniMapPoint: target)
        #expect(abs(centre.x - wanted.x) < 1e-9 && abs(centre.y - wanted.y) < 1e-9)
        s.configuration.panEnabled = false
        let v = s.viewport
        #expect(try s.interaction.miniMapPan(to: .zero, canvasSize: Size(800, 600)) == false)
        #expect(s.viewport == v)
        #expect(throws: FlowError.self) { try s.interaction.miniMap(canvasSize: Size(800, 600), size: .zero) }
    }
}
