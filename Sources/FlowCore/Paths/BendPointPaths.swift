#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What the built-in calculators share for edges with bend points: measuring along a path
// (the label sits halfway along it) and a smooth curve through a list of points.

extension EdgePath {
    /// Chords per curve piece when a path is measured.
    static let measuringSteps = 64

    /// The point halfway along the path by arc length, with the unit direction of the path
    /// there (zero where it has none). Lines are measured exactly and curves as
    /// `measuringSteps` chords each; the point returned lies on the path. A path of length
    /// zero gives its first point; an empty path gives nil.
    public func halfway() -> (point: Point, direction: Point)? {
        points(atFractions: [0.5]).first
    }

    /// The points at `fractions` (0 to 1) of the path's length, measured as `halfway()`
    /// measures, each with the unit direction of the path there; empty for an empty path.
    public func points(atFractions fractions: [Double]) -> [(point: Point, direction: Point)] {
        var steps: [MeasuringStep] = []
        var first: Point?
        for piece in PathPiece.pieces(of: segments) {
            switch piece {
            case .point(let p):
                if first == nil { first = p }
            case .line(let a, let b):
                if first == nil { first = a }
                steps.append(MeasuringStep(a, b, curve: nil, t0: 0, t1: 1))
            case .quad(let a, let q, let b):
                if first == nil { first = a }
                MeasuringStep.add(CubicCurve(quad: a, q, b), to: &steps)
            case .cubic(let c):
                if first == nil { first = c.p0 }
                MeasuringStep.add(c, to: &steps)
            }
        }
        guard let start = first else { return [] }
        let total = steps.reduce(0) { $0 + $1.length }
        return fractions.map { f in Self.point(at: total * min(max(f, 0), 1), steps) ?? (start, .zero) }
    }

    /// The point `distance` along the measuring steps; nil when the steps have no length.
    private static func point(at distance: Double, _ steps: [MeasuringStep]) -> (point: Point, direction: Point)? {
        var walked = 0.0
        for s in steps where s.length > 0 {
            if walked + s.length < distance {
                walked += s.length
                continue
            }
            let f = (distance - walked) / s.length
            let chord = (s.b - s.a) / s.length
            guard let c = s.curve else { return (s.a + (s.b - s.a) * f, chord) }
            let t = s.t0 + (s.t1 - s.t0) * f
            let d = unit(c.derivative(at: t))
            return (c.point(at: t), d == .zero ? chord : d)
        }
        // Rounding left the distance past the last step: its end.
        guard let last = steps.last(where: { $0.length > 0 }) else { return nil }
        return (last.b, (last.b - last.a) / last.length)
    }

    /// The path with its label halfway along it (`halfway()`), turned along the path there
    /// when `rotated` (as straight edges turn theirs), else at angle 0.
    func labelledHalfway(rotated: Bool) -> EdgePath {
        var path = self
        guard let (point, direction) = halfway() else { return path }
        path.labelPosition = point
        path.labelAngle = rotated ? atan2(direction.y, direction.x) : 0
        return path
    }
}

/// A chord of a path being measured: a line, or a piece of a curve from `t0` to `t1`.
private struct MeasuringStep {
    var a: Point, b: Point, length: Double
    var curve: CubicCurve?, t0: Double, t1: Double

    init(_ a: Point, _ b: Point, curve: CubicCurve?, t0: Double, t1: Double) {
        self.a = a
        self.b = b
        length = a.distance(to: b)
        self.curve = curve
        self.t0 = t0
        self.t1 = t1
    }

    /// Appends the `EdgePath.measuringSteps` chords of `c`.
    static func add(_ c: CubicCurve, to steps: inout [MeasuringStep]) {
        let n = EdgePath.measuringSteps
        var previous = c.p0
        for k in 1...n {
            let p = k == n ? c.p3 : c.point(at: Double(k) / Double(n))
            steps.append(MeasuringStep(previous, p, curve: c, t0: Double(k - 1) / Double(n), t1: Double(k) / Double(n)))
            previous = p
        }
    }
}

extension CubicCurve {
    /// The derivative at `t`.
    func derivative(at t: Double) -> Point {
        let s = 1 - t
        let a = (p1 - p0) * (3 * s * s), b = (p2 - p1) * (6 * s * t), c = (p3 - p2) * (3 * t * t)
        return a + b + c
    }
}

/// The unit vector along `p`, or zero.
func unit(_ p: Point) -> Point {
    let n = (p.x * p.x + p.y * p.y).squareRoot()
    return n > 0 ? p / n : .zero
}

/// A smooth curve through points, for the bezier path types with bend points.
enum SmoothCurve {
    /// How far the control point next to a handle sits from it, along the handle side, for
    /// a piece whose chord is `length` long: `factor·length`, but at least
    /// `min(minimum, length/2)` (the plain curves' `max(minimum, factor·d)`, kept from
    /// overshooting short pieces).
    static func handleReach(_ length: Double, minimum: Double, factor: Double) -> Double {
        max(min(minimum, length / 2), factor * length)
    }

    /// How far at most the curve strays from a sharp corner of its points (about): the
    /// control points next to a vertex where the points turn by an angle θ sit at most
    /// `cornerReach / sin(θ/2)` from it.
    static let cornerReach = 24.0

    /// Cubic pieces through `vertices` (at least two), to follow a `move` to the first. At
    /// each inner vertex the tangent bisects the directions to its two neighbours, and a
    /// piece's inner control points sit a third of its chord along the tangents at its
    /// ends, nearer where the points turn sharply (`cornerReach`): the curve passes through
    /// every vertex without a kink, unevenly spaced points do not make it overshoot, and it
    /// rounds a right-angled turn of a route (a back edge round other nodes) tightly
    /// instead of bulging out over what the route kept clear of. `startControl` /
    /// `endControl`, when given, replace the first piece's first and the last piece's
    /// second control point (the handle sides); otherwise the curve leaves and enters along
    /// the chord.
    static func segments(through vertices: [Point], startControl: Point?, endControl: Point?) -> [PathSegment] {
        let n = vertices.count
        guard n >= 2 else { return [] }
        var tangents = [Point](repeating: .zero, count: n)
        // the longest control arm at each vertex (none at the ends)
        var reach = [Double](repeating: .infinity, count: n)
        tangents[0] = unit(vertices[1] - vertices[0])
        tangents[n - 1] = unit(vertices[n - 1] - vertices[n - 2])
        for i in 1..<(n - 1) {
            let into = unit(vertices[i] - vertices[i - 1]), out = unit(vertices[i + 1] - vertices[i])
            tangents[i] = unit(into + out)
            // sin(θ/2) of the turn θ between the two directions
            let halfTurn = ((1 - (into.x * out.x + into.y * out.y)) / 2).squareRoot()
            if halfTurn > 0 { reach[i] = cornerReach / halfTurn }
        }
        var segments: [PathSegment] = []
        segments.reserveCapacity(n - 1)
        for i in 0..<(n - 1) {
            let a = vertices[i], b = vertices[i + 1]
            let third = a.distance(to: b) / 3
            var c1 = a + tangents[i] * min(third, reach[i])
            var c2 = b - tangents[i + 1] * min(third, reach[i + 1])
            if i == 0, let s = startControl { c1 = s }
            if i == n - 2, let e = endControl { c2 = e }
            segments.append(.cubic(control1: c1, control2: c2, to: b))
        }
        return segments
    }
}
