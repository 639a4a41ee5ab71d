/// A node of the diagram (store-semantics §1.1). Positions are absolute canvas coordinates,
/// also for children of a group.
///
/// `isSelected`, `isHovered` and `isDropTarget` are derived by the store from its selection,
/// hover and drop-target state and cannot be set from outside, so they never diverge (D3).
public struct FlowNode<Data: FlowNodeData>: Equatable {
    public let id: String
    public var position: Point
    public var size: Size
    public var data: Data
    public var parentID: String?
    public var phase: FlowNodePhase
    public var persistence: NodePersistence
    public internal(set) var isSelected: Bool = false
    public internal(set) var isHovered: Bool = false
    public internal(set) var isDropTarget: Bool = false
    public var isDraggable: Bool
    public var acceptsChildren: Bool
    /// Whether the store sizes the node to its title: at least `defaultSize` (a circle: a
    /// square of its height), grown until the whole title shows, its lines wrapped at the
    /// style's `wrapWidth`. The store keeps the size up to date whenever the title, shape,
    /// style or classes change; setting the size (`updateNodeSize`, or an `updateNode` that
    /// changes it) ends it.
    public var autoSize: Bool
    public var zIndex: Int
    public var handles: [HandleDeclaration]
    /// Shape, classes and style, out of line: nil for a node that has none of them.
    var look: NodeLook?

    public static var defaultSize: Size { Size(150, 60) }

    /// A node. Without a `size` it is sized to its title (`autoSize`), starting from
    /// `defaultSize`; with one it keeps it (`autoSize` says otherwise when given).
    public init(
        id: String, position: Point, size: Size? = nil, data: Data,
        parentID: String? = nil, phase: FlowNodePhase = .normal,
        persistence: NodePersistence = .persistent, isDraggable: Bool = true,
        acceptsChildren: Bool = false, zIndex: Int = 0,
        handles: [HandleDeclaration] = HandleDeclaration.defaults,
        shape: NodeShape? = nil, classes: [String] = [], style: FlowStyle = FlowStyle(),
        autoSize: Bool? = nil
    ) {
        self.id = canonicalID(id)  // D24
        self.position = position
        self.size = size ?? FlowNode.defaultSize
        self.autoSize = autoSize ?? (size == nil)
        self.look = NodeLook.make(shape: shape, classes: classes, style: style)
        self.data = data
        self.parentID = parentID
        self.phase = phase
        self.persistence = persistence
        self.isDraggable = isDraggable
        self.acceptsChildren = acceptsChildren
        self.zIndex = zIndex
        self.handles = handles
    }

    /// `(position, size)`.
    public var frame: Rect { Rect(origin: position, size: size) }

    /// The node's own shape; nil: its classes', else `rounded`.
    public var shape: NodeShape? {
        get { look?.shape }
        set { look = NodeLook.make(shape: newValue, classes: classes, style: style) }
    }

    /// The node's classes, in order: later ones win where they disagree.
    public var classes: [String] {
        get { look?.classes ?? [] }
        set { look = NodeLook.make(shape: shape, classes: newValue, style: style) }
    }

    /// The node's own style, over its classes' (empty: none).
    public var style: FlowStyle {
        get { look?.style ?? FlowStyle() }
        set { look = NodeLook.make(shape: shape, classes: classes, style: newValue) }
    }

    /// Whether the node has a shape, classes or a style of its own.
    public var hasLook: Bool { look != nil }

    /// The declaration of handle `id`, if this node has one.
    public func handle(_ id: String) -> HandleDeclaration? {
        handles.first { $0.id == id }
    }

    /// The same node with another id (all other fields kept, flags cleared).
    public func withID(_ newID: String) -> FlowNode {
        var n = FlowNode(
            id: newID, position: position, size: size, data: data, parentID: parentID,
            phase: phase, persistence: persistence, isDraggable: isDraggable,
            acceptsChildren: acceptsChildren, zIndex: zIndex, handles: handles, autoSize: autoSize)
        n.look = look
        return n
    }

    /// Equality of the document content only (flags ignored).
    public func sameContent(as other: FlowNode) -> Bool {
        id == other.id && position == other.position && size == other.size
            && data == other.data && parentID == other.parentID && phase == other.phase
            && persistence == other.persistence && isDraggable == other.isDraggable
            && acceptsChildren == other.acceptsChildren && zIndex == other.zIndex
            && handles == other.handles && autoSize == other.autoSize && NodeLook.same(look, other.look)
    }
}

extension FlowNode where Data == JSONValue {
    /// A node with an id, a frame and a parent and the defaults for the rest (no data, the
    /// default handles, no shape, classes or style), made without the generic initialiser's
    /// empty style: what the Lua binding's fast `addNode` and `addNodes` entries add.
    /// (It delegates to `init(canonicalID:...)`: assigned here field by field, the node was
    /// built in a temporary, copied out and the temporary destroyed, about 370 instructions
    /// of retains and releases a node in release builds.)
    package init(id: String, position: Point, size: Size, autoSize: Bool, parentID: String?) {
        self.init(
            canonicalID: canonicalID(id),  // D24
            position: position, size: size, autoSize: autoSize, data: .null, parentID: parentID)
    }
}

extension FlowNode {
    /// A node of an id already canonical, with the defaults for what is not given.
    @inline(__always)
    init(canonicalID id: String, position: Point, size: Size, autoSize: Bool, data: Data, parentID: String?) {
        self.id = id
        self.position = position
        self.size = size
        self.autoSize = autoSize
        self.data = data
        self.parentID = parentID
        self.phase = .normal
        self.persistence = .persistent
        self.isDraggable = true
        self.acceptsChildren = false
        self.zIndex = 0
        self.handles = HandleDeclaration.defaults
    }
}

/// An edge between two nodes (store-semantics §1.3). A nil handle id attaches to the node
/// centre.
public struct FlowEdge: Hashable, Sendable {
    public let id: String
    public var sourceNodeID: String
    public var sourceHandleID: String?
    public var targetNodeID: String
    public var targetHandleID: String?
    public var parentID: String?
    public var pathType: EdgePathType
    public var label: String?
    /// Bend points the path passes through, in order from source to target, in canvas
    /// coordinates (absolute, like node positions). Empty: the path runs straight from
    /// handle to handle as its path type draws it. Every coordinate must be finite, and an
    /// edge has at most `maximumPointCount` of them.
    public var points: [Point]
    public internal(set) var isSelected: Bool = false
    public internal(set) var isDropTarget: Bool = false
    /// Classes and style, out of line: nil for an edge that has neither.
    var look: EdgeLook?

    /// The most bend points an edge may have.
    public static let maximumPointCount = 10_000

    public init(
        id: String, sourceNodeID: String, sourceHandleID: String? = nil,
        targetNodeID: String, targetHandleID: String? = nil, parentID: String? = nil,
        pathType: EdgePathType = .bezier, label: String? = nil, points: [Point] = [],
        classes: [String] = [], style: FlowStyle = FlowStyle()
    ) {
        self.look = EdgeLook.make(classes: classes, style: style)
        self.id = canonicalID(id)  // D24
        self.sourceNodeID = sourceNodeID
        self.sourceHandleID = sourceHandleID
        self.targetNodeID = targetNodeID
        self.targetHandleID = targetHandleID
        self.parentID = parentID
        self.pathType = pathType
        self.label = label
        self.points = points
    }

    /// An edge from node centre to node centre with nothing else set (no handles, parent,
    /// label, points, classes or style), made without building and testing an empty style:
    /// what the Lua binding's fast `addEdge` entry adds.
    package init(id: String, sourceNodeID: String, targetNodeID: String, pathType: EdgePathType) {
        self.id = canonicalID(id)  // D24
        self.sourceNodeID = sourceNodeID
        self.targetNodeID = targetNodeID
        self.pathType = pathType
        self.points = []
    }

    /// The edge's classes, in order: later ones win where they disagree.
    public var classes: [String] {
        get { look?.classes ?? [] }
        set { look = EdgeLook.make(classes: newValue, style: style) }
    }

    /// The edge's own style, over its classes' (empty: none).
    public var style: FlowStyle {
        get { look?.style ?? FlowStyle() }
        set { look = EdgeLook.make(classes: classes, style: newValue) }
    }

    /// Whether the edge has classes or a style of its own.
    public var hasLook: Bool { look != nil }

    /// The same edge with another id (flags cleared).
    public func withID(_ newID: String) -> FlowEdge {
        var e = FlowEdge(
            id: newID, sourceNodeID: sourceNodeID, sourceHandleID: sourceHandleID,
            targetNodeID: targetNodeID, targetHandleID: targetHandleID, parentID: parentID,
            pathType: pathType, label: label, points: points)
        e.look = look
        return e
    }

    /// Equality of the document content only (flags ignored).
    public func sameContent(as o: FlowEdge) -> Bool {
        id == o.id && sourceNodeID == o.sourceNodeID && sourceHandleID == o.sourceHandleID
            && targetNodeID == o.targetNodeID && targetHandleID == o.targetHandleID
            && parentID == o.parentID && pathType == o.pathType && label == o.label
            && points == o.points && EdgeLook.same(look, o.look)
    }
}

/// Pan and zoom: `screen = canvas * zoom + offset` (store-semantics §1.5).
public struct Viewport: Hashable, Sendable {
    public var offset: Point
    public var zoom: Double

    public init(offset: Point = .zero, zoom: Double = 1) {
        self.offset = offset
        self.zoom = zoom
    }

    public func screenToCanvas(_ p: Point) -> Point {
        let z = max(zoom, 0.01)
        return Point((p.x - offset.x) / z, (p.y - offset.y) / z)
    }

    public func canvasToScreen(_ p: Point) -> Point {
        Point(p.x * zoom + offset.x, p.y * zoom + offset.y)
    }
}
