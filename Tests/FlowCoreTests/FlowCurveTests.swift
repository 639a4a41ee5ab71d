import FlowCore
import TestSupport
import Testing

/// The default (bezier) drawing of an edge whose bend points run along the flow, as a
/// layout's routes do (`FlowCurve`): it passes through every point and between two points
/// stays between their sideways offsets, so it keeps to the route's lanes.
@Suite struct FlowCurveTests {
    /// Points on the drawn path, each curve piece sampled.
    private func samples(_ path: EdgePath) -> [Point] {
        path.points(atFractions: (0...400).map { Double($0) / 400 }).map(\.point)
    }

    @Test func aCurveAlongTheFlowStaysBetweenItsPoints() {
        var r = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let n = 1 + r.below(6)
            var y = 0.0
            var route: [Point] = []
            for _ in 0..<n {
                y += r.uniform(5, 80)
                route.append(Point(r.uniform(-200, 200), y))
            }
            let source = Point(r.uniform(-200, 200), 0), target = Point(r.uniform(-200, 200), y + r.uniform(5, 80))
            let path = BezierPath().path(
                from: source, sourcePosition: .bottom, through: route, to: target, targetPosition: .top)
            let all = [source] + route + [target]
            for p in samples(path) {
                // the piece of the route at this height
                guard let k = all.indices.dropFirst().first(where: { all[$0].y >= p.y - 1e-9 }) else { continue }
                let lo = min(all[k - 1].x, all[k].x), hi = max(all[k - 1].x, all[k].x)
                #expect(p.x >= lo - 1e-6 && p.x <= hi + 1e-6, "\(p) outside \(all[k - 1])...\(all[k])")
            }
        }
    }

    @Test func curvesOverOneStretchCrossOnlyWhereTheirRoutesDo() {
        // two routes through the same heights that never swap sides: their curves do not meet
        let a = [Point(0, 0), Point(10, 50), Point(200, 100), Point(210, 150)]
        let b = [Point(20, 0), Point(150, 50), Point(215, 100), Point(400, 150)]
        func draw(_ p: [Point]) -> [Point] {
            samples(BezierPath().path(
                from: p[0], sourcePosition: .bottom, through: Array(p[1..<(p.count - 1)]), to: p[p.count - 1],
                targetPosition: .top))
        }
        let ca = draw(a), cb = draw(b)
        // at every height the first lies left of the second
        for p in ca {
            guard let q = cb.min(by: { abs($0.y - p.y) < abs($1.y - p.y) }), abs(q.y - p.y) < 0.5 else { continue }
            #expect(p.x < q.x, "\(p) \(q)")
        }
    }

    @Test func otherBendPointsKeepTheSmoothCurve() {
        // a bend point beside both ends (not along the flow): the curve through it as before
        let path = BezierPath().path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(-100, -50)], to: Point(0, 100),
            targetPosition: .top)
        // it still passes through the point, which lies behind the source
        #expect(samples(path).contains { abs($0.x + 100) < 1 && abs($0.y + 50) < 1 })
    }
}
