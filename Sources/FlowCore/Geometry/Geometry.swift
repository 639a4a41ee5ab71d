#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in canvas or screen space.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    public static let zero = Point(0, 0)

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static func / (a: Point, s: Double) -> Point { Point(a.x / s, a.y / s) }

    /// Euclidean distance to `other`.
    @inlinable public func distance(to other: Point) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

/// A width and height.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
    @inlinable public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }

    public static let zero = Size(0, 0)

    public var description: String { "\(formatNumber(width))x\(formatNumber(height))" }
}

/// A rectangle with CoreGraphics semantics: `contains` is half-open, `intersects` is closed
/// (store-semantics §0).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    @inlinable public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x, y); size = Size(width, height)
    }
    @inlinable public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        origin = Point(x, y); size = Size(width, height)
    }

    public static let zero = Rect(0, 0, 0, 0)

    /// The smallest rectangle containing both points.
    @inlinable public init(corner a: Point, corner b: Point) {
        self.init(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    @inlinable public var x: Double { origin.x }
    @inlinable public var y: Double { origin.y }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }

    @inlinable public var minX: Double { min(origin.x, origin.x + size.width) }
    @inlinable public var minY: Double { min(origin.y, origin.y + size.height) }
    @inlinable public var maxX: Double { max(origin.x, origin.x + size.width) }
    @inlinable public var maxY: Double { max(origin.y, origin.y + size.height) }
    @inlinable public var midX: Double { (minX + maxX) / 2 }
    @inlinable public var midY: Double { (minY + maxY) / 2 }
    @inlinable public var center: Point { Point(midX, midY) }

    /// Negative width or height turned positive by moving the origin.
    @inlinable public var standardized: Rect { Rect(minX, minY, maxX - minX, maxY - minY) }

    /// Half-open containment: `minX <= x < maxX && minY <= y < maxY`.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// Closed intersection: touching edges count, a zero-size rectangle inside counts.
    @inlinable public func intersects(_ r: Rect) -> Bool {
        minX <= r.maxX && r.minX <= maxX && minY <= r.maxY && r.minY <= maxY
    }

    /// Shrinks by `dx` on the left and right and `dy` on the top and bottom (negative grows).
    @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
        let s = standardized
        return Rect(s.x + dx, s.y + dy, s.width - 2 * dx, s.height - 2 * dy)
    }

    /// The smallest rectangle containing both (zero-size rectangles count).
    @inlinable public func union(_ r: Rect) -> Rect {
        let x0 = min(minX, r.minX), y0 = min(minY, r.minY)
        return Rect(x0, y0, max(maxX, r.maxX) - x0, max(maxY, r.maxY) - y0)
    }

    public var description: String {
        "(\(formatNumber(x)), \(formatNumber(y)), \(formatNumber(width))x\(formatNumber(height)))"
    }
}

/// Formats a number for people: integers without a fraction, others with at most 14
/// significant digits (Lua's `%.14g`), so float noise never shows (`0.3`, not
/// `0.30000000000000004`). Never prints `-0`.
public func formatNumber(_ v: Double) -> String {
    if v == 0 { return "0" }
    if v.isNaN { return "nan" }
    if v.isInfinite { return v < 0 ? "-inf" : "inf" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return format14g(v)
}

func format14g(_ v: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 32)
    let n = withVaList([v]) { vsnprintf(&buffer, 32, "%.14g", $0) }
    return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
