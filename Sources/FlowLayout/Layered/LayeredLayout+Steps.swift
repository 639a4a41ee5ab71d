import FlowCore

// The steps of `LayeredLayout.layoutComponent` after layering: order, layer positions, routes.
extension LayeredLayout {
    /// The order within each layer: crossing reduction (and the clusters' grouping), or for
    /// a stable layout the previous order with the new vertices sifted in (`StableLayout`).
    static func order(
        _ proper: ProperGraph, clusters: ClusterLayout?, options: LayoutOptions, stable: Bool, along: [Double?]
    ) -> Ordering {
        var ordering = Ordering(graph: proper)
        if stable {
            StableLayout.order(&ordering, graph: proper, along: along, clusters: clusters)
        } else {
            if let flat = FlatOrdering(proper) {
                flat.minimizeCrossings(&ordering, sifting: clusters == nil, effort: options.effort)
            } else {
                ordering.minimizeCrossings(
                    CrossingSearch.forGraph(vertices: proper.count, effort: options.effort), sweeps: sweeps)
            }
            if let clusters {
                clusters.reduceCrossings(&ordering, graph: proper)
                // a thorough search's order need not group better than the normal one's:
                // the better of the two, so it never ends with more crossings
                if options.effort == .thorough {
                    var normal = Ordering(graph: proper)
                    normal.minimizeCrossings(CrossingSearch.forGraph(vertices: proper.count, effort: .normal), sweeps: sweeps)
                    clusters.reduceCrossings(&normal, graph: proper)
                    if normal.totalCrossings() < ordering.totalCrossings() { ordering = normal }
                }
            }
        }
        return ordering
    }

    /// How far a layer of dummies alone (the labels of edges between two layers of nodes,
    /// and the edges passing them) lies from its neighbours, in layer spacings: 20 at the
    /// default 50, as dot puts its label ranks half its 36 apart. A labelled edge then takes
    /// less than one spacing more than its label's height. The plain curve's floor on the
    /// spacing (`LayoutOptions.curveLayerSpacing`) does not hold for these gaps: an edge
    /// through such a layer bends in it.
    static let labelLayerShare = 0.4

    /// Where each layer starts along the flow, and how deep it is: layers stacked with their
    /// deepest vertex (vertices are centred in their layer), a layer of dummies alone
    /// `labelLayerShare` of a gap from its neighbours. A layer with a labelled flat edge
    /// arcing over it keeps its label's room before it (`flatLabelRoom`, by the order
    /// `layers`).
    static func stack(
        _ proper: ProperGraph, room: (before: [Double], after: [Double])?, layers: [[Int]], options: LayoutOptions
    ) -> (top: [Double], depth: [Double]) {
        let flat = proper.flatLabelRoom(layers)
        var layerDepth = Array(repeating: 0.0, count: proper.layerCount)
        var holdsNodes = Array(repeating: false, count: proper.layerCount)
        for v in 0..<proper.count { layerDepth[proper.layer[v]] = max(layerDepth[proper.layer[v]], proper.depth[v]) }
        for v in 0..<proper.realCount { holdsNodes[proper.layer[v]] = true }
        // Boxes that end or start between two layers take their padding (and title) there,
        // and half a gap more between them; a layer of labels alone keeps only its own
        // narrower gap from them, as dot's label ranks sit close by its clusters (closer,
        // and a label drawn halfway along its edge's path would no longer fit on it there).
        var layerTop = Array(repeating: 0.0, count: proper.layerCount)
        for l in 1..<max(1, proper.layerCount) {
            var gap = holdsNodes[l - 1] && holdsNodes[l] ? options.layerSpacing : options.layerSpacing * labelLayerShare
            let needed = (room?.after[l - 1] ?? 0) + (room?.before[l] ?? 0) + flat[l]
            let clear = holdsNodes[l - 1] && holdsNodes[l] ? options.layerSpacing / 2 : gap
            if needed > 0 { gap = max(gap, needed + clear) }
            layerTop[l] = layerTop[l - 1] + layerDepth[l - 1] + gap
        }
        if options.equalLayerSpacing { equalize(&layerTop, depth: layerDepth) }
        return (layerTop, layerDepth)
    }

    /// Layers' centres spaced equally, as dot's `ranksep=equally` spaces its ranks: every
    /// step from a centre to the next as long as the longest one stacked, so no gap shrinks.
    static func equalize(_ layerTop: inout [Double], depth: [Double]) {
        guard layerTop.count > 2 else { return }
        func centre(_ l: Int) -> Double { layerTop[l] + depth[l] / 2 }
        var step = 0.0
        for l in 1..<layerTop.count { step = max(step, centre(l) - centre(l - 1)) }
        let first = centre(0)
        for l in 1..<layerTop.count { layerTop[l] = first + Double(l) * step - depth[l] / 2 }
    }

    /// Each edge's bend points (top and bottom of every layer its chain passes, where the
    /// straightened routes cross it) in drawing order, and its label's centre.
    static func routes(
        _ graph: LayoutGraph, edges: [Int], proper: ProperGraph, straightRoutes: StraightRoutes, reversed: [Bool],
        x: [Double], layerTop: [Double], layerDepth: [Double]
    ) -> (points: [[Point]], labels: [Point?]) {
        let crossing = straightRoutes.place(straight: edges.map { graph.edges[$0].runsStraight })
        var points: [[Point]] = []
        var labelCentres: [Point?] = []
        for (i, chain) in proper.chains.enumerated() {
            var route: [Point] = []
            for d in chain.dropFirst().dropLast() {
                let l = proper.layer[d]
                let top = layerTop[l], bottom = layerTop[l] + layerDepth[l]
                route.append(Point(crossing.top[d], top))
                if bottom > top { route.append(Point(crossing.bottom[d], bottom)) }
            }
            if graph.edges[edges[i]].bendsWhenFlat, chain.count > 2 || proper.layer[chain[0]] != proper.layer[chain[1]],
                let middle = straightRoutes.middle(of: i) { route.append(middle) }
            if reversed[i] { route.reverse() }
            points.append(route)
            let lv = proper.labelVertex[i]
            labelCentres.append(lv >= 0 ? Point(x[lv], layerTop[proper.layer[lv]] + layerDepth[proper.layer[lv]] / 2) : nil)
        }
        return (points, labelCentres)
    }
}

extension LayeredLayout {
    /// Which of a part's edges (`pairs`: local ends of `nodes`) are drawn against the flow to
    /// break cycles, after its rank constraints (`RankClasses`); with clusters and no rank
    /// constraints, level by level (`clusteredReversal`). Edges that do not constrain the
    /// layering (`LayoutGraph.Edge.constraint`) take no part: false for them.
    static func reversedEdges(
        _ graph: LayoutGraph, nodes: [Int], edges: [Int], pairs: [(Int, Int)], merged: RankClasses?
    ) -> [Bool] {
        let constraining = edges.indices.filter { graph.edges[edges[$0]].constraint }
        let chosen = constraining.count == edges.count ? pairs : constraining.map { pairs[$0] }
        let turned = cyclesBroken(graph, nodes: nodes, pairs: chosen, merged: merged)
        if constraining.count == edges.count { return turned }
        var reversed = Array(repeating: false, count: edges.count)
        for (k, i) in constraining.enumerated() { reversed[i] = turned[k] }
        return reversed
    }

    /// The cycle breaking of `pairs` (edges over `nodes`, by local index): after the rank
    /// constraints when there are any, else level by level when there are clusters, else
    /// plain.
    static func cyclesBroken(_ graph: LayoutGraph, nodes: [Int], pairs: [(Int, Int)], merged: RankClasses?) -> [Bool] {
        if let merged { return merged.edgesToReverse(pairs) }
        guard !graph.clusters.isEmpty else { return edgesToReverse(nodeCount: nodes.count, edges: pairs) }
        return clusteredReversal(
            nodeCount: nodes.count, edges: pairs, cluster: nodes.map { graph.nodes[$0].cluster },
            parent: graph.clusters.map(\.parent))
    }
}

extension LayeredLayout {
    /// The part's edges pointing down the layers, with their ports at the upper and lower
    /// end. An edge that does not constrain the layering points the way its ends' layers
    /// say: drawn against the flow (and without a label layer) when its target is higher.
    static func pointDown(
        _ graph: LayoutGraph, edges: [Int], pairs: [(Int, Int)], ranks: [Int], reversed: inout [Bool], labels: inout [Size?]
    ) -> (down: [(source: Int, target: Int)], ports: [(Double, Double)]) {
        var down: [(source: Int, target: Int)] = []
        var ports: [(Double, Double)] = []
        for (i, e) in edges.enumerated() {
            let edge = graph.edges[e]
            if !edge.constraint {
                reversed[i] = ranks[pairs[i].0] > ranks[pairs[i].1]
                if reversed[i] { labels[i] = nil }
            }
            down.append(reversed[i] ? (pairs[i].1, pairs[i].0) : pairs[i])
            ports.append(reversed[i] ? (edge.targetPort, edge.sourcePort) : (edge.sourcePort, edge.targetPort))
        }
        return (down, ports)
    }
}
