import TestSupport
import Testing
@testable import FlowCore

/// Rectangle selection (store-semantics §4.5, D3, D22).
@Suite("Rectangle selection") struct SelectionRectTests {
    /// a (0,0,100,50), b (200,0,100,50), c (0,200,100,50); straight edge e from a's centre
    /// (50,25) to b's centre (250,25).
    func store() throws -> Store {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.addNode(node("b", 200, 0, 100, 50))
        try s.addNode(node("c", 0, 200, 100, 50))
        var e = edge("e", "a", "b")
        e.pathType = .straight
        try s.addEdge(e)
        return s
    }

    @Test func replacesTheSelectionWithEventsOnlyForChanges() throws {
        let s = try store()
        try s.selectNode("c")
        let log = EventLog(s)
        #expect(try s.selectInRect(Rect(-10, -10, 70, 40)))
        #expect(s.selectedNodeIDs == ["a"] && s.selectedEdgeIDs == ["e"])
        #expect(log.take() == ["N[select(a,true), select(c,false)]", "E[select(e,true)]"])
        #expect(s.focusedTarget == .node("c"))  // focus unchanged
        #expect(try s.selectInRect(Rect(60, 30, -70, -40)) == false)  // standardized: same rect
        #expect(log.take().isEmpty)
        #expect(try s.selectNodesInRect(Rect(150, 40, 200, 200)))
        #expect(s.selectedNodeIDs == ["b"] && s.selectedEdgeIDs.isEmpty)
        #expect(log.take() == ["N[select(a,false), select(b,true)]", "E[select(e,false)]"])
        #expect(!s.canUndo || s.undoActionName == "Add Edge")
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func nodeFramesIntersectClosed() throws {
        let s = try store()
        #expect(try s.selectInRect(Rect(100, 50, 10, 10)))  // touches a's corner
        #expect(s.selectedNodeIDs == ["a"])
        try s.selectInRect(Rect(100.001, 60, 10, 10))
        #expect(s.selectedNodeIDs.isEmpty)
        try s.selectInRect(Rect(50, 100, 0, 0))  // a zero-size rect away from everything
        #expect(s.selectedNodeIDs.isEmpty)
        try s.selectInRect(Rect(50, 220, 0, 0))  // a zero-size rect inside c
        #expect(s.selectedNodeIDs == ["c"])
    }

    @Test func edgesWithinOne() throws {
        let s = try store()
        // The edge runs along y = 25 from x = 50 to 250; the nodes end at x = 100 and 200.
        #expect(try s.selectInRect(Rect(140, 26, 20, 20)))  // exactly 1 below the path
        #expect(s.selectedEdgeIDs == ["e"] && s.selectedNodeIDs.isEmpty)
        try s.selectInRect(Rect(140, 26.01, 20, 20))
        #expect(s.selectedEdgeIDs.isEmpty)
        try s.selectInRect(Rect(140, 4, 20, 20))  // ends 1 above
        #expect(s.selectedEdgeIDs == ["e"])
        try s.selectInRect(Rect(251, 100, 0, 0))
        #expect(s.selectedEdgeIDs.isEmpty)
    }

    @Test func disabledMultiSelectionDoesNothing() throws {
        var cfg = FlowConfiguration()
        cfg.multiSelectionEnabled = false
        let s = Store(configuration: cfg)
        try s.addNode(node("a", 0, 0, 100, 50))
        try s.selectNode("a")
        let log = EventLog(s)
        #expect(try s.selectInRect(Rect(500, 500, 10, 10)) == false)
        #expect(s.selectedNodeIDs == ["a"] && log.take().isEmpty)
        #expect(throws: FlowError.self) { try s.selectInRect(Rect(0, 0, .infinity, 1)) }
    }

    @Test func matchesBruteForceOnManyItems() throws {
        let s = Store()
        s.checksInvariants = false
        var rng = SplitMix64(seed: 7)
        for i in 0..<2_000 {
            let x = Double(Int.random(in: 0..<4000, using: &rng)), y = Double(Int.random(in: 0..<4000, using: &rng))
            try s.addNode(node("n\(i)", x, y, Double(Int.random(in: 10..<200, using: &rng)), 40))
        }
        for i in 0..<1_000 {
            let a = Int.random(in: 0..<2_000, using: &rng), b = Int.random(in: 0..<2_000, using: &rng)
            var e = edge("e\(i)", "n\(a)", "n\(b)")
            e.pathType = EdgePathType.allCases[i % 4]
            try s.addEdge(e)
        }
        for _ in 0..<40 {
            let r = Rect(
                Double(Int.random(in: -100..<4000, using: &rng)), Double(Int.random(in: -100..<4000, using: &rng)),
                Double(Int.random(in: 0..<600, using: &rng)), Double(Int.random(in: 0..<600, using: &rng)))
            try s.selectInRect(r)
            let nodes = s.nodes.filter { $0.frame.intersects(r) }.map(\.id)
            let edges = s.edges.filter { e in (try? s.edgeGeometry(e.id))?.isInSelectionRect(r) == true }.map(\.id)
            #expect(s.selectedNodeIDs == nodes)
            #expect(s.selectedEdgeIDs == edges)
        }
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func rectangleInteraction() throws {
        let s = try store()
        s.interaction.beginSelectionRect()
        #expect(s.interaction.activeInteraction == .selectingRect)
        try s.interaction.updateSelectionRect(Rect(10, 10, -20, -5))
        #expect(s.interaction.selectionRect == Rect(-10, 5, 20, 5))
        #expect(s.selectedNodeIDs.isEmpty)  // drawing alone does not select
        #expect(s.interaction.endSelectionRect())
        #expect(s.interaction.selectionRect == nil && s.interaction.activeInteraction == nil)
        #expect(!s.interaction.endSelectionRect())
    }
}
