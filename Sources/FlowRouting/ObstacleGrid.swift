import FlowCore

/// The router's own copy of the node frames (a multiset: equal frames are kept once each),
/// in a uniform grid, kept in step with the store through the frame changes it reports.
/// Queries visit each frame once and allocate nothing.
struct ObstacleGrid {
    private static let cellSize = 128.0
    /// Frames covering more cells than this are kept in `large`.
    private static let maxCells = 64
    private var cells = CellLists<Rect>()
    private var large: [Rect] = []
    private(set) var count = 0
    /// The union of the frames, kept as they come and go (nil: not known, `.some(nil)`: no
    /// frames): an insert widens it, a remove forgets it only when the frame touched its
    /// border, so adding nodes one by one never walks all of them.
    private var cachedBounds: Rect??
    /// Frames visited to recompute the bounds, over the grid's life (tests count it).
    private(set) var boundsVisits = 0

    private static func cell(_ v: Double) -> Int64 {
        let c = (v / cellSize).rounded(.down)
        return c.isNaN ? 0 : Int64(max(-1e15, min(1e15, c)))
    }

    private static func span(_ r: Rect) -> (x0: Int64, x1: Int64, y0: Int64, y1: Int64)? {
        let x0 = cell(r.minX), x1 = cell(r.maxX), y0 = cell(r.minY), y1 = cell(r.maxY)
        let n = (Double(x1) - Double(x0) + 1) * (Double(y1) - Double(y0) + 1)
        return n > Double(maxCells) ? nil : (x0, x1, y0, y1)
    }

    mutating func insert(_ r: Rect) {
        count += 1
        if let known = cachedBounds { cachedBounds = .some(known?.union(r) ?? r) }
        guard let s = Self.span(r) else {
            large.append(r)
            return
        }
        for x in s.x0...s.x1 { for y in s.y0...s.y1 { cells.append(r, x: x, y: y) } }
    }

    mutating func remove(_ r: Rect) {
        if let known = cachedBounds, let b = known,
            r.minX <= b.minX || r.minY <= b.minY || r.maxX >= b.maxX || r.maxY >= b.maxY
        {
            cachedBounds = nil
        }
        guard let s = Self.span(r) else {
            if let i = large.firstIndex(of: r) {
                large.remove(at: i)
                count -= 1
            }
            return
        }
        var found = false
        for x in s.x0...s.x1 {
            for y in s.y0...s.y1 where cells.remove(r, x: x, y: y) { found = true }
        }
        if found { count -= 1 }
    }

    /// Visits every frame that intersects `r` (closed), each once.
    func forEach(intersecting r: Rect, _ body: (Rect) -> Void) {
        for f in large where f.intersects(r) { body(f) }
        let x0 = Self.cell(r.minX), x1 = Self.cell(r.maxX), y0 = Self.cell(r.minY), y1 = Self.cell(r.maxY)
        let w: Double = Double(x1) - Double(x0) + 1
        let h: Double = Double(y1) - Double(y0) + 1
        if w * h > Double(max(cells.cellCount, 16)) {
            // A query larger than the occupied grid: visit each frame in its first cell.
            cells.forEachCell { k, list in
                for f in list where f.intersects(r) {
                    let s = Self.span(f)!
                    if CellTable.key(s.x0, s.y0) == k { body(f) }
                }
            }
            return
        }
        for x in x0...x1 {
            for y in y0...y1 {
                cells.forEach(x: x, y: y) { f in
                    // Visited in the first cell of the query that it covers.
                    if f.intersects(r) && max(x0, Self.cell(f.minX)) == x && max(y0, Self.cell(f.minY)) == y {
                        body(f)
                    }
                }
            }
        }
    }

    /// The union of all frames; nil when there are none.
    mutating func bounds() -> Rect? {
        if let b = cachedBounds { return b }
        var u: Rect?
        var visits = 0
        for f in large { u = u?.union(f) ?? f }
        cells.forEachCell { _, list in
            visits += list.count
            for f in list { u = u?.union(f) ?? f }
        }
        boundsVisits += visits + large.count
        cachedBounds = .some(u)
        return u
    }
}
