import FlowCore
import TestSupport
@testable import FlowRouting
import Testing

typealias Store = FlowStore<JSONValue>

/// A random diagram with a router: nodes of random sizes and positions (they may overlap),
/// groups around some of them, and orthogonal edges between random handles (default ones,
/// `auto`, the centre, declared side handles), with multi-edges and self-loops.
func randomRoutedStore(seed: UInt64, nodes n: Int, spread: Double = 900) throws -> Store {
    var r = SplitMix64(seed: seed)
    let store = Store()
    store.edgeRouter = OrthogonalRouter()
    var ids: [String] = []
    let sides: [HandleDeclaration] = [
        HandleDeclaration(id: "in", type: .target, position: .left),
        HandleDeclaration(id: "out", type: .source, position: .right),
        HandleDeclaration(id: "top", type: .target, position: .top),
        HandleDeclaration(id: "bottom", type: .source, position: .bottom),
    ]
    for i in 0..<n {
        let id = "n\(i)"
        let declared = r.chance(30)
        try store.addNode(FlowNode(
            id: id, position: Point(r.uniform(0, spread), r.uniform(0, spread * 0.7)),
            size: Size(r.uniform(20, 160), r.uniform(20, 80)), data: .null,
            handles: declared ? sides : HandleDeclaration.defaults))
        ids.append(id)
    }
    // Groups around a few nodes (a frame that holds them with room to spare).
    for g in 0..<(n / 8) {
        let inner = store.node(r.pick(ids))!.frame
        let id = "g\(g)"
        try store.addNode(FlowNode(
            id: id, position: Point(inner.minX - 30, inner.minY - 40),
            size: Size(inner.width + 60, inner.height + 70), data: .null, acceptsChildren: true))
        ids.append(id)
    }
    let m = n + r.below(n + 1)
    for k in 0..<m {
        let a = r.pick(ids), b = r.chance(6) ? a : r.pick(ids)
        func handle(_ id: String, source: Bool) -> String? {
            let declared = store.node(id)!.handles != HandleDeclaration.defaults
            switch r.below(4) {
            case 0: return nil
            case 1: return declared ? (source ? "bottom" : "top") : "auto"
            default: return declared ? (source ? "out" : "in") : (source ? "source" : "target")
            }
        }
        try store.addEdge(FlowEdge(
            id: "e\(k)", sourceNodeID: a, sourceHandleID: handle(a, source: true), targetNodeID: b,
            targetHandleID: handle(b, source: false), pathType: .orthogonal))
        // Sometimes a second edge between the same handles.
        if r.chance(15) {
            let e = store.edge("e\(k)")!
            try store.addEdge(FlowEdge(
                id: "e\(k)b", sourceNodeID: a, sourceHandleID: e.sourceHandleID, targetNodeID: b,
                targetHandleID: e.targetHandleID, pathType: .orthogonal))
        }
    }
    return store
}

/// Whether a frame holds another (and is not it): a group around an end.
func holds(_ f: Rect, _ inner: Rect) -> Bool {
    f != inner && f.minX <= inner.minX && f.maxX >= inner.maxX && f.minY <= inner.minY && f.maxY >= inner.maxY
}

func interior(_ f: Rect, _ p: Point) -> Bool {
    p.x > f.minX && p.x < f.maxX && p.y > f.minY && p.y < f.maxY
}

/// The problems of the routes of `store`'s orthogonal edges (empty when every promise holds).
func routeProblems(_ store: Store) -> [String] {
    var problems: [String] = []
    let nodes = store.nodes
    for e in store.edges where e.pathType == .orthogonal && !e.points.isEmpty {
        let p = e.points
        let s = store.node(e.sourceNodeID)!.frame, t = store.node(e.targetNodeID)!.frame
        guard p.count >= 2 else {
            problems.append("\(e.id): \(p.count) point")
            continue
        }
        for i in 0..<(p.count - 1) where p[i].x != p[i + 1].x && p[i].y != p[i + 1].y {
            problems.append("\(e.id): segment \(i) \(p[i])–\(p[i + 1]) is not axis-parallel")
        }
        if EdgeEnds.side(of: p[0], on: s) == nil { problems.append("\(e.id): starts off its source \(p[0])") }
        if EdgeEnds.side(of: p[p.count - 1], on: t) == nil { problems.append("\(e.id): ends off its target \(p[p.count - 1])") }
        // The drawn path starts and ends where the route does.
        if let g = try? store.edgeGeometry(e.id), g.sourcePoint != p[0] || g.targetPoint != p[p.count - 1] {
            problems.append("\(e.id): geometry does not attach at the route's ends")
        }
        for n in nodes {
            let f = n.frame
            if holds(f, s) || holds(f, t) || interior(f, p[0]) || interior(f, p[p.count - 1]) { continue }
            for i in 0..<(p.count - 1) {
                let a = p[i], b = p[i + 1]
                let crosses =
                    a.y == b.y
                    ? a.y > f.minY && a.y < f.maxY && max(min(a.x, b.x), f.minX) < min(max(a.x, b.x), f.maxX)
                    : a.x > f.minX && a.x < f.maxX && max(min(a.y, b.y), f.minY) < min(max(a.y, b.y), f.maxY)
                if crosses { problems.append("\(e.id): segment \(i) \(a)–\(b) crosses node \(n.id) \(f)") }
            }
        }
    }
    return problems
}

/// The routes a store gets from routing everything afresh, on a copy.
func routedFromScratch(_ store: Store) throws -> [String: [Point]] {
    let copy = Store(configuration: store.configuration)
    try copy.load(json: try store.export())
    copy.edgeRouter = OrthogonalRouter()
    try copy.routeEdges()
    var out: [String: [Point]] = [:]
    for e in copy.edges where e.pathType == .orthogonal { out[e.id] = e.points }
    return out
}

func routes(_ store: Store) -> [String: [Point]] {
    var out: [String: [Point]] = [:]
    for e in store.edges where e.pathType == .orthogonal { out[e.id] = e.points }
    return out
}

/// The routes a router would give the store's edges from the ideal routes it holds, with
/// every group of segments spread afresh.
func nudgedAfresh(_ router: OrthogonalRouter, _ store: Store) -> [String: [Point]] {
    let fresh = OrthogonalRouter(options: router.options)
    store.forEachNodeFrame { fresh.obstacles.insert($0) }
    for (id, st) in router.states {
        let copy = EdgeState(id: id, edge: st.edge)
        copy.setIdeal(st.ideal, margin: st.margin)
        fresh.states[id] = copy
        fresh.lines.add(copy)
    }
    fresh.lines.recomputeAll(fresh, store)
    return fresh.states.mapValues { fresh.finalPoints($0, store) }
}

/// One random change of a diagram: a move, a resize, a new node, a removal or a new edge.
func randomChange(_ store: Store, _ r: inout SplitMix64, step: Int) throws -> (kind: String, node: String?) {
    let ids = store.nodes.map(\.id)
    switch r.below(6) {
    case 0, 1:
        let id = r.pick(ids)
        let p = store.node(id)!.position
        try store.moveNode(id, to: Point(p.x + r.uniform(-200, 200), p.y + r.uniform(-150, 150)))
        return ("move", id)
    case 2:
        let id = r.pick(ids)
        try store.updateNodeSize(id, to: Size(r.uniform(20, 200), r.uniform(20, 100)))
        return ("resize", id)
    case 3:
        try store.addNode(FlowNode(
            id: "x\(step)", position: Point(r.uniform(0, 900), r.uniform(0, 600)),
            size: Size(r.uniform(20, 160), r.uniform(20, 80)), data: .null))
        return ("add", "x\(step)")
    case 4:
        guard ids.count > 3 else { return ("none", nil) }
        try store.removeNode(r.pick(ids))
        return ("remove", nil)
    default:
        let a = r.pick(ids), b = r.pick(ids)
        try store.addEdge(FlowEdge(id: "y\(step)", sourceNodeID: a, targetNodeID: b, pathType: .orthogonal))
        return ("edge", nil)
    }
}

@Suite struct RoutingPropertyTests {
    @Test(arguments: 0..<30)
    func routesAvoidNodesAndAreConnected(seed: Int) throws {
        let store = try randomRoutedStore(seed: UInt64(seed), nodes: 4 + seed)
        try store.routeEdges()
        let problems = routeProblems(store)
        #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
        #expect(store.checkInvariants().isEmpty)
    }

    /// Random changes, each followed by checks of the live-routing guarantee: every route
    /// stays valid; the edges of a changed node get the route routing from scratch gives
    /// them; the spreading of shared corridors is the one of spreading everything afresh;
    /// undo and redo restore the routes byte for byte.
    @Test(arguments: 0..<30)
    func liveRoutingKeepsItsPromises(seed: Int) throws {
        var r = SplitMix64(seed: UInt64(1000 + seed))
        let store = try randomRoutedStore(seed: UInt64(seed), nodes: 6 + seed / 2)
        try store.routeEdges()
        let router = store.edgeRouter as! OrthogonalRouter
        for step in 0..<12 {
            let before = try store.export()
            let change = try randomChange(store, &r, step: step)
            let where_ = "seed \(seed) step \(step) (\(change.kind))"
            #expect(routeProblems(store).isEmpty, "\(where_): \(routeProblems(store).prefix(3))")
            // Routes of the changed node's edges are routes from scratch.
            if let id = change.node, store.node(id) != nil {
                let scratch = OrthogonalRouter(options: router.options)
                store.forEachNodeFrame { scratch.obstacles.insert($0) }
                for e in try store.edgesForNode(id) where e.pathType == .orthogonal {
                    guard let edge = store.routingEdge(e.id) else { continue }
                    let (ideal, _) = scratch.computeIdeal(edge, store)
                    #expect(router.states[e.id]?.ideal == ideal, "\(where_): edge \(e.id)")
                }
            }
            // Spreading is incremental: the routes the router holds are the ones of spreading
            // its ideal routes afresh.
            let afresh = nudgedAfresh(router, store)
            for (id, st) in router.states where afresh[id] != router.finalPoints(st, store) {
                Issue.record("\(where_): edge \(id) has \(router.finalPoints(st, store)), spread afresh \(afresh[id] ?? [])")
            }
            // Undo restores the document, routes included, byte for byte; redo comes back.
            let after = try store.export()
            if try store.undo() {
                #expect(try store.export() == before, "\(where_): undo")
                try store.redo()
                #expect(try store.export() == after, "\(where_): redo")
            }
        }
        // Routing everything again gives what routing a copy from scratch gives.
        try store.routeEdges()
        let live = routes(store), scratch = try routedFromScratch(store)
        #expect(live == scratch, "seed \(seed): route() after changes differs from a copy routed from scratch")
    }
}
