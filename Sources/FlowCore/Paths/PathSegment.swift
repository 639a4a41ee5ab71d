/// One command of an edge path, in absolute canvas coordinates.
///
/// A drawing segment (`line`, `quad`, `cubic`) starts at the current point: the end point of
/// the segment before it. A drawing segment with no segment before it has no start and counts
/// as a `move` to its end point.
public enum PathSegment: Hashable, Sendable {
    case move(Point)
    case line(Point)
    case quad(control: Point, to: Point)
    case cubic(control1: Point, control2: Point, to: Point)

    /// The point the segment ends at, which becomes the current point.
    public var endPoint: Point {
        switch self {
        case .move(let p), .line(let p): return p
        case .quad(_, let p): return p
        case .cubic(_, _, let p): return p
        }
    }
}

// MARK: - Pieces: the segments with their start points resolved

/// A segment with its start point: the unit that bounds and distances work on.
enum PathPiece {
    /// A lone point: a `move` (or a drawing segment with no current point).
    case point(Point)
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(CubicCurve)

    /// Resolves the start point of every segment (see `PathSegment`).
    static func pieces(of segments: [PathSegment]) -> [PathPiece] {
        var result: [PathPiece] = []
        result.reserveCapacity(segments.count)
        var current: Point?
        for segment in segments {
            let end = segment.endPoint
            switch (segment, current) {
            case (.move, _), (_, nil):
                result.append(.point(end))
            case (.line, let start?):
                result.append(.line(start, end))
            case (.quad(let q, _), let start?):
                result.append(.quad(start, q, end))
            case (.cubic(let c1, let c2, _), let start?):
                result.append(.cubic(CubicCurve(start, c1, c2, end)))
            }
            current = end
        }
        return result
    }

    /// Tight bounds as (minX, minY, maxX, maxY): end points plus curve extrema.
    var extent: Extent {
        switch self {
        case .point(let p):
            return Extent(p)
        case .line(let a, let b):
            return Extent(a).adding(b)
        case .quad(let a, let q, let b):
            var e = Extent(a).adding(b)
            if let t = quadExtremum(a.x, q.x, b.x) { e.add(x: quadValue(a.x, q.x, b.x, t)) }
            if let t = quadExtremum(a.y, q.y, b.y) { e.add(y: quadValue(a.y, q.y, b.y, t)) }
            return e
        case .cubic(let c):
            return c.extent
        }
    }
}

/// A rectangle kept as its four limits while it is being grown.
struct Extent {
    var minX, minY, maxX, maxY: Double

    init(_ p: Point) {
        minX = p.x
        maxX = p.x
        minY = p.y
        maxY = p.y
    }

    mutating func add(x: Double) {
        minX = min(minX, x)
        maxX = max(maxX, x)
    }
    mutating func add(y: Double) {
        minY = min(minY, y)
        maxY = max(maxY, y)
    }
    mutating func add(_ p: Point) {
        add(x: p.x)
        add(y: p.y)
    }
    mutating func add(_ e: Extent) {
        minX = min(minX, e.minX)
        maxX = max(maxX, e.maxX)
        minY = min(minY, e.minY)
        maxY = max(maxY, e.maxY)
    }

    func adding(_ p: Point) -> Extent {
        var e = self
        e.add(p)
        return e
    }

    var rect: Rect { Rect(minX, minY, maxX - minX, maxY - minY) }
}

/// The parameter in (0, 1) where one coordinate of a quadratic curve turns, if any.
func quadExtremum(_ a: Double, _ q: Double, _ b: Double) -> Double? {
    let denominator = a - 2 * q + b
    guard denominator != 0 else { return nil }
    let t = (a - q) / denominator
    return t > 0 && t < 1 ? t : nil
}

/// One coordinate of a quadratic curve at `t`.
func quadValue(_ a: Double, _ q: Double, _ b: Double, _ t: Double) -> Double {
    let s = 1 - t
    return s * s * a + 2 * s * t * q + t * t * b
}

// MARK: - Cubic curves

/// A cubic Bézier curve. Quadratic curves are raised to this form (the same curve) for the
/// distance searches, which only need splitting and flatness.
struct CubicCurve {
    var p0, p1, p2, p3: Point

    init(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
        self.p0 = p0
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
    }

    /// The quadratic curve a → q → b as a cubic (degree elevation, exact up to rounding).
    init(quad a: Point, _ q: Point, _ b: Point) {
        self.init(a, a + (q - a) * (2.0 / 3.0), b + (q - b) * (2.0 / 3.0), b)
    }

    func point(at t: Double) -> Point {
        Point(cubicValue(p0.x, p1.x, p2.x, p3.x, t), cubicValue(p0.y, p1.y, p2.y, p3.y, t))
    }

    /// The two halves at t = 0.5 (de Casteljau).
    func halves() -> (CubicCurve, CubicCurve) {
        let a = (p0 + p1) * 0.5
        let b = (p1 + p2) * 0.5
        let c = (p2 + p3) * 0.5
        let ab = (a + b) * 0.5
        let bc = (b + c) * 0.5
        let mid = (ab + bc) * 0.5
        return (CubicCurve(p0, a, ab, mid), CubicCurve(mid, bc, c, p3))
    }

    /// Bounds of the four control points; the curve lies inside them.
    var controlExtent: Extent {
        var e = Extent(p0)
        e.add(p1)
        e.add(p2)
        e.add(p3)
        return e
    }

    /// How far the curve can be from its chord p0–p3: the larger distance of the inner
    /// control points from the chord. The curve and the chord are within this distance of
    /// each other both ways, so distances measured to the chord are off by at most this.
    var flatness: Double {
        max(segmentDistance(p1, p0, p3), segmentDistance(p2, p0, p3))
    }

    /// Tight bounds: end points plus the points where a coordinate turns.
    var extent: Extent {
        var e = Extent(p0).adding(p3)
        for t in cubicExtrema(p0.x, p1.x, p2.x, p3.x) {
            e.add(x: cubicValue(p0.x, p1.x, p2.x, p3.x, t))
        }
        for t in cubicExtrema(p0.y, p1.y, p2.y, p3.y) {
            e.add(y: cubicValue(p0.y, p1.y, p2.y, p3.y, t))
        }
        return e
    }
}

/// One coordinate of a cubic curve at `t` (Bernstein form).
func cubicValue(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ t: Double) -> Double {
    let s = 1 - t
    return s * s * s * a + 3 * s * s * t * b + 3 * s * t * t * c + t * t * t * d
}

/// The parameters in (0, 1) where the derivative of one coordinate of a cubic is zero.
func cubicExtrema(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> [Double] {
    // The derivative divided by 3 is qa·t² + qb·t + qc.
    let qa = d - 3 * c + 3 * b - a
    let qb = 2 * (c - 2 * b + a)
    let qc = b - a
    return quadraticRoots(qa, qb, qc).filter { $0 > 0 && $0 < 1 }
}

/// Real roots of a·t² + b·t + c, computed without cancellation. A double root is reported
/// once; degenerate equations (all zero) have none.
func quadraticRoots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
    if a == 0 {
        return b == 0 ? [] : [-c / b]
    }
    let discriminant = b * b - 4 * a * c
    guard discriminant >= 0 else { return [] }
    let root = discriminant.squareRoot()
    let q = -0.5 * (b + (b < 0 ? -root : root))
    guard q != 0 else { return [0] }  // b = 0 and c = 0: a double root at 0
    let r1 = q / a
    let r2 = c / q
    return r1 == r2 ? [r1] : [r1, r2].filter { $0.isFinite }
}

/// Distance from `p` to the segment a–b (to `a` when the segment has zero length).
func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    guard lengthSquared > 0 else { return p.distance(to: a) }
    let t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared
    let clamped = max(0, min(1, t))
    return p.distance(to: Point(a.x + dx * clamped, a.y + dy * clamped))
}
