/// A smooth curve that follows a route running along the flow: the route's points each lie
/// further than the last along one axis (down for a route leaving a bottom handle, right for
/// a right handle, …). Read as the sideways offset as a function of the distance along that
/// axis, the curve is the monotone piecewise-cubic Hermite interpolant of the points
/// (Fritsch and Butland's slopes): it passes through every point, has the handle sides'
/// direction at both ends, and between two points stays between their sideways offsets. So
/// a route that runs between its neighbours (a layout's lanes through each layer) is drawn
/// within those lanes, and where two routes cross the same stretch along the axis, their
/// curves cross only where the routes do.
///
/// Each piece's control points sit a third of the way along the axis from its ends, so the
/// distance along the axis grows evenly with the curve parameter: curves over one stretch
/// of the axis share their parameter there.
enum FlowCurve {
    /// The cubic pieces through `vertices` (source first, target last), or nil when the
    /// vertices do not run strictly along the source side's axis, or the target is not
    /// entered from the opposite side (or its centre).
    static func segments(
        through vertices: [Point], sourceSide: HandlePosition, targetSide: HandlePosition
    ) -> [PathSegment]? {
        let axis = sourceSide.direction
        guard axis != .zero, targetSide == .center || targetSide.direction == axis * -1, vertices.count >= 2 else {
            return nil
        }
        // along: distance along the axis; across: the sideways offset (axis turned a quarter)
        let across = Point(-axis.y, axis.x)
        let u = vertices.map { $0.x * axis.x + $0.y * axis.y }
        let v = vertices.map { $0.x * across.x + $0.y * across.y }
        let n = vertices.count
        for i in 1..<n where !(u[i] > u[i - 1]) { return nil }
        let slopes = tangents(u, v)
        var segments: [PathSegment] = []
        segments.reserveCapacity(n - 1)
        func point(_ a: Double, _ b: Double) -> Point { axis * a + across * b }
        for i in 0..<(n - 1) {
            let third = (u[i + 1] - u[i]) / 3
            let c1 = point(u[i] + third, v[i] + slopes[i] * third)
            let c2 = point(u[i + 1] - third, v[i + 1] - slopes[i + 1] * third)
            segments.append(.cubic(control1: c1, control2: c2, to: vertices[i + 1]))
        }
        return segments
    }

    /// The slope (sideways per along) at each point: zero at both ends (along the handle
    /// sides) and where the route turns back sideways; elsewhere the weighted harmonic mean
    /// of the two pieces' slopes, which keeps each piece between its ends' offsets.
    static func tangents(_ u: [Double], _ v: [Double]) -> [Double] {
        let n = u.count
        var m = [Double](repeating: 0, count: n)
        guard n > 2 else { return m }
        for i in 1..<(n - 1) {
            let h0 = u[i] - u[i - 1], h1 = u[i + 1] - u[i]
            let d0 = (v[i] - v[i - 1]) / h0, d1 = (v[i + 1] - v[i]) / h1
            guard d0 * d1 > 0 else { continue }
            m[i] = 3 * (h0 + h1) / ((2 * h1 + h0) / d0 + (h1 + 2 * h0) / d1)
        }
        return m
    }
}
