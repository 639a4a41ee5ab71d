import FlowCore
@testable import FlowLayout
import TestSupport
import Testing

/// What keeps back-edge routing and iterated sifting cheap on big or wide graphs: the grid
/// of routes made (`RunGrid`) and the kicks' work bound (`CrossingSearch.Kicks.work`).
@Suite struct RouteCostTests {
    /// Random segments (short, long and diagonal; a few too big to file by cell) and random
    /// boxes: every segment whose bounds meet a box is reported for it, each once.
    @Test(arguments: [UInt64(1), 2, 3])
    func theGridReportsEachNearSegmentOnce(seed: UInt64) {
        var r = TestSupport.SplitMix64(seed: seed)
        func coordinate(_ range: UInt64) -> Double { Double(r.next() % range) - Double(range / 2) }
        var grid = RunGrid()
        var segments: [(Point, Point)] = []
        for k in 0..<400 {
            let a = Point(coordinate(2_000), coordinate(2_000))
            let b: Point
            switch k % 4 {
            case 0: b = Point(a.x + coordinate(300), a.y)
            case 1: b = Point(a.x, a.y + coordinate(300))
            case 2: b = Point(a.x + coordinate(200), a.y + coordinate(200))
            default: b = k % 40 == 3 ? Point(a.x + 5_000, a.y + 5_000) : Point(a.x + coordinate(40), a.y)
            }
            grid.append(a, b)
            segments.append((a, b))
        }
        for _ in 0..<200 {
            let lo = Point(coordinate(2_400), coordinate(2_400))
            let hi = Point(lo.x + Double(r.next() % 400), lo.y + Double(r.next() % 400))
            var seen: [Int: Int] = [:]
            grid.forEach(near: lo, hi) { a, b in
                let i = segments.firstIndex { $0.0 == a && $0.1 == b }!
                seen[i, default: 0] += 1
            }
            #expect(seen.values.allSatisfy { $0 == 1 })
            for (i, s) in segments.enumerated() {
                let meets = max(s.0.x, s.1.x) >= lo.x && min(s.0.x, s.1.x) <= hi.x
                    && max(s.0.y, s.1.y) >= lo.y && min(s.0.y, s.1.y) <= hi.y
                if meets { #expect(seen[i] == 1, "segment \(i) near \(lo)…\(hi) not reported") }
            }
        }
    }

    /// Two layers of `width` vertices with `edges` random edges between them.
    private func twoLayers(width: Int, edges: Int) -> Ordering {
        var r = TestSupport.SplitMix64(seed: 7)
        let pairs = (0..<edges).map { _ in (source: Int(r.next() % UInt64(width)), target: width + Int(r.next() % UInt64(width))) }
        let n = 2 * width
        let g = ProperGraph(
            ranks: (0..<n).map { $0 / width }, breadth: Array(repeating: 72, count: n),
            depth: Array(repeating: 36, count: n), edges: pairs,
            ports: Array(repeating: (0, 0), count: pairs.count), labels: Array(repeating: nil, count: pairs.count))
        return Ordering(graph: g)
    }

    /// Narrow layers get every kick; wide ones fewer, in proportion to a layer's sifting.
    @Test func wideLayersGetFewerKicks() {
        let normal = CrossingSearch.forGraph(vertices: 240, effort: .normal).kicks
        #expect(normal.count == 1)
        let narrow = twoLayers(width: 20, edges: 40)
        #expect(narrow.affordableKicks(normal[0], candidates: [0, 1]) == normal[0].count)
        let wide = twoLayers(width: 120, edges: 360)
        // each layer: 120 vertices, 360 segments
        #expect(wide.affordableKicks(normal[0], candidates: [0, 1]) == normal[0].work / (120 * 360))
        // a thorough search runs the normal kicks, then a longer run with a bound of its own
        let thorough = CrossingSearch.forGraph(vertices: 240, effort: .thorough).kicks
        #expect(thorough.count == 2 && thorough[0] == normal[0])
        #expect(wide.affordableKicks(thorough[1], candidates: [0, 1]) == thorough[1].work / (120 * 360))
        #expect(wide.affordableKicks(thorough[1], candidates: [0, 1]) > wide.affordableKicks(normal[0], candidates: [0, 1]))
        // graphs past a thousand vertices get kicks only when thorough
        #expect(CrossingSearch.forGraph(vertices: 1_001, effort: .normal).kicks.isEmpty)
        #expect(CrossingSearch.forGraph(vertices: 1_001, effort: .thorough).kicks.count == 1)
    }
}
