// Where an edge's ends attach: the handle a node declares, the side facing the other node
// for "auto" handles, and, for a routed orthogonal edge, the first and last points of its
// route when they lie on the node's border (docs/routing.md).

/// Where one end of an edge attaches: a canvas point and the side of the node it leaves or
/// enters by.
public struct EdgeEnd: Hashable, Sendable {
    public var point: Point
    public var position: HandlePosition

    public init(point: Point, position: HandlePosition) {
        self.point = point
        self.position = position
    }
}

extension HandleDeclaration {
    /// The handle id that attaches an edge end on the side of its node that faces the
    /// node at the other end. Valid at both ends of an edge, on a node with the default
    /// handles (a node that declares a handle of this id uses its own).
    public static let autoID = "auto"

    /// Whether `handles` are the default handles (`target` at the top, `source` at the
    /// bottom).
    @inline(__always)
    public static func areDefaults(_ handles: [HandleDeclaration]) -> Bool {
        isSharedDefault(handles) || handles == defaults
    }

    /// Whether an edge end may name `handleID` on a node with `handles` as an end of
    /// `type`: a declared handle of that type, or `autoID` on a node with the default
    /// handles.
    public static func accepts(_ handleID: String, as type: HandleType, in handles: [HandleDeclaration]) -> Bool {
        if let h = handles.first(where: { $0.id == handleID }) { return h.type == type }
        return handleID == autoID && areDefaults(handles)
    }
}

/// Resolves the ends of edges from their nodes' frames and handles.
public enum EdgeEnds {
    /// The side of `frame` that faces `other`: left or right when the two are further apart
    /// horizontally than vertically (measured between their borders), else top or bottom;
    /// towards the other's centre. Equal centres on that axis give `bottom` for a source end
    /// and `top` for a target end. A self-loop (`frame == other`) leaves on the right and
    /// comes back in at the top.
    public static func facingSide(of frame: Rect, toward other: Rect, isSource: Bool) -> HandlePosition {
        if frame == other { return isSource ? .right : .top }
        let gapX = max(other.minX - frame.maxX, frame.minX - other.maxX)
        let gapY = max(other.minY - frame.maxY, frame.minY - other.maxY)
        let dx = other.midX - frame.midX, dy = other.midY - frame.midY
        if gapX > gapY && dx != 0 { return dx > 0 ? .right : .left }
        if dy != 0 { return dy > 0 ? .bottom : .top }
        if dx != 0 { return dx > 0 ? .right : .left }
        return isSource ? .bottom : .top
    }

    /// Whether the end at `handleID` of a node with `handles` attaches on the facing side:
    /// `autoID` on a node with the default handles, or, with `autoHandles`, one of the
    /// default handles.
    @inline(__always)
    static func isAuto(_ handleID: String?, _ handles: [HandleDeclaration], autoHandles: Bool) -> Bool {
        guard let id = handleID, HandleDeclaration.areDefaults(handles) else { return false }
        return id == HandleDeclaration.autoID || (autoHandles && (id == "source" || id == "target"))
    }

    /// The handle end of an edge at a node: the declared handle's point and side, the node
    /// centre for no handle id, the facing side's handle point for an auto handle. Handle
    /// points sit on the outline of the node's `shape` (`NodeShape.handlePoint`). Nil for a
    /// handle the node does not declare.
    public static func handleEnd(
        _ handleID: String?, handles: [HandleDeclaration], frame: Rect, otherFrame: Rect,
        isSource: Bool, autoHandles: Bool, shape: NodeShape = .rounded
    ) -> EdgeEnd? {
        guard let id = handleID else { return EdgeEnd(point: HandlePosition.center.point(in: frame), position: .center) }
        if isAuto(id, handles, autoHandles: autoHandles) {
            let side = facingSide(of: frame, toward: otherFrame, isSource: isSource)
            return EdgeEnd(point: shape.handlePoint(side, in: frame), position: side)
        }
        guard let h = handles.first(where: { $0.id == id }) else { return nil }
        return EdgeEnd(point: h.point(on: shape, in: frame), position: h.position)
    }

    /// The side of `frame` whose border `p` lies on (top, bottom, left, right: the first
    /// that holds at a corner), or nil.
    public static func side(of p: Point, on frame: Rect) -> HandlePosition? {
        let inX = p.x >= frame.minX && p.x <= frame.maxX
        let inY = p.y >= frame.minY && p.y <= frame.maxY
        if inX && p.y == frame.minY { return .top }
        if inX && p.y == frame.maxY { return .bottom }
        if inY && p.x == frame.minX { return .left }
        if inY && p.x == frame.maxX { return .right }
        return nil
    }

    /// The end a route attaches at instead of the handle's: `p` when it lies on the
    /// outline of `shape` in `frame` (`NodeShape.portSide`), leaving or entering by the
    /// side it lies on (a layout's back edge enters its target by the side facing where it
    /// comes from).
    static func attached(_ p: Point, frame: Rect, shape: NodeShape) -> EdgeEnd? {
        shape.portSide(of: p, in: frame).map { EdgeEnd(point: p, position: $0) }
    }

    /// Both ends of `edge` and the bend points between them, from its nodes' frames and
    /// handles (on the outlines of `sourceShape` and `targetShape`); nil when a handle is not
    /// declared. The ends are the handle ends (`handleEnd`), except where the edge's first
    /// (last) point lies on the outline of its source (target) node (a routed orthogonal
    /// edge's ends, a layout's ports): that point is where the edge attaches, by the side it
    /// lies on, and it is not a bend point. An orthogonal edge attaches so only with at
    /// least two points.
    public static func resolve(
        _ edge: FlowEdge, sourceFrame: Rect, sourceHandles: [HandleDeclaration],
        targetFrame: Rect, targetHandles: [HandleDeclaration], autoHandles: Bool,
        sourceShape: NodeShape = .rounded, targetShape: NodeShape = .rounded
    ) -> (source: EdgeEnd, target: EdgeEnd, points: ArraySlice<Point>)? {
        guard
            var s = handleEnd(
                edge.sourceHandleID, handles: sourceHandles, frame: sourceFrame, otherFrame: targetFrame,
                isSource: true, autoHandles: autoHandles, shape: sourceShape),
            var t = handleEnd(
                edge.targetHandleID, handles: targetHandles, frame: targetFrame, otherFrame: sourceFrame,
                isSource: false, autoHandles: autoHandles, shape: targetShape)
        else { return nil }
        var points = edge.points[...]
        // a routed orthogonal edge needs two points to attach by; the others one (a port)
        if points.count >= (edge.pathType == .orthogonal ? 2 : 1) {
            if let a = attached(points[points.startIndex], frame: sourceFrame, shape: sourceShape) {
                s = a
                points = points.dropFirst()
            }
            if let last = points.last, let a = attached(last, frame: targetFrame, shape: targetShape) {
                t = a
                points = points.dropLast()
            }
        }
        return (s, t, points)
    }

    /// The end a router starts (or finishes) a route at: the handle end, except that an end
    /// at the centre attaches on the side facing the other node, like an auto handle.
    public static func routingEnd(_ end: EdgeEnd, frame: Rect, otherFrame: Rect, isSource: Bool) -> EdgeEnd {
        guard end.position == .center else { return end }
        let side = facingSide(of: frame, toward: otherFrame, isSource: isSource)
        return EdgeEnd(point: side.point(in: frame), position: side)
    }
}
