/// A cubic curve leaving each end point along its handle side (store-semantics §8):
/// curvature `c = max(50, 0.4·d)` where `d` is the distance between the end points,
/// `C1 = S + dir(Ps)·c`, `C2 = T + dir(Pt)·c`. The label sits on the curve at t = 0.5.
///
/// With bend points that run steadily along the flow (each one further than the last along
/// the source handle's side, the target entered from the opposite side, as a layout's routes
/// do): a curve that follows them without leaving them (`FlowCurve`): it leaves and enters
/// along the handle sides, passes through every point, and between two points never strays
/// sideways past either of them, so it keeps to the lanes the route runs in.
///
/// Other bend points: a smooth curve through every point (`SmoothCurve`), one cubic piece
/// between each two of source, points and target. It leaves the source along its handle
/// side, with the first control point `c = max(min(50, d/2), 0.4·d)` away for a first
/// piece of chord `d`, but no further along that side than the first point is (so a flat
/// first piece does not bulge out past it), and enters the target the same way (a
/// `center` handle: along the chord). The label sits halfway along the curve by length.
public struct BezierPath: EdgePathCalculator {
    public init() {}

    public func path(
        from source: Point, sourcePosition: HandlePosition,
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        let curvature = max(50, 0.4 * source.distance(to: target))
        let control1 = source + sourcePosition.direction * curvature
        let control2 = target + targetPosition.direction * curvature
        let label = (source + control1 * 3 + control2 * 3 + target) / 8
        return EdgePath(
            segments: [.move(source), .cubic(control1: control1, control2: control2, to: target)],
            labelPosition: label)
    }

    public func path(
        from source: Point, sourcePosition: HandlePosition, through points: [Point],
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        guard let first = points.first, let last = points.last else {
            return path(from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition)
        }
        if let curve = FlowCurve.segments(
            through: [source] + points + [target], sourceSide: sourcePosition, targetSide: targetPosition)
        {
            return EdgePath(segments: [.move(source)] + curve, labelPosition: source).labelledHalfway(rotated: false)
        }
        func control(_ end: Point, _ side: HandlePosition, _ next: Point) -> Point? {
            guard side != .center else { return nil }
            var reach = SmoothCurve.handleReach(end.distance(to: next), minimum: 50, factor: 0.4)
            // not past the next point along the handle side: a flat piece would bulge out
            let along = (next.x - end.x) * side.direction.x + (next.y - end.y) * side.direction.y
            if along > 0 { reach = min(reach, along) }
            return end + side.direction * reach
        }
        let curve = SmoothCurve.segments(
            through: [source] + points + [target], startControl: control(source, sourcePosition, first),
            endControl: control(target, targetPosition, last))
        return EdgePath(segments: [.move(source)] + curve, labelPosition: source).labelledHalfway(rotated: false)
    }
}
