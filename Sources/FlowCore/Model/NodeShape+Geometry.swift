#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The outline of each node shape in a frame: what hit testing counts as inside, where the
// handles sit, and where the title goes. The renderer draws the same outlines from the
// same parameters (docs/rendering.md, "Shapes").

extension NodeShape {
    // MARK: Parameters

    /// The corner radius of `rounded`.
    public static func cornerRadius(in f: Rect) -> Double { max(0, min(8, f.width / 2, f.height / 2)) }

    /// The size of the folded corner of `note`.
    public static func noteFold(in f: Rect) -> Double { max(0, min(12, f.width / 4, f.height / 4)) }

    /// How far the top of a `parallelogram` is shifted right of its bottom.
    public static func skew(in f: Rect) -> Double { max(0, min(f.width * 0.25, f.height * 0.3)) }

    /// How far the top and bottom sides of a `hexagon` stop short of its left and right
    /// points.
    public static func hexagonInset(in f: Rect) -> Double { max(0, min(f.width * 0.25, f.height * 0.3)) }

    /// The vertical radius of the caps of a `cylinder`.
    public static func cylinderCap(in f: Rect) -> Double { max(0, min(f.height * 0.15, f.width * 0.5, 12)) }

    /// Half the height of the wave at the bottom of a `document`.
    public static func documentWave(in f: Rect) -> Double { max(0, min(f.height * 0.1, 8)) }

    /// The control-point offset that makes the `document` wave span exactly
    /// `2 · documentWave` (its lowest point on the frame's bottom).
    public static let waveControlFactor = 2 * 3.0.squareRoot()

    /// How far inside the left and right sides of a `subroutine` its inner lines run.
    public static func subroutineInset(in f: Rect) -> Double { max(0, min(8, f.width / 8)) }

    /// The diameter of a `circle`: the frame's smaller side.
    public static func diameter(in f: Rect) -> Double { max(0, min(f.width, f.height)) }

    /// The height of the `document` wave above the frame's bottom at `x`: from 0 (lowest)
    /// to `2 · documentWave` (highest).
    static func waveY(at x: Double, in f: Rect) -> Double {
        let a = documentWave(in: f)
        let k = waveControlFactor * a
        let t = f.width > 0 ? min(max(1 - (x - f.x) / f.width, 0), 1) : 0.5
        // The wave is the cubic from (maxX, maxY - a) through controls a third of the way
        // in, -k and +k off that line, to (minX, maxY - a); x is linear in t.
        return f.maxY - a + 3 * k * t * (1 - t) * (2 * t - 1)
    }

    // MARK: Hit testing

    /// Whether `p` is inside the outline drawn in frame `f`. The frame's own test is
    /// half-open (right and bottom sides outside); `rounded`, `rectangle` count their whole
    /// frame (corners included), the others only their outline.
    public func contains(_ p: Point, in f: Rect) -> Bool {
        guard f.contains(p) else { return false }
        let cx = f.x + f.width / 2, cy = f.y + f.height / 2
        let dx = abs(p.x - cx), dy = abs(p.y - cy)
        let hw = f.width / 2, hh = f.height / 2
        switch self {
        case .rounded, .rectangle, .record, .mrecord, .plain, .msquare, .box3d, .component, .tab, .folder,
            .subroutine:
            return true
        case .triangle, .invtriangle, .house, .invhouse, .trapezium, .invtrapezium, .pentagon, .septagon,
            .octagon, .doubleoctagon, .tripleoctagon:
            return Self.inside(p, polygon(in: f)!)  // invariant: these are polygons
        case .asymmetric:
            // the frame but the notch (not convex: the polygon test does not apply)
            let notch = min(f.height / 4, f.width / 4)
            return hh > 0 && p.x - f.x >= notch * (1 - dy / hh)
        case .note:
            let fold = Self.noteFold(in: f)
            return (p.x - (f.maxX - fold)) - (p.y - f.y) <= 0
        case .diamond, .mdiamond:
            return hw > 0 && hh > 0 && dx / hw + dy / hh <= 1
        case .ellipse:
            return hw > 0 && hh > 0 && (dx / hw) * (dx / hw) + (dy / hh) * (dy / hh) <= 1
        case .circle, .doublecircle:
            let r = Self.diameter(in: f) / 2
            return dx * dx + dy * dy <= r * r
        case .stadium:
            let r = Self.diameter(in: f) / 2
            let qx = max(dx - (hw - r), 0), qy = max(dy - (hh - r), 0)
            return qx * qx + qy * qy <= r * r
        case .hexagon:
            let i = Self.hexagonInset(in: f)
            return hh > 0 && dx <= hw - i * dy / hh
        case .parallelogram:
            let s = Self.skew(in: f)
            let t = f.height > 0 ? (p.y - f.y) / f.height : 0
            return p.x >= f.x + s * (1 - t) && p.x <= f.maxX - s * t
        case .cylinder:
            let ry = Self.cylinderCap(in: f)
            if p.y >= f.y + ry && p.y <= f.maxY - ry { return true }
            let ey = p.y < f.y + ry ? f.y + ry : f.maxY - ry
            let ex = dx / hw, ey2 = ry > 0 ? (p.y - ey) / ry : 0
            return hw > 0 && ex * ex + ey2 * ey2 <= 1
        case .document:
            return p.y <= Self.waveY(at: p.x, in: f)
        }
    }

    // MARK: Handles

    /// Where a handle on `position` sits on the outline in frame `f`: the middle of that
    /// side as the outline reaches it (`center`: the centre).
    public func handlePoint(_ position: HandlePosition, in f: Rect) -> Point {
        switch (self, position) {
        case (_, .center):
            return position.point(in: f)
        case (.circle, _), (.doublecircle, _):
            let r = Self.diameter(in: f) / 2
            let c = HandlePosition.center.point(in: f)
            let d = position.direction
            return Point(c.x + d.x * r, c.y + d.y * r)
        case (.parallelogram, .left):
            return Point(f.x + Self.skew(in: f) / 2, f.y + f.height / 2)
        case (.parallelogram, .right):
            return Point(f.maxX - Self.skew(in: f) / 2, f.y + f.height / 2)
        case (.document, .bottom):
            return Point(f.x + f.width / 2, f.maxY - Self.documentWave(in: f))
        default:
            if let corners = polygon(in: f) {
                return Self.exit(from: HandlePosition.center.point(in: f), position.direction, corners)
            }
            return position.point(in: f)
        }
    }

    // MARK: Text

    /// The centre of the area a node's title is centred in.
    public func textCenter(in f: Rect) -> Point {
        let cx = f.x + f.width / 2
        switch self {
        case .cylinder: return Point(cx, f.y + (f.height + Self.cylinderCap(in: f)) / 2)
        case .document: return Point(cx, f.y + (f.height - 2 * Self.documentWave(in: f)) / 2)
        // towards the wide side of a triangle
        case .triangle: return Point(cx, f.y + f.height * 0.6)
        case .invtriangle: return Point(cx, f.y + f.height * 0.4)
        default: return Point(cx, f.y + f.height / 2)
        }
    }

    /// The tallest block of title lines the shape holds in frame `f`.
    public func maxTextHeight(in f: Rect) -> Double {
        switch self {
        case .diamond, .mdiamond, .triangle, .invtriangle: return f.height / 2
        case .ellipse: return f.height * 0.5.squareRoot()
        case .circle, .doublecircle: return Self.diameter(in: f) * 0.5.squareRoot()
        case .cylinder: return f.height - 3 * Self.cylinderCap(in: f) - 2 * Self.textPadding.y
        case .document: return f.height - 2 * Self.documentWave(in: f) - 2 * Self.textPadding.y
        default: return f.height - 2 * Self.textPadding.y
        }
    }

    /// The width available to a block of title lines `height` high, centred in the text
    /// area of frame `f` (the padding taken off).
    public func textWidth(forBlockHeight height: Double, in f: Rect) -> Double {
        let pad = 2 * Self.textPadding.x
        switch self {
        case .rounded, .rectangle, .note, .cylinder, .document, .record, .mrecord, .plain, .msquare, .box3d,
            .component, .tab, .folder:
            return f.width - pad
        case .subroutine:
            return f.width - 2 * Self.subroutineInset(in: f) - pad
        case .triangle, .invtriangle, .house, .invhouse, .trapezium, .invtrapezium, .pentagon, .septagon,
            .octagon, .doubleoctagon, .tripleoctagon, .asymmetric:
            return Self.polygonTextWidth(polygon(in: f)!, height: height, centre: textCenter(in: f).y) - pad  // invariant: polygons
        case .stadium:
            let r = Self.diameter(in: f) / 2
            let q = min(height / 2, r)
            return f.width - 2 * (r - (r * r - q * q).squareRoot()) - pad
        case .ellipse:
            let k = f.height > 0 ? height / f.height : 1
            return f.width * max(0, 1 - k * k).squareRoot() - pad
        case .circle, .doublecircle:
            let d = Self.diameter(in: f)
            let k = d > 0 ? height / d : 1
            return d * max(0, 1 - k * k).squareRoot() - pad
        case .diamond, .mdiamond:
            return f.width * max(0, 1 - (f.height > 0 ? height / f.height : 1)) - pad
        case .hexagon:
            return f.width - 2 * Self.hexagonInset(in: f) * min(1, f.height > 0 ? height / f.height : 1) - pad
        case .parallelogram:
            let k = f.height > 0 ? min(1, height / f.height) : 1
            return f.width - Self.skew(in: f) * (1 + k) - pad
        }
    }

    /// The space kept between a title and the outline: 8 on each side, 4 above and below.
    public static let textPadding = Point(8, 4)
}
