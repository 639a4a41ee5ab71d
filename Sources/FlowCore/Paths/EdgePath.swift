/// The drawn path of an edge with its label placement (store-semantics §8).
///
/// The points of a path are the points of its curves plus its `move` points. `bounds`,
/// `distance(to:)`, `hitTest(_:tolerance:)` and `comesWithin(_:of:)` all measure that
/// point set; an empty path has no points.
public struct EdgePath: Hashable, Sendable {
    public var segments: [PathSegment]
    /// Where the label is drawn, in canvas coordinates.
    public var labelPosition: Point
    /// Rotation of the label in radians (0 except for straight edges).
    public var labelAngle: Double

    public init(segments: [PathSegment], labelPosition: Point, labelAngle: Double = 0) {
        self.segments = segments
        self.labelPosition = labelPosition
        self.labelAngle = labelAngle
    }

    /// The first point of the path, or nil when it has no segments.
    public var startPoint: Point? { segments.first?.endPoint }

    /// The last point of the path, or nil when it has no segments.
    public var endPoint: Point? { segments.last?.endPoint }

    /// SVG path data with absolute commands, one per segment and in the same order:
    /// `M x y`, `L x y`, `Q cx cy x y`, `C c1x c1y c2x c2y x y`. Numbers are rounded to 3
    /// decimals without trailing zeros and never print as `-0`. A drawing segment with no
    /// current point is written as `M`, as it is measured.
    public var svgPathData: String {
        var parts: [String] = []
        parts.reserveCapacity(segments.count)
        var hasCurrentPoint = false
        for segment in segments {
            parts.append(Self.command(for: segment, hasCurrentPoint: hasCurrentPoint))
            hasCurrentPoint = true
        }
        return parts.joined(separator: " ")
    }

    private static func command(for segment: PathSegment, hasCurrentPoint: Bool) -> String {
        func coordinates(_ points: Point...) -> String {
            points.map { "\(svgNumber($0.x)) \(svgNumber($0.y))" }.joined(separator: " ")
        }
        switch segment {
        case _ where !hasCurrentPoint: return "M " + coordinates(segment.endPoint)
        case .move(let p): return "M " + coordinates(p)
        case .line(let p): return "L " + coordinates(p)
        case .quad(let q, let p): return "Q " + coordinates(q, p)
        case .cubic(let c1, let c2, let p): return "C " + coordinates(c1, c2, p)
        }
    }

    /// The tight bounding box of the path: curve extrema count, control points do not.
    /// `Rect.zero` for an empty path.
    public var bounds: Rect {
        var extent: Extent?
        for piece in PathPiece.pieces(of: segments) {
            let e = piece.extent
            if extent == nil { extent = e } else { extent!.add(e) }
        }
        return extent?.rect ?? .zero
    }

    /// Distance from `point` to the nearest point of the path, within 0.002 canvas units
    /// (exact for lines). `infinity` for an empty path.
    public func distance(to point: Point) -> Double {
        PathPiece.pieces(of: segments).minimumDistance(
            to: PointTarget(point: point), tolerance: 1e-3)
    }

    /// Whether `point` hits the path stroked `2·tolerance` wide with butt caps: its distance
    /// to the path is strictly less than `tolerance` (store-semantics D22).
    public func hitTest(_ point: Point, tolerance: Double) -> Bool {
        PathPiece.pieces(of: segments).isWithin(
            tolerance, of: PointTarget(point: point), strict: true)
    }

    /// Whether some point of the path is within `distance` of the filled rectangle (closed:
    /// exactly `distance` counts). Rectangle selection uses a distance of 1.
    public func comesWithin(_ distance: Double, of rect: Rect) -> Bool {
        PathPiece.pieces(of: segments).isWithin(
            distance, of: RectTarget(rect.standardized), strict: false)
    }
}

/// Formats a path coordinate: rounded half away from zero to 3 decimals, trailing zeros
/// trimmed, never `-0`.
func svgNumber(_ v: Double) -> String {
    let scaled = (v * 1000).rounded()
    guard scaled.isFinite, abs(scaled) < 1e15 else { return formatNumber(v) }
    let thousandths = Int64(scaled)
    if thousandths == 0 { return "0" }
    let magnitude = thousandths.magnitude
    let whole = String(magnitude / 1000)
    var fraction = String(magnitude % 1000)
    if fraction == "0" { return (thousandths < 0 ? "-" : "") + whole }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return (thousandths < 0 ? "-" : "") + whole + "." + fraction
}

// MARK: - Calculators

/// Computes the path of an edge from its end points and the sides they sit on, and through
/// its bend points when it has some.
public protocol EdgePathCalculator: Sendable {
    /// The path of an edge without bend points.
    func path(
        from source: Point, sourcePosition: HandlePosition,
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath

    /// The path of an edge through its bend points `points` (in order, canvas
    /// coordinates; empty for an edge without any, which must give the path above). The
    /// store and the renderer call this one for every edge.
    ///
    /// The default implementation ignores the points and returns the path above: a
    /// calculator that does not implement it draws every edge as if it had no bend points.
    func path(
        from source: Point, sourcePosition: HandlePosition, through points: [Point],
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath
}

extension EdgePathCalculator {
    public func path(
        from source: Point, sourcePosition: HandlePosition, through points: [Point],
        to target: Point, targetPosition: HandlePosition
    ) -> EdgePath {
        path(from: source, sourcePosition: sourcePosition, to: target, targetPosition: targetPosition)
    }
}

extension EdgePathType {
    /// The calculator that draws this path type with the default constants (§1.4, §8).
    public var calculator: any EdgePathCalculator {
        switch self {
        case .bezier: return BezierPath()
        case .straight: return StraightPath()
        case .smoothStep: return SmoothStepPath()
        case .simpleBezier: return SimpleBezierPath()
        case .orthogonal: return OrthogonalPath()
        }
    }
}

// MARK: - Distance searches

/// What a path is measured against: a point or a filled rectangle.
protocol DistanceTarget {
    func distance(to p: Point) -> Double
    func distance(toSegment a: Point, _ b: Point) -> Double
    /// A lower bound for the distance to anything inside `e`.
    func distance(to e: Extent) -> Double
}

struct PointTarget: DistanceTarget {
    var point: Point

    func distance(to p: Point) -> Double { point.distance(to: p) }
    func distance(toSegment a: Point, _ b: Point) -> Double { segmentDistance(point, a, b) }
    func distance(to e: Extent) -> Double {
        let dx = max(e.minX - point.x, 0, point.x - e.maxX)
        let dy = max(e.minY - point.y, 0, point.y - e.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// A closed, filled rectangle (standardized).
struct RectTarget: DistanceTarget {
    var rect: Rect

    init(_ rect: Rect) { self.rect = rect }

    func distance(to p: Point) -> Double {
        distance(to: Extent(p))
    }

    func distance(to e: Extent) -> Double {
        let dx = max(e.minX - rect.maxX, 0, rect.minX - e.maxX)
        let dy = max(e.minY - rect.maxY, 0, rect.minY - e.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    func distance(toSegment a: Point, _ b: Point) -> Double {
        if crosses(a, b) { return 0 }
        // Disjoint convex shapes: the nearest pair involves a vertex of one of them.
        let corners = [
            Point(rect.minX, rect.minY), Point(rect.maxX, rect.minY),
            Point(rect.minX, rect.maxY), Point(rect.maxX, rect.maxY),
        ]
        var best = min(distance(to: a), distance(to: b))
        for corner in corners { best = min(best, segmentDistance(corner, a, b)) }
        return best
    }

    /// Whether the segment a–b touches the rectangle (Liang–Barsky clipping).
    private func crosses(_ a: Point, _ b: Point) -> Bool {
        let dx = b.x - a.x
        let dy = b.y - a.y
        var t0 = 0.0
        var t1 = 1.0
        let edges = [
            (-dx, a.x - rect.minX), (dx, rect.maxX - a.x),
            (-dy, a.y - rect.minY), (dy, rect.maxY - a.y),
        ]
        for (p, q) in edges {
            if p == 0 {
                if !(q >= 0) { return false }  // parallel and outside (or NaN)
            } else if p < 0 {
                t0 = max(t0, q / p)
            } else {
                t1 = min(t1, q / p)
            }
        }
        return t0 <= t1
    }
}

/// Limits of the subdivision searches: a curve piece this flat is measured by its chord,
/// and no search splits deeper or visits more pieces than this.
private let exactFlatness = 1e-9
private let maximumDepth = 40
private let pieceBudget = 100_000

extension Array where Element == PathPiece {
    /// Sorts the pieces into the lone points, lines and cubic curves that the searches use.
    private func partitioned() -> (points: [Point], lines: [(Point, Point)], curves: [CubicCurve]) {
        var points: [Point] = []
        var lines: [(Point, Point)] = []
        var curves: [CubicCurve] = []
        for piece in self {
            switch piece {
            case .point(let p): points.append(p)
            case .line(let a, let b): lines.append((a, b))
            case .quad(let a, let q, let b): curves.append(CubicCurve(quad: a, q, b))
            case .cubic(let c): curves.append(c)
            }
        }
        return (points, lines, curves)
    }

    /// The smallest distance from the path to `target`, over-estimated by at most
    /// 2·`tolerance` (branch and bound over curve halves; exact for points and lines).
    func minimumDistance<T: DistanceTarget>(to target: T, tolerance: Double) -> Double {
        let (points, lines, curves) = partitioned()
        var best = Double.infinity
        for p in points { best = Swift.min(best, target.distance(to: p)) }
        for (a, b) in lines { best = Swift.min(best, target.distance(toSegment: a, b)) }
        for c in curves {
            best = Swift.min(best, target.distance(to: c.p0), target.distance(to: c.p3))
        }
        var stack = curves.map { ($0, 0) }
        var visited = 0
        while let (curve, depth) = stack.popLast() {
            visited += 1
            // Nothing in this piece can beat `best` by more than the tolerance.
            guard target.distance(to: curve.controlExtent) < best - tolerance else { continue }
            let h = curve.flatness
            let chord = target.distance(toSegment: curve.p0, curve.p3)
            best = Swift.min(best, chord + h, target.distance(to: curve.point(at: 0.5)))
            if h <= tolerance || depth >= maximumDepth || visited > pieceBudget { continue }
            stack.appendHalves(of: curve, depth: depth) { target.distance(to: $0.controlExtent) }
        }
        return best
    }

    /// Whether the path comes within `limit` of `target` (`strict`: distance < limit, else
    /// ≤ limit). Decided by subdivision, so only pieces near the limit are refined.
    func isWithin<T: DistanceTarget>(_ limit: Double, of target: T, strict: Bool) -> Bool {
        // `accepts(v)` is false for NaN, so NaN bounds prune instead of refining forever.
        func accepts(_ v: Double) -> Bool { strict ? v < limit : v <= limit }
        let (points, lines, curves) = partitioned()
        if points.contains(where: { accepts(target.distance(to: $0)) }) { return true }
        if lines.contains(where: { accepts(target.distance(toSegment: $0.0, $0.1)) }) {
            return true
        }
        var stack: [(CubicCurve, Int)] = []
        for c in curves {
            if accepts(target.distance(to: c.p0)) || accepts(target.distance(to: c.p3)) {
                return true
            }
            stack.append((c, 0))
        }
        var visited = 0
        while let (curve, depth) = stack.popLast() {
            visited += 1
            guard accepts(target.distance(to: curve.controlExtent)) else { continue }
            let h = curve.flatness
            let chord = target.distance(toSegment: curve.p0, curve.p3)
            if accepts(chord + h) || accepts(target.distance(to: curve.point(at: 0.5))) {
                return true
            }
            guard accepts(chord - h) else { continue }
            if h <= exactFlatness || depth >= maximumDepth || visited > pieceBudget {
                if accepts(chord) { return true }
                continue
            }
            stack.appendHalves(of: curve, depth: depth) { target.distance(to: $0.controlExtent) }
        }
        return false
    }
}

extension Array where Element == (CubicCurve, Int) {
    /// Pushes both halves of `curve`, the nearer one last so that it is searched first.
    fileprivate mutating func appendHalves(
        of curve: CubicCurve, depth: Int, nearness: (CubicCurve) -> Double
    ) {
        let (first, second) = curve.halves()
        if nearness(first) <= nearness(second) {
            append((second, depth + 1))
            append((first, depth + 1))
        } else {
            append((first, depth + 1))
            append((second, depth + 1))
        }
    }
}
