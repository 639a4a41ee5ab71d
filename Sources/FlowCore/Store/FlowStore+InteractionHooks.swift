// Hooks through which the store's document operations tell the interaction state (drag
// sessions, animations, gestures) what happened. Implemented by the interaction facet.

extension FlowStore {
    /// Called when nodes or edges leave the store: interaction state that refers to them
    /// (drag sessions, selection rectangles, gestures) lets go of them.
    func forgetInteractionReferences(nodes: Set<String>, edges: Set<String>) {
    }

    /// Stops running position animations of these nodes.
    func cancelNodeAnimations(_ ids: some Sequence<String>) {
    }

    /// Called by `load`: every animation, gesture and drag session ends without events.
    func resetInteractionState() {
    }
}
