import Testing
@testable import FlowCore

/// Accessory placement through the store (store-semantics §12, lua-api §9).
@Suite("Accessories in the store") struct AccessoryStoreTests {
    let canvas = Size(800, 600)
    let accessory = Size(200, 80)

    /// A zero-size node "p" whose centre is the screen point `at` (zoom 1, offset 0).
    func pointStore(_ at: Point) throws -> Store {
        let s = Store()
        try s.addNode(node("p", at.x, at.y, 0, 0))
        return s
    }

    func position(
        _ at: Point, _ placement: AccessoryPlacement? = nil, size: Size? = nil, canvas: Size? = nil,
        spacing: Double = 8, margin: Double = 8
    ) throws -> (center: Point, placement: AccessoryPlacement) {
        try pointStore(at).interaction.accessoryPosition(
            for: .node("p"), size: size ?? accessory, canvasSize: canvas ?? self.canvas,
            placement: placement, spacing: spacing, margin: margin)
    }

    @Test func workedValuesWithAZeroSizeAnchor() throws {
        #expect(try position(Point(400, 300)).center == Point(400, 252))
        #expect(try position(Point(400, 300)).placement == .top)
        let flipped = try position(Point(400, 20))
        #expect(flipped.center == Point(400, 68) && flipped.placement == .bottom)
        #expect(try position(Point(10, 10)).center == Point(108, 58))
        #expect(try position(Point(400, 580)).center == Point(400, 532))
        #expect(try position(Point(20, 300)).center.x == 108)
        #expect(try position(Point(780, 300)).center.x == 692)
        #expect(try position(Point(400, 300), size: .zero).center == Point(400, 292))
        #expect(try position(Point(400, 300), spacing: 16, margin: 20).center == Point(400, 244))
        #expect(try position(Point(400, 300), .bottom).center == Point(400, 348))
        let up = try position(Point(400, 570), .bottom)
        #expect(up.center == Point(400, 522) && up.placement == .top)
        #expect(try position(Point(400, 300), .leading).center == Point(292, 300))
        let right = try position(Point(30, 300), .leading)
        #expect(right.center == Point(138, 300) && right.placement == .trailing)
        #expect(try position(Point(400, 300), .trailing).center == Point(508, 300))
        #expect(try position(Point(770, 300), .trailing).center == Point(662, 300))
        #expect(try position(Point(50, 50), canvas: Size(100, 100)).center == Point(108, 48))
    }

    @Test func nodeAnchorSizeIsTheNodeSizeTimesTheZoom() throws {
        let s = Store()
        try s.addNode(node("n", 160, 135, 80, 30))  // centre (200, 150) → screen (400, 300)
        try s.setViewport(Viewport(offset: .zero, zoom: 2))
        func at(_ p: AccessoryPlacement) throws -> Point {
            try s.interaction.accessoryPosition(for: .node("n"), size: accessory, canvasSize: canvas, placement: p).center
        }
        #expect(try at(.top) == Point(400, 222))
        #expect(try at(.bottom) == Point(400, 378))
        #expect(try at(.leading) == Point(212, 300))
        #expect(try at(.trailing) == Point(588, 300))
        try s.moveNode("n", to: Point(160, 25))  // centre (200, 40) → screen (400, 80)
        let r = try s.interaction.accessoryPosition(for: .node("n"), size: accessory, canvasSize: canvas)
        #expect(r.center == Point(400, 158) && r.placement == .bottom)
    }

    @Test func edgesAnchorAtTheirLabelPoint() throws {
        let s = Store()
        try s.addNode(node("a", 250, 250, 100, 100))
        try s.addNode(node("b", 450, 250, 100, 100))
        var e = edge("e", "a", "b")
        e.pathType = .straight
        try s.addEdge(e)
        let r = try s.interaction.accessoryPosition(for: .edge("e"), size: accessory, canvasSize: canvas)
        #expect(r.center == Point(400, 252) && r.placement == .top)
        #expect(try s.interaction.accessoryPosition(for: .edge("e"), size: accessory, canvasSize: canvas, placement: .leading).center == Point(292, 300))
        #expect(throws: FlowError.self) { try s.interaction.accessoryPosition(for: .edge("x"), size: accessory, canvasSize: canvas) }
        #expect(throws: FlowError.self) { try s.interaction.accessoryPosition(for: .node("x"), size: accessory, canvasSize: canvas) }
        #expect(throws: FlowError.self) { try s.interaction.accessoryPosition(for: .node("a"), size: Size(-1, 5), canvasSize: canvas) }
    }

    @Test func placementCallback() throws {
        let s = try pointStore(Point(400, 300))
        var calls = 0
        s.interaction.nodeAccessoryPlacement = { _ in calls += 1; return .bottom }
        #expect(try s.interaction.accessoryPosition(for: .node("p"), size: accessory, canvasSize: canvas).center == Point(400, 348))
        #expect(try s.interaction.accessoryPosition(for: .node("p"), size: accessory, canvasSize: canvas, placement: .top).center == Point(400, 252))
        #expect(calls == 1)  // an explicit placement wins without asking
        s.interaction.nodeAccessoryPlacement = { _ in nil }
        #expect(try s.interaction.accessoryPosition(for: .node("p"), size: accessory, canvasSize: canvas).placement == .top)
        struct Bad: Error {}
        s.interaction.nodeAccessoryPlacement = { _ in throw Bad() }
        #expect(try s.interaction.accessoryPosition(for: .node("p"), size: accessory, canvasSize: canvas).placement == .top)
    }

    @Test func accessoriesOnlyForExactlyOneSelectedItem() throws {
        let s = Store()
        try s.addNode(node("a", 250, 250, 100, 100))
        try s.addNode(node("b", 450, 250, 100, 100))
        var e = edge("e", "a", "b")
        e.pathType = .straight
        try s.addEdge(e)
        s.interaction.nodeAccessoryPlacement = { n in n.id == "a" ? .trailing : nil }
        #expect(try s.interaction.accessories(size: accessory, canvasSize: canvas).isEmpty)
        try s.selectNode("a")
        let one = try s.interaction.accessories(size: accessory, canvasSize: canvas)
        #expect(one.count == 1)
        #expect(one.first?.anchor == .node("a") && one.first?.placement == .trailing)
        #expect(one.first?.center == Point(300 + 50 + 100 + 8, 300))
        try s.selectEdge("e", exclusive: false)
        #expect(try s.interaction.accessories(size: accessory, canvasSize: canvas).isEmpty)
        try s.selectEdge("e")
        let edgeOne = try s.interaction.accessories(size: accessory, canvasSize: canvas)
        #expect(edgeOne.first?.anchor == .edge("e") && edgeOne.first?.center == Point(400, 252))
        #expect(s.checkInvariants().isEmpty)
    }
}
