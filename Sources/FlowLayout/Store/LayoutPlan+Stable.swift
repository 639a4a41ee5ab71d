import FlowCore

/// A stable layout's inputs from the store (`LayoutOptions.stable`): where each node was,
/// and where the laid-out drawing goes so that the nodes that were placed stay put.
extension LayoutPlan {
    /// How strongly a node that stays while others are fitted in (`LayoutRequest.nodes`
    /// with `stable`) is held, against 1 for a node of a plain stable layout.
    static var fittedHold: Int { 50 }

    /// Sets `previous` and `hold`: each laid-out node's centre in its container's frame as
    /// it is now, for the nodes whose position is a place to keep (`placed`) and that are
    /// not being fitted in (`fitted`); nil for the others, and for the children of a group
    /// that is itself new (their positions were not laid out inside it).
    mutating func setPrevious(placed: [Bool], fitted: [Bool]?, groupIndex: Int) {
        let pad = request.groupPadding, title = request.groupTitleHeight
        previous = Array(repeating: nil, count: nodes.count)
        hold = Array(repeating: fitted == nil ? 1 : LayoutPlan.fittedHold, count: nodes.count)
        for i in 0..<nodes.count where inScope[i] && placed[i] && !(fitted?[i] ?? false) {
            let c = container[i] >= 0 ? container[i] : groupIndex
            if c >= 0 && !placed[c] { continue }
            let origin = c >= 0 ? nodes[c].position + Point(pad, pad + title) : Point(0, 0)
            let n = nodes[i]
            previous[i] = Point(
                n.position.x + n.size.width / 2 - origin.x, n.position.y + n.size.height / 2 - origin.y)
        }
    }

    /// Sets `previousRoute` on the top level's edges (whose frame is the canvas) that join
    /// two nodes with a previous centre there: the bend points the store holds.
    func setPreviousRoutes(_ levels: inout [Int: Level], pieces: [String: [Piece]], edges: [FlowEdge]) {
        guard !previous.isEmpty, levels[-1] != nil else { return }
        for e in edges where !e.points.isEmpty {
            guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID], previous[a] != nil, previous[b] != nil,
                let only = pieces[e.id], only.count == 1
            else { continue }
            switch only[0] {
            case .body(-1, let ge), .reversedBody(-1, let ge): levels[-1]!.graph.edges[ge].previousRoute = e.points
            default: continue
            }
        }
    }

    /// Where a stable layout puts the top level: moved so that the median node that was
    /// placed stays where it was (across and along the layers apart); nil when none was.
    func stableAnchor(_ r: LayoutResult, _ level: Level) -> Point? {
        guard request.options.stable, !previous.isEmpty else { return nil }
        var dx: [Double] = [], dy: [Double] = []
        for (m, gi) in level.nodeOf.sorted(by: { $0.key < $1.key }) where previous[m] != nil {
            dx.append(nodes[m].position.x - r.positions[gi].x)
            dy.append(nodes[m].position.y - r.positions[gi].y)
        }
        guard !dx.isEmpty else { return nil }
        dx.sort()
        dy.sort()
        return Point(dx[(dx.count - 1) / 2], dy[(dy.count - 1) / 2])
    }
}

extension FlowStore {
    /// The nodes whose positions a stable layout keeps, when the request does not say
    /// (`LayoutRequest.placed`): those the store held at its last layout, or, before any,
    /// those whose box overlaps no earlier node's box in their container (nodes added
    /// without a position pile up at one spot; a layout never overlaps two).
    func placedForLayout() -> [Bool] {
        let all = nodes
        if let known = lastLayoutNodeIDs { return all.map { known.contains($0.id) } }
        var placed = Array(repeating: true, count: all.count)
        // boxes filed by cells of a grid, per container
        let cell = 256.0
        var grid: [String: [Int]] = [:]
        for (i, n) in all.enumerated() {
            let f = n.frame
            let x0 = Int((f.origin.x / cell).rounded(.down)), x1 = Int(((f.origin.x + f.size.width) / cell).rounded(.down))
            let y0 = Int((f.origin.y / cell).rounded(.down)), y1 = Int(((f.origin.y + f.size.height) / cell).rounded(.down))
            guard x1 - x0 < 64, y1 - y0 < 64 else { continue }
            var keys: [String] = []
            for x in x0...x1 { for y in y0...y1 { keys.append("\(n.parentID ?? "")\u{0}\(x),\(y)") } }
            search: for k in keys {
                for j in grid[k] ?? [] {
                    let g = all[j].frame
                    if f.origin.x < g.origin.x + g.size.width && g.origin.x < f.origin.x + f.size.width
                        && f.origin.y < g.origin.y + g.size.height && g.origin.y < f.origin.y + f.size.height {
                        placed[i] = false
                        break search
                    }
                }
            }
            for k in keys { grid[k, default: []].append(i) }
        }
        return placed
    }
}
