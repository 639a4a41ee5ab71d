/// An orthogonal route with rounded corners: the path of `orthogonal` edges.
///
/// The store's edge router (docs/routing.md) gives an orthogonal edge its route as bend
/// points: every corner, from the point where it leaves its source node to the point where
/// it enters its target node. The path runs from the source through the points to the
/// target in horizontal and vertical runs; two consecutive points that are not on one
/// horizontal or vertical line get an elbow between them (the one that does not double back
/// on the run before, as `SmoothStepPath` chooses), and the first run counts as heading out
/// of the source side. Vertices that do not turn are dropped; every other inner vertex is a
/// corner rounded with a radius of at most `borderRadius` and half the shorter of its two
/// runs. The label sits halfway along the path by length.
///
/// Without bend points (an edge that no router has routed, or a route that runs straight
/// from node to node) the path runs through the vertices of the smoothStep path (`offset`
/// out of each handle side, then across), drawn the same way: so a straight route is one
/// line.
public struct OrthogonalPath: EdgePathCalculator {
    /// Corner radius; negative values count as 0.
    public var borderRadius: Double
    /// Length of the first and last legs along the handle sides of an edge without bend
    /// points.
    public var offset: Double

    public init(borderRadius: Double = 6, offset: Double = 20) {
        self.borderRadius = borderRadius
        self.offset = offset
    }

    public func path(
        from source: Point, sourcePosition: HandlePosition,
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        let steps = SmoothStepPath.steps(
            from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition,
            offset: offset
        ).vertices
        return path(
            from: source, sourcePosition: sourcePosition, through: Array(steps.dropFirst().dropLast()),
            to: target, targetPosition: targetPosition)
    }

    public func path(
        from source: Point, sourcePosition: HandlePosition, through points: [Point],
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        guard !points.isEmpty else {
            return path(from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition)
        }
        var route = [source]
        SmoothStepPath.continueRuns(
            &route, heading: sourcePosition.direction, through: points + [target],
            leaving: targetPosition.direction * -1)
        return SmoothStepPath.roundedPath(route, radius: max(0, borderRadius))
    }
}
