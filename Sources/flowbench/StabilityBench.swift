@preconcurrency import Glibc
import FlowCore
import FlowFormats
import FlowLayout
import TestSupport

/// The stability section (`--only stability`, issue #41): seeded sequences of 100 edits
/// (add a node with one or two edges, delete a node, add an edge between two nodes, put two
/// or three neighbours in a new group) on dag_200, layered_200 and two diagrams of
/// scripts/diagrams, each edit followed by a stable layout (`stable = true`) of one store
/// and a fresh layout of a copy. After every edit, over the nodes present before and
/// after that the edit did not touch: the share that moved less than one node spacing
/// (a node's breadth plus the spacing between neighbours), the mean move in spacings, the
/// share of pairs in one layer before and after whose left-right order flipped; the
/// drawn crossings (`DrawnCrossings`, routes from handle to handle), the crossings of the
/// layers' order (`LayoutStats.crossings`, which tell the order's part in them from the
/// routes') and the time, summed
/// over the edits. The fresh layout is the baseline of every number. Then the time on
/// dag_1000 and layered_1000 (20 edits). With `FLOWBENCH_STABILITY_TRACE` set, each stable
/// layout's moves are printed too (`StabilityTrace`).
enum StabilityBench {
    static let edits = 100
    static let largeEdits = 20

    static func run(into report: Report) {
        let dir = LayoutBench.directory
        func wanted(_ name: String) -> Bool { LayoutBench.selected?.contains(name) ?? true }
        for name in ["dag_200", "layered_200"] where wanted(name) {
            guard let g = BenchGraph(path: "\(dir)/\(name).json") else { continue }
            progress("stability \(name)")
            measure(name: name, size: 200, make: { benchStore(g) }, options: LayoutBench.options, edits: edits, into: report)
        }
        for name in ["microservices", "packages"] where wanted(name) {
            guard let text = readText("\(DiagramBench.directory)/\(name).dot"),
                let imported = try? DOTReader.read(text)
            else { continue }
            progress("stability \(name)")
            var options = LayoutOptions()
            options.direction = imported.direction
            measure(
                name: name, size: nil, make: {
                    let s = FlowStore<JSONValue>()
                    _ = try! s.load(text, format: .dot)
                    return s
                }, options: options, edits: edits, into: report)
        }
        for name in ["dag_1000", "layered_1000"] where wanted(name) {
            guard let g = BenchGraph(path: "\(dir)/\(name).json") else { continue }
            progress("stability \(name)")
            measure(name: name, size: 1000, make: { benchStore(g) }, options: LayoutBench.options, edits: largeEdits, into: report)
        }
    }

    static func benchStore(_ g: BenchGraph) -> FlowStore<JSONValue> {
        let s = FlowStore<JSONValue>()
        s.checksInvariants = false
        for id in g.ids { _ = try! s.addNode(FlowNode(id: id, position: .zero, size: Size(72, 36), data: .null)) }
        for (i, e) in g.edges.enumerated() {
            _ = try! s.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: g.ids[e.0], targetNodeID: g.ids[e.1], pathType: .straight))
        }
        return s
    }

    /// Sums over one sequence, for one of the two layouts.
    struct Tally {
        var still = 0, untouched = 0
        var displacement = 0.0
        var flips = 0, pairs = 0
        var crossings = 0
        /// The crossings of the layers' order (`LayoutStats.crossings`), before routing.
        var orderCrossings = 0
        var time = 0.0
    }

    static func measure(
        name: String, size: Int?, make: () -> FlowStore<JSONValue>, options: LayoutOptions, edits: Int,
        into report: Report
    ) {
        let stable = make(), fresh = make()
        stable.checksInvariants = false
        fresh.checksInvariants = false
        var stableOptions = options
        stableOptions.stable = true
        _ = try! stable.layout(LayoutRequest(options: options))
        _ = try! fresh.layout(LayoutRequest(options: options))
        var random = SplitMix64(seed: 41)
        var s = Tally(), f = Tally()
        let tracing = getenv("FLOWBENCH_STABILITY_TRACE") != nil
        var added = 0
        for _ in 0..<edits {
            let before = (stable: snapshot(stable), fresh: snapshot(fresh))
            let touched = edit(stable, fresh, &random, &added)
            let t0 = now()
            let stableStats = try! stable.layout(LayoutRequest(options: stableOptions))
            let t1 = now()
            let freshStats = try! fresh.layout(LayoutRequest(options: options))
            let t2 = now()
            s.orderCrossings += stableStats.crossings
            f.orderCrossings += freshStats.crossings
            s.time += t1 - t0
            f.time += t2 - t1
            let after = snapshot(stable)
            if tracing { StabilityTrace.edit(before.stable, after, touched: touched, options: options) }
            compare(before.stable, after, touched: touched, options: options, into: &s)
            compare(before.fresh, snapshot(fresh), touched: touched, options: options, into: &f)
            s.crossings += crossings(stable)
            f.crossings += crossings(fresh)
        }
        func share(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }
        let p = "stability.\(name)"
        report.add(Metric(name: "\(p).still", size: size, value: share(s.still, s.untouched), unit: "", baseline: share(f.still, f.untouched)))
        report.add(Metric(
            name: "\(p).displacement", size: size, value: s.untouched == 0 ? 0 : s.displacement / Double(s.untouched), unit: "sp",
            baseline: f.untouched == 0 ? 0 : f.displacement / Double(f.untouched)))
        report.add(Metric(name: "\(p).flips", size: size, value: share(s.flips, s.pairs), unit: "", baseline: share(f.flips, f.pairs)))
        report.add(Metric(name: "\(p).crossings", size: size, value: Double(s.crossings), unit: "", baseline: Double(f.crossings)))
        report.add(Metric(
            name: "\(p).ordercrossings", size: size, value: Double(s.orderCrossings), unit: "", baseline: Double(f.orderCrossings)))
        report.add(Metric(name: "\(p).time", size: size, value: s.time / Double(edits) * 1e9, unit: "ns", baseline: f.time / Double(edits) * 1e9))
    }

    struct Snapshot {
        var frames: [String: Rect]
        var parent: [String: String]
    }

    static func snapshot(_ s: FlowStore<JSONValue>) -> Snapshot {
        var frames: [String: Rect] = [:], parent: [String: String] = [:]
        for n in s.nodes {
            frames[n.id] = n.frame
            if let p = n.parentID { parent[n.id] = p }
        }
        return Snapshot(frames: frames, parent: parent)
    }

    /// Adds the moves and flips of the nodes the edit did not touch (groups left out).
    static func compare(_ a: Snapshot, _ b: Snapshot, touched: Set<String>, options: LayoutOptions, into t: inout Tally) {
        let horizontal = options.direction.isHorizontal
        var ids: [String] = []
        for (id, fa) in a.frames where !touched.contains(id) {
            guard let fb = b.frames[id], a.parent[id] == b.parent[id] else { continue }
            if a.parent.values.contains(id) || b.parent.values.contains(id) { continue }
            ids.append(id)
            let spacing = (horizontal ? fa.size.height : fa.size.width) + options.nodeSpacing
            let ca = Point(fa.origin.x + fa.size.width / 2, fa.origin.y + fa.size.height / 2)
            let cb = Point(fb.origin.x + fb.size.width / 2, fb.origin.y + fb.size.height / 2)
            let d = ca.distance(to: cb) / spacing
            t.untouched += 1
            if d < 1 { t.still += 1 }
            t.displacement += d
        }
        ids.sort()
        // pairs in one layer (centre across the layers within a pixel, one container), before and after
        func across(_ f: Rect) -> Double { horizontal ? f.origin.x + f.size.width / 2 : f.origin.y + f.size.height / 2 }
        func along(_ f: Rect) -> Double { horizontal ? f.origin.y + f.size.height / 2 : f.origin.x + f.size.width / 2 }
        var rows: [String: [String]] = [:]
        for id in ids { rows["\(a.parent[id] ?? "")|\(Int(across(a.frames[id]!).rounded()))", default: []].append(id) }
        for (_, row) in rows where row.count > 1 {
            for i in 0..<row.count {
                for j in (i + 1)..<row.count {
                    let u = row[i], v = row[j]
                    guard abs(across(b.frames[u]!) - across(b.frames[v]!)) < 1 else { continue }
                    t.pairs += 1
                    if (along(a.frames[u]!) < along(a.frames[v]!)) != (along(b.frames[u]!) < along(b.frames[v]!)) { t.flips += 1 }
                }
            }
        }
    }

    /// The drawn crossings: every edge from its source's handle through its points to its
    /// target's handle.
    static func crossings(_ s: FlowStore<JSONValue>) -> Int {
        var index: [String: Int] = [:]
        let nodes = s.nodes
        for (i, n) in nodes.enumerated() { index[n.id] = i }
        var routes: [DrawnCrossings.Route] = []
        for e in s.edges where e.sourceNodeID != e.targetNodeID {
            guard let g = try? s.edgeGeometry(e.id) else { continue }
            routes.append(.init(
                source: index[e.sourceNodeID]!, target: index[e.targetNodeID]!,
                points: [g.sourcePoint] + e.points + [g.targetPoint]))
        }
        return DrawnCrossings.count(routes: routes, boxes: nodes.map(\.frame))
    }

    /// One seeded edit, made the same in both stores; returns the ids it touched.
    static func edit(_ a: FlowStore<JSONValue>, _ b: FlowStore<JSONValue>, _ r: inout SplitMix64, _ added: inout Int) -> Set<String> {
        let leaves = a.nodes.filter { n in !n.acceptsChildren }.map(\.id)
        func pick() -> String { r.pick(leaves) }
        let kind = r.below(8)
        var touched = Set<String>()
        func both(_ body: (FlowStore<JSONValue>) throws -> Void) {
            try! body(a)
            try! body(b)
        }
        switch kind {
        case 0, 1, 2:
            // a node with one or two edges
            added += 1
            let id = "new\(added)"
            let from = pick(), parent = a.node(from)?.parentID
            both { s in
                _ = try s.addNode(FlowNode(id: id, position: .zero, size: Size(72, 36), data: .null, parentID: parent))
                _ = try s.addEdge(FlowEdge(id: "\(id)-in", sourceNodeID: from, targetNodeID: id, pathType: .straight))
            }
            touched = [id, from]
            if r.below(2) == 0 {
                let to = pick()
                if to != from && to != id {
                    both { s in _ = try s.addEdge(FlowEdge(id: "\(id)-out", sourceNodeID: id, targetNodeID: to, pathType: .straight)) }
                    touched.insert(to)
                }
            }
        case 3, 4:
            // delete a node (its edges go too)
            let id = pick()
            guard leaves.count > 20 else { return [] }
            for e in a.edges where e.sourceNodeID == id || e.targetNodeID == id {
                touched.insert(e.sourceNodeID)
                touched.insert(e.targetNodeID)
            }
            both { s in try s.removeNode(id) }
            touched.insert(id)
        case 5, 6:
            // an edge between two nodes
            let u = pick(), v = pick()
            guard u != v, !a.edges.contains(where: { $0.sourceNodeID == u && $0.targetNodeID == v }) else { return [] }
            added += 1
            both { s in _ = try s.addEdge(FlowEdge(id: "link\(added)", sourceNodeID: u, targetNodeID: v, pathType: .straight)) }
            touched = [u, v]
        default:
            // two or three neighbours (one container) into a new group
            let u = pick()
            let parent = a.node(u)?.parentID
            var members = [u]
            for e in a.edges where e.sourceNodeID == u && members.count < 3 {
                if a.node(e.targetNodeID)?.parentID == parent && !(a.node(e.targetNodeID)?.acceptsChildren ?? true) {
                    if !members.contains(e.targetNodeID) { members.append(e.targetNodeID) }
                }
            }
            guard members.count > 1 else { return [] }
            added += 1
            let g = "group\(added)"
            both { s in
                _ = try s.addNode(FlowNode(
                    id: g, position: .zero, size: Size(100, 100), data: .null, parentID: parent, acceptsChildren: true))
                for m in members { _ = try s.setParent(m, to: g) }
            }
            touched = Set(members + [g])
        }
        return touched
    }
}
