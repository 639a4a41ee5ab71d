@preconcurrency import Glibc
import FlowCore
import FlowLayout
import FlowRouting

/// The routing section: FlowRouting's orthogonal router on the benchmark graph `dag_1000`
/// (1,000 nodes, 1,500 edges), positioned by FlowLayout (72×36 boxes, the layout's default
/// spacing), against Graphviz's orthogonal router on the same positions (`neato -n2
/// -Gsplines=ortho`: the router of `dot -Gsplines=ortho`, with the positions given instead of
/// laid out by dot), in the same run: the time to route every edge, bends and drawn
/// crossings; and the time of one `moveNode` with live re-routing.
enum RoutingBench {
    static let graph = "dag_1000"

    static func run(budget: Budget, into report: Report) {
        guard let g = BenchGraph(path: "\(LayoutBench.directory)/\(graph).json") else {
            report.add(Metric(name: "routing", size: nil, value: nil, unit: "", note: "no graph at \(LayoutBench.directory)"))
            return
        }
        let size = Size(72, 36)
        let laid = LayeredLayout.layout(g.layoutGraph, options: LayoutOptions())
        let store = FlowStore<JSONValue>()
        store.isUndoEnabled = false
        for (i, id) in g.ids.enumerated() {
            try! store.addNode(FlowNode(id: id, position: laid.positions[i], size: size, data: .null))
        }
        for (k, e) in g.edges.enumerated() {
            try! store.addEdge(FlowEdge(
                id: "e\(k)", sourceNodeID: g.ids[e.0], sourceHandleID: "source", targetNodeID: g.ids[e.1],
                targetHandleID: "target", pathType: .orthogonal))
        }
        let n = g.ids.count
        progress("routing \(graph) from scratch")
        store.edgeRouter = OrthogonalRouter()
        var scratch = Double.infinity
        for _ in 0..<max(1, min(budget.reps, 5)) {
            scratch = min(scratch, time { _ = try! store.routeEdges() })
        }
        let ours = drawing(store, g)
        // One move at a time, each followed by a move back, timed apart.
        progress("routing \(graph): moves")
        var rng = SplitMix(state: 20)
        var times: [Double] = []
        var cpu = 0.0
        func cpuNow() -> Double { var t = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9 }
        let moves = budget.reps >= 10 ? 200 : 60
        for _ in 0..<moves {
            let id = g.ids[rng.int(n)]
            let p = store.node(id)!.position
            let q = Point(p.x + Double(rng.int(61) - 30), p.y + Double(rng.int(41) - 20))
            let c0 = cpuNow()
            times.append(time { _ = try! store.moveNode(id, to: q) })
            cpu += cpuNow() - c0
            _ = try! store.moveNode(id, to: p)
        }
        times.sort()
        let median = times[times.count / 2], p95 = times[times.count * 95 / 100]
        // Graphviz on the same positions.
        var dot: Drawing?
        var dotTime: Double?
        if LayoutBench.withDot && system("command -v neato >/dev/null 2>&1") == 0 {
            progress("routing \(graph) with Graphviz (neato -n2 -Gsplines=ortho)")
            let path = "/tmp/flowbench-ortho-\(getpid()).dot"
            defer { unlink(path) }
            writeDot(store, g, to: path)
            let t0 = now()
            dot = Drawing(dotFile: path, command: "neato -n2 -Gsplines=ortho")
            if dot != nil { dotTime = now() - t0 }
        }
        report.add(Metric(name: "routing.scratch", size: n, value: scratch * 1e9, unit: "ns", baseline: dotTime.map { $0 * 1e9 }))
        report.add(Metric(name: "routing.moveNode", size: n, value: median * 1e9, unit: "ns", note: nil))
        report.add(Metric(name: "routing.moveNode.p95", size: n, value: p95 * 1e9, unit: "ns"))
        report.add(Metric(name: "routing.moveNode.cpu", size: n, value: cpu / Double(moves) * 1e9, unit: "ns"))
        report.add(Metric(name: "routing.bends", size: n, value: Double(bends(ours)), unit: "", baseline: dot.map { Double(bends($0)) }))
        report.add(Metric(name: "routing.crossings", size: n, value: Double(ours.crossings), unit: "", baseline: dot.map { Double($0.crossings) }))
        report.add(Metric(name: "routing.edgeLength", size: n, value: ours.edgeLength, unit: "px", baseline: dot?.edgeLength))
        if dot == nil {
            report.add(Metric(name: "routing.graphviz", size: nil, value: nil, unit: "", note: "neato not installed or failed"))
        }
    }

    /// The routes as drawn (corners, without the rounding), from attach point to attach point.
    static func drawing(_ store: FlowStore<JSONValue>, _ g: BenchGraph) -> Drawing {
        var index: [String: Int] = [:]
        for (i, id) in g.ids.enumerated() { index[id] = i }
        let boxes = g.ids.map { store.node($0)!.frame }
        let routes = store.edges.map { e in
            DrawnCrossings.Route(source: index[e.sourceNodeID]!, target: index[e.targetNodeID]!, points: e.points)
        }
        return Drawing(ids: g.ids, boxes: boxes, routes: routes)
    }

    /// The number of corners of every route (points where the direction turns).
    static func bends(_ d: Drawing) -> Int {
        var count = 0
        for r in d.routes {
            var pts: [Point] = []
            for p in r.points where pts.last.map({ $0.distance(to: p) > 1e-6 }) ?? true { pts.append(p) }
            guard pts.count >= 3 else { continue }
            for i in 1..<(pts.count - 1) {
                let a = pts[i] - pts[i - 1], b = pts[i + 1] - pts[i]
                let cross = a.x * b.y - a.y * b.x
                if abs(cross) > 1e-6 * a.distance(to: .zero) * b.distance(to: .zero) { count += 1 }
            }
        }
        return count
    }

    /// The positioned graph for neato -n2: points, y up, boxes of the same size.
    static func writeDot(_ store: FlowStore<JSONValue>, _ g: BenchGraph, to path: String) {
        var s = "digraph G {\n  splines=ortho;\n  node [shape=box, fixedsize=true, width=1.0, height=0.5];\n"
        for id in g.ids {
            let f = store.node(id)!.frame
            s += "  \(id) [pos=\"\(f.midX),\(-f.midY)!\"];\n"
        }
        for e in g.edges { s += "  \(g.ids[e.0]) -> \(g.ids[e.1]);\n" }
        s += "}\n"
        guard let f = fopen(path, "w") else { return }
        fputs(s, f)
        fclose(f)
    }
}
