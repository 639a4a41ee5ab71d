/// Everything about where an edge is drawn, in canvas coordinates (lua-api §3
/// `edgeGeometry`): its path, end points and sides, bend points, label placement and tight
/// bounds.
public struct EdgeGeometry: Hashable, Sendable {
    public let path: EdgePath
    public let sourcePoint: Point
    public let targetPoint: Point
    public let sourcePosition: HandlePosition
    public let targetPosition: HandlePosition
    /// The edge's bend points (`FlowEdge.points`), which the path was asked to pass through.
    public let points: [Point]
    /// Tight bounding box of the path (`path.bounds`).
    public let bounds: Rect

    /// Computes the path with `calculator` (through `points`, see
    /// `EdgePathCalculator.path(from:sourcePosition:through:to:targetPosition:)`) and
    /// caches its bounds.
    public init(
        sourcePoint: Point, sourcePosition: HandlePosition,
        targetPoint: Point, targetPosition: HandlePosition,
        points: [Point] = [], calculator: any EdgePathCalculator
    ) {
        self.sourcePoint = sourcePoint
        self.sourcePosition = sourcePosition
        self.targetPoint = targetPoint
        self.targetPosition = targetPosition
        self.points = points
        path = calculator.path(
            from: sourcePoint, sourcePosition: sourcePosition, through: points,
            to: targetPoint, targetPosition: targetPosition)
        bounds = path.bounds
    }

    /// Computes the path with the default calculator of `pathType`.
    public init(
        sourcePoint: Point, sourcePosition: HandlePosition,
        targetPoint: Point, targetPosition: HandlePosition,
        points: [Point] = [], pathType: EdgePathType
    ) {
        self.init(
            sourcePoint: sourcePoint, sourcePosition: sourcePosition,
            targetPoint: targetPoint, targetPosition: targetPosition,
            points: points, calculator: pathType.calculator)
    }

    public var labelPosition: Point { path.labelPosition }
    public var labelAngle: Double { path.labelAngle }

    /// The frame of the edge in a selection context (store-semantics §13): the tight bounds
    /// united with both end points, or only the end points when the bounds have zero width
    /// or height (an edge with bend points always takes its bounds: they may reach past
    /// its ends), then grown by 1 on every side.
    public var selectionFrame: Rect {
        let ends = Rect(corner: sourcePoint, corner: targetPoint)
        let flat = points.isEmpty && (bounds.width == 0 || bounds.height == 0)
        let frame = flat ? ends : bounds.union(ends)
        return frame.insetBy(dx: -1, dy: -1)
    }

    /// Whether `point` hits the edge: distance to the path strictly less than `tolerance`.
    public func hitTest(_ point: Point, tolerance: Double) -> Bool {
        path.hitTest(point, tolerance: tolerance)
    }

    /// Whether the edge belongs to a selection rectangle: its path comes within 1 of it
    /// (store-semantics D22).
    public func isInSelectionRect(_ rect: Rect) -> Bool {
        path.comesWithin(1, of: rect)
    }
}
