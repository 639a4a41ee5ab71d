import FlowCore

/// The layered (Sugiyama) layout: cycles broken, layers by network simplex, long edges
/// split into dummies, crossings reduced by sweeps, coordinates by Brandes–Köpf. Each
/// connected part is laid out on its own and the parts are set side by side.
public enum LayeredLayout {
    /// Sweeps of crossing reduction before giving up on improvement.
    static let sweeps = 24

    /// Lays `graph` out without limits (`LayoutLimits.unbounded`). Past the current
    /// `WorkLimit` it stops early and leaves every node at the origin: the throwing
    /// variant says so.
    public static func layout(_ graph: LayoutGraph, options: LayoutOptions) -> LayoutResult {
        (try? layout(graph, options: options, limits: .unbounded))
            ?? LayoutResult(nodeCount: graph.nodes.count, edgeCount: graph.edges.count, clusterCount: graph.clusters.count)
    }

    /// Lays `graph` out within `limits` (`LayoutLimits`: bend points, memory) and the
    /// current `WorkLimit`; throws, naming the limit, when it cannot.
    public static func layout(
        _ graph: LayoutGraph, options: LayoutOptions, limits: LayoutLimits
    ) throws(FlowError) -> LayoutResult {
        let allowance = LayoutAllowance(limits)
        defer { allowance.giveBack() }
        var result = LayoutResult(
            nodeCount: graph.nodes.count, edgeCount: graph.edges.count, clusterCount: graph.clusters.count)
        let loopRoom = min(options.layerSpacing / 2, 20)
        var hasLoop = Array(repeating: false, count: graph.nodes.count)
        for e in graph.edges where e.source == e.target { hasLoop[e.source] = true }

        // Sizes in layer terms: breadth along a layer, depth across it.
        let horizontal = options.direction.isHorizontal
        var breadth = graph.nodes.map { horizontal ? $0.height : $0.width }
        let depth = graph.nodes.map { horizontal ? $0.width : $0.height }
        for v in 0..<breadth.count where hasLoop[v] { breadth[v] += 2 * loopRoom }

        var centres = Array(repeating: Point(0, 0), count: graph.nodes.count)
        var offset = 0.0
        let stable = StableLayout.applies(graph, options)
        // a stable layout keeps unconnected parts where they were: one part
        let parts = stable
            ? [Component(nodes: Array(0..<graph.nodes.count), edges: graph.edges.indices.filter { graph.edges[$0].source != graph.edges[$0].target })]
            : components(graph)
        for component in parts {
            let part = try layoutComponent(
                graph, nodes: component.nodes, edges: component.edges, breadth: breadth,
                depth: depth, options: options, stable: stable, allowance: allowance)
            let shift = offset - part.minBreadth
            for (local, v) in component.nodes.enumerated() {
                centres[v] = Point(part.centres[local].x + shift, part.centres[local].y)
            }
            for (local, e) in component.edges.enumerated() {
                result.edgePoints[e] = part.points[local].map { Point($0.x + shift, $0.y) }
                result.labelPositions[e] = part.labels[local].map { Point($0.x + shift, $0.y) }
                result.reversed[e] = part.reversedEdges[local]
            }
            for (c, frame) in part.frames { result.clusterFrames[c] = Rect(origin: frame.origin + Point(shift, 0), size: frame.size) }
            offset += part.maxBreadth - part.minBreadth + options.componentSpacing
            result.crossings += part.crossings
            result.reversedEdges += part.reversed
            result.layers = max(result.layers, part.layers)
        }
        for e in 0..<graph.edges.count where graph.edges[e].source == graph.edges[e].target {
            let v = graph.edges[e].source
            result.edgePoints[e] = loopPoints(
                centre: centres[v], breadth: breadth[v] - 2 * loopRoom, depth: depth[v], room: loopRoom)
        }
        finish(&result, graph: graph, centres: centres, direction: options.direction)
        return result
    }

    /// A self-loop leaves below the node, passes its far side in the room kept for it, and
    /// comes back from above.
    private static func loopPoints(centre c: Point, breadth: Double, depth: Double, room: Double) -> [Point] {
        let side = c.x + breadth / 2 + room
        let top = c.y - depth / 2 - room, bottom = c.y + depth / 2 + room
        let x = c.x + breadth / 4
        return [Point(x, bottom), Point(side, bottom), Point(side, top), Point(x, top)]
    }

    /// Maps layer coordinates (x along a layer, y across layers, both centres) to the
    /// canvas for the direction, and sets the positions, bounds and size.
    static func finish(
        _ result: inout LayoutResult, graph: LayoutGraph, centres: [Point], direction: LayoutDirection
    ) {
        var maxDepth = 0.0
        for (v, c) in centres.enumerated() {
            let d = direction.isHorizontal ? graph.nodes[v].width : graph.nodes[v].height
            maxDepth = max(maxDepth, c.y + d / 2)
        }
        func map(_ p: Point) -> Point {
            switch direction {
            case .TB: return p
            case .BT: return Point(p.x, maxDepth - p.y)
            case .LR: return Point(p.y, p.x)
            case .RL: return Point(maxDepth - p.y, p.x)
            }
        }
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for (v, c) in centres.enumerated() {
            let m = map(c), n = graph.nodes[v]
            let p = Point(m.x - n.width / 2, m.y - n.height / 2)
            result.positions[v] = p
            minX = min(minX, p.x); minY = min(minY, p.y)
            maxX = max(maxX, p.x + n.width); maxY = max(maxY, p.y + n.height)
        }
        for e in 0..<result.edgePoints.count {
            result.edgePoints[e] = result.edgePoints[e].map(map)
            for p in result.edgePoints[e] {
                minX = min(minX, p.x); minY = min(minY, p.y)
                maxX = max(maxX, p.x); maxY = max(maxY, p.y)
            }
            result.labelPositions[e] = result.labelPositions[e].map(map)
        }
        for c in 0..<result.clusterFrames.count where result.clusterFrames[c] != .zero {
            let f = result.clusterFrames[c]
            let frame = Rect(corner: map(f.origin), corner: map(Point(f.origin.x + f.size.width, f.origin.y + f.size.height)))
            result.clusterFrames[c] = frame
            minX = min(minX, frame.origin.x); minY = min(minY, frame.origin.y)
            maxX = max(maxX, frame.origin.x + frame.size.width); maxY = max(maxY, frame.origin.y + frame.size.height)
        }
        guard minX.isFinite else { return }
        // the drawing starts at (0, 0)
        let shift = Point(-minX, -minY)
        for v in 0..<result.positions.count { result.positions[v] = result.positions[v] + shift }
        for e in 0..<result.edgePoints.count {
            result.edgePoints[e] = result.edgePoints[e].map { $0 + shift }
            result.labelPositions[e] = result.labelPositions[e].map { $0 + shift }
        }
        for c in 0..<result.clusterFrames.count where result.clusterFrames[c] != .zero {
            result.clusterFrames[c].origin = result.clusterFrames[c].origin + shift
        }
        result.width = maxX - minX
        result.height = maxY - minY
    }

    /// Moves nodes held to the first layer above every other node and those held to the
    /// last below. Such nodes only have edges out of them (first) or into them (last), so
    /// every edge keeps pointing down.
    static func constrainLayers(_ ranks: inout [Int], _ constraints: [LayoutGraph.LayerConstraint]) {
        guard constraints.contains(where: { $0 != .free }) else { return }
        var low = Int.max, high = Int.min
        for (v, c) in constraints.enumerated() where c == .free {
            low = min(low, ranks[v])
            high = max(high, ranks[v])
        }
        if low > high { return }
        for (v, c) in constraints.enumerated() {
            if c == .first { ranks[v] = low - 1 } else if c == .last { ranks[v] = high + 1 }
        }
        let shift = ranks.min() ?? 0
        for v in 0..<ranks.count { ranks[v] -= shift }
    }

    // MARK: Components

    struct Component {
        var nodes: [Int]
        var edges: [Int]
    }

    /// Connected parts (edge directions ignored, self-loops left out), ordered by their
    /// first node; nodes and edges keep input order within a part.
    static func components(_ graph: LayoutGraph) -> [Component] {
        var sets = DisjointSets(count: graph.nodes.count)
        func find(_ v: Int) -> Int { sets.find(v) }
        func union(_ u: Int, _ v: Int) { sets.union(u, v) }
        for e in graph.edges where e.source != e.target { union(e.source, e.target) }
        // a cluster's nodes lie in one part: its box cannot hold another part
        var clusterHolder = Array(repeating: -1, count: graph.clusters.count)
        for (v, n) in graph.nodes.enumerated() {
            var c = n.cluster
            while c >= 0 {
                if clusterHolder[c] < 0 { clusterHolder[c] = v } else { union(clusterHolder[c], v) }
                c = graph.clusters[c].parent
            }
        }
        // nodes held to the first (or last) layer share it, so they belong to one part
        var firstHeld = -1, lastHeld = -1
        for (v, n) in graph.nodes.enumerated() {
            switch n.layer {
            case .first: if firstHeld < 0 { firstHeld = v } else { union(firstHeld, v) }
            case .last: if lastHeld < 0 { lastHeld = v } else { union(lastHeld, v) }
            case .free: break
            }
        }
        // nodes of one rank constraint share a layer (`RankClasses`): they belong to one
        // part; `min`, `max`, `source` and `sink` hold across the whole graph, as in dot:
        // with one of them the whole graph is one part
        var whole = false
        for c in graph.ranks {
            guard let first = c.nodes.first else { continue }
            for v in c.nodes.dropFirst() { union(first, v) }
            if c.kind != .same && !whole {
                whole = true
                for v in 0..<graph.nodes.count { union(first, v) }
            }
        }
        var index = [Int: Int]()
        var parts: [Component] = []
        for v in 0..<graph.nodes.count {
            let r = find(v)
            if let i = index[r] {
                parts[i].nodes.append(v)
            } else {
                index[r] = parts.count
                parts.append(Component(nodes: [v], edges: []))
            }
        }
        for (i, e) in graph.edges.enumerated() where e.source != e.target {
            parts[index[find(e.source)]!].edges.append(i)
        }
        return parts
    }

    // MARK: One component

    struct Part {
        var centres: [Point]
        var points: [[Point]]
        var labels: [Point?]
        var minBreadth: Double
        var maxBreadth: Double
        var crossings: Int
        var reversed: Int
        var reversedEdges: [Bool]
        var layers: Int
        /// The boxes of the clusters that hold its nodes, in layer terms.
        var frames: [Int: Rect] = [:]
    }

    static func layoutComponent(
        _ graph: LayoutGraph, nodes: [Int], edges: [Int], breadth: [Double], depth: [Double],
        options: LayoutOptions, stable: Bool = false, allowance: LayoutAllowance = LayoutAllowance(.unbounded)
    ) throws(FlowError) -> Part {
        // a stable layout's previous centres, in layer terms (`StableLayout`)
        let previous = nodes.map { graph.nodes[$0].previous.map { StableLayout.layerTerms($0, options.direction) } }
        var local = [Int: Int](minimumCapacity: nodes.count)
        for (i, v) in nodes.enumerated() { local[v] = i }
        let pairs = edges.map { (local[graph.edges[$0].source]!, local[graph.edges[$0].target]!) }
        // rank constraints merge nodes for the layering (`RankClasses`)
        let merged = RankClasses(graph.ranks, local: local, nodeCount: nodes.count)
        var reversed = reversedEdges(graph, nodes: nodes, edges: edges, pairs: pairs, merged: merged)
        var labels: [Size?] = []
        var rankEdges: [NetworkSimplex.Edge] = []
        for (i, e) in edges.enumerated() {
            let edge = graph.edges[e]
            let (s, t) = reversed[i] ? (pairs[i].1, pairs[i].0) : pairs[i]
            // an edge drawn against the flow gets no room for its label in the layers: its
            // route runs beside the nodes (the store's back routes) and the label goes along it
            let label: Size? = edge.hasLabel && !reversed[i]
                ? (options.direction.isHorizontal
                    ? Size(edge.labelSize.height, edge.labelSize.width) : edge.labelSize)
                : nil
            labels.append(label)
            guard edge.constraint else { continue }
            rankEdges.append(.init(source: s, target: t, minLength: edge.minLength, weight: edge.weight))
        }
        // nodes held to one layer are chained by free edges (length 0 or more, no weight),
        // which keeps the part connected for network simplex; they are moved into place after
        var previousHeld: [LayoutGraph.LayerConstraint: Int] = [:]
        for (local, v) in nodes.enumerated() where graph.nodes[v].layer != .free {
            if let p = previousHeld[graph.nodes[v].layer] {
                rankEdges.append(.init(source: p, target: local, minLength: 0, weight: 0))
            }
            previousHeld[graph.nodes[v].layer] = local
        }
        var ranks = layering(graph, nodes: nodes, edges: rankEdges, merged: merged, stable: stable, previous: previous)
        constrainLayers(&ranks, nodes.map { graph.nodes[$0].layer })
        let (down, ports) = pointDown(graph, edges: edges, pairs: pairs, ranks: ranks, reversed: &reversed, labels: &labels)
        if hasLabelRanks(ranks: ranks, edges: down, labels: labels) { ranks = ranks.map { 2 * $0 } }
        try WorkLimit.check("layout")
        let owners = try admit(ranks: ranks, edges: down, ports: ports, labels: labels, allowance: allowance)
        var proper = ProperGraph(
            ranks: ranks, breadth: nodes.map { breadth[$0] }, depth: nodes.map { depth[$0] },
            edges: down, ports: ports, labels: labels, owners: owners)
        try WorkLimit.check("layout")
        proper.orderKey = nodes.map { graph.nodes[$0].orderKey }
        proper.orderTie = nodes.map { graph.nodes[$0].orderTie }
        proper.take(edges.map { graph.edges[$0] }, down: down, nodeSpacing: options.nodeSpacing)
        let clusters = ClusterLayout(graph, nodes: nodes, proper: proper, direction: options.direction)
        // a stable layout's previous places along the layers, by vertex (bends included)
        let along = stable
            ? StableLayout.previousAlong(
                proper, previous: previous,
                routes: edges.map { graph.edges[$0].previousRoute?.map { StableLayout.layerTerms($0, options.direction) } })
            : []
        var ordering = order(proper, clusters: clusters, options: options, stable: stable, along: along)
        try WorkLimit.check("layout")
        let coordinates = Coordinates(
            graph: proper, layers: ordering.layers, nodeSpacing: options.nodeSpacing,
            edgeSpacing: options.edgeSpacing)
        let hold = nodes.map { graph.nodes[$0].hold }
        let boxes = clusters?.coordinates(
            graph: proper, layers: ordering.layers, separation: coordinates.separation, spacing: options.nodeSpacing / 2,
            pull: stable ? StableLayout.pull(proper, along: along, hold: hold) : nil)
        let x = boxes?.x ?? (stable
            ? StableLayout.coordinates(
                graph: proper, layers: ordering.layers, along: along,
                hold: hold, separation: coordinates.separation)
            : coordinates.assign())

        let (layerTop, layerDepth) = stack(proper, room: clusters?.room(proper), layers: ordering.layers, options: options)
        var minB = Double.infinity, maxB = -Double.infinity
        for v in 0..<proper.count {
            minB = min(minB, x[v] - proper.breadth[v] / 2)
            maxB = max(maxB, x[v] + proper.breadth[v] / 2)
        }
        var frames: [Int: Rect] = [:]
        if let clusters, let boxes {
            frames = clusters.frames(proper, low: boxes.low, high: boxes.high, layerTop: layerTop, layerDepth: layerDepth)
            for f in frames.values {
                minB = min(minB, f.origin.x)
                maxB = max(maxB, f.origin.x + f.size.width)
            }
        }
        let centres = (0..<nodes.count).map { v in
            Point(x[v], layerTop[proper.layer[v]] + layerDepth[proper.layer[v]] / 2)
        }
        try WorkLimit.check("layout")
        let straightRoutes = StraightRoutes(
            graph: proper, layers: ordering.layers, x: x, bandTop: layerTop,
            bandBottom: (0..<proper.layerCount).map { layerTop[$0] + layerDepth[$0] },
            separation: coordinates.separation,
            walls: boxes.flatMap { b in
                clusters?.walls(
                    graph: proper, layers: ordering.layers, low: b.low, high: b.high, spacing: options.nodeSpacing / 2)
            })
        let (points, labelCentres) = routes(
            graph, edges: edges, proper: proper, straightRoutes: straightRoutes, reversed: reversed, x: x,
            layerTop: layerTop, layerDepth: layerDepth)
        try WorkLimit.check("layout")
        return Part(
            centres: centres, points: points, labels: labelCentres,
            minBreadth: minB.isFinite ? minB : 0, maxBreadth: maxB.isFinite ? maxB : 0,
            crossings: ordering.totalCrossings(), reversed: reversed.filter { $0 }.count, reversedEdges: reversed,
            layers: proper.layerCount, frames: frames)
    }

    /// Counts the bend points a part's edges need (`LayoutLimits`) before anything is built
    /// for them: past `sharedChainsFrom`, parallel edges share chains (the owners returned,
    /// nil otherwise); then the allowance admits them or throws.
    static func admit(
        ranks: [Int], edges: [(source: Int, target: Int)], ports: [(Double, Double)], labels: [Size?],
        allowance: LayoutAllowance
    ) throws(FlowError) -> [Int]? {
        var count = ProperGraph.bendPoints(ranks: ranks, edges: edges)
        var owners: [Int]? = nil
        if count.all > LayoutLimits.sharedChainsFrom {
            owners = ProperGraph.sharedChains(edges: edges, ports: ports, labels: labels)
            count = ProperGraph.bendPoints(ranks: ranks, edges: edges, owners: owners)
        }
        try allowance.admit(bendPoints: count.all, shared: count.owned)
        return owners
    }
}
