import FlowCore

/// Everything a store layout will change, computed before anything changes: new positions,
/// group sizes and handles of the laid-out nodes, and the route of every edge between them.
///
/// Groups are laid out bottom-up: a group's children first, as a graph of their own, which
/// gives the group its size; then the group's level, where the group is one node. An edge
/// between nodes of different groups is routed at the level of the innermost group that
/// holds both ends; inside each group it leaves (or enters) through a border node kept on
/// the group's last (or first) layer, so its route inside the group passes between the
/// group's children, never through them.
struct LayoutPlan<Data: FlowNodeData> {
    typealias Node = FlowNode<Data>

    var positions: [String: Point] = [:]
    var sizes: [String: Size] = [:]
    var handles: [String: [HandleDeclaration]] = [:]
    var routes: [String: [Point]] = [:]
    /// Edges laid out against the flow (their cycles broken here, see `drawnAgainstTheFlow`).
    var drawnAgainst = Set<String>()
    /// The innermost laid-out group holding both ends of each routed edge (-1: none).
    var holder: [String: Int] = [:]
    var stats = LayoutStats()

    // MARK: Scope

    let request: LayoutRequest
    let nodes: [Node]
    let index: [String: Int]
    /// Laid out: the scope minus pinned nodes.
    var inScope: [Bool]
    /// Each laid-out node's container: the index of its laid-out parent, or -1 for the top.
    var container: [Int]
    /// Laid-out members of each container (by node index; the top is `members[-1]`).
    var members: [Int: [Int]] = [:]

    /// What each layered layout may take (the request's bend points; the store's memory).
    let limits: LayoutLimits

    /// Whether the store routes its orthogonal edges (an `edgeRouter` is installed): the
    /// plan then gives them no routes.
    let routerOwnsOrthogonal: Bool

    /// The shape each node is drawn with (its own or its classes'), by index: where ports
    /// may spread (`portRoom`).
    let shapes: [NodeShape]

    /// For a stable layout: each node's previous centre in its container's frame (nil for a
    /// new node) and how strongly it is held there (`LayoutGraph.Node.hold`).
    var previous: [Point?] = []
    var hold: [Int] = []
    /// Rank constraints: the diagram's, then the request's (`LayoutRequest.ranks`).
    let rankSets: [RankSet]
    /// Edges' part in the layering by edge id: the diagram's, then the request's
    /// (`LayoutRequest.edgeRanks`), the last for an edge winning.
    let edgeRanks: [String: EdgeRank]

    /// `placed`: for a stable layout, whether each node's position is a place to keep
    /// (nil: every node's).
    init(
        nodes: [Node], edges: [FlowEdge], request: LayoutRequest, routerOwnsOrthogonal: Bool = false,
        shapes: [NodeShape]? = nil, placed: [Bool]? = nil, memory: (any MemoryBudget)? = nil, ranks: [RankSet] = [],
        edgeRanks: [EdgeRank] = []
    ) throws(FlowError) {
        let op = "layout"
        self.request = request
        limits = LayoutLimits(bendPoints: request.maximumBendPoints, memory: memory)
        self.shapes = shapes ?? nodes.map { $0.shape ?? .rounded }
        self.routerOwnsOrthogonal = routerOwnsOrthogonal
        self.nodes = nodes
        var index: [String: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (i, n) in nodes.enumerated() { index[n.id] = i }
        self.index = index
        var children = Array(repeating: [Int](), count: nodes.count)
        for (i, n) in nodes.enumerated() {
            if let p = n.parentID, let pi = index[p] { children[pi].append(i) }
        }
        func withDescendants(_ roots: [Int]) -> [Bool] {
            var mark = Array(repeating: false, count: nodes.count)
            var stack = roots
            while let v = stack.popLast() {
                if mark[v] { continue }
                mark[v] = true
                stack.append(contentsOf: children[v])
            }
            return mark
        }
        // `field` names the option that gave the id
        func require(_ id: String, _ field: String) throws(FlowError) -> Int {
            guard let i = index[id] else {
                throw FlowError(.unknownNode, operation: op, message: "\(field): no node with id '\(id)'")
            }
            return i
        }
        var scope: [Bool]
        var groupIndex = -1
        if let g = request.group {
            groupIndex = try require(g, "group")
            scope = withDescendants(children[groupIndex])
        } else if let ids = request.nodes {
            var roots: [Int] = []
            for id in ids { roots.append(try require(id, "nodes")) }
            scope = withDescendants(roots)
        } else {
            scope = Array(repeating: true, count: nodes.count)
        }
        var fitted: [Bool]? = nil
        if request.options.stable && request.nodes != nil && request.group == nil {
            // fitted in among every other node, which stays (`LayoutRequest.nodes`)
            fitted = scope
            scope = Array(repeating: true, count: nodes.count)
        }
        var pinnedRoots: [Int] = []
        for id in request.pinned.sorted() { pinnedRoots.append(try require(id, "pinned")) }
        for (i, n) in nodes.enumerated() where n.data.isPinned && !request.pinned.contains(n.id) { pinnedRoots.append(i) }
        try Self.checkAspectRatio(request, pinned: pinnedRoots.map { nodes[$0].id })
        let pinned = withDescendants(pinnedRoots)
        for i in 0..<nodes.count where pinned[i] { scope[i] = false }
        for r in pinnedRoots {
            if let p = nodes[r].parentID, let pi = index[p], scope[pi] {
                throw .invalidValue(
                    op, "pinned node '\(nodes[r].id)' is inside group '\(p)', which is laid out; pin '\(p)' too or unpin '\(nodes[r].id)'")
            }
        }
        for r in request.ranks { for id in r.nodes { _ = try require(id, "ranks.\(r.kind.rawValue)") } }
        rankSets = ranks + request.ranks
        if !request.edgeRanks.isEmpty {
            let ids = Set(edges.map(\.id))
            for r in request.edgeRanks where !ids.contains(r.edge) {
                throw FlowError(.unknownEdge, operation: op, message: "ranks.\(r.constraint ? "minlen" : "constraint"): no edge with id '\(r.edge)'")
            }
        }
        var byEdge: [String: EdgeRank] = [:]
        for r in edgeRanks + request.edgeRanks { byEdge[r.edge] = r }
        self.edgeRanks = byEdge
        inScope = scope
        container = Array(repeating: -1, count: nodes.count)
        for i in 0..<nodes.count where scope[i] {
            if let p = nodes[i].parentID, let pi = index[p], scope[pi] { container[i] = pi }
            members[container[i], default: []].append(i)
        }
        if request.options.stable {
            setPrevious(placed: placed ?? Array(repeating: true, count: nodes.count), fitted: fitted, groupIndex: groupIndex)
        }
        try plan(edges: edges, groupIndex: groupIndex)
        wrapParts(edges: edges)
    }

    // MARK: Levels

    /// One level's graph: its members, then border nodes; and how store edges map onto it.
    struct Level {
        var graph = LayoutGraph()
        var nodeOf: [Int: Int] = [:]  // store node index -> graph node
        var result: LayoutResult?
    }

    /// A graph edge at `level` with an end at group `group`, which the edge leaves (at its
    /// source) or enters through border node `border` of the group's own graph.
    struct GroupEnd {
        var level: Int
        var edge: Int
        var group: Int
        var border: Int
        var atSource: Bool
    }

    /// Where an edge is laid out: the innermost group holding both ends `a` and `b` (`lca`,
    /// -1 for the top) and the ends' ancestor chains (outermost first), whose entries at `k`
    /// are the nodes of that group's graph the ends lie in (the ends or subgroups).
    struct Span {
        var a: Int, b: Int
        var ca: [Int], cb: [Int]
        var k: Int
        var lca: Int
    }

    /// A piece of an edge's route at one level.
    enum Piece {
        /// The route of graph edge `edge` at `level`, then the centre of border node `border`.
        case exit(level: Int, edge: Int, border: Int)
        case body(level: Int, edge: Int)
        /// The route of graph edge `edge`, which runs from the edge's target end to its source.
        case reversedBody(level: Int, edge: Int)
        /// The centre of border node `border`, then the route of graph edge `edge`.
        case entry(level: Int, edge: Int, border: Int)
    }

    func ancestors(_ v: Int) -> [Int] {
        var chain = [v]
        var c = container[v]
        while c >= 0 {
            chain.append(c)
            c = container[c]
        }
        return chain.reversed()  // outermost first
    }

    var direction: LayoutDirection { request.options.direction }

    /// Port of an edge end on `node` through handle `handle` (its new handles), across the
    /// layer, in node breadths from its middle: 0 for a handle that faces along the flow,
    /// past -0.5 (or 0.5) for one on the side at the start (or end) of the layer axis, by
    /// the run an edge of path type `path` makes out of it (`handleRoom(_:)`).
    func port(_ node: Int, _ handleID: String?, _ type: HandleType, _ path: EdgePathType) -> Double {
        let hs = newHandles(node)
        let h = handleID.flatMap { id in hs.first { $0.id == id } } ?? hs.first { $0.type == type }
        // a handle on a side runs out of it before the edge turns (`detoured`): the port is
        // where it turns, so the node at the other end lines up with that run
        let breadth = direction.isHorizontal ? nodes[node].size.height : nodes[node].size.width
        let beyond = breadth > 0 ? handleRoom(path) / breadth : 0
        switch (h?.position, direction.isHorizontal) {
        case (.left?, false), (.top?, true): return -0.5 - beyond
        case (.right?, false), (.bottom?, true): return 0.5 + beyond
        // on the side facing a layer: where along it the handle sits (a record's field)
        default: return h?.offset ?? 0
        }
    }

    /// How far an edge of path type `path` runs out of a handle on a side, or one that
    /// faces away from its route, before it turns: a third of the layer spacing, at most 16,
    /// and for `smoothStep` at least the run its path makes out of every handle
    /// (`SmoothStepPath.offset`), so the route turns where the drawn path does instead of
    /// doubling back a few pixels.
    func handleRoom(_ path: EdgePathType) -> Double {
        let room = min(request.options.layerSpacing / 3, 16).rounded(.down)
        return path == .smoothStep ? max(room, SmoothStepPath().offset) : room
    }

    func newHandles(_ i: Int) -> [HandleDeclaration] {
        handles[nodes[i].id] ?? nodes[i].handles
    }

    /// Default handles turned to face the flow: targets towards the previous layer,
    /// sources towards the next.
    static func flowHandles(_ d: LayoutDirection) -> [HandleDeclaration] {
        let (t, s): (HandlePosition, HandlePosition) = switch d {
        case .TB: (.top, .bottom)
        case .BT: (.bottom, .top)
        case .LR: (.left, .right)
        case .RL: (.right, .left)
        }
        return [
            HandleDeclaration(id: "target", type: .target, position: t),
            HandleDeclaration(id: "source", type: .source, position: s),
        ]
    }

    mutating func plan(edges: [FlowEdge], groupIndex: Int) throws(FlowError) {
        let turned = LayoutPlan.flowHandles(direction)
        // default handles, as made or as an earlier layout turned them
        let defaults = LayoutDirection.allCases.map { LayoutPlan.flowHandles($0) }
        for i in 0..<nodes.count where inScope[i] && nodes[i].handles != turned && defaults.contains(nodes[i].handles) {
            handles[nodes[i].id] = turned
        }
        // Containers, innermost first: by depth, deepest first, store order within.
        var depth = Array(repeating: 0, count: nodes.count)
        for i in 0..<nodes.count where inScope[i] { depth[i] = ancestors(i).count - 1 }
        var containers = members.keys.filter { $0 >= 0 }
        containers.sort { depth[$0] != depth[$1] ? depth[$0] > depth[$1] : $0 < $1 }
        containers.append(-1)
        // Groups laid out as clusters of one graph (`compoundGroups`): the nodes they hold
        // are laid out with the rest, each group a box around its own.
        let clusterOf = compoundGroups(edges, containers: containers, depth: depth)
        if !clusterOf.isEmpty { containers = [-1] }
        // Edges: pieces per level.
        var made = LevelEdges(levels: makeLevels(containers, clusterOf: clusterOf))
        let spans = try spans(edges, clusterOf: clusterOf)
        try WorkLimit.check("layout")
        if request.algorithm == .layered { constrainRanks(&made.levels) }
        let against = request.algorithm == .layered ? drawnAgainstTheFlow(edges, spans, made.levels) : []
        try WorkLimit.check("layout")
        addPieces(edges, spans: spans, against: against, &made)
        if groupIndex < 0 { setPreviousRoutes(&made.levels, pieces: made.pieces, edges: edges) }
        try WorkLimit.check("layout")
        var levels = made.levels
        let (pieces, edgeIDs, partners, groupEnds) = (made.pieces, made.edgeIDs, made.partners, made.groupEnds)
        made = LevelEdges(levels: [:])  // the levels are laid out in place below: no second owner
        // Lay out innermost first; a group's size comes from its children's layout. When
        // edges cross group borders, the next pass orders each group's border nodes by
        // where the pass before put the nodes at their edges' other ends, so routes enter
        // and leave a group in the order they arrive. That can reorder the nodes inside
        // another group, which moves the keys again: passes repeat until no group's
        // border order changes (at most `maximumPasses`).
        var origin: [Int: Point] = [:]
        var borderOrder: [[Int]] = []
        // in the order they were made (the keys' order hashes differently run to run)
        let borders = partners.values.sorted { ($0.level, $0.node) < ($1.level, $1.node) }
        // With borders, the passes that settle them search for crossings with the normal
        // effort, and a thorough layout then takes one more pass with the settled orders
        // and ports: each level's graph is then the one the normal search had, so no level
        // ends with more crossings than it would have.
        var options = request.options
        if !borders.isEmpty && request.algorithm == .layered { options.effort = .normal }
        var pass = 0
        while true {
            var finalPass = false
            if pass > 0 {
                let along: (Int) -> Double = { [positions, sizes, nodes, direction] i in
                    let p = positions[nodes[i].id] ?? nodes[i].position
                    let s = sizes[nodes[i].id] ?? nodes[i].size
                    return direction.isHorizontal ? p.y + s.height / 2 : p.x + s.width / 2
                }
                let keys = borders.map { b in
                    (key: b.partners.reduce(0.0) { $0 + along($1) } / Double(b.partners.count), tie: along(b.inner))
                }
                let order = GroupBorder.order(borders, keys)
                // the same border orders lay every group out as the last pass did; so does
                // a pass past the last, which only changes the effort
                if order == borderOrder || pass == GroupBorder.maximumPasses {
                    if options.effort == request.options.effort { break }
                    options.effort = request.options.effort
                    finalPass = true
                } else {
                    borderOrder = order
                    applyBorderKeys(&levels, borders: borders, keys: keys, groupEnds: groupEnds, origin: origin)
                }
                sizes = [:]
                positions = [:]
                origin = [:]
                stats.crossings = 0
                stats.reversedEdges = 0
            }
            try layOut(&levels, containers: containers, options: options, edgeIDs: edgeIDs, groupIndex: groupIndex)
            place(levels, containers: containers, clusterOf: clusterOf, groupIndex: groupIndex, origin: &origin)
            if finalPass || borders.isEmpty { break }
            pass += 1
        }
        stats.reversedEdges += against.count
        stats.nodes = positions.count
        joinRoutes(pieces, levels: levels, origin: origin)
        stats.edges = routes.count
        shapeRoutes(edges)
        measure()
    }

    /// The edges (by index) drawn against the flow: cycles are broken where each edge is
    /// laid out, in the graph of its innermost common group, with each end taken as the
    /// node of that graph it lies in (itself or a subgroup), the way the layered layout
    /// breaks them (`edgesToReverse`: the same nodes and edges in the same order, so the
    /// same choice). Breaking them here lets an edge between groups be drawn against the
    /// flow as a whole instead of piece by piece in each group.
    func drawnAgainstTheFlow(
        _ edges: [FlowEdge], _ spans: [Int: Span], _ levels: [Int: Level]
    ) -> Set<Int> {
        var pairs: [Int: [(edge: Int, pair: (Int, Int))]] = [:]
        for ei in edges.indices {
            // an edge that does not constrain the layering goes the way its ends' layers say
            guard let span = spans[ei], span.a != span.b, edgeRanks[edges[ei].id]?.constraint != false else { continue }
            let level = levels[span.lca]!
            pairs[span.lca, default: []].append((ei, (level.nodeOf[span.ca[span.k]]!, level.nodeOf[span.cb[span.k]]!)))
        }
        var against = Set<Int>()
        for (lca, list) in pairs {
            let reversed = levels[lca]!.graph.edgesToReverse(list.map(\.pair))
            for (i, item) in list.enumerated() where reversed[i] { against.insert(item.edge) }
        }
        return against
    }

    /// Room a label needs: a rough measure (the renderer's font at 12 px; wide characters
    /// count twice), enough to keep labels apart.
    static func labelSize(_ label: String?) -> Size {
        guard let label, !label.isEmpty else { return Size(0, 0) }
        var widest = 0.0, lines = 0
        for line in label.split(separator: "\n", omittingEmptySubsequences: false) {
            var w = 0.0
            for u in line.unicodeScalars { w += u.value >= 0x1100 ? 12 : 7 }
            widest = max(widest, w)
            lines += 1
        }
        return Size(widest + 8, Double(lines) * 16 + 4)
    }
}
