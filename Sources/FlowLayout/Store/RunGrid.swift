import FlowCore

/// The segments of routes already made, filed by the square cells of a grid they touch, so
/// that `BackRoutes` looks only at those near a candidate run instead of at all of them.
struct RunGrid {
    /// The side of a cell.
    static let cell = 64.0
    /// A segment that would touch more cells than this goes on a list every query reads.
    static let widest = 1_024

    private(set) var runs: [(Point, Point)] = []
    /// The first cell (lowest x and y) each segment is filed in.
    private var firstCell: [(x: Int64, y: Int64)] = []
    private var cells: [Int64: [Int32]] = [:]
    private var everywhere: [Int32] = []

    private static func cell(_ v: Double) -> Int64 {
        let c = (v / cell).rounded(.down)
        return c.isFinite ? Int64(max(-1e9, min(1e9, c))) : 0
    }

    private static func key(_ x: Int64, _ y: Int64) -> Int64 { (x << 32) ^ (y & 0xFFFF_FFFF) }

    /// The cells a box from `lo` to `hi` touches, or nil when there are more than `widest`.
    private static func cells(_ lo: Point, _ hi: Point) -> (x: ClosedRange<Int64>, y: ClosedRange<Int64>)? {
        let x0 = cell(lo.x), x1 = cell(hi.x), y0 = cell(lo.y), y1 = cell(hi.y)
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= Int64(widest) else { return nil }
        return (x0...x1, y0...y1)
    }

    mutating func append(_ a: Point, _ b: Point) {
        let i = Int32(runs.count)
        runs.append((a, b))
        guard let c = Self.cells(Point(min(a.x, b.x), min(a.y, b.y)), Point(max(a.x, b.x), max(a.y, b.y))) else {
            firstCell.append((0, 0))
            everywhere.append(i)
            return
        }
        firstCell.append((c.x.lowerBound, c.y.lowerBound))
        for x in c.x { for y in c.y { cells[Self.key(x, y), default: []].append(i) } }
    }

    /// Calls `body` once with each segment that may touch the box from `lo` to `hi`: those
    /// filed everywhere, then cell by cell those filed in its cells. A segment filed in
    /// several of them is taken in the first (its lowest x and y within the box) only.
    func forEach(near lo: Point, _ hi: Point, _ body: (Point, Point) -> Void) {
        guard let c = Self.cells(lo, hi) else {
            for r in runs { body(r.0, r.1) }
            return
        }
        for i in everywhere { body(runs[Int(i)].0, runs[Int(i)].1) }
        for x in c.x {
            for y in c.y {
                for i in cells[Self.key(x, y)] ?? [] {
                    let first = firstCell[Int(i)]
                    if x == max(first.x, c.x.lowerBound) && y == max(first.y, c.y.lowerBound) {
                        body(runs[Int(i)].0, runs[Int(i)].1)
                    }
                }
            }
        }
    }
}
