extension FlowStore {
    /// Whether there is a step to undo.
    public var canUndo: Bool { !log.undoLog.isEmpty }
    /// Whether there is a step to redo.
    public var canRedo: Bool { !log.redoLog.isEmpty }
    /// Name of the step `undo()` would undo ("Add", "Move", …), or nil.
    public var undoActionName: String? { log.undoLog.lastName }
    /// Name of the step `redo()` would redo, or nil.
    public var redoActionName: String? { log.redoLog.lastName }

    /// Undoes the last step, restoring exactly the state before it (D6) and emitting the
    /// events of the differences. Returns false when there is nothing to undo.
    @discardableResult
    public func undo() throws(FlowError) -> Bool {
        guard log.depth == 0 else { throw .invalidState("undo", "cannot undo inside an operation or transaction") }
        endPointerGesture()
        guard let step = log.undoLog.popLast() else { return false }
        let inverse = replay("Undo \(step.name)", step.entries)
        if let failure = takeWriteFailure() {
            log.undoLog.push(step.name, step.entries)
            throw failure.reported(as: "undo")
        }
        log.redoLog.push(step.name, inverse)
        return true
    }

    /// Redoes the last undone step. Returns false when there is nothing to redo.
    @discardableResult
    public func redo() throws(FlowError) -> Bool {
        guard log.depth == 0 else { throw .invalidState("redo", "cannot redo inside an operation or transaction") }
        endPointerGesture()
        guard let step = log.redoLog.popLast() else { return false }
        let inverse = replay("Redo \(step.name)", step.entries)
        if let failure = takeWriteFailure() {
            log.redoLog.push(step.name, step.entries)
            throw failure.reported(as: "redo")
        }
        log.undoLog.push(step.name, inverse)
        return true
    }

    /// Undo and redo during a pointer gesture cancel it first, as `pointerCancel` does (a
    /// dragged node goes back, a connection is dropped, the pointer is up), so the step
    /// undone is one the gesture did not change and later pointer input starts afresh.
    private func endPointerGesture() {
        interaction.pointerCancel()
    }

    /// Applies the inverse of a step's entries and returns the entries that reverse that.
    private func replay(_ name: String, _ stepEntries: [JournalEntry<Data>]) -> [JournalEntry<Data>] {
        log.isReplaying = true
        let inverse: [JournalEntry<Data>] = perform(name) { () -> [JournalEntry<Data>] in
            interaction.discardUnrecordedChanges()
            let mark = log.journal.count
            let nodeMark = log.pendingNodeChanges.count, edgeMark = log.pendingEdgeChanges.count
            for e in stepEntries.reversed() { applyInverse(e, emit: true) }
            settleOrder()
            let entries = Array(log.journal[mark...])
            orderReplayedEvents(entries, nodeFrom: nodeMark, edgeFrom: edgeMark)
            return entries
        }
        log.isReplaying = false
        return inverse
    }

    /// Puts the events of a replayed step into store order: each run of events of the same
    /// kind is sorted by the items' places in the store (stable, so two changes to one item
    /// keep their order).
    private func orderReplayedEvents(_ entries: [JournalEntry<Data>], nodeFrom: Int, edgeFrom: Int) {
        var removedNodeSeq: [String: Int] = [:], removedEdgeSeq: [String: Int] = [:]
        for e in entries {
            if case .removeNode(let n, let seq) = e { removedNodeSeq[n.id] = seq }
            if case .removeEdge(let x, let seq) = e { removedEdgeSeq[x.id] = seq }
        }
        func nodeSeq(_ id: String) -> Int { nodeTable.seq(of: id) ?? removedNodeSeq[id] ?? Int.max }
        func edgeSeq(_ id: String) -> Int { edgeTable.seq(of: id) ?? removedEdgeSeq[id] ?? Int.max }
        sortRuns(&log.pendingNodeChanges, from: nodeFrom, kind: { Self.kindIndex($0) }, seq: { nodeSeq($0.id) })
        sortRuns(&log.pendingEdgeChanges, from: edgeFrom, kind: { Self.kindIndex($0) }, seq: { edgeSeq($0.id) })
    }

    private func sortRuns<C>(_ list: inout [C], from start: Int, kind: (C) -> Int, seq: (C) -> Int) {
        var i = start
        while i < list.count {
            var j = i + 1
            while j < list.count && kind(list[j]) == kind(list[i]) { j += 1 }
            if j - i > 1 {
                let run = list[i..<j].enumerated().sorted { a, b in
                    let sa = seq(a.element), sb = seq(b.element)
                    return sa != sb ? sa < sb : a.offset < b.offset
                }.map(\.element)
                list.replaceSubrange(i..<j, with: run)
            }
            i = j
        }
    }

    private static func kindIndex(_ c: NodeChange<Data>) -> Int {
        switch c {
        case .add: return 0
        case .remove: return 1
        case .position: return 2
        case .select: return 3
        case .dimensions: return 4
        case .replace: return 5
        }
    }

    private static func kindIndex(_ c: EdgeChange) -> Int {
        switch c {
        case .add: return 0
        case .remove: return 1
        case .select: return 2
        case .replace: return 3
        }
    }

    /// Drops the whole history.
    public func clearHistory() {
        log.undoLog.removeAll()
        log.redoLog.removeAll()
        if historyBytes != 0 {
            _ = memoryBudget?.take(-historyBytes)
            budgetBytes -= historyBytes
            historyBytes = 0
        }
    }

    /// Runs `body` as one undo step named `name`. Events are held and delivered once at the
    /// end. If `body` throws, everything it did is rolled back (document, selection, focus,
    /// hover, drop targets, draft, viewport, configuration), nothing is delivered, and the
    /// error propagates.
    public func transaction<R, E: Error>(
        _ name: String = "Transaction", _ body: () throws(E) -> R
    ) throws(E) -> R {
        try joined(name, leavesName: false, body)
    }

    /// Runs one call of a host whose callbacks call the store from inside it (D23): what
    /// `body` and the calls it makes change is one operation, one undo step named by the
    /// first call that names one, its events delivered at the end, and all of it is rolled
    /// back, as `transaction` does, when `body` throws.
    public func atomically<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try joined("Change", leavesName: log.depth == 0 && log.stepName == nil, body)
    }

    /// Whether a call is running: inside a transaction, `atomically`, or a callback the
    /// store called in the middle of an operation.
    public var isInOperation: Bool { log.depth > 0 }

    private func joined<R, E: Error>(
        _ name: String, leavesName: Bool, _ body: () throws(E) -> R
    ) throws(E) -> R {
        let config = configuration
        do {
            return try perform(name) { () throws(E) -> R in
                if leavesName { log.stepName = nil }  // the first call inside names the step
                log.transactionDepth += 1
                defer { log.transactionDepth -= 1 }
                return try body()
            }
        } catch {
            if configuration != config { configuration = config }
            throw error
        }
    }

    /// Holds change events until `endInteractiveUpdates` (calls stay one undo step each).
    public func beginInteractiveUpdates() {
        log.interactiveUpdates = true
    }

    /// Delivers the held events as one node batch and then one edge batch (D15).
    public func endInteractiveUpdates() {
        guard log.interactiveUpdates else { return }
        log.interactiveUpdates = false
        if log.depth == 0 { deliverEvents() }
    }

    /// Whether interactive updates are holding events.
    public var isHoldingEvents: Bool { log.interactiveUpdates }
}
