import Testing

@testable import FlowCore

@Suite struct EdgePathTests {}

// MARK: - Helpers (evaluated independently of FlowCore's curve code)

extension EdgePathTests {
    fileprivate static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-4) -> Bool {
        abs(a - b) <= tolerance
    }

    fileprivate static func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-4) -> Bool {
        close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
    }

    fileprivate static func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
        close(a.origin, b.origin, tolerance) && close(a.width, b.width, tolerance)
            && close(a.height, b.height, tolerance)
    }

    /// A piece of a path as its control points (1: a lone point, 2: line, 3: quad, 4: cubic).
    fileprivate struct Piece {
        var points: [Point]

        /// de Casteljau evaluation.
        func at(_ t: Double) -> Point {
            func lerp(_ a: Point, _ b: Point) -> Point {
                Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
            }
            switch points.count {
            case 1: return points[0]
            case 2: return lerp(points[0], points[1])
            case 3: return lerp(lerp(points[0], points[1]), lerp(points[1], points[2]))
            default:
                let a = lerp(points[0], points[1])
                let b = lerp(points[1], points[2])
                let c = lerp(points[2], points[3])
                return lerp(lerp(a, b), lerp(b, c))
            }
        }
    }

    fileprivate static func pieces(of path: EdgePath) -> [Piece] {
        var result: [Piece] = []
        var current: Point?
        for segment in path.segments {
            switch (segment, current) {
            case (.move(let p), _): result.append(Piece(points: [p]))
            case (.line(let p), let s?): result.append(Piece(points: [s, p]))
            case (.quad(let q, let p), let s?): result.append(Piece(points: [s, q, p]))
            case (.cubic(let a, let b, let p), let s?): result.append(Piece(points: [s, a, b, p]))
            default: result.append(Piece(points: [segment.endPoint]))
            }
            current = segment.endPoint
        }
        return result
    }

    /// Minimum of `f` over t in [0, 1]: dense samples, then every sampled local minimum (the
    /// first sample of a plateau) refined by ternary search.
    fileprivate static func minimize(_ f: (Double) -> Double, samples n: Int = 200) -> Double {
        let values = (0...n).map { f(Double($0) / Double(n)) }
        var best = values.min() ?? .infinity
        for i in 0...n
        where (i == 0 || values[i] < values[i - 1]) && (i == n || values[i] <= values[i + 1]) {
            var lo = Double(max(i - 1, 0)) / Double(n)
            var hi = Double(min(i + 1, n)) / Double(n)
            for _ in 0..<80 {
                let m1 = lo + (hi - lo) / 3
                let m2 = hi - (hi - lo) / 3
                if f(m1) < f(m2) { hi = m2 } else { lo = m1 }
            }
            best = min(best, f((lo + hi) / 2))
        }
        return best
    }

    fileprivate static func bruteDistance(_ path: EdgePath, to p: Point) -> Double {
        pieces(of: path).map { piece in minimize { piece.at($0).distance(to: p) } }.min()
            ?? .infinity
    }

    fileprivate static func rectDistance(_ r: Rect, _ p: Point) -> Double {
        let dx = max(r.minX - p.x, 0, p.x - r.maxX)
        let dy = max(r.minY - p.y, 0, p.y - r.maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    fileprivate static func bruteDistance(_ path: EdgePath, to r: Rect) -> Double {
        pieces(of: path).map { piece in minimize({ rectDistance(r, piece.at($0)) }, samples: 100) }
            .min() ?? .infinity
    }

    /// The extreme coordinates of the curve: (minX, minY, maxX, maxY).
    fileprivate static func bruteExtremes(_ path: EdgePath) -> (Double, Double, Double, Double) {
        let all = pieces(of: path)
        func extreme(_ f: @escaping (Point) -> Double) -> Double {
            all.map { piece in minimize { f(piece.at($0)) } }.min() ?? .infinity
        }
        return (extreme { $0.x }, extreme { $0.y }, -extreme { -$0.x }, -extreme { -$0.y })
    }

    fileprivate static func kinds(_ path: EdgePath) -> String {
        path.segments.map { segment in
            switch segment {
            case .move: return "M"
            case .line: return "L"
            case .quad: return "Q"
            case .cubic: return "C"
            }
        }.joined()
    }
}

// MARK: - Worked examples of store-semantics §8

extension EdgePathTests {
    @Suite struct WorkedExamples {
        @Test func bezierRightToLeft() {
            let path = BezierPath().path(
                from: Point(0, 0), sourcePosition: .right, to: Point(200, 100),
                targetPosition: .left)
            let c = 0.4 * Point(200, 100).distance(to: .zero)
            #expect(close(c, 89.4427))
            guard case .cubic(let c1, let c2, let end) = path.segments[1] else {
                Issue.record("expected a cubic, got \(path.segments)")
                return
            }
            #expect(path.segments.count == 2 && path.segments[0] == .move(Point(0, 0)))
            #expect(close(c1, Point(89.4427, 0)))
            #expect(close(c2, Point(110.5573, 100)))
            #expect(end == Point(200, 100))
            #expect(close(path.labelPosition, Point(100, 50), 1e-9))
            #expect(path.labelAngle == 0)
            #expect(path.svgPathData == "M 0 0 C 89.443 0 110.557 100 200 100")
        }

        @Test func bezierBottomToTop() {
            let path = BezierPath().path(
                from: Point(0, 0), sourcePosition: .bottom, to: Point(100, 200),
                targetPosition: .top)
            #expect(close(path.labelPosition, Point(50, 100), 1e-9))
            #expect(path.labelAngle == 0)
        }

        @Test func bezierMinimumCurvature() {
            let path = BezierPath().path(
                from: Point(0, 0), sourcePosition: .bottom, to: Point(30, 40), targetPosition: .top)
            #expect(
                path.segments[1]
                    == .cubic(control1: Point(0, 50), control2: Point(30, -10), to: Point(30, 40)))
        }

        @Test func straight() {
            let path = StraightPath().path(
                from: Point(0, 0), sourcePosition: .right, to: Point(200, 100),
                targetPosition: .left)
            #expect(path.segments == [.move(Point(0, 0)), .line(Point(200, 100))])
            #expect(path.labelPosition == Point(100, 50))
            #expect(close(path.labelAngle, 0.463648, 1e-6))
            #expect(path.svgPathData == "M 0 0 L 200 100")
        }

        @Test func straightAngleOfCoincidentPoints() {
            let path = StraightPath().path(
                from: Point(5, 5), sourcePosition: .top, to: Point(5, 5), targetPosition: .top)
            #expect(path.labelAngle == 0)
            #expect(path.labelPosition == Point(5, 5))
        }

        @Test func simpleBezier() {
            let path = SimpleBezierPath().path(
                from: Point(0, 0), sourcePosition: .right, to: Point(200, 100),
                targetPosition: .left)
            #expect(close(0.25 * Point(200, 100).distance(to: .zero), 55.9017))
            guard case .quad(let q, let end) = path.segments[1] else {
                Issue.record("expected a quad, got \(path.segments)")
                return
            }
            #expect(close(q, Point(155.9017, 50)))
            #expect(end == Point(200, 100))
            #expect(close(path.labelPosition, Point(127.9508, 50)))
            #expect(path.labelAngle == 0)
            #expect(path.svgPathData == "M 0 0 Q 155.902 50 200 100")
        }

        @Test(arguments: HandlePosition.allCases)
        func simpleBezierIgnoresTargetSide(_ targetSide: HandlePosition) {
            let reference = SimpleBezierPath().path(
                from: Point(0, 0), sourcePosition: .bottom, to: Point(80, 60), targetPosition: .top)
            let path = SimpleBezierPath().path(
                from: Point(0, 0), sourcePosition: .bottom, to: Point(80, 60),
                targetPosition: targetSide)
            #expect(path == reference)
            #expect(path.segments[1] == .quad(control: Point(40, 60), to: Point(80, 60)))  // c = max(30, 25)
        }

        @Test func smoothStepRightToLeft() {
            let path = SmoothStepPath().path(
                from: Point(0, 0), sourcePosition: .right, to: Point(200, 100),
                targetPosition: .left)
            let expected: [PathSegment] = [
                .move(Point(0, 0)), .line(Point(15, 0)),
                .quad(control: Point(20, 0), to: Point(25, 0)),
                .line(Point(95, 0)), .quad(control: Point(100, 0), to: Point(100, 5)),
                .line(Point(100, 95)), .quad(control: Point(100, 100), to: Point(105, 100)),
                .line(Point(175, 100)), .quad(control: Point(180, 100), to: Point(185, 100)),
                .line(Point(200, 100)),
            ]
            #expect(path.segments == expected)
            #expect(path.labelPosition == Point(100, 50))
            #expect(path.labelAngle == 0)
            #expect(
                path.svgPathData
                    == "M 0 0 L 15 0 Q 20 0 25 0 L 95 0 Q 100 0 100 5 L 100 95 Q 100 100 105 100 L 175 100 Q 180 100 185 100 L 200 100"
            )
        }

        @Test func smoothStepRightToTopLabelIsOffThePath() {
            let path = SmoothStepPath().path(
                from: Point(0, 0), sourcePosition: .right, to: Point(200, 100), targetPosition: .top
            )
            #expect(path.labelPosition == Point(110, 40))
            let expected: [PathSegment] = [
                .move(Point(0, 0)), .line(Point(15, 0)),
                .quad(control: Point(20, 0), to: Point(25, 0)),
                .line(Point(195, 0)), .quad(control: Point(200, 0), to: Point(200, 5)),
                .line(Point(200, 75)), .quad(control: Point(200, 80), to: Point(200, 85)),
                .line(Point(200, 100)),
            ]
            #expect(path.segments == expected)
            #expect(close(path.distance(to: path.labelPosition), 40, 1e-9))
        }

        @Test func smoothStepCenterHandlesUseLinesForZeroLengthLegs() {
            let path = SmoothStepPath().path(
                from: Point(0, 0), sourcePosition: .center, to: Point(100, 50),
                targetPosition: .center)
            #expect(
                path.svgPathData
                    == "M 0 0 L 0 0 L 0 20 Q 0 25 5 25 L 95 25 Q 100 25 100 30 L 100 50 L 100 50")
            #expect(path.labelPosition == Point(50, 25))
        }

        @Test func smoothStepShortLegsShrinkTheRadius() {
            // Both vertical, 6 apart horizontally: the middle leg is 6 long, so r = 3 there.
            let path = SmoothStepPath().path(
                from: Point(0, 0), sourcePosition: .bottom, to: Point(6, 100), targetPosition: .top)
            #expect(
                path.svgPathData
                    == "M 0 0 L 0 15 Q 0 20 0 25 L 0 47 Q 0 50 3 50 L 3 50 Q 6 50 6 53 L 6 75 Q 6 80 6 85 L 6 100"
            )
        }

        @Test func smoothStepCustomRadiusAndOffset() {
            let path = SmoothStepPath(borderRadius: 0, offset: 10).path(
                from: Point(0, 0), sourcePosition: .right, to: Point(100, 40), targetPosition: .left
            )
            #expect(
                path.svgPathData
                    == "M 0 0 L 10 0 Q 10 0 10 0 L 50 0 Q 50 0 50 0 L 50 40 Q 50 40 50 40 L 90 40 Q 90 40 90 40 L 100 40"
            )
            let negative = SmoothStepPath(borderRadius: -3).path(
                from: Point(0, 0), sourcePosition: .right, to: Point(100, 40), targetPosition: .left
            )
            let zero = SmoothStepPath(borderRadius: 0).path(
                from: Point(0, 0), sourcePosition: .right, to: Point(100, 40), targetPosition: .left
            )
            #expect(negative == zero)
        }

        @Test func calculatorsOfPathTypes() {
            let s = Point(3, 4)
            let t = Point(-120, 250)
            let expected: [(EdgePathType, any EdgePathCalculator)] = [
                (.bezier, BezierPath()), (.straight, StraightPath()),
                (.smoothStep, SmoothStepPath()), (.simpleBezier, SimpleBezierPath()),
            ]
            for (type, calculator) in expected {
                let a = type.calculator.path(
                    from: s, sourcePosition: .left, to: t, targetPosition: .bottom)
                let b = calculator.path(
                    from: s, sourcePosition: .left, to: t, targetPosition: .bottom)
                #expect(a == b, "\(type)")
            }
        }
    }
}

// MARK: - SVG path data

extension EdgePathTests {
    @Suite struct SVGPathData {
        @Test(arguments: [
            (0.0, "0"), (-0.0, "0"), (-0.0004, "0"), (0.0004, "0"), (-0.0006, "-0.001"),
            (0.1 + 0.2, "0.3"), (89.44271909999159, "89.443"), (1.5, "1.5"), (-1.25, "-1.25"),
            (1234567.891, "1234567.891"), (2.0006, "2.001"), (-7, "-7"), (99.9996, "100"),
            (0.0125, "0.013"), (-0.0125, "-0.013"), (1e20, "1e+20"),
        ])
        func numbers(_ value: Double, _ text: String) {
            #expect(svgNumber(value) == text)
        }

        @Test func everyCommand() {
            let path = EdgePath(
                segments: [
                    .move(Point(1, 2)), .line(Point(3, 4)),
                    .quad(control: Point(5, 6), to: Point(7, 8)),
                    .cubic(control1: Point(9, 10), control2: Point(11, 12), to: Point(13, 14)),
                    .move(Point(-1, -2)), .line(Point(0.5, -0.25)),
                ],
                labelPosition: .zero)
            #expect(
                path.svgPathData == "M 1 2 L 3 4 Q 5 6 7 8 C 9 10 11 12 13 14 M -1 -2 L 0.5 -0.25")
        }

        @Test func degenerateAndEmptyPaths() {
            #expect(EdgePath(segments: [], labelPosition: .zero).svgPathData == "")
            // A drawing segment without a current point is written (and measured) as a move.
            #expect(
                EdgePath(segments: [.line(Point(3, 4)), .line(Point(5, 4))], labelPosition: .zero)
                    .svgPathData == "M 3 4 L 5 4")
        }

        @Test func nonFiniteNumbersDoNotTrap() {
            let path = EdgePath(
                segments: [.move(Point(.nan, .infinity)), .line(Point(-.infinity, 1e300))],
                labelPosition: .zero)
            #expect(path.svgPathData == "M nan inf L -inf 1e+300")
        }
    }
}

// MARK: - Bounds, distance, hit testing, rectangle proximity

extension EdgePathTests {
    @Suite struct Measuring {
        private let horizontal = StraightPath().path(
            from: Point(0, 25), sourcePosition: .right, to: Point(100, 25), targetPosition: .left)

        /// store-semantics §6: a straight edge along y = 25 with the default tolerance 5.
        @Test func hitToleranceAlongAStraightEdge() {
            #expect(horizontal.hitTest(Point(50, 29.9), tolerance: 5))
            #expect(!horizontal.hitTest(Point(50, 30.1), tolerance: 5))
            #expect(horizontal.hitTest(Point(50, 20.1), tolerance: 5))
            #expect(!horizontal.hitTest(Point(50, 30), tolerance: 5))  // strict
            #expect(close(horizontal.distance(to: Point(50, 29.9)), 4.9, 1e-12))
        }

        /// Butt caps: beyond an end point the distance is to the end point.
        @Test func beyondTheEndPoints() {
            #expect(horizontal.distance(to: Point(103, 29)) == 5)
            #expect(!horizontal.hitTest(Point(103, 29), tolerance: 5))
            #expect(horizontal.hitTest(Point(104.9, 25), tolerance: 5))
            #expect(!horizontal.hitTest(Point(105, 25), tolerance: 5))
            #expect(horizontal.hitTest(Point(-3, 21.1), tolerance: 5))
        }

        @Test func zeroLengthSegments() {
            let dot = EdgePath(
                segments: [.move(Point(10, 10)), .line(Point(10, 10))], labelPosition: .zero)
            #expect(dot.distance(to: Point(13, 14)) == 5)
            #expect(dot.bounds == Rect(10, 10, 0, 0))
            let cubic = EdgePath(
                segments: [
                    .move(Point(10, 10)),
                    .cubic(control1: Point(10, 10), control2: Point(10, 10), to: Point(10, 10)),
                ],
                labelPosition: .zero)
            #expect(close(cubic.distance(to: Point(13, 14)), 5, 2e-3))
            #expect(cubic.hitTest(Point(13, 14), tolerance: 5.001))
            #expect(!cubic.hitTest(Point(13, 14), tolerance: 5))
            #expect(cubic.bounds == Rect(10, 10, 0, 0))
            let quad = EdgePath(
                segments: [.move(Point(1, 1)), .quad(control: Point(1, 1), to: Point(1, 1))],
                labelPosition: .zero)
            #expect(close(quad.distance(to: Point(1, 2)), 1, 2e-3))
        }

        @Test func loneMovesArePoints() {
            let path = EdgePath(segments: [.move(Point(5, 5))], labelPosition: .zero)
            #expect(path.distance(to: Point(8, 9)) == 5)
            #expect(path.bounds == Rect(5, 5, 0, 0))
            #expect(path.comesWithin(1, of: Rect(6, 5, 3, 3)))
        }

        @Test func emptyPath() {
            let path = EdgePath(segments: [], labelPosition: .zero)
            #expect(path.bounds == .zero)
            #expect(path.distance(to: .zero) == .infinity)
            #expect(!path.hitTest(.zero, tolerance: 100))
            #expect(!path.comesWithin(100, of: Rect(0, 0, 10, 10)))
            #expect(path.startPoint == nil && path.endPoint == nil)
        }

        /// A cubic whose control points lie on one line but overshoot both end points.
        @Test func collinearCubicWithOvershoot() {
            let path = BezierPath().path(
                from: Point(0, 0), sourcePosition: .right, to: Point(-100, 0), targetPosition: .left
            )
            let (minX, minY, maxX, maxY) = bruteExtremes(path)
            let bounds = path.bounds
            #expect(bounds.height == 0 && minY == 0 && maxY == 0)
            #expect(close(bounds.minX, minX, 1e-6) && close(bounds.maxX, maxX, 1e-6))
            #expect(bounds.minX < -100 && bounds.maxX > 0)
            #expect(close(path.distance(to: Point(bounds.maxX + 3, 4)), 5, 2e-3))
            #expect(path.hitTest(Point(bounds.maxX, 4.99), tolerance: 5))
            #expect(!path.hitTest(Point(bounds.maxX + 0.01, 5), tolerance: 5))
            #expect(path.comesWithin(1, of: Rect(bounds.maxX + 0.999, -5, 10, 10)))
            #expect(!path.comesWithin(1, of: Rect(bounds.maxX + 1.001, -5, 10, 10)))
        }

        /// An edge is inside a selection rectangle when its path comes within 1 of it (D22).
        @Test func rectangleProximity() {
            #expect(horizontal.comesWithin(1, of: Rect(40, 26, 10, 10)))  // exactly 1: closed
            #expect(!horizontal.comesWithin(1, of: Rect(40, 26.01, 10, 10)))
            #expect(horizontal.comesWithin(1, of: Rect(40, 0, 10, 50)))  // crosses
            #expect(horizontal.comesWithin(1, of: Rect(-10, -10, 200, 200)))  // contains
            #expect(horizontal.comesWithin(1, of: Rect(101, 20, 5, 10)))  // beyond the end, 1 away
            #expect(!horizontal.comesWithin(1, of: Rect(101.5, 20, 5, 10)))
            #expect(horizontal.comesWithin(1, of: Rect(50, 24, 0, 0)))  // a point
            #expect(horizontal.comesWithin(1, of: Rect(60, 30, -20, -4.5)))  // negative size: (40, 25.5)…
            #expect(!horizontal.comesWithin(1, of: Rect(60, 31, -20, -4.5)))  // (40, 26.5)… 1.5 away
            #expect(horizontal.comesWithin(1, of: Rect(101, 26, 2, 2)) == false)  // corner at √2
            #expect(horizontal.comesWithin(1.5, of: Rect(101, 26, 2, 2)))
        }

        @Test func curveNearARectangleCorner() {
            let path = BezierPath().path(
                from: Point(0, 0), sourcePosition: .right, to: Point(200, 100),
                targetPosition: .left)
            // The label point (100, 50) is on the curve.
            #expect(path.comesWithin(1, of: Rect(100, 50, 10, 10)))
            #expect(path.comesWithin(0, of: Rect(99, 49, 2, 2)))
            #expect(!path.comesWithin(1, of: Rect(0, 60, 40, 40)))
            let d = bruteDistance(path, to: Rect(0, 60, 40, 40))
            #expect(path.comesWithin(d + 1e-6, of: Rect(0, 60, 40, 40)))
            #expect(!path.comesWithin(d - 1e-6, of: Rect(0, 60, 40, 40)))
        }

        @Test func nonFiniteGeometryDoesNotTrap() {
            let path = EdgePath(
                segments: [
                    .move(Point(.nan, 0)),
                    .cubic(
                        control1: Point(.infinity, 1), control2: Point(2, .nan), to: Point(3, 3)),
                    .quad(control: Point(-.infinity, 0), to: Point(4, 4)),
                ],
                labelPosition: .zero)
            _ = path.bounds
            _ = path.distance(to: Point(1, 1))
            _ = path.hitTest(Point(1, 1), tolerance: 5)
            _ = path.comesWithin(1, of: Rect(0, 0, 1, 1))
            _ = path.svgPathData
            let normal = horizontal
            #expect(!normal.hitTest(Point(.nan, 25), tolerance: 5))
            #expect(!normal.comesWithin(.nan, of: Rect(0, 0, 1, 1)))
            #expect(normal.hitTest(Point(50, 1000), tolerance: .infinity))
        }
    }
}

// MARK: - Every path type over every pair of handle sides

extension EdgePathTests {
    struct SidePair: Sendable, CustomTestStringConvertible {
        var source: HandlePosition
        var target: HandlePosition
        var testDescription: String { "\(source)→\(target)" }

        static let all = HandlePosition.allCases.flatMap { s in
            HandlePosition.allCases.map { SidePair(source: s, target: $0) }
        }
    }
}

extension EdgePathTests {
    @Suite struct EverySidePair {
        static let endPoints: [(Point, Point)] = [
            (Point(0, 0), Point(200, 100)), (Point(0, 0), Point(-150, 80)),
            (Point(40, 300), Point(40, 10)),
            (Point(10, 10), Point(10, 10)), (Point(0, 0), Point(3, -2)),
            (Point(-500.5, 20.25), Point(300, 20.25)),
        ]

        @Test(arguments: EdgePathType.allCases, SidePair.all)
        func structure(_ type: EdgePathType, _ sides: SidePair) {
            for (s, t) in Self.endPoints {
                let path = type.calculator.path(
                    from: s, sourcePosition: sides.source, to: t, targetPosition: sides.target)
                #expect(path.segments.first == .move(s))
                #expect(path.segments.last?.endPoint == t)
                #expect(path.startPoint == s && path.endPoint == t)
                switch type {
                case .bezier: #expect(kinds(path) == "MC")
                case .straight: #expect(kinds(path) == "ML")
                case .simpleBezier: #expect(kinds(path) == "MQ")
                case .smoothStep: checkSmoothStep(path, s, t, sides, radius: 5)
                case .orthogonal: _ = checkRuns(path, s, radius: 6)
                }
            }
        }

        /// The polyline of the §8 table, rounded as specified.
        private func checkSmoothStep(_ path: EdgePath, _ s: Point, _ t: Point, _ sides: SidePair, radius: Double) {
            let s1 = s + sides.source.direction * 20
            let t1 = t + sides.target.direction * 20
            let midX = (s1.x + t1.x) / 2
            let midY = (s1.y + t1.y) / 2
            let middle: [Point]
            switch (sides.source.isHorizontal, sides.target.isHorizontal) {
            case (true, true): middle = [Point(midX, s1.y), Point(midX, t1.y)]
            case (false, false): middle = [Point(s1.x, midY), Point(t1.x, midY)]
            case (true, false): middle = [Point(t1.x, s1.y)]
            case (false, true): middle = [Point(s1.x, t1.y)]
            }
            let vertices = [s, s1] + middle + [t1, t]
            var expected = "M"
            var controls: [Point] = []
            for i in 1..<(vertices.count - 1) {
                let zeroLeg = vertices[i] == vertices[i - 1] || vertices[i] == vertices[i + 1]
                expected += zeroLeg ? "L" : "LQ"
                if !zeroLeg { controls.append(vertices[i]) }
            }
            expected += "L"
            #expect(kinds(path) == expected)
            #expect(path.labelPosition == Point(midX, midY) && path.labelAngle == 0)
            #expect(checkRuns(path, s, radius: radius) == controls)
        }

        /// Checks that every line of `path` (from `s`) is horizontal or vertical and every
        /// curve a rounded corner of at most `radius`; returns the corners.
        private func checkRuns(_ path: EdgePath, _ s: Point, radius: Double) -> [Point] {
            var current = s
            var seenControls: [Point] = []
            for segment in path.segments.dropFirst() {
                switch segment {
                case .line(let p):
                    #expect(
                        p.x == current.x || p.y == current.y,
                        "line \(current) → \(p) is not orthogonal")
                case .quad(let q, let p):
                    seenControls.append(q)
                    #expect(close(q.distance(to: current), q.distance(to: p), 1e-9))
                    #expect(q.distance(to: current) <= radius + 1e-9)
                default:
                    Issue.record("unexpected segment \(segment)")
                }
                current = segment.endPoint
            }
            return seenControls
        }

        @Test(arguments: EdgePathType.allCases, SidePair.all)
        func tightBounds(_ type: EdgePathType, _ sides: SidePair) {
            for (s, t) in Self.endPoints {
                let path = type.calculator.path(
                    from: s, sourcePosition: sides.source, to: t, targetPosition: sides.target)
                let b = path.bounds
                let (minX, minY, maxX, maxY) = bruteExtremes(path)
                // Contains every point of the curve …
                #expect(b.minX <= minX + 1e-9 && b.minY <= minY + 1e-9, "\(s)→\(t): \(b)")
                #expect(b.maxX >= maxX - 1e-9 && b.maxY >= maxY - 1e-9, "\(s)→\(t): \(b)")
                // … and each side is touched by the curve.
                #expect(minX - b.minX <= 1e-6 && minY - b.minY <= 1e-6, "\(s)→\(t): \(b)")
                #expect(b.maxX - maxX <= 1e-6 && b.maxY - maxY <= 1e-6, "\(s)→\(t): \(b)")
                #expect(b.width >= 0 && b.height >= 0)
            }
        }

        @Test(arguments: EdgePathType.allCases, SidePair.all)
        func distanceMatchesBruteForce(_ type: EdgePathType, _ sides: SidePair) {
            for (s, t) in Self.endPoints {
                let path = type.calculator.path(
                    from: s, sourcePosition: sides.source, to: t, targetPosition: sides.target)
                for p in queryPoints(path) {
                    let expected = bruteDistance(path, to: p)
                    let actual = path.distance(to: p)
                    #expect(
                        abs(actual - expected) <= 0.01,
                        "\(s)→\(t) at \(p): \(actual) vs \(expected)")
                    for tolerance in [1.0, 5.0, 25.0] where abs(expected - tolerance) > 1e-6 {
                        #expect(
                            path.hitTest(p, tolerance: tolerance) == (expected < tolerance),
                            "\(p) within \(tolerance)")
                    }
                }
            }
        }

        @Test(arguments: EdgePathType.allCases, SidePair.all)
        func rectangleProximityMatchesBruteForce(_ type: EdgePathType, _ sides: SidePair) {
            for (s, t) in Self.endPoints {
                let path = type.calculator.path(
                    from: s, sourcePosition: sides.source, to: t, targetPosition: sides.target)
                for p in queryPoints(path) {
                    for size in [Size(7, 3), Size(-12, 20)] {
                        let rect = Rect(origin: p, size: size)
                        let expected = bruteDistance(path, to: rect.standardized)
                        guard abs(expected - 1) > 1e-6 else { continue }
                        #expect(
                            path.comesWithin(1, of: rect) == (expected <= 1), "\(rect): \(expected)"
                        )
                    }
                }
            }
        }

        /// A grid over the bounds grown by 30, the end points, the label, and points just off the
        /// curve.
        private func queryPoints(_ path: EdgePath) -> [Point] {
            let area = path.bounds.insetBy(dx: -30, dy: -30)
            var points: [Point] = [path.labelPosition, path.startPoint!, path.endPoint!]
            for i in 0...5 {
                for j in 0...5 {
                    points.append(
                        Point(
                            area.minX + area.width * Double(i) / 5,
                            area.minY + area.height * Double(j) / 5))
                }
            }
            for piece in pieces(of: path) where piece.points.count > 1 {
                for t in [0.3, 0.5, 0.9] { points.append(piece.at(t) + Point(0.7, -4.2)) }
            }
            return points
        }
    }
}

// MARK: - EdgeGeometry

extension EdgePathTests {
    @Suite struct Geometry {
        @Test func fieldsComeFromThePath() {
            let g = EdgeGeometry(
                sourcePoint: Point(0, 0), sourcePosition: .right, targetPoint: Point(200, 100),
                targetPosition: .left,
                calculator: SmoothStepPath())
            #expect(
                g.path
                    == SmoothStepPath().path(
                        from: Point(0, 0), sourcePosition: .right, to: Point(200, 100),
                        targetPosition: .left))
            #expect(g.labelPosition == Point(100, 50) && g.labelAngle == 0)
            #expect(g.bounds == g.path.bounds && g.bounds == Rect(0, 0, 200, 100))
            #expect(g.sourcePoint == Point(0, 0) && g.targetPoint == Point(200, 100))
            #expect(g.sourcePosition == .right && g.targetPosition == .left)
            let byType = EdgeGeometry(
                sourcePoint: Point(0, 0), sourcePosition: .right, targetPoint: Point(200, 100),
                targetPosition: .left,
                pathType: .smoothStep)
            #expect(byType == g)
        }

        /// store-semantics §13: straight edge between centres (50, 30) and (350, 130).
        @Test func selectionFrameOfAStraightEdge() {
            let g = EdgeGeometry(
                sourcePoint: Point(50, 30), sourcePosition: .center, targetPoint: Point(350, 130),
                targetPosition: .center,
                pathType: .straight)
            #expect(g.selectionFrame == Rect(49, 29, 302, 102))
            #expect(close(g.labelAngle, 0.321751, 1e-6))
        }

        @Test func selectionFrameWithZeroHeightBoundsUsesTheEndPoints() {
            let line = EdgeGeometry(
                sourcePoint: Point(0, 10), sourcePosition: .right, targetPoint: Point(100, 10),
                targetPosition: .left,
                pathType: .straight)
            #expect(line.selectionFrame == Rect(-1, 9, 102, 2))
            // The bezier overshoots both ends along y = 0, but its bounds have no height.
            let overshoot = EdgeGeometry(
                sourcePoint: Point(100, 0), sourcePosition: .right, targetPoint: Point(0, 0),
                targetPosition: .left,
                pathType: .bezier)
            #expect(overshoot.bounds.height == 0 && overshoot.bounds.width > 100)
            #expect(overshoot.selectionFrame == Rect(-1, -1, 102, 2))
        }

        @Test func selectionFrameIncludesTheCurve() {
            let g = EdgeGeometry(
                sourcePoint: Point(0, 0), sourcePosition: .bottom, targetPoint: Point(100, 0),
                targetPosition: .bottom,
                pathType: .bezier)
            // c = 50: both controls at y = 50, the curve reaches y = 37.5.
            #expect(close(g.bounds, Rect(0, 0, 100, 37.5)))
            #expect(close(g.selectionFrame, Rect(-1, -1, 102, 39.5)))
            let right = EdgeGeometry(
                sourcePoint: Point(0, 0), sourcePosition: .right, targetPoint: Point(200, 100),
                targetPosition: .left,
                pathType: .bezier)
            #expect(close(right.selectionFrame, Rect(-1, -1, 202, 102)))
        }

        @Test func hitTestingAndRectangleSelection() {
            let g = EdgeGeometry(
                sourcePoint: Point(0, 25), sourcePosition: .right, targetPoint: Point(100, 25),
                targetPosition: .left,
                pathType: .straight)
            #expect(g.hitTest(Point(50, 29.9), tolerance: 5))
            #expect(!g.hitTest(Point(50, 30.1), tolerance: 5))
            #expect(g.isInSelectionRect(Rect(40, 26, 10, 10)))
            #expect(!g.isInSelectionRect(Rect(40, 26.5, 10, 10)))
        }
    }
}
