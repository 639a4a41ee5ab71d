extension FlowStore {
    /// The id `addEdge` would generate: the smallest `"e<k>"` (k ≥ 1) not in use.
    @_specialize(exported: true, where Data == JSONValue)
    public func nextEdgeID() -> String {
        edgeIDs.next { edgeTable.contains($0) || $0.isEmpty }
    }

    /// Adds an edge. Throws for a duplicate id, a missing endpoint, a handle id the node does
    /// not declare, a handle of the wrong type, or an invalid parent. Undo step "Add Edge".
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func addEdge(_ edge: FlowEdge) throws(FlowError) -> FlowEdge {
        let slot = try add(edge)
        return edgeTable[slot: slot]
    }

    /// `addEdge(_:)` without handing the edge back: the edge is moved into the store, not
    /// copied (for callers that do not need it back, like the Lua binding). Returns the
    /// edge's slot (see `edgeSlot(_:)`).
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func add(_ edge: consuming FlowEdge) throws(FlowError) -> Int32 {
        let (key, ends) = try checkNew(edge, "addEdge")
        // Everything is checked: the insertion cannot fail. A quiet call (nobody listens,
        // nothing nested) opens no operation: its one entry goes straight to the history. An
        // orthogonal edge is routed after the operation, so it always opens one.
        let marks = isQuietTopLevel && edge.pathType != .orthogonal ? nil : beginChecked("Add Edge")
        let (id, seq, slot) = insertEdge(consume edge, seq: nil, key: key, ends: ends, emit: true)
        try endInsert("Add Edge", .insertEdge(id, seq: seq), marks)
        return slot
    }

    /// Removes an edge; unknown ids are an error (D5). Undo step "Remove Edge".
    @_specialize(exported: true, where Data == JSONValue)
    public func removeEdge(_ id: String) throws(FlowError) {
        try perform("Remove Edge") { () throws(FlowError) in
            _ = try requireEdge(id, "removeEdge")
            forgetReferences(nodes: [], edges: [id])
            pSelectEdge(id, false, emit: false)
            pRemoveEdge(id)
        }
    }

    /// Applies `transform` to a copy of the edge and stores the validated result. Returns
    /// false when nothing changed. Undo step "Update Edge"; event `replace`.
    @discardableResult
    public func updateEdge(
        _ id: String, _ transform: (inout FlowEdge) throws(FlowError) -> Void
    ) throws(FlowError) -> Bool {
        try perform("Update Edge") { () throws(FlowError) -> Bool in
            let op = "updateEdge"
            let old = try requireEdge(id, op)
            var new = old
            try transform(&new)
            if new.sameContent(as: old) { return false }
            try validateEdge(new, op)
            pReplaceEdge(new)
            return true
        }
    }

    /// Applies `transform` to every edge (store order); one undo step "Update Edges" and one
    /// batch of `replace` events for the edges that changed. Returns whether any changed.
    @discardableResult
    public func updateEdges(_ transform: (inout FlowEdge) throws(FlowError) -> Void) throws(FlowError) -> Bool {
        try perform("Update Edges") { () throws(FlowError) -> Bool in
            let op = "updateEdges"
            var changed: [FlowEdge] = []
            for old in edgeTable.elements {
                var new = old
                try transform(&new)
                if new.id != old.id { throw .invalidValue(op, "the id of edge '\(old.id)' cannot change") }
                if !new.sameContent(as: old) {
                    try validateEdge(new, op)
                    changed.append(new)
                }
            }
            for e in changed { pReplaceEdge(e) }
            return !changed.isEmpty
        }
    }

    /// Checks an edge's bend points, endpoints, handles and parent against the store;
    /// returns the slots of its source and target nodes.
    @discardableResult
    func validateEdge(_ e: FlowEdge, _ op: String) throws(FlowError) -> EdgeEndSlots {
        if !e.points.isEmpty { try Self.validatePoints(e.points, op) }
        if e.look != nil { try validateLook(e, op) }
        // by slot: the nodes are read only when a handle is named
        guard let s = nodeTable.lookup(e.sourceNodeID) else { throw .missingEndpoint(op, "source", e.sourceNodeID) }
        guard let t = nodeTable.lookup(e.targetNodeID) else { throw .missingEndpoint(op, "target", e.targetNodeID) }
        if let h = e.sourceHandleID { try validateHandle(h, as: .source, of: nodeTable[slot: s], op) }
        if let h = e.targetHandleID { try validateHandle(h, as: .target, of: nodeTable[slot: t], op) }
        if let p = e.parentID {
            guard let parent = nodeTable[p] else { throw .invalidParent(op, "parent node '\(p)' does not exist") }
            if !parent.acceptsChildren { throw .invalidParent(op, "node '\(p)' does not accept children") }
        }
        return EdgeEndSlots(source: s, target: t)
    }

    /// Checks that node `n` declares a handle `h` that an edge may use as `type`.
    private func validateHandle(_ h: String, as type: HandleType, of n: Node, _ op: String) throws(FlowError) {
        if HandleDeclaration.accepts(h, as: type, in: n.handles) { return }
        guard let decl = n.handle(h) else { throw .invalidHandle(op, "node '\(n.id)' has no handle '\(h)'") }
        throw .invalidHandle(op, "handle '\(n.id).\(h)' is a \(decl.type.rawValue) handle, not a \(type.rawValue)")
    }

    /// Checks bend points: at most `FlowEdge.maximumPointCount`, every coordinate finite.
    /// `edge` names the edge in the message (for documents, which hold many).
    static func validatePoints(_ points: [Point], _ op: String, edge: String? = nil) throws(FlowError) {
        let whose = edge.map { "edge '\($0)': " } ?? ""
        if points.count > FlowEdge.maximumPointCount {
            throw .invalidValue(
                op, "\(whose)an edge has at most \(FlowEdge.maximumPointCount) points (got \(points.count))")
        }
        for (i, p) in points.enumerated() where !(p.x.isFinite && p.y.isFinite) {
            throw .invalidValue(op, "\(whose)points must be finite numbers (point \(i + 1) is \(p))")
        }
        for (i, p) in points.enumerated()
        where !(p.x.magnitude <= FlowLimits.coordinate && p.y.magnitude <= FlowLimits.coordinate) {
            throw .invalidValue(op, "\(whose)points must be numbers from -1e15 to 1e15 (point \(i + 1) is \(p))")
        }
    }

    // MARK: Animated edges (a side table: no undo, not exported)

    /// The animated edges in store order.
    public var animatedEdgeIDs: [String] { edgeOrder(marks.animatedEdges) }

    /// Whether the edge is drawn animated.
    public func isEdgeAnimated(_ id: String) -> Bool { marks.animatedEdges.contains(id) }

    /// Marks one edge animated or not. Returns whether that changed anything.
    @discardableResult
    public func setEdgeAnimated(_ id: String, _ animated: Bool) throws(FlowError) -> Bool {
        _ = try requireEdge(id, "setEdgeAnimated")
        return animated ? marks.animatedEdges.insert(id).inserted : marks.animatedEdges.remove(id) != nil
    }

    /// Replaces the set of animated edges. Unknown ids are an error.
    @discardableResult
    public func setAnimatedEdges(_ ids: [String]) throws(FlowError) -> Bool {
        for id in ids { _ = try requireEdge(id, "setAnimatedEdges") }
        let new = Set(ids)
        if new == marks.animatedEdges { return false }
        marks.animatedEdges = new
        return true
    }
}

/// The slots of an edge's source and target nodes.
struct EdgeEndSlots {
    var source: Int32
    var target: Int32
}
