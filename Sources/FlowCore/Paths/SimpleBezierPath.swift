/// A quadratic curve bowed towards the source side (store-semantics §8): `c = max(30,
/// 0.25·d)`, control `Q = (S + T)/2 + dir(Ps)·c`. The target side is ignored. The label
/// sits on the curve at t = 0.5: `0.25·S + 0.5·Q + 0.25·T`.
///
/// With bend points: the smooth curve of `BezierPath` through every point, leaving the
/// source along its side with `c = max(min(30, d/2), 0.25·d)`; as without points the target
/// side is ignored: the curve enters the target along the chord from the last point. The
/// label sits halfway along the curve by length.
public struct SimpleBezierPath: EdgePathCalculator {
    public init() {}

    public func path(
        from source: Point, sourcePosition: HandlePosition,
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        let curvature = max(30, 0.25 * source.distance(to: target))
        let control = (source + target) * 0.5 + sourcePosition.direction * curvature
        let label = source * 0.25 + control * 0.5 + target * 0.25
        return EdgePath(
            segments: [.move(source), .quad(control: control, to: target)], labelPosition: label)
    }

    public func path(
        from source: Point, sourcePosition: HandlePosition, through points: [Point],
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        guard let first = points.first else {
            return path(from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition)
        }
        let reach = SmoothCurve.handleReach(source.distance(to: first), minimum: 30, factor: 0.25)
        let curve = SmoothCurve.segments(
            through: [source] + points + [target],
            startControl: sourcePosition == .center ? nil : source + sourcePosition.direction * reach,
            endControl: nil)
        return EdgePath(segments: [.move(source)] + curve, labelPosition: source).labelledHalfway(rotated: false)
    }
}
