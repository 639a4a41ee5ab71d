// Node drag sessions, move/resize completion and text editing (store-semantics §4.6, §4.7
// with D6, D7, D10).
//
// How a gesture becomes one undo step: the intermediate updates of a drag (and the frames
// of a node animation) change positions through the primitives, so indexes and events stay
// right, but their journal entries are dropped when the call returns at the top level
// (`discardHistory(since:)`), so they record nothing. When the gesture ends, the net change
// is journaled through the primitives as one entry per node, from the start state to the
// end state (`journalNetChange`). Undo then restores the start states exactly and redo the
// end states exactly. Inside a transaction nothing is dropped, so a rollback still undoes
// every intermediate step.
//
// Positions moved without a record stay consistent with the history in four ways: an
// operation that moves such a node at once (or removes it) first records the moves so far
// (`abandonDrag`, `stopNodeAnimations`); undoing a node replacement reverts only the fields
// it changed; undo and redo first drop a drag in progress and running node animations
// (`discardUnrecordedChanges`); a rolled-back operation puts them back
// (`restoreInteraction`).

/// A node drag in progress.
struct DragSession {
    /// Every dragged node: the roots and all their descendants, in store order.
    var nodeIDs: [String]
    /// Where each dragged node was when the drag began.
    var startPositions: [String: Point]
    /// The top-level dragged nodes, in store order; only these are re-parented on drop.
    var rootIDs: [String]
}

extension FlowStore {
    // MARK: Recording gestures as one step

    /// Drops the journal entries made since `mark`, so that the current call records no
    /// undo step of its own. Entries are kept inside a transaction (a rollback needs them),
    /// listed in `frameRanges`.
    func discardHistory(since mark: Int) {
        guard journal.count > mark else { return }
        if transactionDepth > 0 {
            frameRanges.append(mark..<journal.count)
            return
        }
        journal.removeSubrange(mark...)
    }

    /// Journals, as one entry per node, a change from `start` to `final` of which the store
    /// may already show part (moves made unrecorded). The node is put back to `start`
    /// silently, that is forgotten, and `final` is applied with `event`. Nodes whose start
    /// and final content are equal are skipped.
    func journalNetChange(_ changes: [(start: Node, final: Node, event: NodeEvent)]) {
        let changes = changes.filter { !$0.start.sameContent(as: $0.final) }
        guard !changes.isEmpty else { return }
        let mark = journal.count
        for c in changes { pReplaceNode(c.start, event: .none) }
        journal.removeSubrange(mark...)
        for c in changes { pReplaceNode(c.final, event: c.event) }
    }

    /// Journals that each node of `starts` went from that position to where it is now,
    /// without events; used when a gesture or animation that moved nodes unrecorded stops
    /// early, so the current operation records the moves and undo restores the starts.
    func recordUnrecordedMoves(from starts: [String: Point]) {
        guard !starts.isEmpty else { return }
        perform("Move") { () -> Void in
            var changes: [(start: Node, final: Node, event: NodeEvent)] = []
            for id in nodeOrder(starts.keys) {
                guard let current = nodeTable[id], let p = starts[id], p != current.position else { continue }
                var start = current
                start.position = p
                changes.append((start, current, .none))
            }
            journalNetChange(changes)
        }
    }

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
        try perform("Move") { () throws(FlowError) -> Bool in
            let node = try requireNode(id, "beginNodeDrag")
            finishDrag()
            guard node.isDraggable else { return false }
            var picked = [id]
            if selectedNodeSet.contains(id) && selectedNodeSet.count > 1 {
                picked = nodeOrder(selectedNodeSet).filter { nodeTable[$0]?.isDraggable == true }
            }
            let pickedSet = Set(picked)
            let roots = picked.filter { !hasAncestor($0, in: pickedSet) }
            var all = Set(roots)
            for r in roots { all.formUnion(descendantIDs(of: r)) }
            let ids = nodeOrder(all)
            cancelNodeAnimations(ids)
            var starts: [String: Point] = [:]
            for nid in ids { starts[nid] = nodeTable[nid]?.position }
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
    public func updateNodeDrag(translation: Point) throws(FlowError) -> Bool {
        try requireFinite(translation, "updateNodeDrag", "translation")
        guard let session = dragSession else { return false }
        return perform("Move") { () -> Bool in
            let mark = journal.count
            let d = translation / max(viewport.zoom, 0.01)
            var moved = false
            for id in session.nodeIDs {
                guard var n = nodeTable[id], let start = session.startPositions[id] else { continue }
                let p = configuration.snapped(start + d)
                if p == n.position { continue }
                n.position = p
                pReplaceNode(n, event: .position)
                moved = true
            }
            discardHistory(since: mark)
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
        perform("Move") { () -> Bool in finishDrag() }
    }

    /// Ends the drag, moving every dragged node back to its start (`position` events) and
    /// recording nothing. Returns false without a drag.
    @discardableResult
    public func cancelNodeDrag() -> Bool {
        guard let session = dragSession else { return false }
        perform("Move") { () -> Void in
            let mark = journal.count
            closeDragSession()
            for id in session.nodeIDs {
                guard var n = nodeTable[id], let start = session.startPositions[id], n.position != start else { continue }
                n.position = start
                pReplaceNode(n, event: .position)
            }
            discardHistory(since: mark)
        }
        return true
    }

    /// The body of `endNodeDrag` (call inside `perform`).
    @discardableResult
    func finishDrag() -> Bool {
        guard let session = dragSession else { return false }
        closeDragSession()
        let moved = session.nodeIDs.contains { id in
            guard let n = nodeTable[id], let start = session.startPositions[id] else { return false }
            return n.position != start
        }
        guard moved else { return false }
        let dragged = Set(session.nodeIDs)
        var newParents: [String: String?] = [:]
        for r in session.rootIDs {
            guard let n = nodeTable[r] else { continue }
            newParents[r] = dropParent(for: n, excluding: dragged)
        }
        var changes: [(start: Node, final: Node, event: NodeEvent)] = []
        for id in session.nodeIDs {
            guard let current = nodeTable[id], let startPosition = session.startPositions[id] else { continue }
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
        journalNetChange(changes)
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
        recordUnrecordedMoves(from: session.startPositions)
    }

    /// Ends the drag session (as `abandonDrag`) when it moves one of `ids` or a descendant
    /// of one: something else is about to move them.
    func abandonDrag(ifItMoves ids: Set<String>) {
        guard let session = dragSession, !ids.isEmpty,
            session.nodeIDs.contains(where: { ids.contains($0) || hasAncestor($0, in: ids) })
        else { return }
        abandonDrag()
    }

    /// The container a dropped node lands in: the front-most node that accepts children,
    /// is not dragged, contains the centre of `n` (half-open) and is a valid parent.
    func dropParent(for n: Node, excluding dragged: Set<String>) -> String? {
        let c = n.frame.center
        refreshNodeIndex()
        let containers = spatial.candidates(at: c).map { nodeTable[slot: $0] }
            .filter { $0.acceptsChildren && !dragged.contains($0.id) && $0.frame.contains(c) }
            .sorted(by: isInFront)
        for p in containers {
            do throws(FlowError) {
                try validateParent(p.id, for: n.id, "endNodeDrag")
                return p.id
            } catch {
                continue
            }
        }
        return nil
    }

    /// Whether some ancestor of `id` is in `set`.
    func hasAncestor(_ id: String, in set: Set<String>) -> Bool {
        var seen: Set<String> = [id]
        var cursor = nodeTable[id]?.parentID
        while let c = cursor, seen.insert(c).inserted {
            if set.contains(c) { return true }
            cursor = nodeTable[c]?.parentID
        }
        return false
    }

    // MARK: Completing moves and resizes made elsewhere

    /// Records one undo step "Move" from the given start positions to the current ones
    /// (for moves that were not recorded, e.g. drag updates of a drag that is not ended).
    /// Undo restores the starts exactly (no re-snapping, D6). No events. Returns whether a
    /// step was recorded. Throws for unknown ids or non-finite points.
    @discardableResult
    public func completeMoveNodes(from starts: [String: Point]) throws(FlowError) -> Bool {
        try perform("Move") { () throws(FlowError) -> Bool in
            let op = "completeMoveNodes"
            for (id, p) in starts.sorted(by: { $0.key < $1.key }) {
                _ = try requireNode(id, op)
                try requireFinite(p, op, "start position")
            }
            var changes: [(start: Node, final: Node, event: NodeEvent)] = []
            for id in nodeOrder(starts.keys) {
                guard let current = nodeTable[id], let p = starts[id], p != current.position else { continue }
                var start = current
                start.position = p
                changes.append((start, current, .none))
            }
            journalNetChange(changes)
            return !changes.isEmpty
        }
    }

    /// Records one undo step "Resize" from the given start frames to the current ones. No
    /// events; undo and redo emit `replace`/`position`/`dimensions` for what they restore.
    /// Returns whether a step was recorded.
    @discardableResult
    public func completeResizeNodes(from starts: [String: Rect]) throws(FlowError) -> Bool {
        try perform("Resize") { () throws(FlowError) -> Bool in
            let op = "completeResizeNodes"
            for (id, r) in starts.sorted(by: { $0.key < $1.key }) {
                _ = try requireNode(id, op)
                try requireFinite(r.origin, op, "start frame")
                try requireSize(r.size, op)
            }
            var changes: [(start: Node, final: Node, event: NodeEvent)] = []
            for id in nodeOrder(starts.keys) {
                guard let current = nodeTable[id], let r = starts[id], r != current.frame else { continue }
                var start = current
                start.position = r.origin
                start.size = r.size
                changes.append((start, current, .none))
            }
            journalNetChange(changes)
            return !changes.isEmpty
        }
    }

    // MARK: Resizing and text editing (interaction state only)

    /// Marks nodes as being resized (`activeInteraction = .resizingNodes`). An empty list
    /// ends a resize interaction. Throws for unknown ids. Returns whether anything changed.
    @discardableResult
    public func beginResizeNodes(_ ids: [String]) throws(FlowError) -> Bool {
        for id in ids { _ = try requireNode(id, "beginResizeNodes") }
        if ids.isEmpty { return endResizeNodes() }
        let new = FlowActiveInteraction.resizingNodes(nodeOrder(Set(ids)))
        defer { activeInteraction = new }
        return activeInteraction != new
    }

    /// Ends a resize interaction. Returns false when none was active.
    @discardableResult
    public func endResizeNodes() -> Bool {
        guard case .resizingNodes = activeInteraction else { return false }
        activeInteraction = nil
        return true
    }

    /// Starts editing the text of a node: focuses it and sets `activeInteraction =
    /// .editingText`. Throws for an unknown id.
    @discardableResult
    public func beginTextEditing(nodeID: String) throws(FlowError) -> Bool {
        _ = try requireNode(nodeID, "beginTextEditing")
        let changed = focusedTarget != .node(nodeID) || activeInteraction != .editingText(nodeID)
        focusedTarget = .node(nodeID)
        activeInteraction = .editingText(nodeID)
        return changed
    }

    /// Ends text editing (of `nodeID` only, when given); focus is kept. Returns false when
    /// no such editing was active. Throws for an unknown id.
    @discardableResult
    public func endTextEditing(nodeID: String? = nil) throws(FlowError) -> Bool {
        if let nodeID { _ = try requireNode(nodeID, "endTextEditing") }
        guard case .editingText(let editing) = activeInteraction else { return false }
        if let nodeID, nodeID != editing { return false }
        activeInteraction = nil
        return true
    }
}
