// Bend points and moving nodes (docs/store.md, "Bend points").
//
// Bend points are absolute canvas coordinates: when one end of an edge moves, the end
// follows its node and the points stay, except a first (last) point on that node's border
// where the edge attaches (a layout's port), which moves with it. When one operation moves both end nodes of an edge
// by the same delta (a node with its subtree, `setNodePositions`, a drag of a selection,
// a settled animation), the edge's points move by that delta too, in the same undo step
// and event batch (an edge `replace`). The moves are read from the operation's journal when
// it finishes (`carryBendPoints`), so every way of moving nodes is covered, and only moves
// that are recorded count: the frames of a drag or an animation move no points; the step
// that records the gesture (`endNodeDrag`, the animation settling) moves them once.

extension FlowStore {
    /// Moves the bend points of every edge whose two end nodes the finishing top-level
    /// operation moved by the same delta (see above). A node's delta is its position now
    /// minus its position before its first journaled move; the two deltas must agree to
    /// within rounding (1e-9 of the coordinates). Edges the operation added, or whose
    /// points it set itself, keep the points it gave them. Called with `bentEdgeCount > 0`,
    /// outside replays, before the journal is committed.
    func carryBendPoints() {
        var before: [String: Point] = [:]
        var setByOperation: Set<String> = []
        func moved(_ id: String, from p: Point) {
            if before[id] == nil { before[id] = p }
        }
        var frames = log.frameRanges[...]
        for (i, entry) in log.journal.enumerated() {
            while let f = frames.first, f.upperBound <= i { frames = frames.dropFirst() }
            if let f = frames.first, f.contains(i) { continue }
            switch entry {
            case .moveNode(let key, let from):
                if let s = nodeTable.lookup(inline: key) { moved(nodeTable.id(slot: s), from: from) }
            case .moveNodeByID(let id, let from):
                moved(id, from: from)
            case .replaceNode(let old, let new) where old.position != new.position:
                moved(new.id, from: old.position)
            case .insertEdge(let id, _):
                setByOperation.insert(id)
            case .replaceEdge(let old, let new) where old.points != new.points:
                setByOperation.insert(new.id)
            default:
                break
            }
        }
        guard !before.isEmpty else { return }
        var carried: [(seq: Int, edge: FlowEdge)] = []
        var seen: Set<Int32> = []
        for id in before.keys {
            guard let slot = nodeTable.slot(of: id) else { continue }
            for es in nodeTable.extra(slot).links.edges where seen.insert(es).inserted {
                let e = edgeTable[slot: es]
                // A router re-routes the orthogonal edges of moved nodes instead.
                guard !e.points.isEmpty, !setByOperation.contains(e.id),
                    e.pathType != .orthogonal || routing.router == nil
                else { continue }
                var new = e
                if let d = commonDelta(of: e, before: before) {
                    new.points = e.points.map { $0 + d }
                } else {
                    new.points = attachedEndsCarried(e, before: before)
                    if new.points == e.points { continue }
                }
                guard new.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
                carried.append((edgeTable.seq(slot: es), new))
            }
        }
        carried.sort { $0.seq < $1.seq }
        for c in carried { pReplaceEdge(c.edge) }
    }

    /// The points of `e` with an end point that lay on its node's border (where the edge
    /// attaches: a layout's port) moved with that node, when only one end moved or they
    /// moved apart; the other points stay.
    private func attachedEndsCarried(_ e: FlowEdge, before: [String: Point]) -> [Point] {
        var points = e.points
        func delta(_ id: String) -> (old: Rect, shape: NodeShape, by: Point)? {
            guard let p0 = before[id], let slot = nodeTable.slot(of: id) else { return nil }
            let n = nodeTable[slot: slot]
            let d = n.position - p0
            return d == .zero ? nil : (Rect(origin: p0, size: n.size), resolvedShape(of: n), d)
        }
        var first = false
        if let (old, shape, d) = delta(e.sourceNodeID), shape.portSide(of: points[0], in: old) != nil {
            points[0] = points[0] + d
            first = true
        }
        let last = points.count - 1
        if last > 0 || !first, let (old, shape, d) = delta(e.targetNodeID),
            shape.portSide(of: points[last], in: old) != nil
        {
            points[last] = points[last] + d
        }
        return points
    }

    /// The delta both end nodes of `e` moved by, or nil when one of them did not move, they
    /// moved differently, or the delta is zero.
    private func commonDelta(of e: FlowEdge, before: [String: Point]) -> Point? {
        guard let s0 = before[e.sourceNodeID], let t0 = before[e.targetNodeID],
            let s = nodeTable.slot(of: e.sourceNodeID), let t = nodeTable.slot(of: e.targetNodeID)
        else { return nil }
        let s1 = nodeTable[slot: s].position, t1 = nodeTable[slot: t].position
        let ds = s1 - s0, dt = t1 - t0
        if ds == .zero { return nil }
        // A subtree moves by `position + delta` node by node, which rounds differently.
        func same(_ a: Double, _ b: Double, _ scale: Double...) -> Bool {
            abs(a - b) <= 1e-9 * scale.reduce(1) { max($0, abs($1)) }
        }
        guard same(ds.x, dt.x, s0.x, s1.x, t0.x, t1.x), same(ds.y, dt.y, s0.y, s1.y, t0.y, t1.y) else {
            return nil
        }
        return ds
    }
}
