import FlowCore
import FlowRender
import FlowRouting
import Testing

/// Long Swift calls stop at the current `WorkLimit` (#43): the JSON export, the SVG drawing
/// and the routing of orthogonal edges throw `WorkLimit.stoppedError` past it, and a call
/// that would have changed the store changes nothing. Before, each ran to its end whatever
/// the limit (a sandbox's `s:svg()` of 100,000 nodes ran 3.2 s under a 1.5 s limit, one
/// `addEdges` of 3,000 orthogonal edges 6.6 s under 0.5 s).
@Suite struct WorkLimitCallTests {
    /// A row of `n` nodes, each joined to the next by an edge with a label.
    static func row(_ n: Int, pathType: EdgePathType = .bezier, router: Bool = false) throws -> Store {
        let s = Store()
        if router { s.edgeRouter = OrthogonalRouter() }
        _ = try s.addNodes((0..<n).map { FlowNode(id: "n\($0)", position: Point(Double($0 % 20) * 200, Double($0 / 20) * 120), size: Size(150, 60), data: .null) })
        _ = try s.addEdges((1..<n).map { FlowEdge(id: "e\($0)", sourceNodeID: "n\($0 - 1)", targetNodeID: "n\($0)", pathType: pathType, label: "edge \($0)") })
        return s
    }

    static func spent() -> WorkLimit { WorkLimit(seconds: 0) }

    @Test func exportStopsAtTheLimit() throws {
        let s = try Self.row(400)  // about 200 kB of text: more than one piece
        #expect(throws: WorkLimit.stoppedError("export")) { try WorkLimit.$current.withValue(Self.spent()) { try s.export() } }
        #expect(try WorkLimit.$current.withValue(WorkLimit(seconds: 100)) { try s.export() } == (try s.export()))
    }

    @Test func theDrawingStopsAtTheLimit() throws {
        let s = try Self.row(100)
        #expect(throws: WorkLimit.stoppedError("svg")) { try WorkLimit.$current.withValue(Self.spent()) { try renderSVG(s) } }
        // cancelled from elsewhere: the same
        let cancelled = WorkLimit(seconds: nil)
        cancelled.cancel()
        #expect(throws: WorkLimit.stoppedError("svg")) { try WorkLimit.$current.withValue(cancelled) { try renderSVG(s) } }
        #expect(try WorkLimit.$current.withValue(WorkLimit(seconds: 100)) { try renderSVG(s) } == (try renderSVG(s)))
    }

    @Test func routingStopsAtTheLimitAndTheCallChangesNothing() throws {
        let s = try Self.row(60, pathType: .orthogonal, router: true)
        let nodes = s.nodes, edges = s.edges
        let more = (0..<40).map { FlowEdge(id: "x\($0)", sourceNodeID: "n\($0)", targetNodeID: "n\(59 - $0)", pathType: .orthogonal) }
        #expect(throws: WorkLimit.stoppedError("")) {
            try WorkLimit.$current.withValue(Self.spent()) { _ = try s.addEdges(more) }
        }
        #expect(s.nodes == nodes && s.edges == edges)
        #expect(throws: WorkLimit.stoppedError("routeEdges")) {
            try WorkLimit.$current.withValue(Self.spent()) { try s.routeEdges() }
        }
        #expect(s.edges == edges)
        // the router forgot what it knew and builds again: the same routes as a store that
        // was never stopped
        #expect(try s.addEdges(more) == 40)
        let fresh = try Self.row(60, pathType: .orthogonal, router: true)
        _ = try fresh.addEdges(more)
        #expect(s.edges == fresh.edges)
    }
}
