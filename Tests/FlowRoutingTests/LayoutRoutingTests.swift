import FlowCore
import FlowLayout
import TestSupport
import Testing

@testable import FlowRouting

/// `store:layout` and the router together: the layout places the nodes, the router owns the
/// points of orthogonal edges (LayoutPlan gives them no route when a router is installed).
@Suite struct LayoutRoutingTests {
    private func chain(router: Bool) throws -> Store {
        let s = Store()
        if router { s.edgeRouter = OrthogonalRouter() }
        for id in ["a", "b", "c", "d"] {
            try s.addNode(FlowNode(id: id, position: .zero, size: Size(120, 40), data: .null))
        }
        for (id, a, b) in [("ab", "a", "b"), ("bc", "b", "c"), ("ac", "a", "c"), ("cd", "c", "d")] {
            try s.addEdge(FlowEdge(
                id: id, sourceNodeID: a, sourceHandleID: "source", targetNodeID: b, targetHandleID: "target",
                pathType: .orthogonal))
        }
        return s
    }

    /// Every run of the drawn route is horizontal or vertical.
    private func isOrthogonal(_ s: Store, _ id: String) -> Bool {
        guard let g = try? s.edgeGeometry(id) else { return false }
        let pts = [g.sourcePoint] + g.points + [g.targetPoint]
        return zip(pts, pts.dropFirst()).allSatisfy { $0.x == $1.x || $0.y == $1.y }
    }

    @Test func orthogonalEdgesAreRoutedByTheRouterAfterTheLayout() throws {
        let s = try chain(router: true)
        try s.layout()
        // Routed around the laid-out frames, in the same step: a route attaches on its
        // nodes' borders (its first and last points), which the layout's routes never do.
        for e in s.edges {
            #expect(isOrthogonal(s, e.id))
            let src = s.node(e.sourceNodeID)!.frame, dst = s.node(e.targetNodeID)!.frame
            #expect(e.points.first.map { $0.y == src.maxY } == true)
            #expect(e.points.last.map { $0.y == dst.minY } == true)
        }
        // One undo step takes the layout and its routes back.
        #expect(try s.undo())
        #expect(s.nodes.allSatisfy { $0.position == .zero })
    }

    @Test func withoutARouterTheLayoutRoutesThemOrthogonally() throws {
        let s = try chain(router: false)
        try s.layout()
        // the long edge a→c runs straight past b, so a→b and b→c are the ones that bend
        #expect(s.edges.contains { !$0.points.isEmpty })
        for e in s.edges { #expect(isOrthogonal(s, e.id)) }
    }
}
