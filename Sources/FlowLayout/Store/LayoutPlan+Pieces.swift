import FlowCore

extension LayoutPlan {
    /// The level graphs' edges as `plan` makes them: each store edge's pieces, the border
    /// nodes groups share (`GroupBorder`) and the edges' ids by level.
    struct LevelEdges {
        var levels: [Int: Level]
        var pieces: [String: [Piece]] = [:]
        /// store edge ids by level, in the order of the level's graph edges (tree errors)
        var edgeIDs: [Int: [String]] = [:]
        /// Border nodes: stepped edges that leave (or enter) a group from one node through
        /// one handle leave through one border node, so they share their way to the border.
        var partners: [GroupBorder.Key: GroupBorder] = [:]
        var groupEnds: [GroupEnd] = []
        var shared: [GroupBorder.Key: (node: Int, edge: Int)] = [:]

        /// The border node of group `g` for edge `e` (index `ei`) between its node (or
        /// subgroup) `inner` and `other` outside, and its graph edge to or from `inner`.
        mutating func borderNode(
            _ g: Int, inner: Int, last: Bool, handle: String?, port: Double, other: Int, edge ei: Int, _ e: FlowEdge
        ) -> (node: Int, edge: Int) {
            let key = GroupBorder.Key(
                level: g, inner: inner, last: last, handle: handle, edge: GroupBorder.shares(e.pathType) ? nil : ei)
            if shared[key] == nil {
                var level = levels[g]!
                let border = level.graph.nodes.count
                level.graph.nodes.append(.init(width: 0, height: 0, layer: last ? .last : .first))
                let node = level.nodeOf[inner]!
                shared[key] = (border, level.graph.edges.count)
                level.graph.edges.append(
                    last
                        ? .init(source: node, target: border, sourcePort: port, pathType: e.pathType)
                        : .init(source: border, target: node, targetPort: port, pathType: e.pathType))
                levels[g] = level
                partners[key] = GroupBorder(level: g, node: border, last: last, partners: [], inner: inner)
            }
            partners[key]!.partners.append(other)
            return shared[key]!
        }

        /// The graph edge for store edge `e` in group `lca`'s graph, from the node (or
        /// subgroup) `from` to `to`; returns its index there.
        /// An edge drawn against the flow beside the nodes (BackRoutes) gets no room for its
        /// label in the layers: the label is placed along its route. One drawn through its
        /// lanes (a curve between two nodes whose handles the layout places, see
        /// `shapeRoutes`) gets the room a forward edge gets.
        /// `rank` gives its part in the layering (`EdgeRank`), if not the default.
        mutating func bodyEdge(
            _ lca: Int, from: Int, to: Int, sourcePort: Double, targetPort: Double, _ e: FlowEdge, beside: Bool = false,
            rank: EdgeRank? = nil
        ) -> Int {
            // appended in place: a copy of the level would copy its edges, once an edge
            let (source, target) = (levels[lca]!.nodeOf[from]!, levels[lca]!.nodeOf[to]!)
            let ge = levels[lca]!.graph.edges.count
            levels[lca]!.graph.edges.append(.init(
                source: source, target: target, sourcePort: sourcePort, targetPort: targetPort,
                labelSize: LayoutPlan.labelSize(beside ? nil : e.label), pathType: e.pathType,
                minLength: rank?.minLength ?? 1, constraint: rank?.constraint ?? true, weight: rank?.weight ?? 1))
            edgeIDs[lca, default: []].append(e.id)
            return ge
        }
    }

    /// Each edge's pieces: an edge drawn against the flow is one edge of its common group's
    /// graph; the others leave their groups through border nodes, cross the common level
    /// and enter the target's groups the same way.
    mutating func addPieces(_ edges: [FlowEdge], spans: [Int: Span], against: Set<Int>, _ made: inout LevelEdges) {
        for (ei, e) in edges.enumerated() {
            guard let span = spans[ei] else { continue }
            let (a, b, ca, cb, k, lca) = (span.a, span.b, span.ca, span.cb, span.k, span.lca)
            if against.contains(ei) {
                // drawn as a whole against the flow: one edge of the common group's graph
                // from the end it enters to the end it leaves, no border nodes (its route
                // goes round the groups it leaves and enters: BackRoutes)
                let top = ca[k], below = cb[k]
                let ge = made.bodyEdge(
                    lca, from: below, to: top, sourcePort: below == b ? port(b, e.targetHandleID, .target, e.pathType) : 0,
                    targetPort: top == a ? port(a, e.sourceHandleID, .source, e.pathType) : 0, e,
                    beside: !(top == a && below == b && LayoutPlan.takesPorts(e.pathType)
                        && HandleDeclaration.areDefaults(nodes[a].handles) && HandleDeclaration.areDefaults(nodes[b].handles)),
                    rank: edgeRanks[e.id])
                made.pieces[e.id] = [.reversedBody(level: lca, edge: ge)]
                drawnAgainst.insert(e.id)
                continue
            }
            var route: [Piece] = []
            // leaving: from a's level up to the level below the common one
            var below = a
            for g in ca[k..<(ca.count - 1)].reversed() {
                let (border, ge) = made.borderNode(
                    g, inner: below, last: true, handle: below == a ? e.sourceHandleID : nil,
                    port: below == a ? port(a, e.sourceHandleID, .source, e.pathType) : 0, other: b, edge: ei, e)
                route.append(.exit(level: g, edge: ge, border: border))
                below = g
            }
            let top = below
            var entries: [Piece] = []
            below = b
            for g in cb[k..<(cb.count - 1)].reversed() {
                let (border, ge) = made.borderNode(
                    g, inner: below, last: false, handle: below == b ? e.targetHandleID : nil,
                    port: below == b ? port(b, e.targetHandleID, .target, e.pathType) : 0, other: a, edge: ei, e)
                entries.append(.entry(level: g, edge: ge, border: border))
                below = g
            }
            let ge = made.bodyEdge(
                lca, from: top, to: below, sourcePort: top == a ? port(a, e.sourceHandleID, .source, e.pathType) : 0,
                targetPort: below == b ? port(b, e.targetHandleID, .target, e.pathType) : 0, e, rank: edgeRanks[e.id])
            if top != a, case .exit(_, _, let border)? = route.last {
                made.groupEnds.append(GroupEnd(level: lca, edge: ge, group: top, border: border, atSource: true))
            }
            if below != b, case .entry(_, _, let border)? = entries.last {
                made.groupEnds.append(GroupEnd(level: lca, edge: ge, group: below, border: border, atSource: false))
            }
            route.append(.body(level: lca, edge: ge))
            route.append(contentsOf: entries.reversed())
            made.pieces[e.id] = route
        }
    }
}
