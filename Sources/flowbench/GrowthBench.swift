@preconcurrency import Glibc
import FlowCore
import FlowFormats
import FlowLayout
import FlowRouting
import TestSupport

/// Growth series of issue #43 beyond the parsers (`--only growth`), each with its growth
/// exponent (see `Growth`):
/// - `store.parentChain`: adding n nodes, each the child of the one before (1,000 to 4,000;
///   target exponent at most 1.3: adding a child does not walk its ancestors);
/// - `layout.cyclic`: the layered layout of a random graph with three out-edges per node to
///   random targets (seed 43), full of cycles (1,000 to 4,000 nodes; targets: exponent at
///   most 1.3, 1,000 nodes in under 2 s);
/// - `layout.dense`: decoding DOT `{a1 ... aN} -> {a1 ... aN}` (N = 25, 50, 100), which lays
///   out N² edges over N layers: the bend points grow as N³ (`LayoutLimits`);
/// - `layout.parallel`: the layered layout of 20 nodes joined each to each by 5, 20 and 80
///   parallel edges (2,000 to 32,000 edges), which share their bend points.
/// - `store.orthogonalAdds`: n nodes added one by one on a grid 40 wide, each connected by an
///   orthogonal edge from the one before right after it is added, with the orthogonal router
///   installed (every add routed live; 1,000 to 4,000; target exponent at most 1.3);
/// - `store.orthogonalAdds.scatter`: the same with the nodes scattered over a square that
///   grows with n (overlaps and long edges; 250 to 1,000): each edge's search visits a
///   share of the grid of the nodes its window holds (no longer laid out whole, but still
///   past 500 s at 250 nodes: runs only when named in `FLOWBENCH_GROWTH`).
/// `FLOWBENCH_GROWTH` (comma-separated series names, e.g. `layout.cyclic`) runs only those;
/// `FLOWBENCH_GROWTH_SIZES` (e.g. `1000,2000`) replaces the sizes of the layout series and
/// of the scattered one.
enum GrowthBench {
    static let chainSizes = [1_000, 2_000, 4_000]
    static let cyclicSizes = [1_000, 2_000, 4_000]
    static let denseSizes = [25, 50, 100]
    static let parallelSizes = [2_000, 8_000, 32_000]
    static let orthogonalSizes = [1_000, 2_000, 4_000]
    static let scatterSizes = [250, 500, 1_000]

    static func run(into report: Report) {
        let selected = getenv("FLOWBENCH_GROWTH").map { Set(String(cString: $0).split(separator: ",").map(String.init)) }
        func runs(_ name: String) -> Bool { selected?.contains(name) ?? true }
        let sizes = getenv("FLOWBENCH_GROWTH_SIZES").map { String(cString: $0).split(separator: ",").compactMap { Int($0) } }
        let cyclicSizes = sizes ?? cyclicSizes, denseSizes = sizes ?? denseSizes, parallelSizes = sizes ?? parallelSizes
        if runs("store.parentChain") {
            progress("growth store.parentChain")
            Growth.measure("growth.store.parentChain", sizes: chainSizes, rounds: 5, into: report) { n in
                { _ = parentChain(n) }
            }
        }
        // The scattered series is cubic (see docs/performance.md): only when named.
        let scatterNamed = selected?.contains("store.orthogonalAdds.scatter") ?? false
        for (name, scatter) in [("store.orthogonalAdds", false), ("store.orthogonalAdds.scatter", true)]
        where runs(name) && (!scatter || scatterNamed) {
            progress("growth \(name)")
            let sizes = scatter ? sizes ?? scatterSizes : orthogonalSizes
            Growth.measure("growth.\(name)", sizes: sizes, rounds: scatter ? 1 : 2, into: report) { n in
                { _ = orthogonalAdds(n, scatter: scatter) }
            }
        }
        if runs("layout.cyclic") {
            progress("growth layout.cyclic")
            Growth.measure("growth.layout.cyclic", sizes: cyclicSizes, rounds: 1, into: report) { n in
                let graph = cyclicGraph(n)
                return { _ = LayeredLayout.layout(graph, options: LayoutOptions()) }
            }
            // what the time grows with: the layers and the routes' points (two a bend point)
            for n in cyclicSizes {
                let r = LayeredLayout.layout(cyclicGraph(n), options: LayoutOptions())
                report.add(Metric(name: "growth.layout.cyclic.layers", size: n, value: Double(r.layers), unit: "count"))
                let points = r.edgePoints.reduce(0) { $0 + $1.count }
                report.add(Metric(name: "growth.layout.cyclic.routePoints", size: n, value: Double(points), unit: "count"))
            }
        }
        if runs("layout.dense") {
            progress("growth layout.dense")
            Growth.measure("growth.layout.dense", sizes: denseSizes, rounds: 1, into: report) { n in
                let names = (1...n).map { "a\($0)" }.joined(separator: " ")
                let text = "digraph { {\(names)} -> {\(names)} }"
                return { _ = try! FlowStore<JSONValue>().load(text, format: .dot) }
            }
        }
        if runs("layout.parallel") {
            progress("growth layout.parallel")
            Growth.measure("growth.layout.parallel", sizes: parallelSizes, rounds: 1, into: report) { n in
                let graph = parallelGraph(nodes: 20, edges: n)
                return { _ = LayeredLayout.layout(graph, options: LayoutOptions()) }
            }
        }
    }

    /// `nodes` nodes, each joined to each (itself included) by parallel edges, `edges` in all.
    static func parallelGraph(nodes n: Int, edges: Int) -> LayoutGraph {
        var list: [LayoutGraph.Edge] = []
        for i in 0..<edges { list.append(LayoutGraph.Edge(source: i % (n * n) / n, target: i % n)) }
        return LayoutGraph(nodes: Array(repeating: LayoutGraph.Node(width: 72, height: 36), count: n), edges: list)
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

    /// n nodes added and connected one by one with live orthogonal routing (see the top).
    static func orthogonalAdds(_ n: Int, scatter: Bool) -> FlowStore<JSONValue> {
        let store = FlowStore<JSONValue>()
        store.edgeRouter = OrthogonalRouter()
        let side = Double(n).squareRoot()
        for i in 0..<n {
            let p =
                scatter
                ? Point(Double(i &* 7919 % 997) / 997 * side * 130, Double(i &* 104_729 % 991) / 991 * side * 90)
                : Point(Double(i % 40) * 150, Double(i / 40) * 100)
            try! store.addNode(FlowNode(id: "n\(i)", position: p, size: Size(80, 40), data: .null))
            guard i > 0 else { continue }
            try! store.addEdge(
                FlowEdge(
                    id: "e\(i)", sourceNodeID: "n\(i - 1)", sourceHandleID: "source", targetNodeID: "n\(i)",
                    targetHandleID: "target", pathType: .orthogonal))
        }
        return store
    }

    static func cyclicGraph(_ n: Int) -> LayoutGraph {
        LayoutGraph(
            nodes: Array(repeating: LayoutGraph.Node(width: 72, height: 36), count: n),
            edges: RandomGraphs.cyclic(nodes: n).map { LayoutGraph.Edge(source: $0.0, target: $0.1) })
    }
}
