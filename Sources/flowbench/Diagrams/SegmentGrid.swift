/// Pieces of drawn routes filed by the square cells of a grid, so that pieces near one
/// another are found without comparing every piece with every other (a few thousand
/// edges of 8-piece curves stay fast). A piece is filed under every cell its box, grown
/// by `margin`, touches.
struct SegmentGrid {
    struct Piece {
        var a: (Double, Double)
        var b: (Double, Double)
        /// Index of the edge the piece belongs to.
        var edge: Int
        var minX, minY, maxX, maxY: Double
    }

    let cell: Double
    let margin: Double
    private(set) var pieces: [Piece] = []
    private(set) var cells: [Int64: [Int]] = [:]

    init(routes: [[(Double, Double)]], cell: Double = 64, margin: Double = 1) {
        self.cell = cell
        self.margin = margin
        for (e, pts) in routes.enumerated() {
            for (a, b) in zip(pts, pts.dropFirst()) where a.0.isFinite && a.1.isFinite && b.0.isFinite && b.1.isFinite {
                let p = Piece(
                    a: a, b: b, edge: e, minX: min(a.0, b.0) - margin, minY: min(a.1, b.1) - margin,
                    maxX: max(a.0, b.0) + margin, maxY: max(a.1, b.1) + margin)
                let index = pieces.count
                pieces.append(p)
                forEachCell(p.minX, p.minY, p.maxX, p.maxY) { cells[$0, default: []].append(index) }
            }
        }
    }

    func key(_ cx: Int, _ cy: Int) -> Int64 { Int64(cx) << 32 ^ Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: cy))) }

    func index(_ v: Double) -> Int { Int((v / cell).rounded(.down)) }

    func forEachCell(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ body: (Int64) -> Void) {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, x0 <= x1, y0 <= y1 else { return }
        for cx in index(x0)...index(x1) {
            for cy in index(y0)...index(y1) { body(key(cx, cy)) }
        }
    }

    /// Calls `body` once for every pair of pieces of different edges whose grown boxes meet,
    /// cell by cell in a fixed order (sums come out the same on every run).
    func forEachNearPair(_ body: (Piece, Piece) -> Void) {
        for k in cells.keys.sorted() {
            let list = cells[k]!
            for i in 0..<list.count {
                let p = pieces[list[i]]
                for j in (i + 1)..<list.count {
                    let q = pieces[list[j]]
                    guard p.edge != q.edge, p.minX <= q.maxX, q.minX <= p.maxX, p.minY <= q.maxY, q.minY <= p.maxY
                    else { continue }
                    // each pair once: in the cell holding the lower corner of the boxes' overlap
                    guard key(index(max(p.minX, q.minX)), index(max(p.minY, q.minY))) == k else { continue }
                    body(p, q)
                }
            }
        }
    }

    /// The edges with a piece whose grown box meets the box (x, y, w, h), each once.
    func edgesNear(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Set<Int> {
        var found = Set<Int>()
        forEachCell(x, y, x + w, y + h) { k in
            for i in cells[k] ?? [] {
                let p = pieces[i]
                if p.minX <= x + w && x <= p.maxX && p.minY <= y + h && y <= p.maxY { found.insert(p.edge) }
            }
        }
        return found
    }
}
