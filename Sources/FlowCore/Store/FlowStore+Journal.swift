/// One primitive change, recorded so that it can be undone exactly. Entries that carry a
/// whole node or edge are boxed (`indirect`), so the common ones (moves, inserts,
/// selection) stay small in the journal and the undo history.
enum JournalEntry<Data: FlowNodeData> {
    case insertNode(String, seq: Int)
    indirect case removeNode(FlowNode<Data>, seq: Int)
    indirect case replaceNode(old: FlowNode<Data>, new: FlowNode<Data>)
    /// A node's position changed from `from` (nothing else changed; the inverse moves it
    /// back to `from`, whatever the position is then). The node is named by its inline id
    /// key (an id of up to 15 bytes: two words, nothing to retain), or by its id.
    case moveNode(IDKey, from: Point)
    case moveNodeByID(String, from: Point)
    case insertEdge(String, seq: Int)
    indirect case removeEdge(FlowEdge, seq: Int)
    indirect case replaceEdge(old: FlowEdge, new: FlowEdge)
    case selectNode(String, Bool)
    case selectEdge(String, Bool)
    /// The style sheet was replaced; `old` is the sheet before.
    indirect case setClassStyles(old: [String: FlowClass])

    /// Whether the entry changes document content (selection alone does not).
    var isDocumentChange: Bool {
        switch self {
        case .selectNode, .selectEdge: return false
        default: return true
        }
    }
}

/// How a node replacement is reported.
enum NodeEvent {
    case none, position, dimensions, replace
}

/// Non-document state restored when an operation or transaction is rolled back.
struct AuxState {
    var viewport: Viewport
    var focusedTarget: FlowFocusTarget?
    var hoveredNodeID: String?
    var dropTargetNodeID: String?
    var dropTargetEdgeID: String?
    var animatedEdges: Set<String>
    var interaction: InteractionSnapshot
}

extension FlowStore {
    // MARK: Primitive mutations. Every document change goes through these: they keep the
    // indexes, journal the change, and queue the event.

    /// Sets the derived flags of a node from the selection, hover and drop-target state,
    /// in place.
    @inline(__always)
    func setFlags(_ n: inout Node) {
        if selectedNodeSet.isEmpty && hoveredNodeID == nil && dropTargetNodeID == nil {
            if n.isSelected { n.isSelected = false }
            if n.isHovered { n.isHovered = false }
            if n.isDropTarget { n.isDropTarget = false }
            return
        }
        n.isSelected = selectedNodeSet.contains(n.id)
        n.isHovered = hoveredNodeID == n.id
        n.isDropTarget = dropTargetNodeID == n.id
    }

    /// The node with its derived flags set (`setFlags` on a copy).
    @inline(__always)
    func withFlags(_ n: Node) -> Node {
        if selectedNodeSet.isEmpty && hoveredNodeID == nil && dropTargetNodeID == nil {
            if !n.isSelected && !n.isHovered && !n.isDropTarget { return n }
            var n = n
            n.isSelected = false
            n.isHovered = false
            n.isDropTarget = false
            return n
        }
        var n = n
        n.isSelected = selectedNodeSet.contains(n.id)
        n.isHovered = hoveredNodeID == n.id
        n.isDropTarget = dropTargetNodeID == n.id
        return n
    }

    @inline(__always)
    func withFlags(_ e: FlowEdge) -> FlowEdge {
        var e = e
        setFlags(&e)
        return e
    }

    /// Sets the derived flags of an edge from the selection and drop-target state, in place.
    @inline(__always)
    func setFlags(_ e: inout FlowEdge) {
        if selectedEdgeSet.isEmpty && dropTargetEdgeID == nil {
            if e.isSelected { e.isSelected = false }
            if e.isDropTarget { e.isDropTarget = false }
            return
        }
        e.isSelected = selectedEdgeSet.contains(e.id)
        e.isDropTarget = dropTargetEdgeID == e.id
    }

    // MARK: Links

    /// Runs `body` on the links of node `id`. While the node is not in the store (in the
    /// middle of an operation that removes a parent before its children, or of the
    /// rollback of one), its links are parked under its id and taken back on insertion.
    @inline(__always)
    func withLinks(ofNode id: String, _ body: (inout NodeLinks) -> Void) {
        if let s = nodeTable.lookup(id) {
            let has = nodeTable.modifyExtra(s) { e -> Bool in
                body(&e.links)
                return !e.links.children.isEmpty
            }
            nodeTable.setFlags(s, NodeFlags.hasChildren, has)
        } else {
            var links = parkedLinks[id] ?? NodeLinks()
            body(&links)
            parkedLinks[id] = links.isEmpty ? nil : links
        }
    }

    // MARK: Index upkeep

    /// Notes that the frame of node `slot` changed: the spatial index and the node's edges
    /// catch up at the next query (`refreshNodeIndex()`).
    @inline(__always)
    func markDirty(_ slot: Int32) {
        if nodeTable.flags(slot) & NodeFlags.dirty != 0 { return }
        nodeTable.setFlags(slot, NodeFlags.dirty, true)
        dirtyNodes.append(slot)
    }

    /// Flags the edges of node `slot` whose path bounds may have changed.
    func markEdgesStale(ofNode slot: Int32) {
        for e in nodeTable.extra(slot).links.edges { markStale(edge: e) }
    }

    /// Flags an edge whose path bounds may have changed (or were never indexed).
    @inline(__always)
    func markStale(edge e: Int32) {
        let was = edgeTable.modifyExtra(e) { x -> Bool in
            defer { x.isStale = true }
            return x.isStale
        }
        if !was { appendStale(e) }
    }

    /// Brings the spatial index up to date with the nodes added or changed since the last
    /// call, and marks their edges stale. Every query of `spatial` calls it first.
    func refreshNodeIndex() {
        guard !dirtyNodes.isEmpty else { return }
        for s in dirtyNodes where nodeTable.element(at: s) != nil && nodeTable.flags(s) & NodeFlags.dirty != 0 {
            let frame = nodeTable[slot: s].frame
            nodeTable.setFlags(s, NodeFlags.dirty, false)
            let old = nodeTable.modifyExtra(s) { e -> Rect in
                defer { e.indexedFrame = frame }
                return e.indexedFrame
            }
            if !spatial.contains(s) {
                spatial.insert(s, frame)  // added since
            } else if old != frame {
                spatial.move(s, from: old, to: frame)
            }
            // Even when the node is back at its indexed frame: an edge added while the node
            // was elsewhere was indexed with that other frame.
            markEdgesStale(ofNode: s)
        }
        dirtyNodes.removeAll(keepingCapacity: true)
    }

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
        journal.append(entry(inserted.id, inserted.seq))
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
        if emit && recordsNodeEvents { pendingNodeChanges.append(.add(n)) }
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
        onNodeSlotFreed?(slot)
        if let p = n.parentID { withLinks(ofNode: p) { NodeLinks.remove(slot, from: &$0.children) } }
        if !extra.links.isEmpty { parkedLinks[id] = extra.links }
        if spatial.contains(slot) { spatial.remove(slot, extra.indexedFrame) }
        nodeIDs.released(id)
        journal.append(.removeNode(n, seq: seq))
        if emit && recordsNodeEvents { pendingNodeChanges.append(.remove(id)) }
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
        journal.append(.replaceNode(old: old, new: n))
        guard recordsNodeEvents else { return }
        switch event {
        case .none: break
        case .position: pendingNodeChanges.append(.position(n.id, n.position))
        case .dimensions: pendingNodeChanges.append(.dimensions(n.id, n.size))
        case .replace: pendingNodeChanges.append(.replace(n))
        }
        if observersWantPrevious && event == .replace && replacedNodes[n.id] == nil { replacedNodes[n.id] = old }
    }

    /// Moves the node in a live slot to `position` (no snapping); a `position` event when
    /// `emit`. Journals `.moveNode`, a few bytes, instead of two node copies, and leaves the
    /// indexes to the next query.
    @inline(__always)
    func pMoveNode(_ slot: Int32, to position: Point, emit: Bool) {
        guard let entry = setPosition(slot, position) else { return }
        journal.append(entry)
        if emit && recordsNodeEvents { pendingNodeChanges.append(.position(nodeTable.id(slot: slot), position)) }
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
        if emit && recordsEdgeEvents { pendingEdgeChanges.append(.add(e)) }
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
        onEdgeSlotFreed?(slot)
        if !e.points.isEmpty { bentEdgeCount -= 1 }
        if e.pathType == .orthogonal { orthogonalEdgeCount -= 1 }
        unindexEdge(e, slot)
        if let b = extra.indexedBounds { edgeSpatial.remove(slot, b) }
        edgeIDs.released(id)
        journal.append(.removeEdge(e, seq: seq))
        if emit && recordsEdgeEvents { pendingEdgeChanges.append(.remove(id)) }
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
        journal.append(.replaceEdge(old: old, new: e))
        guard emit && recordsEdgeEvents else { return }
        pendingEdgeChanges.append(.replace(e))
        if observersWantPrevious && replacedEdges[e.id] == nil { replacedEdges[e.id] = old }
    }

    // MARK: Selection

    func pSelectNode(_ id: String, _ selected: Bool, emit: Bool = true) {
        if !selected && selectedNodeSet.isEmpty { return }
        let id = canonicalID(id)  // D24
        guard let slot = nodeTable.slot(of: id) else { return }
        if selected {
            guard selectedNodeSet.insert(id).inserted else { return }
        } else {
            guard selectedNodeSet.remove(id) != nil else { return }
        }
        nodeTable.modify(slot: slot) { $0.isSelected = selected }
        journal.append(.selectNode(id, selected))
        if emit && recordsNodeEvents { pendingNodeChanges.append(.select(id, selected)) }
    }

    func pSelectEdge(_ id: String, _ selected: Bool, emit: Bool = true) {
        if !selected && selectedEdgeSet.isEmpty { return }
        let id = canonicalID(id)  // D24
        guard let slot = edgeTable.slot(of: id) else { return }
        if selected {
            guard selectedEdgeSet.insert(id).inserted else { return }
        } else {
            guard selectedEdgeSet.remove(id) != nil else { return }
        }
        edgeTable.modify(slot: slot) { $0.isSelected = selected }
        journal.append(.selectEdge(id, selected))
        if emit && recordsEdgeEvents { pendingEdgeChanges.append(.select(id, selected)) }
    }

    @inline(__always)
    private func indexEdge(_ slot: Int32, source: String, target: String, parent: String?) {
        withLinks(ofNode: source) { $0.edges.append(slot) }
        if target != source { withLinks(ofNode: target) { $0.edges.append(slot) } }
        if let p = parent { withLinks(ofNode: p) { $0.childEdges.append(slot) } }
    }

    private func unindexEdge(_ e: FlowEdge, _ slot: Int32) {
        withLinks(ofNode: e.sourceNodeID) { NodeLinks.remove(slot, from: &$0.edges) }
        if e.targetNodeID != e.sourceNodeID { withLinks(ofNode: e.targetNodeID) { NodeLinks.remove(slot, from: &$0.edges) } }
        if let p = e.parentID { withLinks(ofNode: p) { NodeLinks.remove(slot, from: &$0.childEdges) } }
    }

    /// Applies the inverse of `entry` through the primitives (which journal it in turn).
    func applyInverse(_ entry: JournalEntry<Data>, emit: Bool) {
        switch entry {
        case .insertNode(let id, _): pRemoveNode(id, emit: emit)
        case .removeNode(let n, let seq): pInsertNode(n, seq: seq, emit: emit)
        case .replaceNode(let old, let new):
            guard let current = nodeTable[new.id] else { return }
            let target = Self.reverting(current, from: new, to: old)
            pReplaceNode(target, event: emit ? Self.eventKind(from: current, to: target) : .none)
        case .moveNode(let key, let from):
            guard let slot = nodeTable.lookup(inline: key) else { return }
            pMoveNode(slot, to: from, emit: emit)
        case .moveNodeByID(let id, let from):
            guard let slot = nodeTable.slot(of: id) else { return }
            pMoveNode(slot, to: from, emit: emit)
        case .insertEdge(let id, _): pRemoveEdge(id, emit: emit)
        case .removeEdge(let e, let seq): pInsertEdge(e, seq: seq, emit: emit)
        case .replaceEdge(let old, _): pReplaceEdge(old, emit: emit)
        case .selectNode(let id, let s): pSelectNode(id, !s, emit: emit)
        case .selectEdge(let id, let s): pSelectEdge(id, !s, emit: emit)
        case .setClassStyles(let old): pSetClassStyles(old)
        }
    }

    /// Puts restored items in their places in the store order, after a loop of
    /// `applyInverse` (OrderedTable.settleOrder).
    func settleOrder() {
        if nodeTable.needsSettling { nodeTable.settleOrder() }
        if edgeTable.needsSettling { edgeTable.settleOrder() }
    }

    /// `current` with the fields that changed between `old` and `new` set back to their
    /// value in `old`; the other fields keep their current value. Equal to `old` when
    /// `current == new`; otherwise it keeps changes made outside the journal (positions
    /// moved by a drag or an animation that is still running) that the entry did not touch.
    static func reverting(_ current: Node, from new: Node, to old: Node) -> Node {
        var n = current
        if new.position != old.position { n.position = old.position }
        if new.size != old.size { n.size = old.size }
        if new.data != old.data { n.data = old.data }
        if new.parentID != old.parentID { n.parentID = old.parentID }
        if new.phase != old.phase { n.phase = old.phase }
        if new.persistence != old.persistence { n.persistence = old.persistence }
        if new.isDraggable != old.isDraggable { n.isDraggable = old.isDraggable }
        if new.acceptsChildren != old.acceptsChildren { n.acceptsChildren = old.acceptsChildren }
        if new.zIndex != old.zIndex { n.zIndex = old.zIndex }
        if new.handles != old.handles { n.handles = old.handles }
        if new.autoSize != old.autoSize { n.autoSize = old.autoSize }
        if !NodeLook.same(new.look, old.look) { n.look = old.look }
        return n
    }

    /// The event that describes a replacement: position or size alone, else replace.
    static func eventKind(from a: Node, to b: Node) -> NodeEvent {
        var a2 = a
        a2.position = b.position
        if a2.sameContent(as: b) { return a.position == b.position ? .none : .position }
        a2 = a
        a2.size = b.size
        if a2.sameContent(as: b) { return .dimensions }
        return .replace
    }

    // MARK: Operations

    var auxState: AuxState {
        AuxState(
            viewport: viewport, focusedTarget: focusedTarget, hoveredNodeID: hoveredNodeID,
            dropTargetNodeID: dropTargetNodeID, dropTargetEdgeID: dropTargetEdgeID,
            animatedEdges: animatedEdgeSet, interaction: interaction.snapshot)
    }

    func restore(_ aux: AuxState) {
        viewport = aux.viewport
        focusedTarget = aux.focusedTarget
        setHover(aux.hoveredNodeID)
        setDropNode(aux.dropTargetNodeID)
        setDropEdge(aux.dropTargetEdgeID)
        animatedEdgeSet = aux.animatedEdges
        interaction.restore(aux.interaction)
    }

    /// Runs one public operation: nested calls join the outer one; at the top level the
    /// journal becomes an undo step (named `undoName`) when it changed the document, and
    /// the events are delivered. When `body` throws, everything it did is rolled back and
    /// its events are dropped, so the store is exactly as before.
    func perform<R, E: Error>(_ undoName: String, _ body: () throws(E) -> R) throws(E) -> R {
        let mark = journal.count
        let nodeMark = pendingNodeChanges.count, edgeMark = pendingEdgeChanges.count
        let aux = auxState
        if depth == 0 && stepName == nil { stepName = undoName }
        if depth == 0 && transactionDepth == 0 { operationEdgeMark = edgeMark }
        depth += 1
        let result: R
        do {
            result = try body()
        } catch {
            rollback(to: mark)
            pendingNodeChanges.removeSubrange(nodeMark...)
            pendingEdgeChanges.removeSubrange(edgeMark...)
            restore(aux)
            depth -= 1
            if depth == 0 && transactionDepth == 0 { stepName = nil }
            throw error
        }
        depth -= 1
        dropSelectEventsOfRemoved(nodeFrom: nodeMark, edgeFrom: edgeMark)
        if depth == 0 { finishTopLevel() }
        if depth == 0, let failure = writeFailure, let e = failure as? E {
            writeFailure = nil
            throw e
        }
        return result
    }

    /// `perform` for a body that cannot fail: everything it would check has been checked
    /// before it runs, so there is nothing to roll back and no state to save for that.
    /// The fast path of the hot mutations (moveNode, addNode).
    @inline(__always)
    func performChecked<R>(_ undoName: String, _ body: () -> R) throws(FlowError) -> R {
        let nodeMark = pendingNodeChanges.count, edgeMark = pendingEdgeChanges.count
        if depth == 0 && stepName == nil { stepName = undoName }
        if depth == 0 && transactionDepth == 0 { operationEdgeMark = edgeMark }
        depth += 1
        let result = body()
        depth -= 1
        dropSelectEventsOfRemoved(nodeFrom: nodeMark, edgeFrom: edgeMark)
        if depth == 0 { finishTopLevel() }
        if depth == 0, let failure = takeWriteFailure() { throw failure }
        return result
    }

    /// Whether a call can skip `performChecked`: it runs at the top level (not nested, not
    /// replaying), nobody listens for events, no gesture or animation is in progress, and
    /// neither a recorder nor limits look at what it commits, so the call's only
    /// bookkeeping is its undo step.
    @inline(__always)
    var isQuietTopLevel: Bool {
        depth == 0 && journal.isEmpty && !recordsNodeEvents && !recordsEdgeEvents
            && interaction.isIdle && !routesLive
            && actionRecorder == nil && limits == nil && memoryBudget == nil
    }

    /// Records a quiet top-level call's single undo entry (see `isQuietTopLevel`). The entry
    /// is made only when the history is on, straight into the log (no copy of it to retain
    /// and release).
    @inline(__always)
    func recordStep(_ name: String, _ entry: @autoclosure () -> JournalEntry<Data>) {
        if isUndoEnabled {
            undoLog.push(name, entry())
            if !redoLog.isEmpty { redoLog.removeAll() }
        }
        checkInvariantsInDebug()
    }

    func rollback(to mark: Int) {
        guard journal.count > mark else { return }
        if !frameRanges.isEmpty { frameRanges.removeAll { $0.upperBound > mark } }
        if !routeRanges.isEmpty { routeRanges.removeAll { $0.upperBound > mark } }
        let entries = journal[mark...]
        for e in entries.reversed() { applyInverse(e, emit: false) }
        settleOrder()
        journal.removeSubrange(mark...)
        checkInvariantsInDebug()
    }

    /// "Removing a selected item emits only its remove": drops select events of items the
    /// same call removed.
    @inline(__always)
    private func dropSelectEventsOfRemoved(nodeFrom: Int, edgeFrom: Int) {
        if pendingNodeChanges.count > nodeFrom || pendingEdgeChanges.count > edgeFrom {
            dropSelectEventsOfRemovedSlow(nodeFrom: nodeFrom, edgeFrom: edgeFrom)
        }
    }

    private func dropSelectEventsOfRemovedSlow(nodeFrom: Int, edgeFrom: Int) {
        if pendingNodeChanges.count > nodeFrom {
            var removed = Set<String>()
            for c in pendingNodeChanges[nodeFrom...] { if case .remove(let id) = c { removed.insert(id) } }
            if !removed.isEmpty {
                var out = Array(pendingNodeChanges[..<nodeFrom])
                for c in pendingNodeChanges[nodeFrom...] {
                    if case .select(let id, _) = c, removed.contains(id), nodeTable[id] == nil { continue }
                    out.append(c)
                }
                pendingNodeChanges = out
            }
        }
        if pendingEdgeChanges.count > edgeFrom {
            var removed = Set<String>()
            for c in pendingEdgeChanges[edgeFrom...] { if case .remove(let id) = c { removed.insert(id) } }
            if !removed.isEmpty {
                var out = Array(pendingEdgeChanges[..<edgeFrom])
                for c in pendingEdgeChanges[edgeFrom...] {
                    if case .select(let id, _) = c, removed.contains(id), edgeTable[id] == nil { continue }
                    out.append(c)
                }
                pendingEdgeChanges = out
            }
        }
    }

    @inline(__always)
    private func finishTopLevel() {
        if bentEdgeCount > 0 && transactionDepth == 0 && !isReplaying { carryBendPoints() }
        if edgeRouter != nil && transactionDepth == 0 { routeAfterOperation() }
        checkInvariantsInDebug()
        guard transactionDepth == 0 else { return }
        commitJournal()
        if !interactiveUpdates { deliverEvents() }
    }

    /// Turns the journal into an undo step when it changed the document.
    func commitJournal() {
        let name = stepName ?? "Change"
        stepName = nil
        if !frameRanges.isEmpty { frameRanges.removeAll() }
        if !routeRanges.isEmpty { routeRanges.removeAll() }
        guard !journal.isEmpty else { return }
        if let l = limits, let error = violation(of: l) {
            refuseCommit(error)
            return
        }
        if memoryBudget != nil, let error = takeFromBudget(journalHeldBytes()) {
            refuseCommit(error)
            return
        }
        if let r = actionRecorder { recordBatch(r, name) }
        guard !journal.isEmpty else { return }
        guard !isReplaying, isUndoEnabled, journal.contains(where: { $0.isDocumentChange }),
            memoryBudget == nil || keepsInHistory()
        else {
            journal.removeAll(keepingCapacity: true)
            return
        }
        // The entries join the history's shared array; the journal keeps its capacity.
        if journal.count == 1 {
            undoLog.push(name, journal.removeLast())
        } else {
            undoLog.push(name, journal)
            journal.removeAll(keepingCapacity: true)
        }
        if !redoLog.isEmpty { redoLog.removeAll() }
    }

    /// Delivers the queued node batch, then the edge batch.
    func deliverEvents() {
        if pendingNodeChanges.isEmpty && pendingEdgeChanges.isEmpty {
            if !replacedNodes.isEmpty { replacedNodes = [:] }
            if !replacedEdges.isEmpty { replacedEdges = [:] }
            return
        }
        let n = pendingNodeChanges, e = pendingEdgeChanges
        let oldNodes = replacedNodes, oldEdges = replacedEdges
        pendingNodeChanges = []
        pendingEdgeChanges = []
        replacedNodes = [:]
        replacedEdges = [:]
        if !n.isEmpty {
            onNodesChange?(n)
            for o in observers { o.nodes(n, oldNodes) }
        }
        if !e.isEmpty {
            onEdgesChange?(e)
            for o in observers { o.edges(e, oldEdges) }
        }
        for o in batchObservers { o.body(n, e) }
    }

    // MARK: Derived-flag setters for hover and drop targets (not journaled)

    func setHover(_ id: String?) {
        guard hoveredNodeID != id else { return }
        if let old = hoveredNodeID { nodeTable.modify(old) { $0.isHovered = false } }
        hoveredNodeID = canonicalID(id)
        if let id { nodeTable.modify(id) { $0.isHovered = true } }
    }

    func setDropNode(_ id: String?) {
        guard dropTargetNodeID != id else { return }
        if let old = dropTargetNodeID { nodeTable.modify(old) { $0.isDropTarget = false } }
        dropTargetNodeID = canonicalID(id)
        if let id { nodeTable.modify(id) { $0.isDropTarget = true } }
    }

    func setDropEdge(_ id: String?) {
        guard dropTargetEdgeID != id else { return }
        if let old = dropTargetEdgeID { edgeTable.modify(old) { $0.isDropTarget = false } }
        dropTargetEdgeID = canonicalID(id)
        if let id { edgeTable.modify(id) { $0.isDropTarget = true } }
    }
}
