// The store's surface for the interaction engine (FlowInteraction+*.swift): the few
// internal calls, beyond the public API, through which a gesture or an animation changes the
// document. Nothing else of the store's internals is for the engine; besides these it reads
// the selection sets and uses `perform` (so that a gesture call is one operation),
// `nodeOrder`, the `require…` checks, `snapping`, and sets the viewport, `focusedTarget`
// and the hover and drop-target flags (`hoverNode(atScreenPoint:)`, `setHover`,
// `setDropNode`, `setDropEdge`) directly, as the store's own calls do, without an operation
// of their own.
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
// (the engine's `abandonDrag`, `stopNodeAnimations`); undoing a node replacement reverts
// only the fields it changed; undo and redo first drop a drag in progress and running node
// animations (`discardUnrecordedChanges`); a rolled-back operation puts them back
// (`FlowInteraction.restore`).

extension FlowStore {
    // MARK: Recording gestures as one step

    /// Drops the journal entries made since `mark`, so that the current call records no
    /// undo step of its own. Entries are kept inside a transaction (a rollback needs them),
    /// listed in `frameRanges`.
    func discardHistory(since mark: Int) {
        guard log.journal.count > mark else { return }
        if log.transactionDepth > 0 {
            log.frameRanges.append(mark..<log.journal.count)
            return
        }
        log.journal.removeSubrange(mark...)
    }

    /// Journals, as one entry per node, a change from `start` to `final` of which the store
    /// may already show part (moves made unrecorded). The node is put back to `start`
    /// silently, that is forgotten, and `final` is applied with `event`. Nodes whose start
    /// and final content are equal are skipped.
    func journalNetChange(_ changes: [(start: Node, final: Node, event: NodeEvent)]) {
        let changes = changes.filter { !$0.start.sameContent(as: $0.final) }
        guard !changes.isEmpty else { return }
        let mark = log.journal.count
        for c in changes { pReplaceNode(c.start, event: .none) }
        log.journal.removeSubrange(mark...)
        for c in changes { pReplaceNode(c.final, event: c.event) }
        for c in changes where c.start.position != c.final.position { log.toldMoves.append((mark, c.final.id)) }
    }

    /// Journals that each node of `starts` went from that position to where it is now,
    /// without events; used when a gesture or animation that moved nodes unrecorded stops
    /// early, so the current operation records the moves and undo restores the starts.
    func recordUnrecordedMoves(from starts: [String: Point]) {
        guard !starts.isEmpty else { return }
        perform("Move") { () -> Void in journalNetChange(moveChanges(from: starts)) }
    }

    /// The moves, without events, of each node of `starts` from that position to where it
    /// is now, in store order; nodes that are gone or still there are left out.
    func moveChanges(from starts: [String: Point]) -> [(start: Node, final: Node, event: NodeEvent)] {
        var changes: [(start: Node, final: Node, event: NodeEvent)] = []
        for id in nodeOrder(starts.keys) {
            guard let current = nodeTable[id], let p = starts[id], p != current.position else { continue }
            var start = current
            start.position = p
            changes.append((start, current, .none))
        }
        return changes
    }

    /// The journal position now, for `dropJournal(since:)` and `discardHistory(since:)`.
    var journalMark: Int { log.journal.count }

    /// Forgets the journal entries made since `mark` (also inside a transaction): for moves
    /// that put back a state the journal already describes.
    func dropJournal(since mark: Int) {
        log.journal.removeSubrange(mark...)
    }

    /// Moves node `id` to `p` through the primitives (indexes and events stay right) and
    /// reports the move with `event`; the caller decides what the journal keeps. Returns
    /// false, doing nothing, for a node that is gone or already there.
    @inline(__always)
    func moveUnrecorded(_ id: String, to p: Point, event: NodeEvent) -> Bool {
        guard var n = nodeTable[id], n.position != p else { return false }
        n.position = p
        pReplaceNode(n, event: event)
        return true
    }

    /// Moves the nodes of `positions` there in store order, without events (see
    /// `moveUnrecorded`).
    func placeUnrecorded(_ positions: [String: Point]) {
        for id in nodeOrder(positions.keys) {
            guard let p = positions[id] else { continue }
            _ = moveUnrecorded(id, to: p, event: .none)
        }
    }

    /// Whether any edge is animated (its dash pattern follows the engine's `edgeDashPhase`).
    var hasAnimatedEdges: Bool { !marks.animatedEdges.isEmpty }

    // MARK: Document queries of gestures

    /// Whether an edge for the proposal could exist: both handles declared with the right
    /// types.
    func isStructurallyValid(_ p: ConnectionProposal) -> Bool {
        guard let s = handleInfo(nodeID: p.sourceNodeID, handleID: p.sourceHandleID),
            let t = handleInfo(nodeID: p.targetNodeID, handleID: p.targetHandleID)
        else { return false }
        return (p.sourceHandleID == nil || s.type == .source) && (p.targetHandleID == nil || t.type == .target)
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
}
