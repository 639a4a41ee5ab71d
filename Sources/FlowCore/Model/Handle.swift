/// Whether a handle starts (`source`) or ends (`target`) an edge.
public enum HandleType: String, Sendable, CaseIterable, FlowEnum {
    case source, target

    /// The type a connection from this handle must end on.
    public var opposite: HandleType { self == .source ? .target : .source }
}

/// The side of its node a handle sits on.
public enum HandlePosition: String, Sendable, CaseIterable, FlowEnum {
    case center, top, bottom, left, right

    /// Unit direction pointing away from the node (zero for `center`).
    public var direction: Point {
        switch self {
        case .center: return Point(0, 0)
        case .top: return Point(0, -1)
        case .bottom: return Point(0, 1)
        case .left: return Point(-1, 0)
        case .right: return Point(1, 0)
        }
    }

    /// `left` and `right` are horizontal; `center` counts as vertical.
    public var isHorizontal: Bool { self == .left || self == .right }

    /// The handle point of this side on a node frame (store-semantics §1.2).
    public func point(in frame: Rect) -> Point {
        let x = frame.origin.x, y = frame.origin.y, w = frame.size.width, h = frame.size.height
        switch self {
        case .center: return Point(x + w / 2, y + h / 2)
        case .top: return Point(x + w / 2, y)
        case .bottom: return Point(x + w / 2, y + h)
        case .left: return Point(x, y + h / 2)
        case .right: return Point(x + w, y + h / 2)
        }
    }
}

/// The area around a handle that reacts to the pointer.
public enum HandleHitArea: Hashable, Sendable {
    /// Never hits.
    case disabled
    /// Hits when the distance to the handle point is strictly less than `radius` (D22).
    case point(radius: Double)
    /// Hits anywhere in the node frame (half-open); distance 0.
    case node
    /// Hits in a band of `width` on both sides of the node border; distance 0.
    case nodeBorder(width: Double)

    /// The distance reported for a hit, or nil for a miss.
    public func hitDistance(_ p: Point, handlePoint: Point, frame: Rect) -> Double? {
        switch self {
        case .disabled:
            return nil
        case .point(let radius):
            let d = p.distance(to: handlePoint)
            return d < radius ? d : nil
        case .node:
            return frame.contains(p) ? 0 : nil
        case .nodeBorder(let width):
            let outer = frame.insetBy(dx: -width, dy: -width)
            let inner = frame.insetBy(dx: width, dy: width)
            return outer.contains(p) && !inner.contains(p) ? 0 : nil
        }
    }
}

/// A handle a node declares: where edges attach.
public struct HandleDeclaration: Hashable, Sendable {
    public var id: String
    public var type: HandleType
    public var position: HandlePosition
    /// Area that starts a connection (nil: a point area of the configured radius).
    public var connectionStartArea: HandleHitArea?
    /// Area that accepts a connection (nil: a point area of the configured radius).
    public var connectionTargetArea: HandleHitArea?
    /// Where along its side the handle sits, as a fraction of the side's length from its
    /// middle (left to right, top to bottom): -0.5 at one end, 0 the middle, 0.5 the other
    /// end. A record field's port sits over its field (docs/formats.md, "Records").
    public var offset: Double

    public init(
        id: String, type: HandleType, position: HandlePosition,
        connectionStartArea: HandleHitArea? = nil, connectionTargetArea: HandleHitArea? = nil,
        offset: Double = 0
    ) {
        self.id = id
        self.type = type
        self.position = position
        self.connectionStartArea = connectionStartArea
        self.connectionTargetArea = connectionTargetArea
        self.offset = offset
    }

    /// Where the handle sits on the outline of `shape` in frame `f`: the side's handle
    /// point (`NodeShape.handlePoint`), moved `offset` along the side (`NodeShape.portPoint`).
    public func point(on shape: NodeShape, in f: Rect) -> Point {
        guard offset != 0, position != .center else { return shape.handlePoint(position, in: f) }
        let length = position == .top || position == .bottom ? f.width : f.height
        return shape.portPoint(position, offset: offset * length, in: f)
    }

    /// `target` at the top, then `source` at the bottom.
    public static let defaults: [HandleDeclaration] = [
        HandleDeclaration(id: "target", type: .target, position: .top),
        HandleDeclaration(id: "source", type: .source, position: .bottom),
    ]

    /// Whether `handles` is the very array `defaults` (not a copy with equal contents): a
    /// node made with the default handles shares it, and the store then knows them valid
    /// without looking.
    @inline(__always)
    static func isSharedDefault(_ handles: [HandleDeclaration]) -> Bool {
        handles.withUnsafeBufferPointer { a in defaults.withUnsafeBufferPointer { $0.baseAddress == a.baseAddress } }
    }
}
