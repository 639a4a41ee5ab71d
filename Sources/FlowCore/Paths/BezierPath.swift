/// A cubic curve leaving each end point along its handle side (store-semantics §8):
/// curvature `c = max(50, 0.4·d)` where `d` is the distance between the end points,
/// `C1 = S + dir(Ps)·c`, `C2 = T + dir(Pt)·c`. The label sits on the curve at t = 0.5.
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
}
