// The hook through which a store routes its orthogonal edges live (docs/routing.md).
//
// FlowCore does not route: a router (FlowRouting's `OrthogonalRouter`, or any other
// `EdgeRouter`) is installed in `FlowStore.edgeRouter`. At the end of every top-level
// operation (a transaction counts as one) the store tells the router what the operation
// changed: node frames (moved, resized, added, removed) and edges (added, removed, changed,
// or attached to a node whose frame or handles changed). The router answers with the new
// routes of the orthogonal edges whose route changed, and the store writes them as the
// edges' bend points through its journaled primitives: in the same undo step and the same
// event batch as the operation. Undo and redo restore routes exactly and only tell the
// router what changed, so that it can keep its own state in step.

/// One end of an orthogonal edge, as a router sees it.
public struct RoutingEnd: Hashable, Sendable {
    /// The frame of the node at this end.
    public var frame: Rect
    /// The side the route leaves (source) or enters (target) by: never `center` (an end at
    /// the centre attaches on the side facing the other node).
    public var side: HandlePosition
    /// The handle point on that side, where the route attaches when it is alone there.
    public var point: Point

    public init(frame: Rect, side: HandlePosition, point: Point) {
        self.frame = frame
        self.side = side
        self.point = point
    }
}

/// An orthogonal edge to route.
public struct RoutingEdge: Hashable, Sendable {
    public var id: String
    public var source: RoutingEnd
    public var target: RoutingEnd

    public init(id: String, source: RoutingEnd, target: RoutingEnd) {
        self.id = id
        self.source = source
        self.target = target
    }
}

/// What a top-level operation changed that routes may depend on.
public struct RoutingChanges: Sendable {
    /// Node frames that changed: the frame before the operation (nil for a node it added)
    /// and after it (nil for a node it removed).
    public var frames: [(old: Rect?, new: Rect?)]
    /// Edges added, removed or changed, and the edges attached to a node whose frame or
    /// handles changed, in no particular order (ids may name edges that are gone or are
    /// not orthogonal).
    public var edges: [String]
    /// Route every orthogonal edge afresh (`routeEdges()`), whatever the router knows.
    public var all: Bool
    /// The operation is an undo or redo: the store has restored the routes itself and
    /// ignores the answer, and the router only brings its own state up to date.
    public var isReplay: Bool

    public init(frames: [(old: Rect?, new: Rect?)] = [], edges: [String] = [], all: Bool = false, isReplay: Bool = false) {
        self.frames = frames
        self.edges = edges
        self.all = all
        self.isReplay = isReplay
    }
}

/// Read access to a store for a router, during `EdgeRouter.route(_:in:)`.
public protocol RoutingScene: AnyObject {
    /// Calls `body` with the frame of every node, in no particular order (a router that
    /// keeps its own copy of the frames reads them when it starts, and then follows the
    /// frame changes it is told about).
    func forEachNodeFrame(_ body: (Rect) -> Void)
    /// Calls `body` with the id and points of every orthogonal edge whose drawn path may
    /// meet `rect` (its bounds intersect it), in no particular order.
    func forEachOrthogonalEdge(near rect: Rect, _ body: (_ id: String, _ points: [Point]) -> Void)
    /// The orthogonal edge `id` with its ends resolved, or nil when there is no such edge,
    /// it is not orthogonal, or its handles cannot be resolved.
    func routingEdge(_ id: String) -> RoutingEdge?
    /// The ids of every orthogonal edge, in store order.
    var orthogonalEdgeIDs: [String] { get }
}

/// Routes a store's orthogonal edges. A router belongs to one store at a time; it may keep
/// state between calls (caches of routes), which must depend only on the store's content.
public protocol EdgeRouter: AnyObject {
    /// Brings the routes up to date after `changes` and returns the new bend points of
    /// every orthogonal edge whose route may have changed (the store writes those that
    /// differ from the edge's points). Must not throw or touch the store.
    func route(_ changes: RoutingChanges, in scene: any RoutingScene) -> [(edgeID: String, points: [Point])]
    /// Forgets everything: the store was replaced (`load`), or the router was installed.
    func reset()
}
