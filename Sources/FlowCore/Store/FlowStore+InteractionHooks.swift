// Hooks through which the store's document operations tell the interaction state (drag
// sessions, animations, gestures) what happened. Implemented by the interaction facet.

extension FlowStore {
    /// Called when nodes or edges leave the store: interaction state that refers to them
    /// (drag sessions, selection rectangles, gestures) lets go of them. A drag session that
    /// contains a leaving node ends, and the moves it made are recorded by the operation
    /// that removes the nodes; a pending double tap on a leaving item is forgotten.
    func forgetInteractionReferences(nodes: Set<String>, edges: Set<String>) {
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

    /// Stops running position animations of these nodes and their descendants; what they
    /// moved so far is recorded by the current operation.
    func cancelNodeAnimations(_ ids: some Sequence<String>) {
        stopNodeAnimations(ids)
    }

    /// Called by `load`: every animation, gesture and drag session ends without events,
    /// and the dash phase restarts at 0. The virtual clock keeps its time.
    func resetInteractionState() {
        dragSession = nil
        selectionRect = nil
        viewportAnimation = ViewportAnimation()
        nodeAnimations = [:]
        nodeAnimationOrigins = [:]
        edgeDashPhase = 0
        pointerPress = nil
        lastTap = nil
    }
}
