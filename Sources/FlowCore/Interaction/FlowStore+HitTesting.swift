/// What is under a canvas point.
public enum HitTarget: Hashable, Sendable {
    case handle(nodeID: String, handleID: String, type: HandleType, position: HandlePosition)
    case node(String)
    case edge(String)
}

extension FlowStore {
    /// Front-to-back order: higher `zIndex` first; for equal `zIndex`, later in store order
    /// first.
    func isInFront(_ a: Node, _ b: Node) -> Bool {
        if a.zIndex != b.zIndex { return a.zIndex > b.zIndex }
        return (nodeTable.seq(of: a.id) ?? 0) > (nodeTable.seq(of: b.id) ?? 0)
    }

    /// Nodes among `ids`, front to back.
    func frontToBack(_ ids: [String]) -> [Node] {
        ids.compactMap { nodeTable[$0] }.sorted(by: isInFront)
    }

    /// The front-most node whose outline contains `p`, or nil. The frame's test is
    /// half-open; shapes other than `rounded` and `rectangle` count only their outline
    /// (`NodeShape.contains`).
    public func hitTestNode(at p: Point) -> Node? {
        var best: Int32 = -1
        var bestZ = 0, bestSeq = 0
        refreshNodeIndex()
        spatial.forEachCandidate(at: p) { s in
            let hit = nodeTable.withElement(slot: s) { n in
                n.look == nil ? n.frame.contains(p) : resolvedShape(of: n).contains(p, in: n.frame)
            }
            guard hit else { return }
            let z = nodeTable.withElement(slot: s) { $0.zIndex }, q = nodeTable.seq(slot: s)
            if best < 0 || z > bestZ || (z == bestZ && q > bestSeq) {
                best = s
                bestZ = z
                bestSeq = q
            }
        }
        return best < 0 ? nil : nodeTable[slot: best]
    }

    /// The handle whose connection-start area contains `p` at the smallest distance (areas
    /// `node` and `nodeBorder` count as distance 0); ties go to the front-most node and the
    /// first declared handle. Nil areas are point areas of `radius` (D8, D22).
    public func hitTestHandle(
        at p: Point, radius: Double? = nil
    ) -> (nodeID: String, handleID: String, type: HandleType, position: HandlePosition)? {
        let r = radius ?? configuration.handleHitRadius
        return nearestHandle(at: p, defaultRadius: r, excluding: nil, type: nil, area: \.connectionStartArea)
    }

    /// The nearest handle of `type` on a node other than `excludingNodeID` whose
    /// connection-target area contains `p` (nil areas: point areas of `radius`, default the
    /// configured connection radius).
    public func findNearestHandle(
        at p: Point, excludingNodeID: String?, type: HandleType, radius: Double? = nil
    ) -> (nodeID: String, handleID: String, type: HandleType, position: HandlePosition)? {
        let r = radius ?? configuration.connectionRadius
        return nearestHandle(at: p, defaultRadius: r, excluding: excludingNodeID, type: type, area: \.connectionTargetArea)
    }

    private func nearestHandle(
        at p: Point, defaultRadius: Double, excluding: String?, type: HandleType?,
        area: (HandleDeclaration) -> HandleHitArea?
    ) -> (nodeID: String, handleID: String, type: HandleType, position: HandlePosition)? {
        let reach = max(defaultRadius, handleReach)
        let query = Rect(p.x - reach, p.y - reach, 2 * reach, 2 * reach)
        // The smallest distance wins; ties go to the front-most node, then to the handle
        // declared first (what a front-to-back scan with a strict comparison would pick),
        // without sorting the candidates.
        var best: (nodeID: String, handleID: String, type: HandleType, position: HandlePosition)?
        var bestNode: Node?
        var bestDistance = Double.infinity
        let excludedSlot = excluding.flatMap { nodeTable.slot(of: $0) } ?? -1
        // Every area lies within `reach` of its node's frame (handle points are on the
        // frame or inside it), so a node farther away is skipped before it is read whole;
        // the margin covers rounding. A node in several cells of the query is visited once
        // per cell, which changes nothing: the same handle never wins twice.
        let margin = reach + 1e-6 * max(1, abs(p.x), abs(p.y))
        refreshNodeIndex()
        spatial.forEachCandidate(in: query) { s in
            guard s != excludedSlot else { return }
            let near = nodeTable.withElement(slot: s) { n in
                let f = n.frame
                return p.x >= f.minX - margin && p.x <= f.maxX + margin && p.y >= f.minY - margin
                    && p.y <= f.maxY + margin
            }
            guard near else { return }
            let n = nodeTable[slot: s]
            let frame = n.frame
            for h in n.handles where type == nil || h.type == type {
                let a = area(h) ?? .point(radius: defaultRadius)
                guard let d = a.hitDistance(p, handlePoint: handlePoint(h, of: n), frame: frame) else { continue }
                let better: Bool
                if d < bestDistance {
                    better = true
                } else if d == bestDistance, let b = bestNode, b.id != n.id {
                    better = isInFront(n, b)
                } else {
                    better = false
                }
                if better {
                    bestDistance = d
                    bestNode = n
                    best = (n.id, h.id, h.type, h.position)
                }
            }
        }
        return best
    }

    /// The nodes whose frame intersects `rect` (closed), in store order. Costs in proportion
    /// to the grid cells covered and the nodes returned.
    @_specialize(exported: true, where Data == JSONValue)
    public func nodesInRect(_ rect: Rect) -> [Node] {
        let r = rect.standardized
        refreshNodeIndex()
        let slots = spatial.candidates(in: r).filter { s in nodeTable.withElement(slot: s) { $0.frame.intersects(r) } }
        return slots.sorted { nodeTable.seq(slot: $0) < nodeTable.seq(slot: $1) }.map { nodeTable[slot: $0] }
    }

    /// The largest distance outside its frame at which any custom handle area can hit (never
    /// shrinks; a safe bound for spatial queries).
    var handleReach: Double { customHandleReach }

    /// Grows `customHandleReach` for the handles of `n`.
    func noteHandleReach(_ n: Node) {
        for h in n.handles {
            noteReach(h.connectionStartArea)
            noteReach(h.connectionTargetArea)
        }
    }

    @inline(__always)
    private func noteReach(_ a: HandleHitArea?) {
        switch a {
        case .point(let r)?: if r > customHandleReach { customHandleReach = r }
        case .nodeBorder(let w)?: if w > customHandleReach { customHandleReach = w }
        default: break
        }
    }
}

extension FlowStore {
    /// The top-most edge (last in store order) whose path passes strictly within
    /// `tolerance` (default: the configured edge hit tolerance) of `p`.
    public func hitTestEdge(at p: Point, tolerance: Double? = nil) -> FlowEdge? {
        let t = tolerance ?? configuration.edgeHitTolerance
        var best: Int32 = -1
        var bestSeq = Int.min
        // A path within t of p has its bounding box within t of p, so candidates whose
        // indexed bounds (grown by t and a rounding margin) miss p are skipped before their
        // path is built; the answer is the same as measuring every candidate.
        let reach = t + 1e-6 * max(1, abs(p.x), abs(p.y))
        // (an edge visited again, from another cell, has no greater sequence number)
        refreshEdgeIndex()
        edgeSpatial.forEachCandidate(in: Rect(p.x - t, p.y - t, 2 * t, 2 * t)) { s in
            let seq = edgeTable.seq(slot: s)
            guard seq > bestSeq, let b = edgeTable.extra(s).indexedBounds,
                p.x >= b.minX - reach, p.x <= b.maxX + reach, p.y >= b.minY - reach, p.y <= b.maxY + reach,
                let g = edgeGeometry(of: edgeTable[slot: s]), g.path.distance(to: p) < t
            else { return }
            best = s
            bestSeq = seq
        }
        return best < 0 ? nil : edgeTable[slot: best]
    }

    /// Everything under the canvas point `p`, by priority: a handle (its start area, else a
    /// point area of the handle hit radius), then the front-most node, then the top-most edge.
    @_specialize(exported: true, where Data == JSONValue)
    public func hitTest(at p: Point) -> HitTarget? {
        if let h = hitTestHandle(at: p) {
            return .handle(nodeID: h.nodeID, handleID: h.handleID, type: h.type, position: h.position)
        }
        if let n = hitTestNode(at: p) { return .node(n.id) }
        if let e = hitTestEdge(at: p) { return .edge(e.id) }
        return nil
    }
}
