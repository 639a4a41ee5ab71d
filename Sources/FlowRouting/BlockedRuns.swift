import FlowCore

/// The obstacles of one route search, to ask whether the run between two neighbouring
/// points of its grid is blocked: a run on a line strictly inside an obstacle, between two
/// of its borders. The search grid's lines are the obstacles' borders, so a run is either
/// wholly inside an obstacle's extent along its line or wholly outside it. The obstacles
/// are kept by cell of a coarse grid over the window (cells about an obstacle's size, at
/// most about four per obstacle), so a question looks at the few obstacles of one cell
/// instead of the search marking every run of the grid beforehand (issue #43).
struct BlockedRuns {
    /// Each obstacle's borders as indices of the grid's lines: -1 or one past the last line
    /// where it reaches beyond the window (so runs along the window's border inside it are
    /// blocked too).
    private var spans: [(x0: Int32, x1: Int32, y0: Int32, y1: Int32)] = []
    /// The obstacles of cell c are `items[start[c]..<start[c + 1]]`.
    private var start: [Int32] = []
    private var items: [Int32] = []
    /// Obstacles covering too many cells: asked about every run.
    private var large: [Int32] = []
    private var gx = 1, gy = 1
    private var originX = 0.0, originY = 0.0, cellW = 1.0, cellH = 1.0

    private static let maxCellsPerBox = 64

    @inline(__always)
    private func column(_ v: Double) -> Int {
        let c = (v - originX) / cellW
        return c >= 0 ? min(gx - 1, c < Double(gx) ? Int(c) : gx - 1) : 0
    }

    @inline(__always)
    private func row(_ v: Double) -> Int {
        let c = (v - originY) / cellH
        return c >= 0 ? min(gy - 1, c < Double(gy) ? Int(c) : gy - 1) : 0
    }

    /// Files `boxes` for a search of `window` whose grid lines are `xs` and `ys`.
    mutating func build(_ boxes: [Rect], window: Rect, xs: [Double], ys: [Double]) {
        let nx = xs.count, ny = ys.count
        spans.removeAll(keepingCapacity: true)
        large.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        var sumW = 0.0, sumH = 0.0
        for b in boxes {
            let x0 = b.minX < window.minX ? -1 : RouteSearch.index(of: min(b.minX, window.maxX), in: xs)
            let x1 = b.maxX > window.maxX ? nx : RouteSearch.index(of: max(b.maxX, window.minX), in: xs)
            let y0 = b.minY < window.minY ? -1 : RouteSearch.index(of: min(b.minY, window.maxY), in: ys)
            let y1 = b.maxY > window.maxY ? ny : RouteSearch.index(of: max(b.maxY, window.minY), in: ys)
            spans.append((Int32(x0), Int32(x1), Int32(y0), Int32(y1)))
            sumW += max(0, min(b.maxX, window.maxX) - max(b.minX, window.minX))
            sumH += max(0, min(b.maxY, window.maxY) - max(b.minY, window.minY))
        }
        // Cells about the obstacles' mean size, at most about 4 per obstacle in all.
        let k = max(1, boxes.count)
        let side = Int((4 * Double(k)).squareRoot()) + 1
        let meanW = max(sumW / Double(k), 1e-9), meanH = max(sumH / Double(k), 1e-9)
        let w = window.width, h = window.height
        gx = w.isFinite && meanW.isFinite ? max(1, min(side, Int(min(w / meanW, Double(side))))) : 1
        gy = h.isFinite && meanH.isFinite ? max(1, min(side, Int(min(h / meanH, Double(side))))) : 1
        originX = window.minX
        originY = window.minY
        cellW = w > 0 && w.isFinite ? w / Double(gx) : 1
        cellH = h > 0 && h.isFinite ? h / Double(gy) : 1
        // Two passes: count by cell, then fill (the lists packed in one array).
        start = [Int32](repeating: 0, count: gx * gy + 1)
        var ranges: [(c0: Int, c1: Int, r0: Int, r1: Int)] = []
        ranges.reserveCapacity(boxes.count)
        for (n, b) in boxes.enumerated() {
            let c0 = column(max(b.minX, window.minX)), c1 = column(min(b.maxX, window.maxX))
            let r0 = row(max(b.minY, window.minY)), r1 = row(min(b.maxY, window.maxY))
            let s = spans[n]
            if s.x0 >= s.x1 || s.y0 >= s.y1 || (c1 - c0 + 1) * (r1 - r0 + 1) > Self.maxCellsPerBox {
                if s.x0 < s.x1 && s.y0 < s.y1 { large.append(Int32(n)) }
                ranges.append((1, 0, 1, 0))
                continue
            }
            ranges.append((c0, c1, r0, r1))
            for r in r0...r1 { for c in c0...c1 { start[r * gx + c + 1] += 1 } }
        }
        for c in 0..<(gx * gy) { start[c + 1] += start[c] }
        items = [Int32](repeating: 0, count: Int(start[gx * gy]))
        var fill = Array(start[0..<(gx * gy)])
        for (n, r) in ranges.enumerated() where r.c0 <= r.c1 {
            for y in r.r0...r.r1 {
                for x in r.c0...r.c1 {
                    let c = y * gx + x
                    items[Int(fill[c])] = Int32(n)
                    fill[c] += 1
                }
            }
        }
    }

    /// Whether an obstacle listed in one of `cells` (indices into the grid), or one too large
    /// for the grid, is one `blocks` accepts: what each question below asks, with its test.
    @inline(__always)
    private func any(in cells: some Sequence<Int>, _ blocks: (Int32) -> Bool) -> Bool {
        for c in cells {
            for n in items[Int(start[c])..<Int(start[c + 1])] where blocks(n) { return true }
        }
        for n in large where blocks(n) { return true }
        return false
    }

    /// Whether the run on row `j` from column `i` to column `i + 1` is blocked: an obstacle
    /// holds the row strictly inside and both columns between its borders.
    @inline(__always)
    func horizontal(_ i: Int, _ j: Int, xs: [Double], ys: [Double]) -> Bool {
        let a = xs[i], b = xs[i + 1]
        let c = row(ys[j]) * gx + column(a + (b - a) / 2)
        let i0 = Int32(i), j0 = Int32(j)
        @inline(__always) func blocks(_ n: Int32) -> Bool {
            let s = spans[Int(n)]
            return s.x0 <= i0 && i0 < s.x1 && s.y0 < j0 && j0 < s.y1
        }
        return any(in: c..<(c + 1), blocks)
    }

    /// Whether any run on row `j` between columns `i0` and `i1` (either order) is blocked:
    /// the cells along the row between them are looked at once each.
    func horizontal(from i0: Int, to i1: Int, _ j: Int, xs: [Double], ys: [Double]) -> Bool {
        let lo = Int32(min(i0, i1)), hi = Int32(max(i0, i1)), j0 = Int32(j)
        guard lo < hi else { return false }
        @inline(__always) func blocks(_ n: Int32) -> Bool {
            let s = spans[Int(n)]
            return s.x0 < hi && s.x1 > lo && s.y0 < j0 && j0 < s.y1
        }
        let r = row(ys[j]) * gx
        return any(in: (column(xs[Int(lo)])...column(xs[Int(hi)])).lazy.map { r + $0 }, blocks)
    }

    /// Whether any run on column `i` between rows `j0` and `j1` (either order) is blocked.
    func vertical(_ i: Int, from j0: Int, to j1: Int, xs: [Double], ys: [Double]) -> Bool {
        let lo = Int32(min(j0, j1)), hi = Int32(max(j0, j1)), i0 = Int32(i)
        guard lo < hi else { return false }
        @inline(__always) func blocks(_ n: Int32) -> Bool {
            let s = spans[Int(n)]
            return s.y0 < hi && s.y1 > lo && s.x0 < i0 && i0 < s.x1
        }
        let c = column(xs[i])
        return any(in: (row(ys[Int(lo)])...row(ys[Int(hi)])).lazy.map { $0 * gx + c }, blocks)
    }

    /// Whether the run on column `i` from row `j` to row `j + 1` is blocked.
    @inline(__always)
    func vertical(_ i: Int, _ j: Int, xs: [Double], ys: [Double]) -> Bool {
        let a = ys[j], b = ys[j + 1]
        let c = row(a + (b - a) / 2) * gx + column(xs[i])
        let i0 = Int32(i), j0 = Int32(j)
        @inline(__always) func blocks(_ n: Int32) -> Bool {
            let s = spans[Int(n)]
            return s.y0 <= j0 && j0 < s.y1 && s.x0 < i0 && i0 < s.x1
        }
        return any(in: c..<(c + 1), blocks)
    }
}
