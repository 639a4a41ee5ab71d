/// The figures of the diagram scorer (issue #37), counted from a drawn picture exactly as
/// the reference scorer's `defects.py` counts them, with the pairwise comparisons of
/// route pieces and boxes narrowed by a grid. See docs/diagrams.md.
struct DiagramDefects {
    var edges = 0
    var drawn = 0
    var overlaps = 0
    var through = 0
    var crossings = 0
    var sharedRuns = 0
    var mergedHeads = 0
    var labelOverNode = 0
    var labelOverLabel = 0
    var labelCrossed = 0
    var labels = 0
    var ink = 0.0

    /// The figures that should be 0, in the scorer's order.
    static let zeroFigures = ["overlaps", "through", "sharedRuns", "mergedHeads", "labelOverNode", "labelOverLabel", "labelCrossed"]

    func value(_ figure: String) -> Int {
        switch figure {
        case "overlaps": overlaps
        case "through": through
        case "sharedRuns": sharedRuns
        case "mergedHeads": mergedHeads
        case "labelOverNode": labelOverNode
        case "labelOverLabel": labelOverLabel
        case "labelCrossed": labelCrossed
        case "crossings": crossings
        default: 0
        }
    }

    init(_ pic: DrawnPicture) {
        typealias Box = DrawnPicture.Box
        edges = pic.edgeCount
        drawn = pic.edges.count
        labels = pic.labels.count
        let boxes = pic.nodes.map(\.box)
        overlaps = Self.overlappingPairs(boxes, slack: 0.5)
        let grid = SegmentGrid(routes: pic.edges.map(\.points))
        let nodeGrid = SegmentGrid(routes: [], cell: 64, margin: 0)
        var nodeCells: [Int64: [Int]] = [:]
        for (i, b) in boxes.enumerated() {
            nodeGrid.forEachCell(b.x, b.y, b.x + b.w, b.y + b.h) { nodeCells[$0, default: []].append(i) }
        }
        // through: routes running more than 1 px inside a node (shrunk by 2) other than their ends
        for e in pic.edges {
            var near = Set<Int>()
            for (a, b) in zip(e.points, e.points.dropFirst()) where a.0.isFinite && a.1.isFinite && b.0.isFinite && b.1.isFinite {
                nodeGrid.forEachCell(min(a.0, b.0), min(a.1, b.1), max(a.0, b.0), max(a.1, b.1)) { k in
                    for i in nodeCells[k] ?? [] { near.insert(i) }
                }
            }
            let hit = near.contains { i in
                let id = pic.nodes[i].id
                guard id != e.source && id != e.target else { return false }
                let r = boxes[i]
                var inside = 0.0
                for (a, b) in zip(e.points, e.points.dropFirst())
                where max(a.0, b.0) >= r.x && min(a.0, b.0) <= r.x + r.w && max(a.1, b.1) >= r.y && min(a.1, b.1) <= r.y + r.h {
                    inside += Self.clippedLength(a, b, r, shrink: 2)
                }
                return inside > 1
            }
            if hit { through += 1 }
        }
        // crossings and shared runs: pieces of two edges with no common end node
        var runs: [Int64: Double] = [:]
        // end nodes as numbers, so comparing two pieces copies no strings
        var number: [String: Int] = [:]
        for e in pic.edges {
            for id in [e.source, e.target] where number[id] == nil { number[id] = number.count }
        }
        let endIDs = pic.edges.map { (number[$0.source]!, number[$0.target]!) }
        grid.forEachNearPair { p, q in
            let e = endIDs[p.edge], f = endIDs[q.edge]
            guard e.0 != f.0 && e.0 != f.1 && e.1 != f.0 && e.1 != f.1 else { return }
            if Self.proper(p.a, p.b, q.a, q.b) { crossings += 1 }
            let o = Self.collinearOverlap(p.a, p.b, q.a, q.b)
            if o > 0 { runs[Int64(min(p.edge, q.edge)) << 32 | Int64(max(p.edge, q.edge)), default: 0] += o }
        }
        sharedRuns = runs.values.filter { $0 > 5 }.count
        // merged arrowheads: two edges into one node ending < 3 px apart
        var byTarget: [String: [(Double, Double)]] = [:]
        for e in pic.edges { if let end = e.points.last { byTarget[e.target, default: []].append(end) } }
        for ends in byTarget.values {
            for i in 0..<ends.count {
                for j in (i + 1)..<ends.count where abs(ends[i].0 - ends[j].0) < 3 && abs(ends[i].1 - ends[j].1) < 3 {
                    mergedHeads += 1
                }
            }
        }
        // labels
        for l in pic.labels {
            var overNode = false
            nodeGrid.forEachCell(l.x, l.y, l.x + l.w, l.y + l.h) { k in
                for i in nodeCells[k] ?? [] where !overNode {
                    let n = boxes[i]
                    overNode = l.x < n.x + n.w && n.x < l.x + l.w && l.y < n.y + n.h && n.y < l.y + l.h
                }
            }
            if overNode { labelOverNode += 1 }
            let crossing = grid.edgesNear(l.x, l.y, l.w, l.h).filter { e in
                let pts = pic.edges[e].points
                return zip(pts, pts.dropFirst()).contains { Self.clippedLength($0.0, $0.1, l, shrink: 0) > 0 }
            }
            if crossing.count > 1 { labelCrossed += 1 }
        }
        labelOverLabel = Self.overlappingPairs(pic.labels, slack: 0)
        let area = pic.canvas.w * pic.canvas.h
        ink = area > 0 ? (boxes.reduce(0) { $0 + $1.w * $1.h } / area * 10_000).rounded() / 10_000 : 0
    }

    /// Pairs of boxes that overlap by more than `slack` in both directions (sweep along x).
    static func overlappingPairs(_ boxes: [DrawnPicture.Box], slack: Double) -> Int {
        let sorted = boxes.sorted { $0.x < $1.x }
        var count = 0
        for i in 0..<sorted.count {
            let a = sorted[i]
            var j = i + 1
            while j < sorted.count && sorted[j].x < a.x + a.w - slack {
                let b = sorted[j]
                if a.x < b.x + b.w - slack && a.y < b.y + b.h - slack && b.y < a.y + a.h - slack { count += 1 }
                j += 1
            }
        }
        return count
    }

    /// Length of the piece a–b inside the box shrunk by `shrink` on every side (Liang–Barsky).
    static func clippedLength(_ a: (Double, Double), _ b: (Double, Double), _ r: DrawnPicture.Box, shrink: Double) -> Double {
        let x = r.x + shrink, y = r.y + shrink, w = r.w - 2 * shrink, h = r.h - 2 * shrink
        guard w > 0, h > 0 else { return 0 }
        let dx = b.0 - a.0, dy = b.1 - a.1
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.0 - x), (dx, x + w - a.0), (-dy, a.1 - y), (dy, y + h - a.1)] {
            if p == 0 {
                if q < 0 { return 0 }
            } else {
                let t = q / p
                if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            }
        }
        return max(0, t1 - t0) * (dx * dx + dy * dy).squareRoot()
    }

    /// Whether a–b and c–d cross at one point inside both (touching does not count).
    static func proper(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double)) -> Bool {
        func cr(_ o: (Double, Double), _ p: (Double, Double), _ q: (Double, Double)) -> Double {
            (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0)
        }
        let d1 = cr(c, d, a), d2 = cr(c, d, b), d3 = cr(a, b, c), d4 = cr(a, b, d)
        return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0)) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0
    }

    /// How long two horizontal (or two vertical) pieces less than 1 px apart run together.
    static func collinearOverlap(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ d: (Double, Double)) -> Double {
        if abs(a.1 - b.1) < 0.01 && abs(c.1 - d.1) < 0.01 && abs(a.1 - c.1) < 1 {
            return max(0, min(max(a.0, b.0), max(c.0, d.0)) - max(min(a.0, b.0), min(c.0, d.0)))
        }
        if abs(a.0 - b.0) < 0.01 && abs(c.0 - d.0) < 0.01 && abs(a.0 - c.0) < 1 {
            return max(0, min(max(a.1, b.1), max(c.1, d.1)) - max(min(a.1, b.1), min(c.1, d.1)))
        }
        return 0
    }
}
