/// One primitive change, recorded so that it can be undone exactly.
enum JournalEntry<Data: FlowNodeData> {
    case insertNode(FlowNode<Data>, seq: Int)
    case removeNode(FlowNode<Data>, seq: Int)
    case replaceNode(old: FlowNode<Data>, new: FlowNode<Data>)
    case insertEdge(FlowEdge, seq: Int)
    case removeEdge(FlowEdge, seq: Int)
    case replaceEdge(old: FlowEdge, new: FlowEdge)
    case selectNode(String, Bool)
    case selectEdge(String, Bool)

    /// Whether the entry changes document content (selection alone does not).
    var isDocumentChange: Bool {
        switch self {
        case .selectNode, .selectEdge: return false
        default: return true
        }
    }
}

/// A recorded undo (or redo) step.
struct UndoStep<Data: FlowNodeData> {
    var name: String
    var entries: [JournalEntry<Data>]
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
    var connectionDraft: ConnectionDraft?
    var activeInteraction: FlowActiveInteraction?
    var interaction: InteractionSnapshot
}

extension FlowStore {
    // MARK: Primitive mutations. Every document change goes through these: they keep the
    // indexes, journal the change, and queue the event.

    /// Sets the derived flags of a node from the selection, hover and drop-target state.
    func withFlags(_ n: Node) -> Node {
        var n = n
        n.isSelected = selectedNodeSet.contains(n.id)
        n.isHovered = hoveredNodeID == n.id
        n.isDropTarget = dropTargetNodeID == n.id
        return n
    }

    func withFlags(_ e: FlowEdge) -> FlowEdge {
        var e = e
        e.isSelected = selectedEdgeSet.contains(e.id)
        e.isDropTarget = dropTargetEdgeID == e.id
        return e
    }

    func pInsertNode(_ node: Node, seq: Int? = nil, emit: Bool = true) {
        let n = withFlags(node)
        let s: Int
        if let seq { nodeTable.insert(n.id, n, seq: seq); s = seq } else { s = nodeTable.append(n.id, n) }
        if let p = n.parentID { childNodesByParent[p, default: []].append(n.id) }
        spatial.insert(n.id, n.frame)
        noteHandleReach(n)
        journal.append(.insertNode(n, seq: s))
        if emit { pendingNodeChanges.append(.add(n)) }
    }

    @discardableResult
    func pRemoveNode(_ id: String, emit: Bool = true) -> Node? {
        guard nodeTable.contains(id) else { return nil }
        forgetReferences(nodes: [id], edges: [])
        pSelectNode(id, false, emit: false)
        guard let (n, seq) = nodeTable.remove(id) else { return nil }
        if let p = n.parentID { removeID(id, from: &childNodesByParent, key: p) }
        spatial.remove(id)
        nodeIDs.released(id)
        journal.append(.removeNode(n, seq: seq))
        if emit { pendingNodeChanges.append(.remove(id)) }
        return n
    }

    func pReplaceNode(_ new: Node, event: NodeEvent) {
        guard let old = nodeTable[new.id] else { return }
        let n = withFlags(new)
        if n == old { return }
        nodeTable.update(n.id, n)
        if old.parentID != n.parentID {
            if let p = old.parentID { removeID(n.id, from: &childNodesByParent, key: p) }
            if let p = n.parentID { childNodesByParent[p, default: []].append(n.id) }
        }
        if old.frame != n.frame { spatial.update(n.id, n.frame) }
        if old.handles != n.handles { noteHandleReach(n) }
        if old.frame != n.frame || old.handles != n.handles {
            for eid in edgesByNode[n.id] ?? [] { staleEdgeGeometry.insert(eid) }
        }
        journal.append(.replaceNode(old: old, new: n))
        switch event {
        case .none: break
        case .position: pendingNodeChanges.append(.position(n.id, n.position))
        case .dimensions: pendingNodeChanges.append(.dimensions(n.id, n.size))
        case .replace: pendingNodeChanges.append(.replace(n))
        }
        if observersWantPrevious && event == .replace && replacedNodes[n.id] == nil { replacedNodes[n.id] = old }
    }

    func pInsertEdge(_ edge: FlowEdge, seq: Int? = nil, emit: Bool = true) {
        let e = withFlags(edge)
        let s: Int
        if let seq { edgeTable.insert(e.id, e, seq: seq); s = seq } else { s = edgeTable.append(e.id, e) }
        indexEdge(e)
        reindexEdgeGeometry(e.id)
        journal.append(.insertEdge(e, seq: s))
        if emit { pendingEdgeChanges.append(.add(e)) }
    }

    @discardableResult
    func pRemoveEdge(_ id: String, emit: Bool = true) -> FlowEdge? {
        guard edgeTable.contains(id) else { return nil }
        forgetReferences(nodes: [], edges: [id])
        pSelectEdge(id, false, emit: false)
        guard let (e, seq) = edgeTable.remove(id) else { return nil }
        unindexEdge(e)
        edgeSpatial.remove(id)
        edgeIDs.released(id)
        journal.append(.removeEdge(e, seq: seq))
        if emit { pendingEdgeChanges.append(.remove(id)) }
        return e
    }

    func pReplaceEdge(_ new: FlowEdge, emit: Bool = true) {
        guard let old = edgeTable[new.id] else { return }
        let e = withFlags(new)
        if e == old { return }
        edgeTable.update(e.id, e)
        if old.sourceNodeID != e.sourceNodeID || old.targetNodeID != e.targetNodeID
            || old.parentID != e.parentID
        {
            unindexEdge(old)
            indexEdge(e)
        }
        reindexEdgeGeometry(e.id)
        journal.append(.replaceEdge(old: old, new: e))
        if emit { pendingEdgeChanges.append(.replace(e)) }
        if emit && observersWantPrevious && replacedEdges[e.id] == nil { replacedEdges[e.id] = old }
    }

    func pSelectNode(_ id: String, _ selected: Bool, emit: Bool = true) {
        guard nodeTable.contains(id) else { return }
        if selected {
            guard selectedNodeSet.insert(id).inserted else { return }
        } else {
            guard selectedNodeSet.remove(id) != nil else { return }
        }
        nodeTable.modify(id) { $0.isSelected = selected }
        journal.append(.selectNode(id, selected))
        if emit { pendingNodeChanges.append(.select(id, selected)) }
    }

    func pSelectEdge(_ id: String, _ selected: Bool, emit: Bool = true) {
        guard edgeTable.contains(id) else { return }
        if selected {
            guard selectedEdgeSet.insert(id).inserted else { return }
        } else {
            guard selectedEdgeSet.remove(id) != nil else { return }
        }
        edgeTable.modify(id) { $0.isSelected = selected }
        journal.append(.selectEdge(id, selected))
        if emit { pendingEdgeChanges.append(.select(id, selected)) }
    }

    private func indexEdge(_ e: FlowEdge) {
        edgesByNode[e.sourceNodeID, default: []].append(e.id)
        if e.targetNodeID != e.sourceNodeID { edgesByNode[e.targetNodeID, default: []].append(e.id) }
        if let p = e.parentID { childEdgesByParent[p, default: []].append(e.id) }
    }

    private func unindexEdge(_ e: FlowEdge) {
        removeID(e.id, from: &edgesByNode, key: e.sourceNodeID)
        if e.targetNodeID != e.sourceNodeID { removeID(e.id, from: &edgesByNode, key: e.targetNodeID) }
        if let p = e.parentID { removeID(e.id, from: &childEdgesByParent, key: p) }
    }

    private func removeID(_ id: String, from map: inout [String: [String]], key: String) {
        guard var list = map[key], let i = list.lastIndex(of: id) else { return }
        list.remove(at: i)
        map[key] = list.isEmpty ? nil : list
    }

    /// Applies the inverse of `entry` through the primitives (which journal it in turn).
    func applyInverse(_ entry: JournalEntry<Data>, emit: Bool) {
        switch entry {
        case .insertNode(let n, _): pRemoveNode(n.id, emit: emit)
        case .removeNode(let n, let seq): pInsertNode(n, seq: seq, emit: emit)
        case .replaceNode(let old, let new):
            guard let current = nodeTable[new.id] else { return }
            let target = Self.reverting(current, from: new, to: old)
            pReplaceNode(target, event: emit ? Self.eventKind(from: current, to: target) : .none)
        case .insertEdge(let e, _): pRemoveEdge(e.id, emit: emit)
        case .removeEdge(let e, let seq): pInsertEdge(e, seq: seq, emit: emit)
        case .replaceEdge(let old, _): pReplaceEdge(old, emit: emit)
        case .selectNode(let id, let s): pSelectNode(id, !s, emit: emit)
        case .selectEdge(let id, let s): pSelectEdge(id, !s, emit: emit)
        }
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
            animatedEdges: animatedEdgeSet, connectionDraft: connectionDraft,
            activeInteraction: activeInteraction, interaction: interactionSnapshot)
    }

    func restore(_ aux: AuxState) {
        viewport = aux.viewport
        focusedTarget = aux.focusedTarget
        setHover(aux.hoveredNodeID)
        setDropNode(aux.dropTargetNodeID)
        setDropEdge(aux.dropTargetEdgeID)
        animatedEdgeSet = aux.animatedEdges
        connectionDraft = aux.connectionDraft
        activeInteraction = aux.activeInteraction
        restoreInteraction(aux.interaction)
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
        return result
    }

    func rollback(to mark: Int) {
        guard journal.count > mark else { return }
        let entries = journal[mark...]
        for e in entries.reversed() { applyInverse(e, emit: false) }
        journal.removeSubrange(mark...)
        checkInvariantsInDebug()
    }

    /// "Removing a selected item emits only its remove": drops select events of items the
    /// same call removed.
    private func dropSelectEventsOfRemoved(nodeFrom: Int, edgeFrom: Int) {
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

    private func finishTopLevel() {
        checkInvariantsInDebug()
        guard transactionDepth == 0 else { return }
        commitJournal()
        if !interactiveUpdates { deliverEvents() }
    }

    /// Turns the journal into an undo step when it changed the document.
    func commitJournal() {
        let name = stepName ?? "Change"
        stepName = nil
        guard !journal.isEmpty else { return }
        guard !isReplaying, isUndoEnabled, journal.contains(where: { $0.isDocumentChange }) else {
            journal.removeAll(keepingCapacity: true)
            return
        }
        // Move the journal into the step (no copy); the next operation starts a new one.
        let entries = journal
        journal = []
        undoStack.append(UndoStep(name: name, entries: entries))
        if !redoStack.isEmpty { redoStack.removeAll() }
    }

    /// Delivers the queued node batch, then the edge batch.
    func deliverEvents() {
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
    }

    // MARK: Derived-flag setters for hover and drop targets (not journaled)

    func setHover(_ id: String?) {
        guard hoveredNodeID != id else { return }
        if let old = hoveredNodeID { nodeTable.modify(old) { $0.isHovered = false } }
        hoveredNodeID = id
        if let id { nodeTable.modify(id) { $0.isHovered = true } }
    }

    func setDropNode(_ id: String?) {
        guard dropTargetNodeID != id else { return }
        if let old = dropTargetNodeID { nodeTable.modify(old) { $0.isDropTarget = false } }
        dropTargetNodeID = id
        if let id { nodeTable.modify(id) { $0.isDropTarget = true } }
    }

    func setDropEdge(_ id: String?) {
        guard dropTargetEdgeID != id else { return }
        if let old = dropTargetEdgeID { edgeTable.modify(old) { $0.isDropTarget = false } }
        dropTargetEdgeID = id
        if let id { edgeTable.modify(id) { $0.isDropTarget = true } }
    }
}
