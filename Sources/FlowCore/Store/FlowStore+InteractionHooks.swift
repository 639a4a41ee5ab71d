extension FlowStore {
    /// Called when nodes or edges leave the store: interaction state that refers to them
    /// (drag sessions, selection rectangles) lets go of them.
    func forgetInteractionReferences(nodes: Set<String>, edges: Set<String>) {
    }

    /// Stops running position animations of these nodes.
    func cancelNodeAnimations(_ ids: some Sequence<String>) {
    }
}
