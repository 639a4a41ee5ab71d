/// A change to the nodes, delivered to `onNodesChange` in batches (store-semantics §1.7).
public enum NodeChange<Data: FlowNodeData>: Equatable {
    case add(FlowNode<Data>)
    case remove(String)
    case position(String, Point)
    case select(String, Bool)
    case dimensions(String, Size)
    case replace(FlowNode<Data>)

    /// The id of the node the change is about.
    public var id: String {
        switch self {
        case .add(let n), .replace(let n): return n.id
        case .remove(let id), .position(let id, _), .select(let id, _), .dimensions(let id, _): return id
        }
    }
}

/// A change to the edges, delivered to `onEdgesChange` in batches.
public enum EdgeChange: Hashable, Sendable {
    case add(FlowEdge)
    case remove(String)
    case select(String, Bool)
    case replace(FlowEdge)

    public var id: String {
        switch self {
        case .add(let e), .replace(let e): return e.id
        case .remove(let id), .select(let id, _): return id
        }
    }
}

/// A connection that passed validation, or was rejected.
public struct ConnectionProposal: Hashable, Sendable {
    public var sourceNodeID: String
    public var sourceHandleID: String?
    public var targetNodeID: String
    public var targetHandleID: String?
    public init(sourceNodeID: String, sourceHandleID: String?, targetNodeID: String, targetHandleID: String?) {
        self.sourceNodeID = sourceNodeID
        self.sourceHandleID = sourceHandleID
        self.targetNodeID = targetNodeID
        self.targetHandleID = targetHandleID
    }
}

/// A connection being dragged out of a handle. `currentPoint` is in canvas space (D9).
public struct ConnectionDraft: Hashable, Sendable {
    public var sourceNodeID: String
    public var sourceHandleID: String?
    public var sourceHandleType: HandleType
    public var sourceHandlePosition: HandlePosition
    public var targetNodeID: String?
    public var targetHandleID: String?
    public var currentPoint: Point
    public init(
        sourceNodeID: String, sourceHandleID: String?, sourceHandleType: HandleType,
        sourceHandlePosition: HandlePosition, targetNodeID: String? = nil,
        targetHandleID: String? = nil, currentPoint: Point
    ) {
        self.sourceNodeID = sourceNodeID
        self.sourceHandleID = sourceHandleID
        self.sourceHandleType = sourceHandleType
        self.sourceHandlePosition = sourceHandlePosition
        self.targetNodeID = targetNodeID
        self.targetHandleID = targetHandleID
        self.currentPoint = currentPoint
    }
}

/// What has keyboard focus.
public enum FlowFocusTarget: Hashable, Sendable {
    case node(String)
    case edge(String)
}

/// How a pointer selection combines with the current one.
public enum FlowSelectionMode: String, Sendable, CaseIterable {
    case replace, toggle
}

/// The gesture or edit in progress.
public enum FlowActiveInteraction: Hashable, Sendable {
    case draggingNodes([String])
    case connecting(sourceNodeID: String, sourceHandleID: String?)
    case selectingRect
    case resizingNodes([String])
    case editingText(String)
}
