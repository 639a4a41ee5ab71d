import TestSupport
import FlowCore
import FlowLayout
import Testing

typealias Store = FlowStore<JSONValue>

/// A random diagram: nodes of varied sizes, some inside (nested) groups, edges with cycles,
/// multi-edges and self-loops, some labelled.
private func randomStore(seed: UInt64, nodes n: Int) throws -> Store {
    var r = SplitMix64(seed: seed)
    let store = Store()
    var ids: [String] = []
    var groups: [String] = []
    for i in 0..<n {
        let id = "n\(i)"
        var parent: String? = nil
        if !groups.isEmpty && r.chance(35) { parent = r.pick(groups) }
        let node = FlowNode<JSONValue>(
            id: id, position: Point(r.uniform(-300, 300), r.uniform(-300, 300)),
            size: Size(r.uniform(20, 160), r.uniform(20, 80)), data: .null, parentID: parent,
            acceptsChildren: true)
        try store.addNode(node)
        ids.append(id)
        if r.chance(20) { groups.append(id) }
    }
    let m = n + r.below(n + 1)
    for k in 0..<m {
        let a = r.pick(ids), b = r.chance(5) ? a : r.pick(ids)
        try store.addEdge(FlowEdge(
            id: "e\(k)", sourceNodeID: a, targetNodeID: b, label: r.chance(20) ? "label \(k)" : nil))
    }
    return store
}

private func isAncestor(_ store: Store, _ a: String, of b: String) -> Bool {
    var p = store.node(b)?.parentID
    while let id = p {
        if id == a { return true }
        p = store.node(id)?.parentID
    }
    return false
}

/// Interiors meet (touching borders do not count).
private func overlap(_ a: Rect, _ b: Rect) -> Bool {
    a.origin.x < b.origin.x + b.size.width - 1e-6 && b.origin.x < a.origin.x + a.size.width - 1e-6
        && a.origin.y < b.origin.y + b.size.height - 1e-6 && b.origin.y < a.origin.y + a.size.height - 1e-6
}

@Suite struct StoreLayoutTests {
    @Test(arguments: 0..<24)
    func randomDiagramsKeepTheLayoutPromises(seed: Int) throws {
        let store = try randomStore(seed: UInt64(seed), nodes: 3 + seed * 3)
        let direction = LayoutDirection.allCases[seed % 4]
        let before = try store.export()
        try store.layout(LayoutRequest(options: LayoutOptions(direction: direction)))
        let after = try store.export()
        let nodes = store.nodes
        // no two nodes overlap, unless one holds the other
        for i in 0..<nodes.count {
            for j in (i + 1)..<nodes.count {
                let a = nodes[i], b = nodes[j]
                if isAncestor(store, a.id, of: b.id) || isAncestor(store, b.id, of: a.id) { continue }
                #expect(!overlap(a.frame, b.frame), "\(a.id) \(a.frame) overlaps \(b.id) \(b.frame)")
            }
        }
        // every group contains its children
        for n in nodes {
            guard let p = n.parentID, let g = store.node(p) else { continue }
            let f = g.frame, c = n.frame
            #expect(
                c.origin.x >= f.origin.x && c.origin.y >= f.origin.y
                    && c.origin.x + c.size.width <= f.origin.x + f.size.width + 1e-9
                    && c.origin.y + c.size.height <= f.origin.y + f.size.height + 1e-9,
                "group \(p) \(f) does not contain \(n.id) \(c)")
        }
        // one undo step restores the document byte for byte
        try store.undo()
        #expect(try store.export() == before)
        // the same store gives the same layout
        try store.layout(LayoutRequest(options: LayoutOptions(direction: direction)))
        #expect(try store.export() == after)
    }

    @Test func acyclicEdgesPointInTheLayoutDirection() throws {
        var r = SplitMix64(seed: 7)
        for direction in LayoutDirection.allCases {
            let store = Store()
            for i in 0..<40 {
                try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(60, 30), data: .null))
            }
            for k in 0..<70 {
                let a = r.below(39), b = a + 1 + r.below(39 - a)
                try store.addEdge(FlowEdge(id: "e\(k)", sourceNodeID: "n\(a)", targetNodeID: "n\(b)"))
            }
            let stats = try store.layout(LayoutRequest(options: LayoutOptions(direction: direction)))
            #expect(stats.reversedEdges == 0)
            for e in store.edges {
                let s = store.node(e.sourceNodeID)!.frame, t = store.node(e.targetNodeID)!.frame
                switch direction {
                case .TB: #expect(t.origin.y >= s.origin.y + s.size.height)
                case .BT: #expect(t.origin.y + t.size.height <= s.origin.y)
                case .LR: #expect(t.origin.x >= s.origin.x + s.size.width)
                case .RL: #expect(t.origin.x + t.size.width <= s.origin.x)
                }
            }
        }
    }

    @Test func pinnedNodesStayAndOthersAvoidThem() throws {
        let store = try randomStore(seed: 99, nodes: 30)
        let free = store.nodes.filter { $0.parentID == nil }
        let pinned = Set(free.prefix(3).map(\.id))
        var fixed: [String: Point] = [:]
        for n in store.nodes where pinned.contains(n.id) || pinned.contains(n.parentID ?? "") {
            fixed[n.id] = n.position
        }
        // a pinned group's descendants stay too
        var changed = true
        while changed {
            changed = false
            for n in store.nodes where fixed[n.id] == nil && fixed[n.parentID ?? ""] != nil {
                fixed[n.id] = n.position
                changed = true
            }
        }
        try store.layout(LayoutRequest(pinned: pinned))
        for (id, p) in fixed { #expect(store.node(id)!.position == p, "\(id) moved") }
        for a in store.nodes where fixed[a.id] == nil {
            for b in store.nodes where fixed[b.id] != nil && !isAncestor(store, b.id, of: a.id) {
                #expect(!overlap(a.frame, b.frame), "\(a.id) overlaps pinned \(b.id)")
            }
        }
    }

    @Test func edgesGetRoutesThroughTheLayersTheySpan() throws {
        let store = Store()
        for id in ["a", "b", "c", "d"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(80, 40), data: .null))
        }
        for (i, (s, t)) in [("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")].enumerated() {
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: s, targetNodeID: t))
        }
        let stats = try store.layout()
        #expect(stats.layers == 4)
        #expect(stats.crossings == 0)
        // the long edge passes the two middle layers, twice a layer (top and bottom); its
        // first and last points are its ports on a's bottom and d's top (it shares those
        // sides with e0 and e2), where it attaches
        let long = try store.edgeGeometry("e3")
        #expect(long.points.count == 4)
        #expect(store.edge("e3")!.points.count == 6)
        #expect(long.sourcePoint.y == store.node("a")!.frame.maxY && long.targetPoint.y == store.node("d")!.frame.minY)
        #expect(try store.edgeGeometry("e0").points.isEmpty)
        for p in long.points {
            for id in ["b", "c"] { #expect(!store.node(id)!.frame.contains(p)) }
        }
    }

    @Test func failedLayoutsChangeNothing() throws {
        let store = try randomStore(seed: 3, nodes: 12)
        let before = try store.export()
        #expect(throws: FlowError.self) { try store.layout(LayoutRequest(nodes: ["n1", "nope"])) }
        #expect(throws: FlowError.self) { try store.layout(LayoutRequest(group: "nope")) }
        #expect(throws: FlowError.self) { try store.layout(LayoutRequest(pinned: ["nope"])) }
        #expect(try store.export() == before)
    }

    @Test func aGroupsChildrenAreLaidOutInsideIt() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "g", position: Point(500, 500), size: Size(10, 10), data: .null, acceptsChildren: true))
        for id in ["x", "y", "z"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(50, 30), data: .null, parentID: "g"))
        }
        try store.addNode(FlowNode(id: "out", position: Point(-100, -100), size: Size(50, 30), data: .null))
        try store.addEdge(FlowEdge(id: "e1", sourceNodeID: "x", targetNodeID: "y"))
        try store.addEdge(FlowEdge(id: "e2", sourceNodeID: "x", targetNodeID: "z"))
        try store.layout(LayoutRequest(group: "g"))
        let g = store.node("g")!
        #expect(g.position == Point(500, 500))
        #expect(store.node("out")!.position == Point(-100, -100))
        for id in ["x", "y", "z"] {
            let f = store.node(id)!.frame
            #expect(f.origin.x >= g.position.x && f.origin.x + f.size.width <= g.position.x + g.size.width)
            #expect(f.origin.y >= g.position.y + 24 && f.origin.y + f.size.height <= g.position.y + g.size.height)
        }
    }
}

/// Adds nodes of `size` at the origin, each `(id, parent)`; a node that is some node's
/// parent is a 10 × 10 group.
private func addBoxes(_ store: Store, _ nodes: [(String, String?)], size: Size) throws {
    let groups = Set(nodes.compactMap(\.1))
    for (id, parent) in nodes {
        let group = groups.contains(id)
        try store.addNode(FlowNode(
            id: id, position: .zero, size: group ? Size(10, 10) : size, data: .null, parentID: parent,
            acceptsChildren: group))
    }
}

/// Edges between two groups (the layout golden `layout-groups`): they leave and enter the
/// groups in the order of their other ends, so none cross, and stepped edges from one
/// handle share their way out (an edge straight below its source runs straight).
@Suite struct GroupBorderRouteTests {
    private func twoGroups(_ type: EdgePathType, _ direction: LayoutDirection = .TB) throws -> Store {
        let store = Store()
        // (id, parent); a node named as a parent is a group
        let nodes: [(String, String?)] = [
            ("api", nil), ("backend", nil), ("auth", "backend"), ("orders", "backend"), ("storage", nil),
            ("db", "storage"), ("cache", "storage"),
        ]
        try addBoxes(store, nodes, size: Size(100, 40))
        for (id, s, t) in [("e1", "api", "auth"), ("e2", "api", "orders"), ("e3", "orders", "db"),
                           ("e4", "orders", "cache"), ("e5", "auth", "db")] {
            try store.addEdge(FlowEdge(id: id, sourceNodeID: s, targetNodeID: t, pathType: type))
        }
        try store.layout(LayoutRequest(options: LayoutOptions(direction: direction, nodeSpacing: 30, layerSpacing: 40)))
        return store
    }

    /// A stepped edge that enters or leaves a group turns in the gap outside it: no run
    /// across the flow lies on a group's border (or near it), where it would hide in the
    /// border's line or cross the group's title.
    @Test(arguments: LayoutDirection.allCases)
    func stepsTurnOutsideGroupBorders(_ direction: LayoutDirection) throws {
        let store = try twoGroups(.smoothStep, direction)
        let groups = ["backend", "storage"].map { store.node($0)!.frame }
        let vertical = !direction.isHorizontal
        var runs = 0
        for e in store.edges {
            for (p, q) in zip(e.points, e.points.dropFirst()) where vertical ? p.y == q.y : p.x == q.x {
                runs += 1
                let at = vertical ? p.y : p.x, from = vertical ? min(p.x, q.x) : min(p.y, q.y)
                let to = vertical ? max(p.x, q.x) : max(p.y, q.y)
                for g in groups {
                    let (lo, hi) = vertical ? (g.minX, g.maxX) : (g.minY, g.maxY)
                    guard from < hi && to > lo else { continue }
                    let borders = vertical ? [g.minY, g.maxY] : [g.minX, g.maxX]
                    #expect(borders.allSatisfy { abs(at - $0) > 8 }, "\(e.id) turns at \(at), on a border of \(g)")
                }
            }
        }
        #expect(runs > 0)
    }

    /// Each edge as drawn: bottom of its source, its points, top of its target.
    private func crossings(_ store: Store) -> Int {
        let ids = store.nodes.map(\.id)
        let boxes = store.nodes.map(\.frame)
        let routes = store.edges.map { e in
            let a = store.node(e.sourceNodeID)!.frame, b = store.node(e.targetNodeID)!.frame
            let start = Point(a.origin.x + a.size.width / 2, a.origin.y + a.size.height)
            let end = Point(b.origin.x + b.size.width / 2, b.origin.y)
            return DrawnCrossings.Route(
                source: ids.firstIndex(of: e.sourceNodeID)!, target: ids.firstIndex(of: e.targetNodeID)!,
                points: [start] + e.points + [end])
        }
        return DrawnCrossings.count(routes: routes, boxes: boxes)
    }

    @Test(arguments: [EdgePathType.smoothStep, .bezier, .straight])
    func edgesBetweenGroupsDoNotCross(_ type: EdgePathType) throws {
        let store = try twoGroups(type)
        #expect(crossings(store) == 0)
        let orders = store.node("orders")!.frame, cache = store.node("cache")!.frame
        let auth = store.node("auth")!.frame, db = store.node("db")!.frame
        #expect(orders.origin.x < cache.origin.x + cache.size.width && cache.origin.x < orders.origin.x + orders.size.width)
        #expect(auth.origin.x < db.origin.x + db.size.width && db.origin.x < auth.origin.x + auth.size.width)
        if type == .smoothStep {
            // the two stepped edges into db share their last run; those straight below
            // their sources run straight
            for id in ["e4", "e5"] {
                let e = store.edge(id)!
                let x = store.node(e.sourceNodeID)!.frame.origin.x + 50
                #expect(e.points.allSatisfy { $0.x == x }, "\(id): \(e.points)")
            }
        }
    }
}

/// Two edges from one group to one node outside it, in the builtin graph of
/// scripts/examples/dot2png.lua: at the level above the group they start where they leave
/// the group, not at its middle, so they reach their common end without crossing.
@Suite struct GroupEndTests {
    /// Whether the polylines cross properly anywhere but at their shared last point.
    private func cross(_ a: [Point], _ b: [Point]) -> Bool {
        func orient(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        for (p, q) in zip(a, a.dropFirst()) {
            for (r, t) in zip(b, b.dropFirst()) {
                let d1 = orient(p, q, r), d2 = orient(p, q, t), d3 = orient(r, t, p), d4 = orient(r, t, q)
                if d1 * d2 < 0 && d3 * d4 < 0 { return true }
            }
        }
        return false
    }

    @Test(arguments: [EdgePathType.bezier, .straight, .smoothStep])
    func edgesFromOneGroupToOneNodeDoNotCross(_ type: EdgePathType) throws {
        let store = Store()
        let nodes: [(String, String?)] = [
            ("sources", nil), ("parser", "sources"), ("lexer", "sources"), ("outputs", nil), ("lib", "outputs"),
            ("repl", "outputs"), ("headers", nil), ("config", nil), ("tests", nil),
        ]
        try addBoxes(store, nodes, size: Size(150, 60))
        let edges: [(String, String, String, String?)] = [
            ("e1", "lexer", "parser", nil), ("e2", "parser", "lib", nil), ("e3", "headers", "lib", "links"),
            ("e4", "config", "lib", nil), ("e5", "config", "repl", nil), ("e6", "lib", "repl", nil),
            ("e7", "repl", "tests", nil), ("e8", "lib", "tests", "require"),
        ]
        for (id, a, b, label) in edges {
            try store.addEdge(FlowEdge(id: id, sourceNodeID: a, targetNodeID: b, pathType: type, label: label))
        }
        try store.layout()
        func drawn(_ id: String) -> [Point] {
            let e = store.edge(id)!
            let a = store.node(e.sourceNodeID)!.frame, b = store.node(e.targetNodeID)!.frame
            return [Point(a.origin.x + a.size.width / 2, a.origin.y + a.size.height)] + e.points
                + [Point(b.origin.x + b.size.width / 2, b.origin.y)]
        }
        #expect(!cross(drawn("e7"), drawn("e8")), "\(drawn("e7")) \(drawn("e8"))")
    }
}

/// Coordinates measure an edge's run between its ports, not its nodes' middles: a node
/// below a decision's right-hand "yes" handle sits under the point where the edge, out of
/// that handle, turns (13 beyond the side at a layer spacing of 40), so the edge is one
/// bend: out, then straight down.
@Suite struct PortCoordinateTests {
    @Test(arguments: [LayoutDirection.TB, .LR])
    func aNodeSitsUnderTheHandleItHangsFrom(_ direction: LayoutDirection) throws {
        let store = Store()
        let side: HandlePosition = direction == .TB ? .right : .bottom
        try store.addNode(FlowNode(
            id: "check", position: .zero, size: Size(120, 60), data: .null,
            handles: [HandleDeclaration(id: "in", type: .target, position: direction == .TB ? .top : .left),
                      HandleDeclaration(id: "yes", type: .source, position: side)]))
        try store.addNode(FlowNode(id: "next", position: .zero, size: Size(80, 40), data: .null))
        try store.addEdge(FlowEdge(id: "e", sourceNodeID: "check", sourceHandleID: "yes", targetNodeID: "next"))
        try store.layout(LayoutRequest(options: LayoutOptions(direction: direction, layerSpacing: 40)))
        let check = store.node("check")!.frame, next = store.node("next")!.frame
        if direction == .TB {
            #expect(abs(next.origin.x + next.size.width / 2 - (check.origin.x + check.size.width + 13)) <= 0.5)
        } else {
            #expect(abs(next.origin.y + next.size.height / 2 - (check.origin.y + check.size.height + 13)) <= 0.5)
        }
    }
}

@Suite struct LayoutRouteMovesTests {
    /// After a layout, moving one end of an edge keeps its route (the end follows its node,
    /// and so does the end's port on its border); moving both ends by the same delta in one
    /// call moves the route with them.
    @Test func routesAfterMoves() throws {
        let store = Store()
        for id in ["a", "b", "c"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(80, 40), data: .null))
        }
        try store.addEdge(FlowEdge(id: "ab", sourceNodeID: "a", targetNodeID: "b"))
        try store.addEdge(FlowEdge(id: "bc", sourceNodeID: "b", targetNodeID: "c"))
        try store.addEdge(FlowEdge(id: "ac", sourceNodeID: "a", targetNodeID: "c"))
        try store.layout()
        let route = store.edge("ac")!.points
        #expect(!route.isEmpty)
        try store.moveNode("c", to: store.node("c")!.position + Point(30, 0))
        // the last point is ac's port on c's top (it shares that side with bc)
        var moved = route
        moved[moved.count - 1] = moved[moved.count - 1] + Point(30, 0)
        #expect(store.edge("ac")!.points == moved)
        let delta = Point(100, 50)
        try store.transaction { () throws(FlowError) in
            try store.moveNode("a", to: store.node("a")!.position + delta)
            try store.moveNode("c", to: store.node("c")!.position + delta)
        }
        #expect(store.edge("ac")!.points == moved.map { $0 + delta })
    }
}
