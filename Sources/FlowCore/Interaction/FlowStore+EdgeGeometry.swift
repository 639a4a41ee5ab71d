extension FlowStore {
    /// The calculator used for edges of `type`: a custom one when set, else the built-in one.
    public func pathCalculator(for type: EdgePathType) -> any EdgePathCalculator {
        customCalculators[type] ?? type.calculator
    }

    /// Replaces the path calculator of a path type (nil restores the built-in one).
    public func setPathCalculator(_ calculator: (any EdgePathCalculator)?, for type: EdgePathType) {
        customCalculators[type] = calculator
        edgeTable.forEach { reindexEdgeGeometry($0.id) }
    }

    /// Where an edge is drawn (canvas coordinates). Throws for an unknown id.
    public func edgeGeometry(_ id: String) throws(FlowError) -> EdgeGeometry {
        let e = try requireEdge(id, "edgeGeometry")
        guard let g = edgeGeometry(of: e) else {
            throw .invalidHandle("edgeGeometry", "the handles of edge '\(id)' cannot be resolved")
        }
        return g
    }

    /// The geometry of an edge, or nil when its handles cannot be resolved.
    func edgeGeometry(of e: FlowEdge) -> EdgeGeometry? {
        guard let s = handleInfo(nodeID: e.sourceNodeID, handleID: e.sourceHandleID),
            let t = handleInfo(nodeID: e.targetNodeID, handleID: e.targetHandleID)
        else { return nil }
        return EdgeGeometry(
            sourcePoint: s.point, sourcePosition: s.position, targetPoint: t.point,
            targetPosition: t.position, calculator: pathCalculator(for: e.pathType))
    }

    /// Brings the edge index up to date (see `staleEdgeGeometry`). Call before reading
    /// `edgeSpatial`.
    func refreshEdgeIndex() {
        guard !staleEdgeGeometry.isEmpty else { return }
        for id in staleEdgeGeometry { reindexEdgeGeometry(id) }
        staleEdgeGeometry.removeAll(keepingCapacity: true)
    }

    /// Re-indexes the path bounds of an edge after it or one of its nodes changed.
    func reindexEdgeGeometry(_ id: String) {
        guard let e = edgeTable[id], let g = edgeGeometry(of: e) else {
            edgeSpatial.remove(id)
            return
        }
        edgeSpatial.update(id, g.bounds)
    }
}
