/// The lengths of the pending change batches when an operation began.
struct PendingMarks {
    var nodes: Int
    var edges: Int
}

/// The operation log of a store: how deep the running public calls are nested, the journal
/// of what the current top-level operation (or transaction) changed, the change batches it
/// queued for delivery, and the undo and redo histories. Owned by `FlowStore` (`log`); the
/// store's operation machinery (FlowStore+Operations.swift) and undo/redo
/// (FlowStore+Undo.swift) drive it. (The error of a refused commit stays on the store,
/// `writeFailure`, for the inlinable `takeWriteFailure()`.)
///
/// Invariants: between top-level operations `depth` and `transactionDepth` are 0, the
/// journal is empty (its entries became an undo step or were dropped), and the batches are
/// empty unless events are held (`interactiveUpdates`).
struct OperationLog<Data: FlowNodeData>: ~Copyable {
    /// Nesting depth of public operations; work is committed when it returns to zero.
    var depth = 0
    /// Nesting depth of transactions (`transaction`, `atomically`): their operations are
    /// committed as one step when the outermost ends.
    var transactionDepth = 0
    /// Set while events are held for an interactive update (`beginInteractiveUpdates`).
    var interactiveUpdates = false
    /// Set while undo/redo replays a step: those calls record nothing themselves.
    var isReplaying = false
    /// Name of the undo step being recorded (the outermost operation's).
    var stepName: String?
    /// Everything the current top-level operation (or transaction) did, for undo/rollback.
    var journal: [JournalEntry<Data>] = []
    /// Journal ranges of gesture frames (drag updates, animation frames) that a transaction
    /// keeps for its rollback although they record nothing (`discardHistory(since:)`);
    /// `carryBendPoints()` skips them. Empty outside transactions.
    var frameRanges: [Range<Int>] = []
    /// The nodes whose moves the journal records after their `position` events were
    /// delivered as they moved (a drag's or an animation's net change, `journalNetChange`),
    /// each with the journal's length before its entry: a refused commit puts them back and
    /// tells where (`refuseCommit`).
    var toldMoves: [(mark: Int, id: String)] = []
    /// The change batches queued for delivery.
    var pendingNodeChanges: [NodeChange<Data>] = []
    var pendingEdgeChanges: [EdgeChange] = []
    /// Values before the first `replace` of each id in the pending batches, kept only while
    /// an observer wants them (`StoreListeners.wantPrevious`).
    var replacedNodes: [String: FlowNode<Data>] = [:]
    var replacedEdges: [String: FlowEdge] = [:]
    /// The undo history: every step's entries in one array (no allocation per step).
    var undoLog = StepLog<JournalEntry<Data>>()
    var redoLog = StepLog<JournalEntry<Data>>()

    /// Whether no operation runs and nothing is journaled (a call starting now is a
    /// top-level one with a fresh journal).
    @inline(__always)
    var isIdle: Bool { depth == 0 && journal.isEmpty }

    /// Moves the journal into the undo history as step `name` (the entries join the
    /// history's shared array; the journal keeps its capacity) and clears the redo history.
    mutating func commitStep(_ name: String) {
        if journal.count == 1 {
            undoLog.push(name, journal.removeLast())
        } else {
            undoLog.push(name, journal)
            journal.removeAll(keepingCapacity: true)
        }
        if !redoLog.isEmpty { redoLog.removeAll() }
    }

    /// Records a step of one entry straight into the undo history (a quiet call, which
    /// journals nothing), and clears the redo history.
    @inline(__always)
    mutating func recordStep(_ name: String, _ entry: JournalEntry<Data>) {
        undoLog.push(name, entry)
        if !redoLog.isEmpty { redoLog.removeAll() }
    }

    /// Drops the queued batches and the values kept for them.
    mutating func dropPending() {
        pendingNodeChanges.removeAll()
        pendingEdgeChanges.removeAll()
        replacedNodes = [:]
        replacedEdges = [:]
    }
}
