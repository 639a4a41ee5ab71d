// The interaction engine: the state of gestures and animations, apart from the store.
//
// Which state lives where (docs/store.md, "Store and interaction engine"):
//
// - `FlowStore` holds the document (nodes, edges, class styles), its indexes, the
//   selection and focus, the hover and drop-target flags and the animated edges (state
//   that shows on the nodes and edges it names, restored with the document on rollback),
//   the viewport, the history and the events.
// - `FlowInteraction` (this type) owns what a gesture, an edit or an animation is in the
//   middle of: `activeInteraction`, the drag session, the connection draft, the pointer
//   press and the last tap, the selection rectangle being drawn, viewport and node
//   animations, the dash phase, the virtual clock and the callbacks that report gestures
//   (double taps) or shape them (accessory placement).
//
// The engine's facets (FlowInteraction+*.swift) change the document only through the
// store's public API and the store's engine surface (FlowStore+EngineSurface.swift): moves
// that record nothing, the net change that becomes a gesture's undo step, and `perform`,
// which makes a gesture call one operation. The store calls the engine only through the
// hooks in FlowInteraction+StoreHooks.swift.

/// The interaction engine of a store (`FlowStore.interaction`): the pointer state machine,
/// node drag sessions, the selection rectangle, viewport and node animations, double taps
/// and accessory placement. It drives its store through the store's API. A value of this
/// type is a view of one store's engine: every copy, and every `store.interaction`, is the
/// same engine.
///
/// Like the store it is not thread-safe. Its properties read and write the state in place
/// (`_modify`), so that changing one entry of a dictionary does not copy it.
public struct FlowInteraction<Data: FlowNodeData> {
    public typealias Node = FlowNode<Data>

    /// The store this engine drives.
    let store: FlowStore<Data>

    @inline(__always)
    init(store: FlowStore<Data>) { self.store = store }

    // MARK: Gesture state

    /// The node drag in progress (FlowInteraction+Drag.swift).
    var dragSession: DragSession? {
        @inline(__always) get { store.interactionState.dragSession }
        nonmutating set { store.interactionState.dragSession = newValue }
        nonmutating _modify { yield &store.interactionState.dragSession }
    }
    /// The pointer press being tracked, nil while the pointer is up
    /// (FlowInteraction+Pointer.swift).
    var pointerPress: PointerPress? {
        @inline(__always) get { store.interactionState.pointerPress }
        nonmutating set { store.interactionState.pointerPress = newValue }
        nonmutating _modify { yield &store.interactionState.pointerPress }
    }
    /// The last tap that may start a double tap.
    var lastTap: RecordedTap? {
        @inline(__always) get { store.interactionState.lastTap }
        nonmutating set { store.interactionState.lastTap = newValue }
        nonmutating _modify { yield &store.interactionState.lastTap }
    }
    /// The rubber-band rectangle in canvas coordinates while one is drawn.
    public internal(set) var selectionRect: Rect? {
        get { store.interactionState.selectionRect }
        nonmutating set { store.interactionState.selectionRect = newValue }
        nonmutating _modify { yield &store.interactionState.selectionRect }
    }
    /// The connection being dragged, if any (canvas coordinates, D9;
    /// FlowInteraction+Connections.swift).
    public internal(set) var connectionDraft: ConnectionDraft? {
        get { store.interactionState.connectionDraft }
        nonmutating set { store.interactionState.connectionDraft = newValue }
        nonmutating _modify { yield &store.interactionState.connectionDraft }
    }
    /// The gesture or edit in progress.
    public internal(set) var activeInteraction: FlowActiveInteraction? {
        get { store.interactionState.activeInteraction }
        nonmutating set { store.interactionState.activeInteraction = newValue }
        nonmutating _modify { yield &store.interactionState.activeInteraction }
    }

    // MARK: Animation state

    /// Running viewport animations (FlowInteraction+Animation.swift).
    var viewportAnimation: ViewportAnimation {
        @inline(__always) get { store.interactionState.viewportAnimation }
        nonmutating set { store.interactionState.viewportAnimation = newValue }
        nonmutating _modify { yield &store.interactionState.viewportAnimation }
    }
    /// Running node position animations, by node id.
    var nodeAnimations: [String: NodeAnimation] {
        @inline(__always) get { store.interactionState.nodeAnimations }
        nonmutating set { store.interactionState.nodeAnimations = newValue }
        nonmutating _modify { yield &store.interactionState.nodeAnimations }
    }
    /// Positions of the animated nodes before their animations started; the undo step of
    /// the animation is recorded from these when the last one settles.
    var nodeAnimationOrigins: [String: Point] {
        @inline(__always) get { store.interactionState.nodeAnimationOrigins }
        nonmutating set { store.interactionState.nodeAnimationOrigins = newValue }
        nonmutating _modify { yield &store.interactionState.nodeAnimationOrigins }
    }
    /// Phase of the dash pattern of animated edges, advanced by `tick`.
    public internal(set) var edgeDashPhase: Double {
        get { store.interactionState.edgeDashPhase }
        nonmutating set { store.interactionState.edgeDashPhase = newValue }
        nonmutating _modify { yield &store.interactionState.edgeDashPhase }
    }
    /// Virtual time in seconds, advanced only by `advanceClock(by:)`.
    public internal(set) var clock: Double {
        get { store.interactionState.clock }
        nonmutating set { store.interactionState.clock = newValue }
        nonmutating _modify { yield &store.interactionState.clock }
    }

    // MARK: Callbacks

    /// Receives the id of a node tapped twice within 0.3 s of clock time.
    public var onNodeDoubleTap: ((String) -> Void)? {
        get { store.interactionState.onNodeDoubleTap }
        nonmutating set { store.interactionState.onNodeDoubleTap = newValue }
        nonmutating _modify { yield &store.interactionState.onNodeDoubleTap }
    }
    /// Receives the id of an edge tapped twice within 0.3 s of clock time.
    public var onEdgeDoubleTap: ((String) -> Void)? {
        get { store.interactionState.onEdgeDoubleTap }
        nonmutating set { store.interactionState.onEdgeDoubleTap = newValue }
        nonmutating _modify { yield &store.interactionState.onEdgeDoubleTap }
    }
    /// Receives the canvas point of the second of two taps on empty canvas.
    public var onCanvasDoubleTap: ((Point) -> Void)? {
        get { store.interactionState.onCanvasDoubleTap }
        nonmutating set { store.interactionState.onCanvasDoubleTap = newValue }
        nonmutating _modify { yield &store.interactionState.onCanvasDoubleTap }
    }
    /// The preferred accessory side of a node; a nil result or an error means `.top`.
    public var nodeAccessoryPlacement: ((FlowNode<Data>) throws -> AccessoryPlacement?)? {
        get { store.interactionState.nodeAccessoryPlacement }
        nonmutating set { store.interactionState.nodeAccessoryPlacement = newValue }
        nonmutating _modify { yield &store.interactionState.nodeAccessoryPlacement }
    }
}

/// The state of a store's interaction engine, kept by the store as one value
/// (`FlowStore.interactionState`) and read and written only by the engine
/// (`FlowInteraction`); the store itself reads it only through the engine's store hooks.
struct InteractionState<Data: FlowNodeData> {
    // MARK: Gesture state

    /// The node drag in progress (FlowInteraction+Drag.swift).
    var dragSession: DragSession?
    /// The pointer press being tracked, nil while the pointer is up
    /// (FlowInteraction+Pointer.swift).
    var pointerPress: PointerPress?
    /// The last tap that may start a double tap.
    var lastTap: RecordedTap?
    /// The rubber-band rectangle in canvas coordinates while one is drawn.
    var selectionRect: Rect?
    /// The connection being dragged, if any.
    var connectionDraft: ConnectionDraft?
    /// The gesture or edit in progress.
    var activeInteraction: FlowActiveInteraction?

    // MARK: Animation state

    /// Running viewport animations (FlowInteraction+Animation.swift).
    var viewportAnimation: ViewportAnimation = ViewportAnimation()
    /// Running node position animations, by node id.
    var nodeAnimations: [String: NodeAnimation] = [:]
    /// Positions of the animated nodes before their animations started; the undo step of
    /// the animation is recorded from these when the last one settles.
    var nodeAnimationOrigins: [String: Point] = [:]
    /// Phase of the dash pattern of animated edges, advanced by `tick`.
    var edgeDashPhase: Double = 0
    /// Virtual time in seconds, advanced only by `advanceClock(by:)`.
    var clock: Double = 0

    // MARK: Callbacks

    /// Receives the id of a node tapped twice within 0.3 s of clock time.
    var onNodeDoubleTap: ((String) -> Void)?
    /// Receives the id of an edge tapped twice within 0.3 s of clock time.
    var onEdgeDoubleTap: ((String) -> Void)?
    /// Receives the canvas point of the second of two taps on empty canvas.
    var onCanvasDoubleTap: ((Point) -> Void)?
    /// The preferred accessory side of a node; a nil result or an error means `.top`.
    var nodeAccessoryPlacement: ((FlowNode<Data>) throws -> AccessoryPlacement?)?

    /// See `FlowInteraction.isIdle`.
    @inline(__always)
    var isIdle: Bool { dragSession == nil && nodeAnimations.isEmpty && nodeAnimationOrigins.isEmpty }
}
