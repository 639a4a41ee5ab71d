import TestSupport
import FlowCore
import FlowLayout
import Testing

/// An edge's whole route as it is drawn: where it leaves its source (its handle, or a port
/// on the source's outline), its bend points, where it enters its target, and the sides it
/// leaves and enters by.
private func route(_ store: Store, _ e: FlowEdge) -> (points: [Point], from: HandlePosition, to: HandlePosition) {
    let g = try! store.edgeGeometry(e.id)
    // an edge without handle ids is drawn from its node's centre: take the node's handle
    let a = store.node(e.sourceNodeID)!, b = store.node(e.targetNodeID)!
    let hs = a.handles.first { $0.id == e.sourceHandleID } ?? a.handles.first { $0.type == .source }!
    let ht = b.handles.first { $0.id == e.targetHandleID } ?? b.handles.first { $0.type == .target }!
    let (s, from) = g.sourcePosition == .center ? (hs.position.point(in: a.frame), hs.position) : (g.sourcePoint, g.sourcePosition)
    let (t, to) = g.targetPosition == .center ? (ht.position.point(in: b.frame), ht.position) : (g.targetPoint, g.targetPosition)
    return ([s] + g.points + [t], from, to)
}

/// An edge's bend points: its points without the ends a layout's ports attach it at.
private func bends(_ store: Store, _ id: String) -> [Point] { try! store.edgeGeometry(id).points }

/// Whether the run p–q passes through the inside of `box` (touching its border does not count).
private func passes(_ p: Point, _ q: Point, _ box: Rect) -> Bool {
    // sampled: runs are short next to the boxes, and the step is a fraction of a pixel
    let n = max(1, Int(p.distance(to: q) * 4))
    let inside = box.insetBy(dx: 0.5, dy: 0.5)
    return (0...n).contains { k in inside.contains(p + (q - p) * (Double(k) / Double(n))) }
}

/// Whether node `g` is node `v` or holds it.
private func holds(_ store: Store, _ g: String, _ v: String) -> Bool {
    var p: String? = v
    while let id = p {
        if id == g { return true }
        p = store.node(id)?.parentID
    }
    return false
}

/// Length the axis-parallel runs p–q and r–s share.
private func shared(_ p: Point, _ q: Point, _ r: Point, _ s: Point) -> Double {
    if p.y == q.y && r.y == s.y && p.y == r.y {
        return max(0, min(max(p.x, q.x), max(r.x, s.x)) - max(min(p.x, q.x), min(r.x, s.x)))
    }
    if p.x == q.x && r.x == s.x && p.x == r.x {
        return max(0, min(max(p.y, q.y), max(r.y, s.y)) - max(min(p.y, q.y), min(r.y, s.y)))
    }
    return 0
}

/// The flow of the layout goldens: a long edge, a labelled edge, a cycle (fix → check is
/// drawn against the flow) and a self-loop on review.
private func goldenFlow(_ type: EdgePathType) throws -> Store {
    let store = Store()
    for id in ["start", "check", "fix", "review", "merge", "done"] {
        try store.addNode(FlowNode(id: id, position: .zero, size: Size(100, 40), data: .null))
    }
    let pairs = [
        ("start", "check"), ("check", "fix"), ("fix", "check"), ("check", "review"),
        ("review", "merge"), ("start", "merge"), ("merge", "done"), ("review", "review"),
    ]
    for (i, (s, t)) in pairs.enumerated() {
        try store.addEdge(FlowEdge(
            id: "e\(i + 1)", sourceNodeID: s, targetNodeID: t, pathType: type, label: i == 1 ? "fails" : nil))
    }
    return store
}

/// Checks what every back edge and self-loop of a laid-out store promises: out of its source
/// the way the side it leaves by faces and into its target the way that side faces, at
/// most four bends, in axis-parallel runs for the orthogonal path types, and no run through
/// any node. Returns the ids of the edges checked.
@discardableResult
private func checkBackRoutes(_ store: Store, _ direction: LayoutDirection, _ context: String) -> [String] {
    var checked: [String] = []
    let flow: Point = switch direction {
    case .TB: Point(0, 1)
    case .BT: Point(0, -1)
    case .LR: Point(1, 0)
    case .RL: Point(-1, 0)
    }
    for e in store.edges {
        let (r, from, to) = route(store, e)
        let back = (r[r.count - 1] - r[0]).x * flow.x + (r[r.count - 1] - r[0]).y * flow.y < 0
        guard e.sourceNodeID == e.targetNodeID || back else { continue }
        checked.append(e.id)
        let name = "\(context) \(e.id) \(r)"
        // a curved back edge between two nodes follows the layers it spans, a point where it
        // passes each, as a long edge does; the runs beside the nodes and the loops turn at
        // most four times
        if e.sourceNodeID == e.targetNodeID || e.pathType == .smoothStep || e.pathType == .orthogonal {
            #expect(bends(store, e.id).count <= 4, "too many bends: \(name)")
        }
        let out = r[1] - r[0], into = r[r.count - 1] - r[r.count - 2]
        #expect(out.x * from.direction.x + out.y * from.direction.y > 0, "does not leave along its handle: \(name)")
        #expect(into.x * to.direction.x + into.y * to.direction.y < 0, "does not enter along its handle: \(name)")
        if e.pathType == .smoothStep {
            // the path runs 20 out of a handle before it turns: no shorter first run
            #expect(r[0].distance(to: r[1]) >= 20 && r[r.count - 2].distance(to: r[r.count - 1]) >= 20, "short end run: \(name)")
        }
        for i in 1..<r.count {
            if e.pathType == .smoothStep || e.pathType == .orthogonal {
                #expect(r[i - 1].x == r[i].x || r[i - 1].y == r[i].y, "diagonal run: \(name)")
            }
            for n in store.nodes where !holds(store, n.id, e.sourceNodeID) && !holds(store, n.id, e.targetNodeID)
                && passes(r[i - 1], r[i], n.frame) {
                #expect(Bool(false), "run \(i) passes through \(n.id): \(name)")
            }
        }
    }
    return checked
}

@Suite struct BackRouteTests {
    @Test(arguments: LayoutDirection.allCases)
    func theGoldenFlowsBackEdgeAndLoop(_ direction: LayoutDirection) throws {
        for type in [EdgePathType.smoothStep, .orthogonal, .straight, .bezier] {
            let store = try goldenFlow(type)
            try store.layout(LayoutRequest(options: LayoutOptions(direction: direction, nodeSpacing: 30, layerSpacing: 40)))
            #expect(checkBackRoutes(store, direction, "\(direction) \(type)") == ["e3", "e8"])
            guard type == .smoothStep || type == .orthogonal else { continue }
            // the back edge and the loop share no run with another edge, but where two
            // leave or enter one handle
            let routes = store.edges.map { route(store, $0).points }
            for i in [2, 7] {
                let r = routes[i]
                for (j, o) in routes.enumerated() where j != i {
                    for k in 1..<r.count {
                        for m in 1..<o.count {
                            let length = shared(r[k - 1], r[k], o[m - 1], o[m])
                            let atHandle = (k == 1 && m == 1 && r[0] == o[0])
                                || (k == r.count - 1 && m == o.count - 1 && r[k] == o[m])
                            #expect(length == 0 || atHandle, "\(direction) \(type) e\(i + 1) shares \(length) with e\(j + 1)")
                        }
                    }
                }
            }
        }
    }

    @Test func theRoutesAreTheSameEveryTime() throws {
        for direction in LayoutDirection.allCases {
            let a = try goldenFlow(.smoothStep), b = try goldenFlow(.smoothStep)
            let options = LayoutOptions(direction: direction)
            try a.layout(LayoutRequest(options: options))
            try b.layout(LayoutRequest(options: options))
            try a.layout(LayoutRequest(options: options))
            #expect(a.edges.map(\.points) == b.edges.map(\.points))
        }
    }

    /// Two back edges over the same layers take two lanes, not one.
    @Test func backEdgesOverTheSameLayersKeepApart() throws {
        let store = Store()
        for id in ["a", "b", "c", "d"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(80, 40), data: .null))
        }
        for (i, (s, t)) in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("c", "a")].enumerated() {
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: s, targetNodeID: t, pathType: .smoothStep))
        }
        let stats = try store.layout()
        #expect(stats.reversedEdges == 2)
        #expect(checkBackRoutes(store, .TB, "two back edges").count == 2)
        let back = store.edges.filter { bends(store, $0.id).count == 4 }.map { route(store, $0).points }
        #expect(back.count == 2)
        for k in 1..<back[0].count {
            for m in 1..<back[1].count {
                let length = shared(back[0][k - 1], back[0][k], back[1][m - 1], back[1][m])
                let atHandle = k == back[0].count - 1 && m == back[1].count - 1
                #expect(length == 0 || atHandle, "the back edges share \(length)")
            }
        }
    }

    /// A back edge inside a group takes a lane inside it, and turns within reach of it
    /// (the group's padding is narrower than the path's first run).
    @Test func aBackEdgeInAGroupStaysInIt() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "g", position: .zero, size: Size(10, 10), data: .null, acceptsChildren: true))
        for id in ["x", "y", "z"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(60, 30), data: .null, parentID: "g"))
        }
        try store.addNode(FlowNode(id: "out", position: .zero, size: Size(60, 30), data: .null))
        for (i, (s, t)) in [("x", "y"), ("y", "z"), ("z", "x"), ("out", "g")].enumerated() {
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: s, targetNodeID: t, pathType: .smoothStep))
        }
        try store.layout()
        #expect(checkBackRoutes(store, .TB, "group") == ["e2"])
        let g = store.node("g")!.frame
        let points = bends(store, "e2")
        #expect(points.count == 4)
        for p in points { #expect(g.insetBy(dx: -0.5, dy: -0.5).contains(p), "\(p) outside \(g)") }
    }

    /// Back edges between groups (an architecture whose storage calls back): each is drawn
    /// against the flow as a whole, out of its source's handle, round the groups in one
    /// lane and into its target from above, and the groups it leaves get no border layer
    /// for it (storage is as tall as without the back edges). Its lane runs outside the
    /// groups it leaves or enters, not inside along their borders.
    @Test(arguments: [EdgePathType.smoothStep, .bezier])
    func backEdgesBetweenGroups(_ type: EdgePathType) throws {
        func diagram(backEdges: Bool) throws -> Store {
            let store = Store()
            let nodes: [(String, String?)] = [
                ("api", nil), ("backend", nil), ("auth", "backend"), ("orders", "backend"), ("storage", nil),
                ("db", "storage"), ("cache", "storage"),
            ]
            let groups = Set(nodes.compactMap(\.1))
            for (id, parent) in nodes {
                try store.addNode(FlowNode(
                    id: id, position: .zero, size: groups.contains(id) ? Size(10, 10) : Size(100, 40), data: .null,
                    parentID: parent, acceptsChildren: groups.contains(id)))
            }
            var pairs = [("api", "auth"), ("api", "orders"), ("orders", "db"), ("orders", "cache"), ("auth", "db")]
            if backEdges { pairs += [("cache", "orders"), ("db", "api")] }
            for (i, (s, t)) in pairs.enumerated() {
                try store.addEdge(FlowEdge(id: "e\(i + 1)", sourceNodeID: s, targetNodeID: t, pathType: type))
            }
            let stats = try store.layout(LayoutRequest(options: LayoutOptions(nodeSpacing: 30, layerSpacing: 40)))
            #expect(stats.reversedEdges == (backEdges ? 2 : 0))
            return store
        }
        let store = try diagram(backEdges: true)
        #expect(checkBackRoutes(store, .TB, "groups \(type)") == ["e6", "e7"])
        #expect(store.node("storage")!.size == (try diagram(backEdges: false)).node("storage")!.size)
        // the lanes (the run up the side) keep out of storage, which each edge leaves
        let storage = store.node("storage")!.frame
        for id in ["e6", "e7"] {
            let p = bends(store, id)
            #expect(p.count == 4, "\(id): \(p)")
            if p.count == 4 {
                #expect(p[1].x == p[2].x && (p[1].x < storage.minX || p[1].x > storage.maxX), "\(id): \(p) in \(storage)")
            }
        }
    }

    /// A decision whose "no" handle, on its side, goes back to an earlier step: the edge
    /// runs straight out of the side to a lane on that side, along it and into the step from
    /// above, three bends; and its "yes", on the other side, turns no sooner than its path's
    /// own run out of the handle (20 for smoothStep), so it does not double back.
    @Test(arguments: LayoutDirection.allCases)
    func aSideHandleGoesBackBesideTheNodes(_ direction: LayoutDirection) throws {
        // the sides: along the flow in and out, across it yes (towards the end) and no
        let (inside, out, yes, no): (HandlePosition, HandlePosition, HandlePosition, HandlePosition) = switch direction {
        case .TB: (.top, .bottom, .right, .left)
        case .BT: (.bottom, .top, .right, .left)
        case .LR: (.left, .right, .bottom, .top)
        case .RL: (.right, .left, .bottom, .top)
        }
        for type in [EdgePathType.smoothStep, .orthogonal, .straight, .bezier] {
            let store = Store()
            let step = [HandleDeclaration(id: "in", type: .target, position: inside), HandleDeclaration(id: "out", type: .source, position: out)]
            let decision = [
                HandleDeclaration(id: "in", type: .target, position: inside), HandleDeclaration(id: "yes", type: .source, position: yes),
                HandleDeclaration(id: "no", type: .source, position: no),
            ]
            for id in ["start", "input", "check", "save", "done"] {
                try store.addNode(FlowNode(
                    id: id, position: .zero, size: Size(120, 40), data: .null, handles: id == "check" ? decision : step))
            }
            for (id, a, h, b, label) in [
                ("e1", "start", "out", "input", nil), ("e2", "input", "out", "check", nil), ("e3", "check", "yes", "save", "yes"),
                ("e4", "check", "no", "input", "no"), ("e5", "save", "out", "done", nil),
            ] as [(String, String, String, String, String?)] {
                try store.addEdge(FlowEdge(
                    id: id, sourceNodeID: a, sourceHandleID: h, targetNodeID: b, targetHandleID: "in", pathType: type, label: label))
            }
            try store.layout(LayoutRequest(options: LayoutOptions(direction: direction)))
            let context = "\(direction) \(type)"
            #expect(checkBackRoutes(store, direction, context) == ["e4"], "\(context)")
            #expect(store.edge("e4")!.points.count == 3, "\(context): \(store.edge("e4")!.points)")
            let (r, from, _) = route(store, store.edge("e3")!)
            let run = (r[1] - r[0]).x * from.direction.x + (r[1] - r[0]).y * from.direction.y
            #expect(run >= (type == .smoothStep ? 20 : 0), "\(context): yes turns \(run) out of its handle: \(r)")
        }
    }

    /// A labelled back edge gets no layer for its label (its route runs beside the nodes and
    /// the label goes along it): two steps with a labelled edge back keep two layers, as
    /// without the label, and the layered layout gives the label no place of its own. A
    /// labelled edge with the flow still gets its layer.
    @Test func aLabelledBackEdgeTakesNoLayer() throws {
        func layers(_ back: String?, forward: String? = nil) throws -> Int {
            let store = Store()
            for id in ["a", "b"] { try store.addNode(FlowNode(id: id, position: .zero, size: Size(80, 30), data: .null)) }
            try store.addEdge(FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "b", pathType: .smoothStep, label: forward))
            try store.addEdge(FlowEdge(id: "e2", sourceNodeID: "b", targetNodeID: "a", pathType: .smoothStep, label: back))
            let stats = try store.layout(LayoutRequest())
            #expect(stats.reversedEdges == 1)
            return stats.layers
        }
        #expect(try layers(nil) == 2)
        #expect(try layers("retry") == 2)
        #expect(try layers(nil, forward: "go") == 3)
        var g = LayoutGraph()
        for _ in 0..<2 { g.nodes.append(.init(width: 80, height: 30)) }
        g.edges = [.init(source: 0, target: 1), .init(source: 1, target: 0, labelSize: Size(40, 16))]
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        #expect(r.layers == 2 && r.reversed[1] && r.labelPositions[1] == nil)
    }

    /// Random cyclic graphs with self-loops and multi-edges, every direction and path type.
    @Test(arguments: 0..<16)
    func randomCyclesKeepTheRoutePromises(seed: Int) throws {
        var r = SplitMix64(seed: UInt64(1000 + seed))
        let store = Store()
        let n = 4 + seed
        for i in 0..<n {
            try store.addNode(FlowNode(
                id: "n\(i)", position: .zero, size: Size(r.uniform(30, 140), r.uniform(20, 60)), data: .null))
        }
        let types: [EdgePathType] = [.smoothStep, .orthogonal, .straight, .bezier]
        for k in 0..<(n + n / 2) {
            let a = r.below(n), b = r.chance(10) ? a : r.below(n)
            try store.addEdge(FlowEdge(
                id: "e\(k)", sourceNodeID: "n\(a)", targetNodeID: "n\(b)", pathType: types[seed % 4],
                label: r.chance(15) ? "label \(k)" : nil))
        }
        let direction = LayoutDirection.allCases[(seed / 4) % 4]
        let stats = try store.layout(LayoutRequest(options: LayoutOptions(direction: direction)))
        let checked = checkBackRoutes(store, direction, "seed \(seed)")
        #expect(checked.count >= stats.reversedEdges)
    }
}
