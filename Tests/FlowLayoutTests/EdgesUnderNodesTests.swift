import FlowCore
@testable import FlowLayout
import TestSupport
import Testing

/// `EdgesUnderNodes` counts the routes that pass under a node other than their ends.
@Suite struct EdgesUnderNodesTests {
    /// Three boxes in a row: a at the left, b in the middle, c at the right.
    private let boxes = [Rect(x: 0, y: 0, width: 40, height: 20), Rect(x: 100, y: 0, width: 40, height: 20),
                         Rect(x: 200, y: 0, width: 40, height: 20)]

    @Test func aRouteThroughAThirdBoxCounts() {
        let through = DrawnCrossings.Route(source: 0, target: 2, points: [Point(20, 10), Point(220, 10)])
        #expect(EdgesUnderNodes.count(routes: [through], boxes: boxes) == 1)
        // around b: below it, touching nothing
        let around = DrawnCrossings.Route(
            source: 0, target: 2, points: [Point(20, 20), Point(20, 40), Point(220, 40), Point(220, 20)])
        #expect(EdgesUnderNodes.count(routes: [around], boxes: boxes) == 0)
        // along b's bottom side: touching is not passing under
        let along = DrawnCrossings.Route(source: 0, target: 2, points: [Point(20, 20), Point(220, 20)])
        #expect(EdgesUnderNodes.count(routes: [along], boxes: boxes) == 0)
        // its own ends' boxes do not count
        let own = DrawnCrossings.Route(source: 0, target: 1, points: [Point(20, 10), Point(120, 10)])
        #expect(EdgesUnderNodes.count(routes: [own, through], boxes: boxes) == 1)
    }

    /// Random segments against random boxes agree with a fine sampling of the segment.
    @Test(arguments: [UInt64(1), 2, 3])
    func agreesWithSampling(seed: UInt64) {
        var r = TestSupport.SplitMix64(seed: seed)
        func coordinate() -> Double { Double(r.next() % 400) }
        var met = 0, missedBySampling = 0
        for _ in 0..<300 {
            let box = Rect(x: coordinate(), y: coordinate(), width: Double(10 + r.next() % 80), height: Double(10 + r.next() % 40))
            let p = Point(coordinate(), coordinate()), q = Point(coordinate(), coordinate())
            let steps = 4000
            let sampled = (1..<steps).contains { k in
                let t = Double(k) / Double(steps)
                let x = p.x + (q.x - p.x) * t, y = p.y + (q.y - p.y) * t
                return x > box.origin.x + 1e-6 && x < box.origin.x + box.size.width - 1e-6
                    && y > box.origin.y + 1e-6 && y < box.origin.y + box.size.height - 1e-6
            }
            let exact = EdgesUnderNodes.meetsInside(p, q, box)
            #expect(!sampled || exact, "\(p) \(q) \(box)")
            if exact { met += 1 }
            // sampling can step over a piece that only cuts a corner
            if exact && !sampled { missedBySampling += 1 }
        }
        #expect(met > 10)
        #expect(missedBySampling <= 2)
    }
}
