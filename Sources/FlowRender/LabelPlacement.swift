import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Edge labels are placed, not just centred (docs/rendering.md, "Labels"): in store order,
// each label goes to the first free spot among candidates along its edge's path, free
// meaning that it overlaps no node, no container's border or title (a label may lie inside
// a container) and no label placed before it, and that no other edge runs through. A label
// with no such spot goes where it overlaps nothing and the fewest other edges run through,
// else where it overlaps least, and the picture reports that.

/// A label box that is being placed: its text lines and size; the placement sets its centre
/// and rotation.
struct LabelBox {
    var lines: [String]
    var font: TextFont
    var width: Double
    var height: Double
    var center = Point.zero
    /// Rotation in degrees, kept in (-90, 90] so text never reads upside down.
    var degrees = 0.0

    /// The axis-aligned bounds of the (possibly rotated) box.
    var bounds: Rect {
        let hw = width / 2, hh = height / 2
        guard degrees != 0 else { return Rect(center.x - hw, center.y - hh, width, height) }
        let a = degrees * Double.pi / 180
        let c = abs(cos(a)), s = abs(sin(a))
        let ex = hw * c + hh * s, ey = hw * s + hh * c
        return Rect(center.x - ex, center.y - ey, 2 * ex, 2 * ey)
    }

    /// The box of `text` in `font`: one line per line break, each shortened to fit the
    /// label width; nil when nothing is left to show.
    static func make(_ text: String, font: TextFont = .standard) -> LabelBox? {
        let pad = Metrics.labelPadding * font.size / TextFont.defaultSize
        let maxText = Metrics.labelMaxWidth - 2 * pad
        let fitted = TextMetrics.paragraphs(text).compactMap { TextMetrics.fitted($0, maxWidth: maxText, font: font) }
        guard !fitted.isEmpty else { return nil }
        let width = fitted.map(\.width).max()! + 2 * pad
        let height = font.size + Double(fitted.count - 1) * font.lineHeight + 2 * pad
        return LabelBox(lines: fitted.map(\.text), font: font, width: width, height: height)
    }
}

/// Places labels one after another among the node frames and the labels already placed.
struct LabelPlacer {
    /// Something a label must not cover, and how a warning names it.
    private struct Obstacle {
        var rect: Rect
        var name: String
    }

    private static let cellSize = 128.0
    private var cells: [Int64: [Int32]] = [:]
    private var obstacles: [Obstacle] = []
    /// The edges' drawn paths, which a label keeps off where it can.
    var paths = PathGrid()
    private(set) var warnings: [String] = []

    /// Fractions of the path's length where candidates are tried, halfway first.
    static let fractions: [Double] = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9]
    /// The gap between a label placed beside its path and the path.
    static let gap = 3.0
    /// How far a label keeps from other edges: one that only touches its border reads as
    /// running through it.
    static let edgeClearance = 1.0
    /// How far a label keeps from a container's border line, each side of it.
    static let borderClearance = 2.0

    static func cell(_ v: Double) -> Int64 {
        let c = (v / cellSize).rounded(.down)
        return c.isFinite ? Int64(max(-1e12, min(1e12, c))) : 0
    }

    @inline(__always)
    static func key(_ x: Int64, _ y: Int64) -> Int64 { (x << 32) ^ (y & 0xFFFF_FFFF) }

    /// Adds something labels must keep off.
    mutating func add(_ rect: Rect, name: String) {
        let i = Int32(obstacles.count)
        obstacles.append(Obstacle(rect: rect, name: name))
        let x0 = Self.cell(rect.minX), x1 = Self.cell(rect.maxX), y0 = Self.cell(rect.minY), y1 = Self.cell(rect.maxY)
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= 4096 else {
            cells[Int64.min, default: []].append(i)  // a huge rectangle: checked by every query
            return
        }
        for x in x0...x1 { for y in y0...y1 { cells[Self.key(x, y), default: []].append(i) } }
    }

    /// Adds the border of `frame`: a strip along each side, as wide as a label needs to
    /// keep clear of the line.
    mutating func addBorder(of frame: Rect, name: String) {
        let h = Self.borderClearance
        add(Rect(frame.minX - h, frame.minY - h, frame.width + 2 * h, 2 * h), name: name)
        add(Rect(frame.minX - h, frame.maxY - h, frame.width + 2 * h, 2 * h), name: name)
        add(Rect(frame.minX - h, frame.minY + h, 2 * h, max(0, frame.height - 2 * h)), name: name)
        add(Rect(frame.maxX - h, frame.minY + h, 2 * h, max(0, frame.height - 2 * h)), name: name)
    }

    /// How much `r` overlaps what is placed (the summed areas of the overlaps), and the
    /// one it overlaps most (the first of equals).
    private func overlap(_ r: Rect) -> (area: Double, worst: Int32?) {
        var seen = Set<Int32>()
        var total = 0.0, worst: Int32?, worstArea = 0.0
        func visit(_ i: Int32) {
            guard seen.insert(i).inserted else { return }
            let o = obstacles[Int(i)].rect
            let w = min(r.maxX, o.maxX) - max(r.minX, o.minX)
            let h = min(r.maxY, o.maxY) - max(r.minY, o.minY)
            guard w > 0, h > 0 else { return }
            total += w * h
            if w * h > worstArea || (w * h == worstArea && worst.map({ i < $0 }) ?? true) {
                worstArea = w * h
                worst = i
            }
        }
        for i in cells[Int64.min] ?? [] { visit(i) }
        let x0 = Self.cell(r.minX), x1 = Self.cell(r.maxX), y0 = Self.cell(r.minY), y1 = Self.cell(r.maxY)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 4096 {
            for i in obstacles.indices { visit(Int32(i)) }
        } else {
            for x in x0...x1 { for y in y0...y1 { for i in cells[Self.key(x, y)] ?? [] { visit(i) } } }
        }
        return (total, worst)
    }

    /// Places `box`, the label of edge `edgeID` drawn along `geometry`: the first free one of
    /// the candidates (the path type's own label point, then points along the path from
    /// halfway outwards, each centred on the path; then the same points with the box beside
    /// the path, on one side and then the other), free meaning it overlaps nothing and no
    /// edge but its own (number `number` in `paths`) runs through it; where none is free,
    /// the one that overlaps nothing with the fewest edges through it, else the one that
    /// overlaps least, with a warning. The box is then something later labels keep off.
    mutating func place(_ box: inout LabelBox, of edgeID: String, number: Int32, along geometry: EdgeGeometry, rotated: Bool) {
        let along = geometry.path.points(atFractions: Self.fractions)
        var spots: [(point: Point, direction: Point)] = [(geometry.labelPosition, Self.direction(geometry.labelAngle))]
        spots += along
        var candidates: [(center: Point, degrees: Double)] = []
        for s in spots { candidates.append((s.point, rotated ? Self.degrees(s.direction) : 0)) }
        for s in along where s.direction != .zero {
            for side in [1.0, -1.0] {
                let n = Point(-s.direction.y, s.direction.x) * side
                var b = box
                b.degrees = rotated ? Self.degrees(s.direction) : 0
                // How far the box reaches across the path, then just clear of it.
                let reach = rotated ? b.height / 2 : abs(n.x) * b.width / 2 + abs(n.y) * b.height / 2
                candidates.append((s.point + n * (reach + Self.gap), b.degrees))
            }
        }
        // ranked by: overlaps something, edges through it, area overlapped
        var best: (index: Int, rank: (Int, Int, Double), worst: Int32?)?
        for (k, c) in candidates.enumerated() {
            var b = box
            b.center = c.center
            b.degrees = c.degrees
            let (area, worst) = overlap(b.bounds)
            let through = paths.edges(through: b.bounds.insetBy(dx: -Self.edgeClearance, dy: -Self.edgeClearance), except: number)
            if area == 0 && through == 0 {
                best = (k, (0, 0, 0), nil)
                break
            }
            let rank = (area > 0 ? 1 : 0, through, area)
            if best == nil || rank < best!.rank { best = (k, rank, worst) }
        }
        let chosen = best.map { candidates[$0.index] } ?? (center: geometry.labelPosition, degrees: 0)
        box.center = chosen.center
        box.degrees = chosen.degrees
        if let b = best, b.rank.2 > 0, let w = b.worst {
            warnings.append("the label of edge '\(edgeID)' overlaps \(obstacles[Int(w)].name)")
        }
        add(box.bounds, name: "the label of edge '\(edgeID)'")
    }

    /// The unit direction of an angle in radians.
    private static func direction(_ radians: Double) -> Point {
        radians.isFinite ? Point(cos(radians), sin(radians)) : Point(1, 0)
    }

    /// The rotation, in degrees within (-90, 90], of text running along `d` (0 for none).
    static func degrees(_ d: Point) -> Double {
        guard d != .zero else { return 0 }
        var degrees = atan2(d.y, d.x) * 180 / Double.pi
        if !degrees.isFinite { degrees = 0 }
        if degrees > 90 { degrees -= 180 } else if degrees <= -90 { degrees += 180 }
        if abs(degrees) < 0.005 { degrees = 0 }
        return degrees
    }
}
