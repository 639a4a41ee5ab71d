/// The diagram store: nodes, edges, selection, viewport, undo history and change events.
///
/// `FlowStore` is generic over the node payload. Every public operation is atomic: it either
/// completes or throws a `FlowError` and leaves the store exactly as it was (D1). Each
/// top-level call that changes the document is one undo step, and delivers at most one node
/// batch and then at most one edge batch of change events, in store order (D2, D20).
///
/// The store is not thread-safe; use it from one thread (it is owned by a Lua state).
///
/// Performance without compiler flags (a package that others depend on may not set any):
/// the stored properties are `@exclusivity(unchecked)`, so the law of exclusivity is
/// enforced at compile time only (the run-time checks cost more than a quiet move itself),
/// and the operations that run in loops carry
/// `@_specialize(exported: true, where Data == JSONValue)`: code in other modules (the Lua
/// binding, a Swift host) calls their specialisation for JSON payloads instead of the
/// generic body.
public final class FlowStore<Data: FlowNodeData> {
    public typealias Node = FlowNode<Data>

    // MARK: Document

    @exclusivity(unchecked) var nodeTable = OrderedTable<Node, NodeExtra>()
    @exclusivity(unchecked) var edgeTable = OrderedTable<FlowEdge, EdgeExtra>()

    /// Pan and zoom.
    @exclusivity(unchecked) public internal(set) var viewport = Viewport() {
        didSet {
            let limit = FlowLimits.viewportOffset
            if !(viewport.offset.x.magnitude <= limit && viewport.offset.y.magnitude <= limit) {
                viewport.offset = FlowLimits.clamp(viewport.offset, limit)
            }
        }
    }

    /// The style sheet: what nodes and edges with each class look like (`setClassStyles`).
    /// Document content: exported, loaded, undone.
    @exclusivity(unchecked) public internal(set) var classStyles: [String: FlowClass] = [:]
    /// The diagram's title and page colour (`FlowDocument.look`): set by `load`.
    public internal(set) var diagramLook = DiagramLook()

    /// The configuration. Zoom limits are clamped on every set (D12); narrowing them
    /// re-clamps the current zoom and keeps the offset.
    @exclusivity(unchecked) public var configuration: FlowConfiguration {
        didSet {
            let z = configuration.clampZoom(viewport.zoom)
            if z != viewport.zoom { viewport.zoom = z }
            snapping = Snapping(configuration)
            if configuration.autoHandles != oldValue.autoHandles { edgeTable.forEachSlot { reindexEdgeGeometry($0) } }
        }
    }

    /// The snapping settings of `configuration`, kept apart so that a move reads two
    /// fields instead of copying the whole configuration.
    @exclusivity(unchecked) var snapping: Snapping

    // MARK: Indexes kept in step with the document
    //
    // Indexes refer to nodes and edges by their slot in `nodeTable` / `edgeTable` (an
    // `Int32` that stays the same while the item is in the store): no string hashing and
    // no reference counting on the paths that run for every call.

    /// Links of nodes that are referred to while not in the store, by id (see
    /// `withLinks(ofNode:)`); empty between operations.
    @exclusivity(unchecked) var parkedLinks: [String: NodeLinks] = [:]
    @exclusivity(unchecked) var nodeIDs = GeneratedIDs(prefix: "n")
    @exclusivity(unchecked) var edgeIDs = GeneratedIDs(prefix: "e")
    /// Incremental spatial index of node frames by node slot (hit testing, rectangles,
    /// bounds). It holds each node's `NodeExtra.indexedFrame`; nodes whose frame changed
    /// since are listed in `dirtyNodes` and brought in by `refreshNodeIndex()`, which every
    /// query of `spatial` calls first. So a move costs a flag, not an index update.
    @exclusivity(unchecked) var spatial = SpatialIndex()
    /// Slots of the nodes whose frame may differ from their indexed frame (flagged by
    /// `NodeFlags.dirty`, so each is listed once; removed ones are skipped).
    @exclusivity(unchecked) var dirtyNodes: [Int32] = []
    /// Incremental spatial index of edge path bounds by edge slot (edge hit testing).
    @exclusivity(unchecked) var edgeSpatial = SpatialIndex(tracksBounds: false)
    /// Edge slots whose indexed path bounds may be out of date because one of their nodes
    /// moved, was resized or changed handles (flagged by `EdgeExtra.isStale`). Recomputed by
    /// `refreshEdgeIndex()` before any query of `edgeSpatial`.
    @exclusivity(unchecked) var staleEdges: [Int32] = []
    /// How many edges have bend points: while none has, the operations skip the pass that
    /// carries bend points along with moved nodes (`carryBendPoints()`).
    @exclusivity(unchecked) var bentEdgeCount = 0
    /// How many edges are orthogonal: while none is, operations skip the routing pass.
    @exclusivity(unchecked) var orthogonalEdgeCount = 0
    /// The router of orthogonal edges and what live routing keeps between calls.
    @exclusivity(unchecked) var routing = RoutingState()
    /// The router of orthogonal edges (docs/routing.md). Nil: orthogonal edges keep the
    /// points they are given, and one without points is drawn as a smoothStep path.
    /// Installing a router resets it and routes nothing yet: routes follow the next changes,
    /// or `routeEdges()`.
    public var edgeRouter: (any EdgeRouter)? {
        get { routing.router }
        set { routing.install(newValue) }
    }
    /// Path calculators that replace the built-in one of a path type.
    @exclusivity(unchecked) var customCalculators: [EdgePathType: any EdgePathCalculator] = [:]
    /// Upper bound of how far outside a node frame a custom handle area reaches.
    @exclusivity(unchecked) var customHandleReach = 0.0

    // MARK: The parts (each owns its state; see docs/store-internals.md)

    /// The marks interaction puts on items: selection, focus, hover, drop targets and
    /// animated edges (not document content; rollback restores them with the document).
    @exclusivity(unchecked) var marks = StoreMarks()
    /// The operation log: nesting, the journal of the current operation, the change batches
    /// it queued, and the undo and redo histories.
    @exclusivity(unchecked) var log = OperationLog<Data>()
    /// The callbacks and observers that receive the store's changes.
    @exclusivity(unchecked) var listeners = StoreListeners<Data>()

    /// Keyboard focus.
    public internal(set) var focusedTarget: FlowFocusTarget? {
        get { marks.focusedTarget }
        set { marks.focusedTarget = newValue?.canonical }  // D24
    }
    /// The node under the pointer.
    public internal(set) var hoveredNodeID: String? {
        get { marks.hoveredNodeID }
        set { marks.hoveredNodeID = newValue }
    }
    /// The node highlighted as a drop target.
    public internal(set) var dropTargetNodeID: String? {
        get { marks.dropTargetNodeID }
        set { marks.dropTargetNodeID = newValue }
    }
    /// The edge highlighted as a drop target.
    public internal(set) var dropTargetEdgeID: String? {
        get { marks.dropTargetEdgeID }
        set { marks.dropTargetEdgeID = newValue }
    }

    // MARK: The interaction engine

    /// The gestures and animations that drive this store: pointer input, node drags, the
    /// selection rectangle, viewport and node animations, double taps and accessory
    /// placement (`FlowInteraction`). The store calls it only through its store hooks.
    public var interaction: FlowInteraction<Data> {
        @inline(__always) get { FlowInteraction(store: self) }
    }
    /// The interaction engine's state, kept here for it: only `FlowInteraction` reads or
    /// writes it (the store, through the engine's store hooks).
    @exclusivity(unchecked) var interactionState = InteractionState<Data>()

    // MARK: Callbacks (kept by `listeners`)

    /// Receives each batch of node changes.
    public var onNodesChange: (([NodeChange<Data>]) -> Void)? {
        get { listeners.onNodesChange }
        set { listeners.onNodesChange = newValue }
    }
    /// Receives each batch of edge changes (after the node batch of the same call).
    public var onEdgesChange: (([EdgeChange]) -> Void)? {
        get { listeners.onEdgesChange }
        set { listeners.onEdgesChange = newValue }
    }
    /// Receives an accepted connection; when nil the store adds the edge itself (D18).
    public var onConnect: ((ConnectionProposal) -> Void)? {
        get { listeners.onConnect }
        set { listeners.onConnect = newValue }
    }
    /// Decides whether a proposal is accepted (nil: anything but a self-loop).
    public var connectionValidator: ((ConnectionProposal) -> Bool)? {
        get { listeners.connectionValidator }
        set { listeners.connectionValidator = newValue }
    }
    /// Receives a proposal the validator rejected.
    public var onConnectionRejected: ((ConnectionProposal) -> Void)? {
        get { listeners.onConnectionRejected }
        set { listeners.onConnectionRejected = newValue }
    }
    /// Receives the slot (see `nodeSlot(_:)`) of every node that leaves the store, by any
    /// operation: a removal, undo, redo, a rolled-back transaction or a load. It is
    /// called during the operation, right after the node left its slot, which a later step
    /// of the same operation may already give to another node; it must not use the store.
    /// For hosts that keep data per node in an array indexed by slot: the Lua binding keeps
    /// its Node handles this way and moves a removed node's handle out of the array here.
    public var onNodeSlotFreed: ((Int32) -> Void)? {
        get { listeners.onNodeSlotFreed }
        set { listeners.onNodeSlotFreed = newValue }
    }
    /// `onNodeSlotFreed` for edges (see `edgeSlot(_:)`): every edge that leaves the store,
    /// by any operation, a node's removal taking its edges along included.
    public var onEdgeSlotFreed: ((Int32) -> Void)? {
        get { listeners.onEdgeSlotFreed }
        set { listeners.onEdgeSlotFreed = newValue }
    }

    // MARK: Operation machinery

    /// The error of a batch the recorder refused, for the call to throw (see `log` for the
    /// rest of the operation machinery's state).
    @exclusivity(unchecked) @usableFromInline var writeFailure: FlowError?
    /// Receives every committed change batch as actions (workspaces, the Lua journal).
    /// While one is set, every call takes the journaled path (no quiet fast path).
    @exclusivity(unchecked) public var actionRecorder: FlowActionRecorder<Data>?
    /// What the store may hold at most (a sandbox sets them): a call that leaves it beyond
    /// one is rolled back and fails (`StoreLimits`). Nil: no limits.
    @exclusivity(unchecked) public var limits: StoreLimits?
    /// The memory the store's nodes and edges take from (a sandbox's cap, shared with its
    /// other stores): a call that would pass it is rolled back and fails. Setting it takes
    /// what the store holds now, when that fits, and gives back to the old one; the store
    /// gives back what it took when it goes.
    @exclusivity(unchecked) public var memoryBudget: (any MemoryBudget)? {
        willSet { if let old = memoryBudget, budgetBytes != 0 { _ = old.take(-budgetBytes) } }
        didSet {
            let bytes = memoryBudget == nil ? 0 : Self.heldBytes(nodes, edges)
            budgetBytes = memoryBudget?.take(bytes) == true ? bytes : 0
            historyBytes = 0  // what the history holds already is not counted
        }
    }
    /// What the store holds of `memoryBudget`: its nodes and edges, and the old versions
    /// its history keeps (`historyBytes`).
    @exclusivity(unchecked) var budgetBytes = 0
    @exclusivity(unchecked) var historyBytes = 0

    /// The ids of the nodes the store held at its last automatic layout (FlowLayout sets
    /// it; a load clears it): a stable layout keeps their places and fits the others in.
    @exclusivity(unchecked) public var lastLayoutNodeIDs: Set<String>?

    /// Whether history is recorded. Turning it off clears the history; turning it on
    /// starts empty.
    @exclusivity(unchecked) public var isUndoEnabled = true {
        didSet { clearHistory() }
    }

    /// Whether every mutation re-checks all invariants (O(n) each; on by default in debug
    /// builds, so tests catch inconsistencies where they happen).
    @exclusivity(unchecked) public var checksInvariants: Bool = _isDebugAssertConfiguration()

    /// Ancestors visited by the parent-cycle checks so far (tests count the work of
    /// `addNode` with a `parentID`, which must not walk up a deep chain).
    @exclusivity(unchecked) package var ancestorSteps = 0

    deinit { if let b = memoryBudget, budgetBytes != 0 { _ = b.take(-budgetBytes) } }

    /// Creates an empty store.
    public init(configuration: FlowConfiguration = FlowConfiguration()) {
        self.configuration = configuration
        self.snapping = Snapping(configuration)
    }

    // MARK: Reading

    /// Number of nodes.
    public var nodeCount: Int { nodeTable.count }
    /// Number of edges.
    public var edgeCount: Int { edgeTable.count }
    /// `configuration.defaultEdgePathType`, read without copying the whole configuration
    /// (the Lua binding reads it for every edge that names no path type).
    public var defaultEdgePathType: EdgePathType { configuration.defaultEdgePathType }
    /// All nodes in store order.
    public var nodes: [Node] { nodeTable.elements }
    /// All edges in store order.
    public var edges: [FlowEdge] { edgeTable.elements }
    /// The node with `id`, or nil.
    @_specialize(exported: true, where Data == JSONValue)
    public func node(_ id: String) -> Node? { nodeTable[id] }
    /// The edge with `id`, or nil.
    @_specialize(exported: true, where Data == JSONValue)
    public func edge(_ id: String) -> FlowEdge? { edgeTable[id] }
    /// Visits the nodes in store order without copying the whole array.
    public func forEachNode(_ body: (Node) throws -> Void) rethrows { try nodeTable.forEach(body) }
    /// Visits the edges in store order without copying the whole array.
    public func forEachEdge(_ body: (FlowEdge) throws -> Void) rethrows { try edgeTable.forEach(body) }

    /// The node with `id`, or throws `unknownNode` for `operation`.
    func requireNode(_ id: String, _ operation: String) throws(FlowError) -> Node {
        guard let n = nodeTable[id] else { throw .unknownNode(operation, id) }
        return n
    }

    /// The edge with `id`, or throws `unknownEdge` for `operation`.
    func requireEdge(_ id: String, _ operation: String) throws(FlowError) -> FlowEdge {
        guard let e = edgeTable[id] else { throw .unknownEdge(operation, id) }
        return e
    }

    /// Whether node changes are queued for delivery: only while someone listens. A change
    /// made while nobody listens is never delivered, also not to a listener set later in
    /// the same transaction or interactive update; a batch, once queued, goes to every
    /// listener set when it is delivered.
    @inline(__always)
    var recordsNodeEvents: Bool { listeners.recordsNodeEvents }

    /// Whether edge changes are queued for delivery (see `recordsNodeEvents`).
    @inline(__always)
    var recordsEdgeEvents: Bool { listeners.recordsEdgeEvents }

    // MARK: Links between nodes and edges, by slot

    /// Ids of the edges with node `id` as source or target (a self-loop once), in no
    /// particular order.
    func edgeIDs(touching id: String) -> [String] {
        guard let s = nodeTable.slot(of: id) else { return [] }
        return nodeTable.extra(s).links.edges.map { edgeTable.id(slot: $0) }
    }

    /// Ids of the child nodes of `id`, in no particular order.
    func childNodeIDs(of id: String) -> [String] {
        guard let s = nodeTable.slot(of: id) else { return [] }
        return nodeTable.extra(s).links.children.map { nodeTable.id(slot: $0) }
    }

    /// Ids of the edges parented to node `id`, in no particular order.
    func childEdgeIDs(of id: String) -> [String] {
        guard let s = nodeTable.slot(of: id) else { return [] }
        return nodeTable.extra(s).links.childEdges.map { edgeTable.id(slot: $0) }
    }

    /// Sorts ids of nodes into store order; ids not in the store are dropped.
    ///
    /// Arrays and sets (what the hot callers, such as `removeNode`, pass) take concrete
    /// overloads: the generic version used to run unspecialised, instantiating generic
    /// metadata on every call (about 7,000 instructions for a single id).
    func nodeOrder(_ ids: [String]) -> [String] { Self.inSeqOrder(ids) { nodeTable.seq(of: $0) } }

    /// `nodeOrder(_:)` for a set.
    func nodeOrder(_ ids: Set<String>) -> [String] { Self.inSeqOrder(ids) { nodeTable.seq(of: $0) } }

    /// `nodeOrder(_:)` for any other sequence of ids.
    func nodeOrder(_ ids: some Sequence<String>) -> [String] { nodeOrder(Array(ids)) }

    /// Sorts ids of edges into store order; ids not in the store are dropped.
    func edgeOrder(_ ids: [String]) -> [String] { Self.inSeqOrder(ids) { edgeTable.seq(of: $0) } }

    /// `edgeOrder(_:)` for a set.
    func edgeOrder(_ ids: Set<String>) -> [String] { Self.inSeqOrder(ids) { edgeTable.seq(of: $0) } }

    /// `edgeOrder(_:)` for any other sequence of ids.
    func edgeOrder(_ ids: some Sequence<String>) -> [String] { edgeOrder(Array(ids)) }

    /// The ids that `seq` finds, by ascending sequence number (distinct within a table).
    /// Inlined into the concrete overloads above, so that it is specialised for them.
    @inline(__always)
    private static func inSeqOrder<C: Collection<String>>(_ ids: C, _ seq: (String) -> Int?) -> [String] {
        var keyed: [(id: String, seq: Int)] = []
        keyed.reserveCapacity(ids.count)
        for id in ids { if let s = seq(id) { keyed.append((id, s)) } }
        if keyed.count > 1 { keyed.sort { $0.seq < $1.seq } }
        return keyed.map(\.id)
    }

    // MARK: Observers

    /// Adds an observer that receives every batch after `onNodesChange`/`onEdgesChange`.
    /// Returns a token for `removeObserver`.
    @discardableResult
    public func addObserver(
        nodes: @escaping ([NodeChange<Data>]) -> Void, edges: @escaping ([EdgeChange]) -> Void
    ) -> Int {
        listeners.add(nodes: { c, _ in nodes(c) }, edges: { c, _ in edges(c) }, wantsPrevious: false)
    }

    /// Adds an observer that also receives, for every id with a `replace` in the batch, the
    /// value before the first of those replacements (to show what changed). Walking the
    /// batch in order and updating that map gives the previous value of every replacement.
    @discardableResult
    public func addObserver(
        nodes: @escaping ([NodeChange<Data>], _ previous: [String: Node]) -> Void,
        edges: @escaping ([EdgeChange], _ previous: [String: FlowEdge]) -> Void
    ) -> Int {
        listeners.add(nodes: nodes, edges: edges, wantsPrevious: true)
    }

    /// Adds an observer that receives the node batch and the edge batch of each delivery
    /// together (one of them may be empty, never both), after every other listener.
    /// Returns a token for `removeObserver`.
    @discardableResult
    public func addBatchObserver(_ body: @escaping (_ nodes: [NodeChange<Data>], _ edges: [EdgeChange]) -> Void) -> Int {
        listeners.addBatch(body)
    }

    /// Removes an observer added with `addObserver` or `addBatchObserver`.
    public func removeObserver(_ token: Int) { listeners.remove(token) }
}

/// Snap to grid as the configuration sets it.
struct Snapping {
    /// The grid size, or 0 when snapping is off.
    var gridSize: Double

    init(_ c: FlowConfiguration) {
        gridSize = c.snapToGrid && c.gridSize > 0 ? c.gridSize : 0
    }

    /// `p` snapped (unchanged when snapping is off), as `FlowConfiguration.snapped`.
    @inline(__always)
    func snapped(_ p: Point) -> Point {
        gridSize > 0 ? FlowConfiguration.snap(p, gridSize) : p
    }
}

/// The index data of a node slot.
struct NodeExtra: SlotExtra {
    var links = NodeLinks()
    /// The frame `spatial` holds for the node.
    var indexedFrame = Rect.zero
}

/// The flag bits of a node slot (`OrderedTable.flags`), kept beside the node's key so that a
/// move reads no other cache line.
enum NodeFlags {
    /// The node's frame may differ from its indexed frame (it is listed in `dirtyNodes`).
    static let dirty: UInt8 = 1
    /// `links.children` is not empty.
    static let hasChildren: UInt8 = 2
}

/// The index data of an edge slot.
struct EdgeExtra: SlotExtra {
    /// The path bounds `edgeSpatial` holds for the edge; nil when it is not indexed (its
    /// handles cannot be resolved).
    var indexedBounds: Rect?
    /// Whether the indexed bounds may be out of date (listed in `staleEdges`).
    var isStale = false
}

/// What refers to one node, kept by node slot.
struct NodeLinks {
    /// Slots of the edges with the node as source or target (a self-loop once).
    var edges: [Int32] = []
    /// Slots of the child nodes.
    var children: [Int32] = []
    /// Slots of the edges parented to the node.
    var childEdges: [Int32] = []

    var isEmpty: Bool { edges.isEmpty && children.isEmpty && childEdges.isEmpty }

    /// Removes one occurrence of `slot` from a list (order is not kept).
    static func remove(_ slot: Int32, from list: inout [Int32]) {
        guard let i = list.lastIndex(of: slot) else { return }
        list.swapAt(i, list.count - 1)
        list.removeLast()
    }
}

/// Generated ids `"n1"`, `"n2"`, …: the smallest `<prefix><k>` (k ≥ 1) not in use.
struct GeneratedIDs {
    let prefix: String
    /// Every `<prefix><j>` with `j < lowest` is in use.
    var lowest = 1

    init(prefix: String) { self.prefix = prefix }

    mutating func next(isUsed: (String) -> Bool) -> String {
        while isUsed(prefix + String(lowest)) { lowest += 1 }
        return prefix + String(lowest)
    }

    /// Call when an id is released, to keep `lowest` a lower bound of the free numbers.
    mutating func released(_ id: String) {
        guard id.hasPrefix(prefix) else { return }
        let digits = id.utf8.dropFirst(prefix.utf8.count)
        guard let first = digits.first, first != UInt8(ascii: "0"),
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            digits.count < 18, let k = Int(String(decoding: digits, as: UTF8.self))
        else { return }
        if k < lowest { lowest = k }
    }

    mutating func reset() { lowest = 1 }
}
