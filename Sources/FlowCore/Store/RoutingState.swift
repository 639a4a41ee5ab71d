/// What live routing of orthogonal edges keeps (docs/routing.md): the router and the state
/// of the routing pass that runs at the end of every top-level operation
/// (FlowStore+Routing.swift). Owned by `FlowStore` (`routing`).
struct RoutingState {
    /// The router; nil: orthogonal edges keep the points they are given.
    private(set) var router: (any EdgeRouter)?
    /// Whether the router may hold state about the store's edges (it has been asked for
    /// routes since it was installed or last reset).
    var hasState = false
    /// Journal ranges of the points the router wrote in the current top-level operation:
    /// the routing pass does not take them for changes of its own.
    var routeRanges: [Range<Int>] = []
    /// `pendingEdgeChanges.count` when the current top-level operation began: route writes
    /// update the operation's own `add` and `replace` events of an edge instead of adding
    /// another.
    var operationEdgeMark = 0
    /// The router stopped part way through the current top-level operation (its
    /// `WorkLimit` ran out): the operation is refused when it commits.
    var stopped = false

    /// Installs `router` (or none), reset: it routes nothing until asked.
    mutating func install(_ router: (any EdgeRouter)?) {
        self.router = router
        self.router?.reset()
        hasState = false
    }

    /// Forgets what the router knows about the store's edges.
    mutating func reset() {
        router?.reset()
        hasState = false
    }
}
