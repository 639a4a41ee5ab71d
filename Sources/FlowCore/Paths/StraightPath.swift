#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line from source to target (store-semantics §8). The label sits at the midpoint,
/// rotated along the line: `atan2(T.y − S.y, T.x − S.x)` radians.
///
/// With bend points: a polyline from source through every point to target; the label sits
/// halfway along it by length, rotated along the line it sits on.
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

    public func path(
        from source: Point, sourcePosition: HandlePosition, through points: [Point],
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        guard !points.isEmpty else {
            return path(from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition)
        }
        let segments = [.move(source)] + points.map(PathSegment.line) + [.line(target)]
        return EdgePath(segments: segments, labelPosition: source).labelledHalfway(rotated: true)
    }
}
