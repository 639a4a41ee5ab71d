// The primitive changes: every document change goes through these. Each keeps the indexes,
// journals the change (for undo and rollback) and queues its event.

extension FlowStore {
    // MARK: Nodes

    /// Inserts and journals a node; returns its slot.
    @discardableResult
    func pInsertNode(_ node: Node, seq: Int? = nil, emit: Bool = true) -> Int32 {
        journaled(insertNode(node, seq: seq, key: nodeTable.keyAndHash(node.id), emit: emit), JournalEntry.insertNode)
    }

    /// Journals an insertion (`entry` of the id and sequence number `insertNode` or
    /// `insertEdge` returned); returns the slot.
    @inline(__always)
    private func journaled(
        _ inserted: (id: String, seq: Int, slot: Int32), _ entry: (String, Int) -> JournalEntry<Data>
    ) -> Int32 {
        log.journal.append(entry(inserted.id, inserted.seq))
        return inserted.slot
    }

    /// `pInsertNode` without the journal: moves the node into the store and returns its id
    /// and sequence number, the `.insertNode` entry to journal (made by the caller where it
    /// is kept: an entry made here would be copied there), and its slot. `key` is
    /// `nodeTable.keyAndHash(node.id)`.
    @inline(__always)
    func insertNode(_ node: consuming Node, seq: Int?, key: (IDKey, UInt32), emit: Bool) -> (id: String, seq: Int, slot: Int32) {
        var n = node
        n.canonicalizeIDs()  // D24
        setFlags(&n)
        let id = n.id, parentID = n.parentID
        let defaultHandles = HandleDeclaration.isSharedDefault(n.handles)
        if !defaultHandles { noteHandleReach(n) }
        if emit && recordsNodeEvents { log.pendingNodeChanges.append(.add(n)) }
        let (slot, s) = nodeTable.add(consume n, seq: seq, key: key)
        if !parkedLinks.isEmpty, let links = parkedLinks.removeValue(forKey: id) {
            nodeTable.modifyExtra(slot) { $0.links = links }
            if !links.children.isEmpty { nodeTable.setFlags(slot, NodeFlags.hasChildren, true) }
        }
        if let p = parentID { withLinks(ofNode: p) { $0.children.append(slot) } }
        // Not indexed yet: the first query puts it in the spatial index (and re-indexes the
        // edges that named it while it was away).
        nodeTable.setFlags(slot, NodeFlags.dirty, true)
        appendDirty(slot)
        return (id, s, slot)
    }

    @discardableResult
    func pRemoveNode(_ id: String, emit: Bool = true) -> Node? {
        guard let slot = nodeTable.slot(of: id) else { return nil }
        if holdsReferences { forgetReferences(nodes: [id], edges: []) }
        pSelectNode(id, false, emit: false)
        let extra = nodeTable.extra(slot)
        // Edges still naming the node (while an operation removes it first) lose their path.
        if !extra.links.edges.isEmpty { markEdgesStale(ofNode: slot) }
        guard let (n, _, seq) = nodeTable.remove(id) else { return nil }
        listeners.onNodeSlotFreed?(slot)
        if let p = n.parentID { withLinks(ofNode: p) { NodeLinks.remove(slot, from: &$0.children) } }
        if !extra.links.isEmpty { parkedLinks[id] = extra.links }
        if spatial.contains(slot) { spatial.remove(slot, extra.indexedFrame) }
        nodeIDs.released(id)
        log.journal.append(.removeNode(n, seq: seq))
        if emit && recordsNodeEvents { log.pendingNodeChanges.append(.remove(id)) }
        return n
    }

    func pReplaceNode(_ new: Node, event: NodeEvent) {
        guard let slot = nodeTable.slot(of: new.id) else { return }
        let old = nodeTable[slot: slot]
        var n = withFlags(new)
        n.canonicalizeIDs()  // D24
        if n == old { return }
        nodeTable.update(slot: slot, n)
        if old.parentID != n.parentID {
            if let p = old.parentID { withLinks(ofNode: p) { NodeLinks.remove(slot, from: &$0.children) } }
            if let p = n.parentID { withLinks(ofNode: p) { $0.children.append(slot) } }
        }
        if old.frame != n.frame { markDirty(slot) }
        if old.handles != n.handles {
            noteHandleReach(n)
            markEdgesStale(ofNode: slot)
        } else if !NodeLook.same(old.look, n.look) {
            markEdgesStale(ofNode: slot)
        }
        log.journal.append(.replaceNode(old: old, new: n))
        guard recordsNodeEvents else { return }
        switch event {
        case .none: break
        case .position: log.pendingNodeChanges.append(.position(n.id, n.position))
        case .dimensions: log.pendingNodeChanges.append(.dimensions(n.id, n.size))
        case .replace: log.pendingNodeChanges.append(.replace(n))
        }
        if listeners.wantPrevious && event == .replace && log.replacedNodes[n.id] == nil { log.replacedNodes[n.id] = old }
    }

    /// Moves the node in a live slot to `position` (no snapping); a `position` event when
    /// `emit`. Journals `.moveNode`, a few bytes, instead of two node copies, and leaves the
    /// indexes to the next query.
    @inline(__always)
    func pMoveNode(_ slot: Int32, to position: Point, emit: Bool) {
        guard let entry = setPosition(slot, position) else { return }
        log.journal.append(entry)
        if emit && recordsNodeEvents { log.pendingNodeChanges.append(.position(nodeTable.id(slot: slot), position)) }
    }

    /// Sets the position of the node in a live slot and flags it dirty, in one access to its
    /// record; returns the journal entry of the move, or nil when the node was there.
    @inline(__always)
    func setPosition(_ slot: Int32, _ position: Point) -> JournalEntry<Data>? {
        guard let (from, key) = writePosition(slot, position) else { return nil }
        return key.isInline ? .moveNode(key, from: from) : .moveNodeByID(nodeTable.id(slot: slot), from: from)
    }

    /// `setPosition` without making the entry: the old position and the node's id key, or
    /// nil when the node was there.
    @inline(__always)
    func writePosition(_ slot: Int32, _ position: Point) -> (from: Point, key: IDKey)? {
        let position = FlowLimits.clamp(position, FlowLimits.coordinate)
        let (from, key, wasDirty) = nodeTable.modifyRecord(slot: slot) { r -> (Point, IDKey, Bool) in
            let from = r.element.unsafelyUnwrapped.position
            let dirty = r.flags & NodeFlags.dirty != 0
            if from != position {
                r.element!.position = position  // invariant: a live slot
                r.flags |= NodeFlags.dirty
            }
            return (from, r.key, dirty)
        }
        if from == position { return nil }
        if !wasDirty { dirtyNodes.append(slot) }
        return (from, key)
    }

    // MARK: Edges

    /// Inserts and journals an edge; returns its slot.
    @discardableResult
    func pInsertEdge(_ edge: FlowEdge, seq: Int? = nil, emit: Bool = true) -> Int32 {
        journaled(insertEdge(edge, seq: seq, key: edgeTable.keyAndHash(edge.id), emit: emit), JournalEntry.insertEdge)
    }

    /// `pInsertEdge` without the journal (as `insertNode`): moves the edge into the store
    /// and returns its id, sequence number and slot. `key` is `edgeTable.keyAndHash(edge.id)`;
    /// `ends`, the slots of its source and target nodes when the caller has them
    /// (`validateEdge`), saves looking them up again.
    @inline(__always)
    func insertEdge(
        _ edge: consuming FlowEdge, seq: Int?, key: (IDKey, UInt32), ends: EdgeEndSlots? = nil, emit: Bool
    ) -> (id: String, seq: Int, slot: Int32) {
        var e = edge
        setFlags(&e)
        e.canonicalizeIDs()  // D24
        if !e.points.isEmpty { bentEdgeCount += 1 }
        if e.pathType == .orthogonal { orthogonalEdgeCount += 1 }
        if emit && recordsEdgeEvents { log.pendingEdgeChanges.append(.add(e)) }
        let id = e.id, source = e.sourceNodeID, target = e.targetNodeID, parent = e.parentID
        let (slot, s) = edgeTable.add(consume e, seq: seq, key: key)
        if let ends {
            nodeTable.modifyExtra(ends.source) { $0.links.edges.append(slot) }
            if ends.target != ends.source { nodeTable.modifyExtra(ends.target) { $0.links.edges.append(slot) } }
            if let p = parent { withLinks(ofNode: p) { $0.childEdges.append(slot) } }
        } else {
            indexEdge(slot, source: source, target: target, parent: parent)
        }
        // Its path bounds are indexed by the first edge query.
        markStale(edge: slot)
        return (id, s, slot)
    }

    @discardableResult
    func pRemoveEdge(_ id: String, emit: Bool = true) -> FlowEdge? {
        guard let slot = edgeTable.slot(of: id) else { return nil }
        if holdsReferences { forgetReferences(nodes: [], edges: [id]) }
        pSelectEdge(id, false, emit: false)
        let extra = edgeTable.extra(slot)
        guard let (e, _, seq) = edgeTable.remove(id) else { return nil }
        listeners.onEdgeSlotFreed?(slot)
        if !e.points.isEmpty { bentEdgeCount -= 1 }
        if e.pathType == .orthogonal { orthogonalEdgeCount -= 1 }
        unindexEdge(e, slot)
        if let b = extra.indexedBounds { edgeSpatial.remove(slot, b) }
        edgeIDs.released(id)
        log.journal.append(.removeEdge(e, seq: seq))
        if emit && recordsEdgeEvents { log.pendingEdgeChanges.append(.remove(id)) }
        return e
    }

    func pReplaceEdge(_ new: FlowEdge, emit: Bool = true) {
        guard let slot = edgeTable.slot(of: new.id) else { return }
        let old = edgeTable[slot: slot]
        var e = withFlags(new)
        e.canonicalizeIDs()  // D24
        if e == old { return }
        edgeTable.update(slot: slot, e)
        if old.points.isEmpty != e.points.isEmpty { bentEdgeCount += e.points.isEmpty ? -1 : 1 }
        if (old.pathType == .orthogonal) != (e.pathType == .orthogonal) {
            orthogonalEdgeCount += e.pathType == .orthogonal ? 1 : -1
        }
        if old.sourceNodeID != e.sourceNodeID || old.targetNodeID != e.targetNodeID
            || old.parentID != e.parentID
        {
            unindexEdge(old, slot)
            indexEdge(slot, source: e.sourceNodeID, target: e.targetNodeID, parent: e.parentID)
        }
        markStale(edge: slot)
        log.journal.append(.replaceEdge(old: old, new: e))
        guard emit && recordsEdgeEvents else { return }
        log.pendingEdgeChanges.append(.replace(e))
        if listeners.wantPrevious && log.replacedEdges[e.id] == nil { log.replacedEdges[e.id] = old }
    }

    // MARK: Selection

    func pSelectNode(_ id: String, _ selected: Bool, emit: Bool = true) {
        if !selected && marks.selectedNodes.isEmpty { return }
        let id = canonicalID(id)  // D24
        guard let slot = nodeTable.slot(of: id) else { return }
        if selected {
            guard marks.selectedNodes.insert(id).inserted else { return }
        } else {
            guard marks.selectedNodes.remove(id) != nil else { return }
        }
        nodeTable.modify(slot: slot) { $0.isSelected = selected }
        log.journal.append(.selectNode(id, selected))
        if emit && recordsNodeEvents { log.pendingNodeChanges.append(.select(id, selected)) }
    }

    func pSelectEdge(_ id: String, _ selected: Bool, emit: Bool = true) {
        if !selected && marks.selectedEdges.isEmpty { return }
        let id = canonicalID(id)  // D24
        guard let slot = edgeTable.slot(of: id) else { return }
        if selected {
            guard marks.selectedEdges.insert(id).inserted else { return }
        } else {
            guard marks.selectedEdges.remove(id) != nil else { return }
        }
        edgeTable.modify(slot: slot) { $0.isSelected = selected }
        log.journal.append(.selectEdge(id, selected))
        if emit && recordsEdgeEvents { log.pendingEdgeChanges.append(.select(id, selected)) }
    }
}
