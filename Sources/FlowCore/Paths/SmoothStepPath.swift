/// An orthogonal polyline with rounded corners (store-semantics §8).
///
/// Both ends first run `offset` along their handle side (`center` does not move):
/// `S' = S + dir(Ps)·offset`, `T' = T + dir(Pt)·offset`. With `midX`, `midY` the midpoint
/// of S' and T', and left/right the horizontal sides (`center` counts as vertical):
/// - both horizontal: S, S', (midX, S'.y), (midX, T'.y), T', T
/// - both vertical: S, S', (S'.x, midY), (T'.x, midY), T', T
/// - source horizontal only: S, S', (T'.x, S'.y), T', T
/// - target horizontal only: S, S', (S'.x, T'.y), T', T
///
/// Each inner vertex with non-zero legs becomes a line to `vertex − u1·r` and a quadratic
/// curve through the vertex to `vertex + u2·r`, `r = min(borderRadius, L1/2, L2/2)`, even
/// where the legs are collinear; a vertex with a zero-length leg becomes a line to it. The
/// path ends with a line to T. The label sits at (midX, midY), which can be off the path.
public struct SmoothStepPath: EdgePathCalculator {
    /// Corner radius; negative values count as 0.
    public var borderRadius: Double
    /// Length of the first and last legs along the handle sides.
    public var offset: Double

    public init(borderRadius: Double = 5, offset: Double = 20) {
        self.borderRadius = borderRadius
        self.offset = offset
    }

    public func path(
        from source: Point, sourcePosition: HandlePosition,
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        let s = source + sourcePosition.direction * offset
        let t = target + targetPosition.direction * offset
        let mid = (s + t) * 0.5
        let corners: [Point]
        switch (sourcePosition.isHorizontal, targetPosition.isHorizontal) {
        case (true, true): corners = [Point(mid.x, s.y), Point(mid.x, t.y)]
        case (false, false): corners = [Point(s.x, mid.y), Point(t.x, mid.y)]
        case (true, false): corners = [Point(t.x, s.y)]
        case (false, true): corners = [Point(s.x, t.y)]
        }
        let vertices = [source, s] + corners + [t, target]
        var segments: [PathSegment] = [.move(source)]
        for i in 1..<(vertices.count - 1) {
            segments += corner(vertices[i - 1], vertices[i], vertices[i + 1])
        }
        segments.append(.line(target))
        return EdgePath(segments: segments, labelPosition: mid)
    }

    /// The segments that turn at `vertex`, coming from `previous` and going to `next`.
    private func corner(_ previous: Point, _ vertex: Point, _ next: Point) -> [PathSegment] {
        let incoming = previous.distance(to: vertex)
        let outgoing = vertex.distance(to: next)
        guard incoming > 0, outgoing > 0 else { return [.line(vertex)] }
        let r = min(max(0, borderRadius), incoming / 2, outgoing / 2)
        let u1 = (vertex - previous) / incoming
        let u2 = (next - vertex) / outgoing
        return [.line(vertex - u1 * r), .quad(control: vertex, to: vertex + u2 * r)]
    }
}
