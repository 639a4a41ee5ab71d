// Node drag sessions (store-semantics §4.6 with D6, D10): the interaction engine opens a
// session, moves its nodes unrecorded and records the whole drag as one undo step when it
// ends (how, and how unrecorded moves stay consistent with the history, is told in
// FlowStore+EngineSurface.swift).

/// A node drag in progress.
struct DragSession {
    /// Every dragged node: the roots and all their descendants, in store order.
    var nodeIDs: [String]
    /// Where each dragged node was when the drag began.
    var startPositions: [String: Point]
    /// The top-level dragged nodes, in store order; only these are re-parented on drop.
    var rootIDs: [String]
}

extension FlowInteraction {
    // MARK: Drag session

    /// Whether a node drag session is open.
    public var isNodeDragging: Bool { dragSession != nil }

    /// The nodes the open drag moves (roots and descendants), in store order.
    public var draggedNodeIDs: [String] { dragSession?.nodeIDs ?? [] }

    /// Starts dragging node `id`: when it is selected together with other nodes, every
    /// selected draggable node is dragged, else just this one; the top-level ones take all
    /// their descendants along. Returns false (and opens no session) when the node is not
    /// draggable. A drag that is already open is ended first, as `endNodeDrag` would.
    /// Throws for an unknown id.
    @discardableResult
    public func beginNodeDrag(_ id: String) throws(FlowError) -> Bool {
        let store = store
        return try store.perform("Move") { () throws(FlowError) -> Bool in
            let node = try store.requireNode(id, "beginNodeDrag")
            finishDrag()
            guard node.isDraggable else { return false }
            var picked = [id]
            let selected = store.marks.selectedNodes
            if selected.contains(id) && selected.count > 1 {
                picked = store.nodeOrder(selected).filter { store.node($0)?.isDraggable == true }
            }
            let pickedSet = Set(picked)
            let roots = picked.filter { !store.hasAncestor($0, in: pickedSet) }
            var all = Set(roots)
            for r in roots { all.formUnion(store.descendantIDs(of: r)) }
            let ids = store.nodeOrder(all)
            cancelNodeAnimations(ids)
            var starts: [String: Point] = [:]
            for nid in ids { starts[nid] = store.node(nid)?.position }
            dragSession = DragSession(nodeIDs: ids, startPositions: starts, rootIDs: roots)
            activeInteraction = .draggingNodes(ids)
            return true
        }
    }

    /// Moves the dragged nodes by the cumulative screen `translation` since the drag began
    /// (divided by the zoom); each node goes to its start plus that delta, snapped on its
    /// own. One batch of `position` events in store order; no undo step (the whole drag
    /// becomes one at `endNodeDrag`). Returns whether anything moved; false without a drag.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func updateNodeDrag(translation: Point) throws(FlowError) -> Bool {
        try store.requireFinite(translation, "updateNodeDrag", "translation")
        guard let session = dragSession else { return false }
        let store = store
        return store.perform("Move") { () -> Bool in
            let mark = store.journalMark
            let d = translation / max(store.viewport.zoom, 0.01)
            var moved = false
            for id in session.nodeIDs {
                guard let start = session.startPositions[id] else { continue }
                if store.moveUnrecorded(id, to: store.snapping.snapped(start + d), event: .position) { moved = true }
            }
            store.discardHistory(since: mark)
            return moved
        }
    }

    /// Ends the drag. When it moved something (D10), every dragged top-level node whose
    /// frame centre lies in a container (front-most first, not itself dragged, a valid
    /// parent) becomes that container's child, and the others go to the root; then one
    /// undo step "Move" records all positions and parents, so undo restores the exact start
    /// positions. Events: `replace` for re-parented nodes. Returns whether anything changed.
    @discardableResult
    public func endNodeDrag() -> Bool {
        store.perform("Move") { () -> Bool in finishDrag() }
    }

    /// Ends the drag, moving every dragged node back to its start (`position` events) and
    /// recording nothing. Returns false without a drag.
    @discardableResult
    public func cancelNodeDrag() -> Bool {
        guard let session = dragSession else { return false }
        let store = store
        store.perform("Move") { () -> Void in
            let mark = store.journalMark
            closeDragSession()
            for id in session.nodeIDs {
                guard let start = session.startPositions[id] else { continue }
                _ = store.moveUnrecorded(id, to: start, event: .position)
            }
            store.discardHistory(since: mark)
        }
        return true
    }

    /// The body of `endNodeDrag` (call inside `perform`).
    @discardableResult
    func finishDrag() -> Bool {
        guard let session = dragSession else { return false }
        let store = store
        closeDragSession()
        let moved = session.nodeIDs.contains { id in
            guard let n = store.node(id), let start = session.startPositions[id] else { return false }
            return n.position != start
        }
        guard moved else { return false }
        let dragged = Set(session.nodeIDs)
        var newParents: [String: String?] = [:]
        for r in session.rootIDs {
            guard let n = store.node(r) else { continue }
            newParents[r] = store.dropParent(for: n, excluding: dragged)
        }
        var changes: [(start: Node, final: Node, event: NodeEvent)] = []
        for id in session.nodeIDs {
            guard let current = store.node(id), let startPosition = session.startPositions[id] else { continue }
            var start = current
            start.position = startPosition
            var final = current
            var event = NodeEvent.none
            if let p = newParents[id], p != current.parentID {
                final.parentID = p
                event = .replace
            }
            changes.append((start, final, event))
        }
        store.journalNetChange(changes)
        return true
    }

    /// Ends the session without touching positions.
    func closeDragSession() {
        dragSession = nil
        if case .draggingNodes = activeInteraction { activeInteraction = nil }
    }

    /// Called when nodes of the session leave the store: the session ends, and the moves
    /// it made so far are recorded by the operation that removes them (D11).
    func abandonDrag() {
        guard let session = dragSession else { return }
        closeDragSession()
        store.recordUnrecordedMoves(from: session.startPositions)
    }

    /// Ends the drag session (as `abandonDrag`) when it moves one of `ids` or a descendant
    /// of one: something else is about to move them.
    func abandonDrag(ifItMoves ids: Set<String>) {
        guard let session = dragSession, !ids.isEmpty,
            session.nodeIDs.contains(where: { ids.contains($0) || store.hasAncestor($0, in: ids) })
        else { return }
        abandonDrag()
    }
}
