import FlowCore
import FlowLayout
import FlowRender
import Testing

/// Pictures of laid-out diagrams, one per direction and one with groups: the layout, its
/// routes and the renderer together, byte for byte.
@Suite struct LayoutGoldenTests {
    /// A small flow with a long edge, a labelled edge, a cycle and a self-loop.
    private func flow() throws -> Store {
        let ids = ["start", "check", "fix", "review", "merge", "done"]
        let store = try makeStore(
            ids.map { node($0, 0, 0, 100, 40) },
            [
                edge("e1", "start", "source", "check", "target", type: .smoothStep),
                edge("e2", "check", "source", "fix", "target", type: .smoothStep, label: "fails"),
                edge("e3", "fix", "source", "check", "target", type: .smoothStep),
                edge("e4", "check", "source", "review", "target", type: .smoothStep),
                edge("e5", "review", "source", "merge", "target", type: .smoothStep),
                edge("e6", "start", "source", "merge", "target", type: .smoothStep),
                edge("e7", "merge", "source", "done", "target", type: .smoothStep),
                edge("e8", "review", "source", "review", "target", type: .smoothStep),
            ])
        return store
    }

    @Test(arguments: LayoutDirection.allCases)
    func eachDirection(_ direction: LayoutDirection) throws {
        let store = try flow()
        let stats = try store.layout(LayoutRequest(options: LayoutOptions(direction: direction, nodeSpacing: 30, layerSpacing: 40)))
        #expect(stats.reversedEdges == 1)
        try Golden.check(try renderSVG(store), "layout-\(direction.rawValue)")
    }

    /// An api node over two groups of two nodes; with `cycles`, two edges back across the
    /// groups (storage calls back).
    private func groups(cycles: Bool) throws -> Store {
        var edges = [
            edge("e1", "api", "source", "auth", "target", type: .smoothStep),
            edge("e2", "api", "source", "orders", "target", type: .smoothStep),
            edge("e3", "orders", "source", "db", "target", type: .smoothStep),
            edge("e4", "orders", "source", "cache", "target", type: .smoothStep),
            edge("e5", "auth", "source", "db", "target", type: .smoothStep),
        ]
        if cycles {
            edges.append(edge("e6", "cache", "source", "orders", "target", type: .smoothStep, label: "invalidate"))
            edges.append(edge("e7", "db", "source", "api", "target", type: .smoothStep, label: "audit"))
        }
        return try makeStore(
            [
                node("api", 0, 0, 100, 40),
                node("backend", 0, 0, 10, 10, title: "backend", container: true, handles: []),
                node("auth", 0, 0, 100, 40, parent: "backend"),
                node("orders", 0, 0, 100, 40, parent: "backend"),
                node("storage", 0, 0, 10, 10, title: "storage", container: true, handles: []),
                node("db", 0, 0, 100, 40, parent: "storage"),
                node("cache", 0, 0, 100, 40, parent: "storage"),
            ], edges)
    }

    @Test func groupsLaidOutInsideOut() throws {
        let store = try groups(cycles: false)
        try store.layout(LayoutRequest(options: LayoutOptions(nodeSpacing: 30, layerSpacing: 40)))
        try Golden.check(try renderSVG(store), "layout-groups")
    }

    /// Edges that close cycles across the groups are each drawn against the flow as a
    /// whole, round the groups, into their targets from above.
    @Test func groupsWithCyclesAcrossThem() throws {
        let store = try groups(cycles: true)
        let stats = try store.layout(LayoutRequest(options: LayoutOptions(nodeSpacing: 30, layerSpacing: 40)))
        #expect(stats.reversedEdges == 2)
        try Golden.check(try renderSVG(store), "layout-groups-cycles")
    }
}
