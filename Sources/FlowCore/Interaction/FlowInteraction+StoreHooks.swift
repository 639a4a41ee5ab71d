// The hooks through which the store's document operations tell the interaction engine
// (drag sessions, animations, gestures) what happened. These are the only calls the store
// makes into the engine, besides the engine's public API that undo uses to cancel a
// gesture (`pointerCancel`) and viewport setters use to stop viewport animations.

/// The interaction state saved when an operation starts and put back when it is rolled
/// back. The virtual clock and the double-tap detector that runs on it are not part of it.
struct InteractionSnapshot {
    var activeInteraction: FlowActiveInteraction?
    var connectionDraft: ConnectionDraft?
    var dragSession: DragSession?
    var selectionRect: Rect?
    var viewportAnimation: ViewportAnimation
    var nodeAnimations: [String: NodeAnimation]
    var nodeAnimationOrigins: [String: Point]
    var edgeDashPhase: Double
    var pointerPress: PointerPress?
    /// Where the dragged and animated nodes were: they moved without a record, so the
    /// journal alone cannot put them back.
    var unrecordedPositions: [String: Point]
}

extension FlowInteraction {
    /// Whether no drag session is open and no node animation runs or waits to be recorded:
    /// then no node has moved without a record, and the store's quiet fast path may run.
    @inline(__always)
    var isIdle: Bool { store.interactionState.isIdle }

    /// Whether engine state names a node or an edge (see `FlowStore.holdsReferences`).
    var holdsReferences: Bool {
        connectionDraft != nil || activeInteraction != nil || lastTap != nil || !isIdle
    }

    /// Called when nodes or edges leave the store: interaction state that refers to them
    /// lets go of them. A connection draft from a leaving node ends, one aimed at a leaving
    /// node loses its target; an active interaction that names one ends. A drag session that
    /// contains a leaving node ends, and the moves it made are recorded by the operation
    /// that removes the nodes; a pending double tap on a leaving item is forgotten.
    func forgetInteractionReferences(nodes: Set<String>, edges: Set<String>) {
        if var draft = connectionDraft {
            if nodes.contains(draft.sourceNodeID) {
                connectionDraft = nil
                if case .connecting = activeInteraction { activeInteraction = nil }
            } else if let t = draft.targetNodeID, nodes.contains(t) {
                draft.targetNodeID = nil
                draft.targetHandleID = nil
                connectionDraft = draft
            }
        }
        if let a = activeInteraction {
            switch a {
            case .draggingNodes(let ids), .resizingNodes(let ids):
                if ids.contains(where: nodes.contains) { activeInteraction = nil }
            case .connecting(let s, _): if nodes.contains(s) { activeInteraction = nil }
            case .editingText(let id): if nodes.contains(id) { activeInteraction = nil }
            case .selectingRect: break
            }
        }
        if let session = dragSession, session.nodeIDs.contains(where: nodes.contains) {
            abandonDrag()
        }
        if let tap = lastTap {
            switch tap.target {
            case .node(let id) where nodes.contains(id): lastTap = nil
            case .edge(let id) where edges.contains(id): lastTap = nil
            default: break
            }
        }
    }

    /// Called when these nodes are moved at once or leave the store: running position
    /// animations of them and their descendants stop, and a drag session that moves any of
    /// them ends; what either moved so far is recorded by the current operation.
    func cancelNodeAnimations(_ ids: some Sequence<String>) {
        // The common case (nothing animating, no drag) costs nothing.
        if isIdle { return }
        let ids = Set(ids)
        stopNodeAnimations(ids)
        abandonDrag(ifItMoves: ids)
    }

    /// `cancelNodeAnimations` for one node, without building a set when nothing runs.
    @inline(__always)
    func cancelNodeAnimations(of id: String) {
        if isIdle { return }
        cancelNodeAnimations(CollectionOfOne(id))
    }

    /// Called by undo and redo before they replay a step, so that the history replays onto
    /// exactly the state it recorded: a drag in progress is cancelled (its nodes go back to
    /// their start, with `position` events, as `cancelNodeDrag` does) and running node
    /// animations stop with their nodes back where they started (without events, like
    /// their frames). Viewport animations are not history and keep running.
    func discardUnrecordedChanges() {
        cancelNodeDrag()
        guard !nodeAnimationOrigins.isEmpty || !nodeAnimations.isEmpty else { return }
        let origins = nodeAnimationOrigins
        nodeAnimations = [:]
        nodeAnimationOrigins = [:]
        store.placeUnrecorded(origins)
    }

    /// Called by `load`: every animation, gesture, edit and drag session ends without events,
    /// and the dash phase restarts at 0. The virtual clock keeps its time.
    func resetInteractionState() {
        activeInteraction = nil
        connectionDraft = nil
        dragSession = nil
        selectionRect = nil
        viewportAnimation = ViewportAnimation()
        nodeAnimations = [:]
        nodeAnimationOrigins = [:]
        edgeDashPhase = 0
        pointerPress = nil
        lastTap = nil
    }

    /// Problems with the interaction state, reported by `checkInvariants()`: a drag session
    /// or a node animation that refers to a node that is gone, or an animation without the
    /// origin its undo step is recorded from.
    func interactionProblems() -> [String] {
        var problems: [String] = []
        if let session = dragSession {
            for id in session.nodeIDs where store.node(id) == nil { problems.append("dragged node '\(id)' does not exist") }
            for id in session.nodeIDs where session.startPositions[id] == nil {
                problems.append("dragged node '\(id)' has no start position")
            }
        }
        for id in nodeAnimations.keys.sorted() {
            if store.node(id) == nil { problems.append("animated node '\(id)' does not exist") }
            if nodeAnimationOrigins[id] == nil { problems.append("animated node '\(id)' has no origin") }
        }
        for id in nodeAnimationOrigins.keys.sorted() where store.node(id) == nil {
            problems.append("animation origin of node '\(id)', which does not exist")
        }
        return problems
    }

    /// The interaction state now (saved by every operation, for its rollback).
    var snapshot: InteractionSnapshot {
        var positions: [String: Point] = [:]
        if let session = dragSession {
            for id in session.nodeIDs { positions[id] = store.node(id)?.position }
        }
        for id in nodeAnimationOrigins.keys { positions[id] = store.node(id)?.position }
        return InteractionSnapshot(
            activeInteraction: activeInteraction, connectionDraft: connectionDraft, dragSession: dragSession, selectionRect: selectionRect, viewportAnimation: viewportAnimation,
            nodeAnimations: nodeAnimations, nodeAnimationOrigins: nodeAnimationOrigins,
            edgeDashPhase: edgeDashPhase, pointerPress: pointerPress, unrecordedPositions: positions)
    }

    /// Puts the interaction state back after a rollback (which already restored everything
    /// the journal recorded), including the positions that were not recorded.
    func restore(_ snapshot: InteractionSnapshot) {
        activeInteraction = snapshot.activeInteraction
        connectionDraft = snapshot.connectionDraft
        dragSession = snapshot.dragSession
        selectionRect = snapshot.selectionRect
        viewportAnimation = snapshot.viewportAnimation
        nodeAnimations = snapshot.nodeAnimations
        nodeAnimationOrigins = snapshot.nodeAnimationOrigins
        edgeDashPhase = snapshot.edgeDashPhase
        pointerPress = snapshot.pointerPress
        guard !snapshot.unrecordedPositions.isEmpty else { return }
        let mark = store.journalMark
        store.placeUnrecorded(snapshot.unrecordedPositions)
        store.dropJournal(since: mark)
    }
}
