extension FlowStore {
    /// The calculator used for edges of `type`: a custom one when set, else the built-in one.
    public func pathCalculator(for type: EdgePathType) -> any EdgePathCalculator {
        customCalculators[type] ?? type.calculator
    }

    /// Replaces the path calculator of a path type (nil restores the built-in one). Edges
    /// with bend points get `path(from:sourcePosition:through:to:targetPosition:)`, whose
    /// default ignores the points.
    public func setPathCalculator(_ calculator: (any EdgePathCalculator)?, for type: EdgePathType) {
        customCalculators[type] = calculator
        edgeTable.forEachSlot { reindexEdgeGeometry($0) }
    }

    /// Where an edge is drawn (canvas coordinates). Throws for an unknown id.
    public func edgeGeometry(_ id: String) throws(FlowError) -> EdgeGeometry {
        let e = try requireEdge(id, "edgeGeometry")
        guard let g = edgeGeometry(of: e) else {
            throw .invalidHandle("edgeGeometry", "the handles of edge '\(id)' cannot be resolved")
        }
        return g
    }

    /// The geometry of an edge, or nil when its handles cannot be resolved. The ends come
    /// from `EdgeEnds.resolve` (auto handles; a routed orthogonal edge attaches where its
    /// route meets the node borders).
    func edgeGeometry(of e: FlowEdge) -> EdgeGeometry? {
        guard let s = nodeTable[e.sourceNodeID], let t = nodeTable[e.targetNodeID],
            let ends = EdgeEnds.resolve(
                e, sourceFrame: s.frame, sourceHandles: s.handles, targetFrame: t.frame,
                targetHandles: t.handles, autoHandles: configuration.autoHandles,
                sourceShape: s.look == nil ? .rounded : resolvedShape(of: s),
                targetShape: t.look == nil ? .rounded : resolvedShape(of: t))
        else { return nil }
        return EdgeGeometry(
            sourcePoint: ends.source.point, sourcePosition: ends.source.position, targetPoint: ends.target.point,
            targetPosition: ends.target.position, points: Array(ends.points),
            calculator: pathCalculator(for: e.pathType))
    }

    /// Brings the edge index up to date (see `staleEdges`): first the nodes, whose changes
    /// mark their edges stale, then the stale edges. Call before reading `edgeSpatial`.
    func refreshEdgeIndex() {
        refreshNodeIndex()
        guard !staleEdges.isEmpty else { return }
        for s in staleEdges where edgeTable.isOccupied(s) && edgeTable.extra(s).isStale {
            edgeTable.modifyExtra(s) { $0.isStale = false }
            reindexEdgeGeometry(s)
        }
        staleEdges.removeAll(keepingCapacity: true)
    }

    /// Re-indexes the path bounds of the edge in a live slot after it or one of its nodes
    /// changed.
    func reindexEdgeGeometry(_ slot: Int32) {
        let new = edgeGeometry(of: edgeTable[slot: slot])?.bounds
        let old = edgeTable.extra(slot).indexedBounds
        if old == new { return }
        switch (old, new) {
        case let (o?, n?): edgeSpatial.move(slot, from: o, to: n)
        case let (o?, nil): edgeSpatial.remove(slot, o)
        case let (nil, n?): edgeSpatial.insert(slot, n)
        case (nil, nil): break
        }
        edgeTable.modifyExtra(slot) { $0.indexedBounds = new }
    }
}
