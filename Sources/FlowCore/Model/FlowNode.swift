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
    public var zIndex: Int
    public var handles: [HandleDeclaration]

    public static var defaultSize: Size { Size(150, 60) }

    public init(
        id: String, position: Point, size: Size = FlowNode.defaultSize, data: Data,
        parentID: String? = nil, phase: FlowNodePhase = .normal,
        persistence: NodePersistence = .persistent, isDraggable: Bool = true,
        acceptsChildren: Bool = false, zIndex: Int = 0,
        handles: [HandleDeclaration] = HandleDeclaration.defaults
    ) {
        self.id = id
        self.position = position
        self.size = size
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

    /// The declaration of handle `id`, if this node has one.
    public func handle(_ id: String) -> HandleDeclaration? {
        handles.first { $0.id == id }
    }

    /// The same node with another id (all other fields kept, flags cleared).
    public func withID(_ newID: String) -> FlowNode {
        FlowNode(
            id: newID, position: position, size: size, data: data, parentID: parentID,
            phase: phase, persistence: persistence, isDraggable: isDraggable,
            acceptsChildren: acceptsChildren, zIndex: zIndex, handles: handles)
    }

    /// Equality of the document content only (flags ignored).
    public func sameContent(as other: FlowNode) -> Bool {
        id == other.id && position == other.position && size == other.size
            && data == other.data && parentID == other.parentID && phase == other.phase
            && persistence == other.persistence && isDraggable == other.isDraggable
            && acceptsChildren == other.acceptsChildren && zIndex == other.zIndex
            && handles == other.handles
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

    /// The most bend points an edge may have.
    public static let maximumPointCount = 10_000

    public init(
        id: String, sourceNodeID: String, sourceHandleID: String? = nil,
        targetNodeID: String, targetHandleID: String? = nil, parentID: String? = nil,
        pathType: EdgePathType = .bezier, label: String? = nil, points: [Point] = []
    ) {
        self.id = id
        self.sourceNodeID = sourceNodeID
        self.sourceHandleID = sourceHandleID
        self.targetNodeID = targetNodeID
        self.targetHandleID = targetHandleID
        self.parentID = parentID
        self.pathType = pathType
        self.label = label
        self.points = points
    }

    /// The same edge with another id (flags cleared).
    public func withID(_ newID: String) -> FlowEdge {
        FlowEdge(
            id: newID, sourceNodeID: sourceNodeID, sourceHandleID: sourceHandleID,
            targetNodeID: targetNodeID, targetHandleID: targetHandleID, parentID: parentID,
            pathType: pathType, label: label, points: points)
    }

    /// Equality of the document content only (flags ignored).
    public func sameContent(as o: FlowEdge) -> Bool {
        id == o.id && sourceNodeID == o.sourceNodeID && sourceHandleID == o.sourceHandleID
            && targetNodeID == o.targetNodeID && targetHandleID == o.targetHandleID
            && parentID == o.parentID && pathType == o.pathType && label == o.label
            && points == o.points
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
