#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line from source to target (store-semantics §8). The label sits at the midpoint,
/// rotated along the line: `atan2(T.y − S.y, T.x − S.x)` radians.
public struct StraightPath: EdgePathCalculator {
    public init() {}

    public func path(
        from source: Point, sourcePosition: HandlePosition,
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        EdgePath(
            segments: [.move(source), .line(target)],
            labelPosition: (source + target) * 0.5,
            labelAngle: atan2(target.y - source.y, target.x - source.x))
    }
}
