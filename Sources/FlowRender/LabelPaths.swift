import FlowCore

/// The drawn edge paths that labels keep off (docs/rendering.md, "Labels"): a label that
/// another edge runs through reads as that edge's. Each path is flattened to line pieces
/// (a curve at eight points along it) kept in a grid, so a label's candidate spot asks only
/// the pieces near it.
struct PathGrid {
    private struct Piece {
        var a: Point
        var b: Point
        var edge: Int32
    }

    private var pieces: [Piece] = []
    private var cells: [Int64: [Int32]] = [:]
    /// Pieces too long for the grid: every query checks them.
    private var long: [Int32] = []

    /// Adds the path drawn by `segments` as edge number `edge`.
    mutating func add(_ segments: [PathSegment], edge: Int32) {
        var current: Point?
        for s in segments {
            let end = s.endPoint
            defer { current = end }
            guard let a = current else { continue }
            switch s {
            case .move: continue
            case .line: addPiece(a, end, edge)
            case .quad(let c, _):
                var p = a
                for k in 1...8 {
                    let t = Double(k) / 8, u = 1 - t
                    let q = a * (u * u) + c * (2 * u * t) + end * (t * t)
                    addPiece(p, q, edge)
                    p = q
                }
            case .cubic(let c1, let c2, _):
                var p = a
                for k in 1...8 {
                    let t = Double(k) / 8, u = 1 - t
                    let q = a * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + end * (t * t * t)
                    addPiece(p, q, edge)
                    p = q
                }
            }
        }
    }

    private mutating func addPiece(_ a: Point, _ b: Point, _ edge: Int32) {
        guard a != b else { return }
        let i = Int32(pieces.count)
        pieces.append(Piece(a: a, b: b, edge: edge))
        let x0 = LabelPlacer.cell(min(a.x, b.x)), x1 = LabelPlacer.cell(max(a.x, b.x))
        let y0 = LabelPlacer.cell(min(a.y, b.y)), y1 = LabelPlacer.cell(max(a.y, b.y))
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= 64 else {
            long.append(i)
            return
        }
        for x in x0...x1 { for y in y0...y1 { cells[LabelPlacer.key(x, y), default: []].append(i) } }
    }

    /// How many edges other than `edge` run through the inside of `r`.
    func edges(through r: Rect, except edge: Int32) -> Int {
        var found = Set<Int32>()
        func visit(_ i: Int32) {
            let p = pieces[Int(i)]
            if p.edge != edge && !found.contains(p.edge) && PathGrid.crosses(p.a, p.b, r) { found.insert(p.edge) }
        }
        for i in long { visit(i) }
        let x0 = LabelPlacer.cell(r.minX), x1 = LabelPlacer.cell(r.maxX), y0 = LabelPlacer.cell(r.minY), y1 = LabelPlacer.cell(r.maxY)
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= 4096 else {
            for i in pieces.indices { visit(Int32(i)) }
            return found.count
        }
        for x in x0...x1 { for y in y0...y1 { for i in cells[LabelPlacer.key(x, y)] ?? [] { visit(i) } } }
        return found.count
    }

    /// Whether the piece from `a` to `b` runs through the inside of `r` for some length
    /// (clipped to it, Liang–Barsky).
    static func crosses(_ a: Point, _ b: Point, _ r: Rect) -> Bool {
        var t0 = 0.0, t1 = 1.0
        let d = b - a
        for (p, q) in [(-d.x, a.x - r.minX), (d.x, r.maxX - a.x), (-d.y, a.y - r.minY), (d.y, r.maxY - a.y)] {
            if p == 0 {
                if q <= 0 { return false }
                continue
            }
            let t = q / p
            if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            if t0 >= t1 { return false }
        }
        return (t1 - t0) * (d.x * d.x + d.y * d.y).squareRoot() > 1e-9
    }
}

extension PathGrid {
    /// The drawn paths of `items`, `items[i]` as edge number `i`.
    init(_ items: [EdgeItem]) {
        self.init()
        for i in items.indices { add(items[i].geometry.path.segments, edge: Int32(i)) }
    }
}
