import FlowCore

/// The same operations as the Lua benchmarks, on FlowCore directly (no Lua), so the cost of
/// the binding is the difference.
enum SwiftBench {
    static func run(size n: Int, budget: Budget, into report: Report) {
        var f = Fixture(nodes: n, edges: n)
        let store = f.store
        for op in LuaBench.operations where (selectedOps?.contains(op) ?? true) && !LuaBench.listForms.contains(op) {
            let mutating = ["moveNode", "addNode", "addEdge", "removeNode"].contains(op)
            // a batch add: n items in one call, per item
            let perCall =
                LuaBench.batchOperations.contains(op)
                ? median((0..<budget.reps).map { _ in f.batch(op, n) / Double(n) })
                : perCall(budget, mutating: mutating) { k in f.batch(op, k) }
            report.add(
                Metric(
                    name: "swift.\(op)", size: n, value: perCall * 1e9, unit: "ns",
                    baseline: report.value("lua.flow.\(op)", size: n)))
        }
        withExtendedLifetime(store) {}
    }
}

/// A store of `nodes` nodes on a grid (200 × 100 apart, 150 × 60 each) and `edges` edges
/// to a right or lower neighbour (beyond `nodes` edges: diagonal ones), as LuaBenchScript
/// builds it (fixtureSource).
struct Fixture {
    let store: FlowStore<JSONValue>
    let n: Int
    let cols: Int
    let ids: [String]
    var rng = SplitMix(state: 42)
    var serial = 0
    var width: Double { Double(cols * 200) }
    var height: Double { Double((n + cols - 1) / cols * 100) }

    init(nodes n: Int, edges m: Int, undo: Bool = true) {
        self.n = n
        cols = Int(Double(n).squareRoot().rounded(.up))
        ids = (1...n).map { "n\($0)" }
        store = Fixture.build(nodes: n, edges: m, undo: undo)
    }

    /// Builds the store alone (the memory benchmark measures this): with the batch adds,
    /// or (`batch` false) one add per item, each its own undo step.
    static func build(nodes n: Int, edges m: Int, undo: Bool, batch: Bool = true) -> FlowStore<JSONValue> {
        let store = FlowStore<JSONValue>()
        store.isUndoEnabled = undo
        let cols = Int(Double(n).squareRoot().rounded(.up))
        let nodes = (0..<n).map { i in
            FlowNode(
                id: "n\(i + 1)", position: Point(Double(i % cols * 200), Double(i / cols * 100)),
                size: Size(150, 60), data: JSONValue.null)
        }
        let edges = (0..<m).map { i in
            let s = i % n
            let t = i < n ? edgeTarget(s, n, cols) : (s + cols + 1) % n
            return FlowEdge(id: "e\(i + 1)", sourceNodeID: "n\(s + 1)", targetNodeID: "n\(t + 1)")
        }
        if batch {
            try! store.addNodes(nodes)
            try! store.addEdges(edges)
        } else {
            for node in nodes { try! store.addNode(node) }
            for edge in edges { try! store.addEdge(edge) }
        }
        return store
    }

    /// `fixtureEdgeTarget` of LuaBenchScript.swift, 0-based.
    static func edgeTarget(_ i: Int, _ n: Int, _ cols: Int) -> Int {
        let right = (i + 1) % cols != 0 && i + 1 < n ? i + 1 : nil
        let down = i + cols < n ? i + cols : nil
        return (i % 2 == 0 ? right ?? down : down ?? right) ?? i - 1
    }

    private mutating func fresh(_ prefix: String, _ k: Int) -> [String] {
        (0..<k).map { _ in
            serial += 1
            return "\(prefix)\(serial)"
        }
    }

    private mutating func randomNodes(_ k: Int) -> [String] { (0..<k).map { _ in ids[rng.int(n)] } }

    private mutating func randomPoints(_ k: Int) -> [Point] {
        (0..<k).map { _ in Point(rng.unit() * width, rng.unit() * height) }
    }

    /// Makes `k` calls of `op` and returns the seconds they took (setup and cleanup untimed).
    mutating func batch(_ op: String, _ k: Int) -> Double {
        let store = self.store
        switch op {
        case "moveNode":
            let moves = (0..<k).map { _ in
                let i = rng.int(n)
                let p = Point(Double(i % cols * 200 + rng.int(41) - 20), Double(i / cols * 100 + rng.int(41) - 20))
                return (ids[i], p)
            }
            return time { for (id, p) in moves { try! store.moveNode(id, to: p) } }
        case "addNode":
            let new = fresh("a", k)
            let points = randomPoints(k)
            let dt = time {
                for (id, p) in zip(new, points) {
                    try! store.addNode(FlowNode(id: id, position: p, size: Size(150, 60), data: .null))
                }
            }
            for id in new { try! store.removeNode(id) }
            return dt
        case "addEdge":
            let new = fresh("x", k)
            let src = randomNodes(k)
            let dst = src.map { s in
                let t = ids[rng.int(n)]
                return t == s ? ids[(Int(s.dropFirst())!) % n] : t
            }
            let dt = time {
                for j in 0..<k {
                    try! store.addEdge(FlowEdge(id: new[j], sourceNodeID: src[j], targetNodeID: dst[j]))
                }
            }
            for id in new { try! store.removeEdge(id) }
            return dt
        case "addNodes":
            let nodes = zip(fresh("b", k), randomPoints(k)).map { id, p in
                FlowNode(id: id, position: p, size: Size(150, 60), data: JSONValue.null)
            }
            let dt = time { try! store.addNodes(nodes) }
            try! store.undo()
            return dt
        case "addEdges":
            let new = fresh("z", k)
            let src = randomNodes(k)
            let edges = (0..<k).map { j in
                var t = ids[rng.int(n)]
                if t == src[j] { t = ids[(Int(src[j].dropFirst())!) % n] }
                return FlowEdge(id: new[j], sourceNodeID: src[j], targetNodeID: t)
            }
            let dt = time { try! store.addEdges(edges) }
            try! store.undo()
            return dt
        case "removeNode":
            let new = fresh("r", k)
            let (a, b) = (randomNodes(k), randomNodes(k))
            let points = randomPoints(k)
            for j in 0..<k {
                try! store.addNode(FlowNode(id: new[j], position: points[j], size: Size(150, 60), data: .null))
                try! store.addEdge(FlowEdge(id: "y\(new[j])", sourceNodeID: new[j], targetNodeID: a[j]))
                try! store.addEdge(FlowEdge(id: "z\(new[j])", sourceNodeID: b[j], targetNodeID: new[j]))
            }
            return time { for id in new { try! store.removeNode(id) } }
        case "hitTest":
            let points = randomPoints(k)
            return time { for p in points { consume(store.hitTest(at: p)) } }
        case "nodeBounds":
            return time { for _ in 0..<k { consume(store.nodeBounds()) } }
        case "fitToContent":
            return time { for _ in 0..<k { consume(try! store.fitToContent(canvasSize: Size(1280, 800))) } }
        case "export":
            return time { for _ in 0..<k { consume(try! store.export()) } }
        case "selectInRect":
            let points = randomPoints(k)
            return time {
                for p in points { consume(try! store.selectInRect(Rect(origin: p, size: Size(800, 600)))) }
            }
        default:
            fatalError("flowbench: unknown operation \(op)")  // invariant: ops come from LuaBench.operations
        }
    }
}

/// Keeps a result alive so the optimizer cannot drop the call that made it.
@inline(never) func consume<T>(_ value: T) { withExtendedLifetime(value) {} }
