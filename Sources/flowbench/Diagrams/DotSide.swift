/// dot's drawing of the same graph, measured as the scorer's `dot_side.py` measures it:
/// proper crossings between the flattened routes of edges that share no node (not clipped
/// to the boxes), and ink: node area over the box holding every node and route point.
struct DotSide {
    var crossings = 0
    var ink = 0.0

    init?(dotFile path: String) {
        guard let d = Drawing(dotFile: path) else { return nil }
        let grid = SegmentGrid(routes: d.routes.map { $0.points.map { ($0.x, $0.y) } })
        let ends = d.routes.map { ($0.source, $0.target) }
        grid.forEachNearPair { p, q in
            let e = ends[p.edge], f = ends[q.edge]
            guard e.0 != f.0 && e.0 != f.1 && e.1 != f.0 && e.1 != f.1 else { return }
            if DiagramDefects.proper(p.a, p.b, q.a, q.b) { crossings += 1 }
        }
        var xs = d.boxes.flatMap { [$0.origin.x, $0.origin.x + $0.size.width] }
        var ys = d.boxes.flatMap { [$0.origin.y, $0.origin.y + $0.size.height] }
        for r in d.routes {
            xs += r.points.map(\.x)
            ys += r.points.map(\.y)
        }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return }
        let area = d.boxes.reduce(0) { $0 + $1.size.width * $1.size.height }
        let canvas = (x1 - x0) * (y1 - y0)
        ink = canvas > 0 ? (area / canvas * 10_000).rounded() / 10_000 : 0
    }
}
