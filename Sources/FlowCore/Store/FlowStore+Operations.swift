// The operation machinery: `perform` runs a public call as one atomic operation; at the top
// level its journal is committed as an undo step and its events delivered, and when the call
// throws it is rolled back by applying the inverse of every entry.

extension FlowStore {
    // MARK: Operations

    var auxState: AuxState {
        AuxState(
            viewport: viewport, focusedTarget: focusedTarget, hoveredNodeID: hoveredNodeID,
            dropTargetNodeID: dropTargetNodeID, dropTargetEdgeID: dropTargetEdgeID,
            animatedEdges: marks.animatedEdges, interaction: interaction.snapshot)
    }

    func restore(_ aux: AuxState) {
        viewport = aux.viewport
        focusedTarget = aux.focusedTarget
        setHover(aux.hoveredNodeID)
        setDropNode(aux.dropTargetNodeID)
        setDropEdge(aux.dropTargetEdgeID)
        marks.animatedEdges = aux.animatedEdges
        interaction.restore(aux.interaction)
    }

    /// Runs one public operation: nested calls join the outer one; at the top level the
    /// journal becomes an undo step (named `undoName`) when it changed the document, and
    /// the events are delivered. When `body` throws, everything it did is rolled back and
    /// its events are dropped, so the store is exactly as before.
    func perform<R, E: Error>(_ undoName: String, _ body: () throws(E) -> R) throws(E) -> R {
        let mark = log.journal.count
        let nodeMark = log.pendingNodeChanges.count, edgeMark = log.pendingEdgeChanges.count
        let aux = auxState
        if log.depth == 0 && log.stepName == nil { log.stepName = undoName }
        if log.depth == 0 && log.transactionDepth == 0 { routing.operationEdgeMark = edgeMark }
        log.depth += 1
        let result: R
        do {
            result = try body()
        } catch {
            rollback(to: mark)
            log.pendingNodeChanges.removeSubrange(nodeMark...)
            log.pendingEdgeChanges.removeSubrange(edgeMark...)
            restore(aux)
            log.depth -= 1
            if log.depth == 0 && log.transactionDepth == 0 { log.stepName = nil }
            throw error
        }
        log.depth -= 1
        dropSelectEventsOfRemoved(nodeFrom: nodeMark, edgeFrom: edgeMark)
        if log.depth == 0 { finishTopLevel() }
        if log.depth == 0, let failure = writeFailure, let e = failure as? E {
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
        let marks = beginChecked(undoName)
        let result = body()
        try endChecked(marks)
        return result
    }

    /// Opens a checked operation (`performChecked` without a body): for a call that makes
    /// its one change between this and `endChecked`.
    @inline(__always)
    func beginChecked(_ undoName: String) -> PendingMarks {
        let marks = PendingMarks(nodes: log.pendingNodeChanges.count, edges: log.pendingEdgeChanges.count)
        if log.depth == 0 && log.stepName == nil { log.stepName = undoName }
        if log.depth == 0 && log.transactionDepth == 0 { routing.operationEdgeMark = marks.edges }
        log.depth += 1
        return marks
    }

    /// Closes an operation `beginChecked` opened: at the top level, commits and delivers.
    @inline(__always)
    func endChecked(_ marks: PendingMarks) throws(FlowError) {
        log.depth -= 1
        dropSelectEventsOfRemoved(nodeFrom: marks.nodes, edgeFrom: marks.edges)
        if log.depth == 0 { finishTopLevel() }
        if log.depth == 0, let failure = takeWriteFailure() { throw failure }
    }

    /// Ends a call that inserted one item (the insertion's journal entry `entry`) after
    /// `beginChecked` opened its operation, or, when it did not (`marks` nil: a quiet call,
    /// see `isQuietTopLevel`), records its undo step straight into the history: the step
    /// `performChecked` would have recorded.
    @inline(__always)
    func endInsert(_ name: String, _ entry: JournalEntry<Data>, _ marks: PendingMarks?) throws(FlowError) {
        guard let marks else { return recordStep(name, entry) }
        log.journal.append(entry)
        try endChecked(marks)
    }

    /// Whether a call can skip `performChecked`: it runs at the top level (not nested, not
    /// replaying), nobody listens for events, no gesture or animation is in progress, and
    /// neither a recorder nor limits look at what it commits, so the call's only
    /// bookkeeping is its undo step.
    @inline(__always)
    var isQuietTopLevel: Bool {
        log.isIdle && !recordsNodeEvents && !recordsEdgeEvents
            && interaction.isIdle && !routesLive
            && actionRecorder == nil && limits == nil && memoryBudget == nil
    }

    /// Records a quiet top-level call's single undo entry (see `isQuietTopLevel`). The entry
    /// is made only when the history is on, straight into the log (no copy of it to retain
    /// and release).
    @inline(__always)
    func recordStep(_ name: String, _ entry: @autoclosure () -> JournalEntry<Data>) {
        if isUndoEnabled { log.recordStep(name, entry()) }
        checkInvariantsInDebug()
    }

    func rollback(to mark: Int) {
        guard log.journal.count > mark else { return }
        if !log.frameRanges.isEmpty { log.frameRanges.removeAll { $0.upperBound > mark } }
        if !routing.routeRanges.isEmpty { routing.routeRanges.removeAll { $0.upperBound > mark } }
        if !log.toldMoves.isEmpty { log.toldMoves.removeAll { $0.mark >= mark } }
        let entries = log.journal[mark...]
        for e in entries.reversed() { applyInverse(e, emit: false) }
        settleOrder()
        log.journal.removeSubrange(mark...)
        checkInvariantsInDebug()
    }

    /// "Removing a selected item emits only its remove": drops select events of items the
    /// same call removed.
    @inline(__always)
    private func dropSelectEventsOfRemoved(nodeFrom: Int, edgeFrom: Int) {
        if log.pendingNodeChanges.count > nodeFrom || log.pendingEdgeChanges.count > edgeFrom {
            dropSelectEventsOfRemovedSlow(nodeFrom: nodeFrom, edgeFrom: edgeFrom)
        }
    }

    private func dropSelectEventsOfRemovedSlow(nodeFrom: Int, edgeFrom: Int) {
        if log.pendingNodeChanges.count > nodeFrom {
            var removed = Set<String>()
            for c in log.pendingNodeChanges[nodeFrom...] { if case .remove(let id) = c { removed.insert(id) } }
            if !removed.isEmpty {
                var out = Array(log.pendingNodeChanges[..<nodeFrom])
                for c in log.pendingNodeChanges[nodeFrom...] {
                    if case .select(let id, _) = c, removed.contains(id), nodeTable[id] == nil { continue }
                    out.append(c)
                }
                log.pendingNodeChanges = out
            }
        }
        if log.pendingEdgeChanges.count > edgeFrom {
            var removed = Set<String>()
            for c in log.pendingEdgeChanges[edgeFrom...] { if case .remove(let id) = c { removed.insert(id) } }
            if !removed.isEmpty {
                var out = Array(log.pendingEdgeChanges[..<edgeFrom])
                for c in log.pendingEdgeChanges[edgeFrom...] {
                    if case .select(let id, _) = c, removed.contains(id), edgeTable[id] == nil { continue }
                    out.append(c)
                }
                log.pendingEdgeChanges = out
            }
        }
    }

    @inline(__always)
    private func finishTopLevel() {
        if bentEdgeCount > 0 && log.transactionDepth == 0 && !log.isReplaying { carryBendPoints() }
        if routing.router != nil && log.transactionDepth == 0 { routeAfterOperation() }
        checkInvariantsInDebug()
        guard log.transactionDepth == 0 else { return }
        commitJournal()
        if !log.interactiveUpdates { deliverEvents() }
    }

    /// Turns the journal into an undo step when it changed the document.
    func commitJournal() {
        let name = log.stepName ?? "Change"
        log.stepName = nil
        defer { if !log.toldMoves.isEmpty { log.toldMoves.removeAll() } }
        if !log.frameRanges.isEmpty { log.frameRanges.removeAll() }
        if !routing.routeRanges.isEmpty { routing.routeRanges.removeAll() }
        let routingStopped = routing.stopped
        routing.stopped = false
        guard !log.journal.isEmpty else { return }
        if routingStopped {
            refuseCommit(WorkLimit.stoppedError(""))
            return
        }
        if let l = limits, let error = violation(of: l) {
            refuseCommit(error)
            return
        }
        if memoryBudget != nil, let error = takeFromBudget(journalHeldBytes()) {
            refuseCommit(error)
            return
        }
        if let r = actionRecorder { recordBatch(r, name) }
        guard !log.journal.isEmpty else { return }
        guard !log.isReplaying, isUndoEnabled, log.journal.contains(where: { $0.isDocumentChange }),
            memoryBudget == nil || keepsInHistory()
        else {
            log.journal.removeAll(keepingCapacity: true)
            return
        }
        log.commitStep(name)
    }


    // MARK: Inverses

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
}
