import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Graphviz polygon that no shape of the store draws as it is (more than 8 sides, a skew or
/// distortion past 4 sides, a rotation, extra outlines): stored in the node's data as
/// `polygon` (`json`) and drawn from it, the node's shape kept as the nearest one, which the
/// renderer moves edge ends from onto the polygon (docs/formats.md, "Polygons").
struct DOTPolygon: Equatable {
    /// 0 for an ellipse (what Graphviz draws for fewer than 3 sides).
    var sides = 4
    /// Degrees, clockwise; 0 puts a side at the bottom.
    var orientation = 0.0
    var skew = 0.0, distortion = 0.0
    var peripheries = 1
    var regular = false

    /// The most sides (outlines) drawn.
    static let maximumSides = 100
    static let maximumPeripheries = 16

    /// Graphviz's polygon shapes by name, as polygons.
    static let named: [String: DOTPolygon] = [
        "box": DOTPolygon(), "rect": DOTPolygon(), "rectangle": DOTPolygon(), "square": DOTPolygon(),
        "polygon": DOTPolygon(), "ellipse": DOTPolygon(sides: 0), "oval": DOTPolygon(sides: 0),
        "triangle": DOTPolygon(sides: 3), "invtriangle": DOTPolygon(sides: 3, orientation: 180),
        "diamond": DOTPolygon(orientation: 45), "pentagon": DOTPolygon(sides: 5),
        "hexagon": DOTPolygon(sides: 6), "septagon": DOTPolygon(sides: 7), "octagon": DOTPolygon(sides: 8),
        "trapezium": DOTPolygon(distortion: -0.4), "invtrapezium": DOTPolygon(orientation: 180, distortion: -0.4),
        "parallelogram": DOTPolygon(skew: 0.6),
    ]

    /// Whether a rotation by `orientation` leaves the polygon as it was (a multiple of its
    /// symmetry when it has neither skew nor distortion).
    var isUnrotated: Bool {
        let step = skew == 0 && distortion == 0 ? 360 / Double(max(sides, 1)) : 360
        let r = orientation.truncatingRemainder(dividingBy: step)
        return abs(r) < 1e-9 || abs(abs(r) - step) < 1e-9
    }

    /// The corners in the unit box (0 to 1 both ways, y down), each at the place it has in
    /// the node's box: a regular polygon (radius 1, a side at the bottom), its top widened by
    /// `distortion` and moved right by `skew`, turned `orientation` degrees counter-clockwise
    /// (Graphviz's meanings), then stretched to the box (the same scale both ways when
    /// `regular`) with its centre, the middle of the circle its corners start on, in the
    /// middle of the box, as Graphviz places it: the farthest corner each way on the box's
    /// side, an odd polygon's other end short of it (a pentagon's bottom side, 0.095 of the
    /// height above the box's bottom). Empty for an ellipse.
    var corners: [Point] {
        guard sides >= 3 else { return [] }
        let n = Double(sides), turn = orientation * .pi / 180
        let ring = (0..<sides).map { i in
            let a = Double.pi / 2 + Double.pi / n + Double(i) * 2 * Double.pi / n
            var x = cos(a), y = sin(a)
            x = x * (1 - distortion * y) - skew * y
            return Point(x * cos(turn) + y * sin(turn), -x * sin(turn) + y * cos(turn))
        }
        let mx = ring.map { abs($0.x) }.max()!, my = ring.map { abs($0.y) }.max()!
        var sx = mx > 1e-9 ? 0.5 / mx : 0, sy = my > 1e-9 ? 0.5 / my : 0
        if regular { (sx, sy) = (min(sx, sy), min(sx, sy)) }
        return ring.map { Point(0.5 + $0.x * sx, 0.5 + $0.y * sy) }
    }

    /// Whether a box of size `inner` centred in a node of size `size` lies inside the
    /// polygon drawn over the node.
    func holds(_ inner: Size, in size: Size) -> Bool {
        let c = corners.map { Point($0.x * size.width, $0.y * size.height) }
        guard c.count >= 3 else { return true }
        // the turn of the corners (either way round), then each box corner on its inner side
        var area = 0.0
        for i in c.indices { let j = (i + 1) % c.count; area += c[i].x * c[j].y - c[j].x * c[i].y }
        let (hw, hh) = (inner.width / 2, inner.height / 2)
        for (dx, dy) in [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)] {
            let p = Point(size.width / 2 + dx, size.height / 2 + dy)
            for i in c.indices {
                let (a, b) = (c[i], c[(i + 1) % c.count])
                if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) * area < -1e-9 { return false }
            }
        }
        return true
    }

    /// `size` grown in steps of a tenth (both ways) until the polygon holds a box of size
    /// `inner` (a node's title with its margin), at most about twice as large (a diamond's
    /// need: a polygon skewed or distorted far keeps some of its title outside), as Graphviz
    /// grows a polygon around its label.
    func grown(_ size: Size, toHold inner: Size) -> Size {
        var s = size
        var steps = 0
        while !holds(inner, in: s) && steps < 8 {
            s = Size(s.width * 1.1, s.height * 1.1)
            steps += 1
        }
        return Size((s.width * 1000).rounded() / 1000, (s.height * 1000).rounded() / 1000)
    }

    /// The room between two outlines (Graphviz's `GAP`).
    static let peripheryGap = 4.0

    /// The node that draws the polygon at `size` (its innermost outline, around the title)
    /// with its extra outlines outside it, each `peripheryGap` further out, as Graphviz
    /// draws them: the node's size (twice the outermost outline's farthest corner from the
    /// polygon's centre each way, which stays in the node's middle), and the innermost
    /// outline's corners as fractions of that box (empty for an ellipse, whose outlines
    /// grow by the gap each way).
    func placed(in size: Size) -> (size: Size, points: [Point]) {
        let grow = Self.peripheryGap * Double(max(peripheries - 1, 0))
        guard sides >= 3 else { return (Size(size.width + 2 * grow, size.height + 2 * grow), []) }
        // from the middle of the node
        let inner = corners.map { Point(($0.x - 0.5) * size.width, ($0.y - 0.5) * size.height) }
        let outer = PolygonOutline.offset(inner, by: grow)
        let w = max(2 * outer.map { abs($0.x) }.max()!, size.width), h = max(2 * outer.map { abs($0.y) }.max()!, size.height)
        // to 1/500, so that the node's middle (where DOT writes it) is a whole thousandth
        let box = Size((w * 500).rounded() / 500, (h * 500).rounded() / 500)
        return (box, inner.map { Point(0.5 + $0.x / max(box.width, 1e-9), 0.5 + $0.y / max(box.height, 1e-9)) })
    }

    /// The polygon as JSON, `points` (the innermost outline's corners as fractions of the
    /// node's box, `placed`) when it has sides, and with more than one outline the room the
    /// outer ones take (`room`: the node's size less the innermost outline's, width and
    /// height), which the DOT writer takes off the node's size to write dot's.
    func json(points: [Point], room: Size = Size(0, 0)) -> JSONValue {
        var o = JSONObject([("sides", .number(Double(sides)))])
        if room != Size(0, 0) {
            o["room"] = .array([.number((room.width * 1000).rounded() / 1000), .number((room.height * 1000).rounded() / 1000)])
        }
        func round(_ v: Double) -> Double { (v * 10000).rounded() / 10000 }
        // as read: the DOT writer writes them back, and the corners come out the same
        if orientation != 0 { o["orientation"] = .number(orientation) }
        if skew != 0 { o["skew"] = .number(skew) }
        if distortion != 0 { o["distortion"] = .number(distortion) }
        if peripheries != 1 { o["peripheries"] = .number(Double(peripheries)) }
        if regular { o["regular"] = .bool(true) }
        if sides >= 3 { o["points"] = .array(points.flatMap { [.number(round($0.x)), .number(round($0.y))] }) }
        return .object(o)
    }
}
