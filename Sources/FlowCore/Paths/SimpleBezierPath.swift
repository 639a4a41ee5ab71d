/// A quadratic curve bowed towards the source side (store-semantics §8): `c = max(30,
/// 0.25·d)`, control `Q = (S + T)/2 + dir(Ps)·c`. The target side is ignored. The label
/// sits on the curve at t = 0.5: `0.25·S + 0.5·Q + 0.25·T`.
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
}
