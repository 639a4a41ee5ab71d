import FlowCore
@testable import FlowLayout
import TestSupport
import Testing

/// Short jogs in stepped routes (`LayoutPlan+Jogs.swift`): a run along the flow beside a
/// jog moves onto the other's line when the strip it sweeps is empty, and stays when a node
/// or another route lies in it.
@Suite struct JogTests {
    typealias Node = FlowNode<JSONValue>

    /// Node `a` above node `b` (TB, default handles: a's bottom at (50, 40), b's top at
    /// (50, 200)), `extra` boxes and the routes `others`, all from a to b; edge e1 from a
    /// to b, stepped, with a jog.
    private func plan(_ extra: [Rect], others: [[Point]] = []) throws -> LayoutPlan<JSONValue> {
        var nodes = [
            Node(id: "a", position: Point(0, 0), size: Size(100, 40), data: .null),
            Node(id: "b", position: Point(0, 200), size: Size(100, 40), data: .null),
        ]
        for (i, r) in extra.enumerated() {
            nodes.append(Node(id: "x\(i)", position: r.origin, size: r.size, data: .null))
        }
        var edges = [FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "b", pathType: .smoothStep)]
        for i in others.indices {
            edges.append(FlowEdge(id: "o\(i)", sourceNodeID: "a", targetNodeID: "b", pathType: .smoothStep))
        }
        var p = try LayoutPlan(nodes: nodes, edges: edges, request: LayoutRequest())
        // the plan has laid them out: put them back where this test wants them
        for n in nodes { p.positions[n.id] = n.position }
        // out of a, right, down to a jog of 6 at y = 130, down, back left, into b
        p.routes["e1"] = [Point(50, 70), Point(90, 70), Point(90, 130), Point(96, 130), Point(96, 170), Point(50, 170)]
        for (i, r) in others.enumerated() { p.routes["o\(i)"] = r }
        p.straightenJogs(edges)
        return p
    }

    @Test func theRunBeforeTheJogMovesWhenItsStripIsEmpty() throws {
        let p = try plan([])
        #expect(p.routes["e1"] == [Point(50, 70), Point(96, 70), Point(96, 170), Point(50, 170)])
    }

    @Test func aNodeInTheStripMovesTheRunAfterTheJogInstead() throws {
        let p = try plan([Rect(91, 100, 3, 3)])
        #expect(p.routes["e1"] == [Point(50, 70), Point(90, 70), Point(90, 170), Point(50, 170)])
    }

    @Test func aJogWithBothStripsTakenStays() throws {
        let p = try plan([Rect(91, 100, 3, 3), Rect(91, 150, 3, 3)])
        #expect(p.routes["e1"]?.count == 6)
        // another route in the strips holds it too
        let q = try plan([], others: [[Point(50, 60), Point(93, 60), Point(93, 180), Point(50, 180)]])
        #expect(q.routes["e1"]?.count == 6)
    }

    @Test func aWideStepIsNoJog() throws {
        let nodes = [
            Node(id: "a", position: Point(0, 0), size: Size(100, 40), data: .null),
            Node(id: "b", position: Point(0, 200), size: Size(100, 40), data: .null),
        ]
        let edges = [FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "b", pathType: .smoothStep)]
        var p = try LayoutPlan(nodes: nodes, edges: edges, request: LayoutRequest())
        for n in nodes { p.positions[n.id] = n.position }
        // a step of 30: more than half the default node spacing (40)
        let route = [Point(50, 70), Point(90, 70), Point(90, 130), Point(120, 130), Point(120, 170), Point(50, 170)]
        p.routes["e1"] = route
        p.straightenJogs(edges)
        #expect(p.routes["e1"] == route)
    }
}
