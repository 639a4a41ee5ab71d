import FlowCore
import FlowLayout
import TestSupport

/// Growth series of issue #43 beyond the parsers (`--only growth`), each with its growth
/// exponent (see `Growth`):
/// - `store.parentChain`: adding n nodes, each the child of the one before (1,000 to 4,000;
///   target exponent at most 1.3: adding a child does not walk its ancestors);
/// - `layout.cyclic`: the layered layout of a random graph with three out-edges per node to
///   random targets (seed 43), full of cycles (250 to 1,000 nodes; target: 1,000 nodes in
///   under 2 s).
enum GrowthBench {
    static let chainSizes = [1_000, 2_000, 4_000]
    static let cyclicSizes = [250, 500, 1_000]

    static func run(into report: Report) {
        progress("growth store.parentChain")
        Growth.measure("growth.store.parentChain", sizes: chainSizes, rounds: 5, into: report) { n in
            { _ = parentChain(n) }
        }
        progress("growth layout.cyclic")
        Growth.measure("growth.layout.cyclic", sizes: cyclicSizes, rounds: 2, into: report) { n in
            let graph = cyclicGraph(n)
            return { _ = LayeredLayout.layout(graph, options: LayoutOptions()) }
        }
    }

    static func parentChain(_ n: Int) -> FlowStore<JSONValue> {
        let store = FlowStore<JSONValue>()
        for i in 0..<n {
            try! store.addNode(
                FlowNode(
                    id: "n\(i)", position: Point(0, 0), size: Size(10, 10), data: .null,
                    parentID: i == 0 ? nil : "n\(i - 1)", acceptsChildren: true))
        }
        return store
    }

    static func cyclicGraph(_ n: Int) -> LayoutGraph {
        LayoutGraph(
            nodes: Array(repeating: LayoutGraph.Node(width: 72, height: 36), count: n),
            edges: RandomGraphs.cyclic(nodes: n).map { LayoutGraph.Edge(source: $0.0, target: $0.1) })
    }
}
