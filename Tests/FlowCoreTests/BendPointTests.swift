import TestSupport
import Testing

@testable import FlowCore

/// Edges with bend points (`FlowEdge.points`): the paths through them, geometry, queries,
/// documents, undo, validation and what moving nodes does to them.
@Suite struct BendPointTests {
    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
    static func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
    }

    /// The pieces of a path as (start, controls, end); moves are skipped.
    static func pieces(_ path: EdgePath) -> [(start: Point, controls: [Point], end: Point)] {
        var out: [(Point, [Point], Point)] = []
        var current: Point?
        for s in path.segments {
            switch (s, current) {
            case (.line(let p), let a?): out.append((a, [], p))
            case (.quad(let q, let p), let a?): out.append((a, [q], p))
            case (.cubic(let c1, let c2, let p), let a?): out.append((a, [c1, c2], p))
            default: break
            }
            current = s.endPoint
        }
        return out
    }

    static let types = EdgePathType.allCases
    static let sides: [HandlePosition] = HandlePosition.allCases

    // MARK: - Paths

    @Test(arguments: types)
    func withoutPointsEveryTypeDrawsItsPlainPath(type: EdgePathType) {
        let c = type.calculator
        for sp in Self.sides {
            for tp in Self.sides {
                let plain = c.path(from: Point(10, 20), sourcePosition: sp, to: Point(300, -40), targetPosition: tp)
                let through = c.path(
                    from: Point(10, 20), sourcePosition: sp, through: [], to: Point(300, -40), targetPosition: tp)
                #expect(plain == through)
            }
        }
    }

    @Test(arguments: types)
    func everyTypeStartsAtTheSourceAndEndsAtTheTarget(type: EdgePathType) {
        let points = [Point(100, 200), Point(250, 180), Point(260, 40)]
        for sp in Self.sides {
            for tp in Self.sides {
                let p = type.calculator.path(
                    from: Point(0, 0), sourcePosition: sp, through: points, to: Point(400, 100), targetPosition: tp)
                #expect(p.startPoint == Point(0, 0))
                #expect(p.endPoint == Point(400, 100))
                if type != .smoothStep && type != .orthogonal {
                    // Through every point exactly (smoothStep and orthogonal round the corners
                    // they turn at).
                    for q in points { #expect(p.distance(to: q) < 1e-9, "\(type) \(sp) \(tp) \(q)") }
                }
            }
        }
    }

    @Test func straightIsAPolylineWithItsLabelHalfwayAlong() {
        let p = StraightPath().path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(0, 100), Point(300, 100)],
            to: Point(300, 0), targetPosition: .top)
        #expect(p.segments == [.move(Point(0, 0)), .line(Point(0, 100)), .line(Point(300, 100)), .line(Point(300, 0))])
        #expect(p.svgPathData == "M 0 0 L 0 100 L 300 100 L 300 0")
        // Length 500: halfway is 150 along the middle run, which points right.
        #expect(Self.close(p.labelPosition, Point(150, 100)))
        #expect(p.labelAngle == 0)
        let up = StraightPath().path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(0, -10)], to: Point(0, -300),
            targetPosition: .top)
        #expect(Self.close(up.labelPosition, Point(0, -150)))
        #expect(Self.close(up.labelAngle, -Double.pi / 2))
    }

    @Test func smoothStepRunsAreHorizontalOrVertical() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let points = (0..<(1 + rng.below(4))).map { _ in
                Point(Double(rng.below(400)) - 200, Double(rng.below(400)) - 200)
            }
            let sp = rng.pick(Self.sides), tp = rng.pick(Self.sides)
            let s = Point(Double(rng.below(100)), 0), t = Point(300, Double(rng.below(100)))
            for radius in [0.0, 5] {
                let p = SmoothStepPath(borderRadius: radius).path(
                    from: s, sourcePosition: sp, through: points, to: t, targetPosition: tp)
                for piece in Self.pieces(p) {
                    if let corner = piece.controls.first {
                        // A rounded corner: both ends on a run through the corner's vertex.
                        #expect(piece.start.x == corner.x || piece.start.y == corner.y)
                        #expect(piece.end.x == corner.x || piece.end.y == corner.y)
                    } else {
                        #expect(piece.start.x == piece.end.x || piece.start.y == piece.end.y, "\(points)")
                    }
                }
                // The corner at a point cuts it by at most half the radius.
                for q in points { #expect(p.distance(to: q) <= radius / 2 + 1e-9, "\(points) \(sp) \(tp)") }
            }
        }
    }

    @Test func smoothStepWorkedExample() {
        // Source at a bottom handle, the point below and to the right: the run goes on down
        // first (S' = (0, 20), elbow (0, 100)); from the point it goes on right and comes
        // down into the top handle (elbow (200, 100), T' = (200, 280)). Vertices in line
        // with their neighbours (S', the point, T') turn nothing and are dropped.
        let rounded = SmoothStepPath().path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(100, 100)],
            to: Point(200, 300), targetPosition: .top)
        #expect(rounded.svgPathData == "M 0 0 L 0 95 Q 0 100 5 100 L 195 100 Q 200 100 200 105 L 200 300")
        // Length 100 + 200 + 200: halfway is 150 along the middle run.
        #expect(Self.close(rounded.labelPosition, Point(150, 100)))
        // Where the route must turn at the point, it does (radius 0: sharp corners).
        let sharp = SmoothStepPath(borderRadius: 0).path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(100, 100)],
            to: Point(300, 100), targetPosition: .top)
        var corners: [Point] = []
        for end in Self.pieces(sharp).map(\.end) where corners.last != end { corners.append(end) }
        #expect(corners == [Point(0, 100), Point(100, 100), Point(100, 80), Point(300, 80), Point(300, 100)])
        // A corner's radius is at most half its shorter run: 10 long here, so 5.
        let tight = SmoothStepPath(borderRadius: 50).path(
            from: Point(0, 0), sourcePosition: .right, through: [Point(40, 10)], to: Point(100, 10),
            targetPosition: .left)
        #expect(tight.svgPathData == "M 0 0 L 35 0 Q 40 0 40 5 L 40 5 Q 40 10 45 10 L 100 10")
    }

    @Test func elbows() {
        let e = SmoothStepPath.elbows
        // Going on along the run before beats turning...
        #expect(e(Point(0, 20), Point(100, 100), Point(0, 20), .zero) == [Point(0, 100)])
        #expect(e(Point(20, 0), Point(100, 100), Point(20, 0), .zero) == [Point(100, 0)])
        // ...but never by doubling back on it.
        #expect(e(Point(0, 20), Point(100, -100), Point(0, 20), .zero) == [Point(100, 20)])
        // The run after counts too: arrive along it.
        #expect(e(Point(0, 0), Point(100, 100), .zero, Point(0, 20)) == [Point(100, 0)])
        #expect(e(Point(0, 0), Point(100, 100), .zero, Point(20, 0)) == [Point(0, 100)])
        // No preference: horizontal first.
        #expect(e(Point(0, 0), Point(100, 100), .zero, .zero) == [Point(100, 0)])
        // Heading down, to arrive going down at a point above: one elbow would double back
        // either way, a zigzag through the middle does not.
        #expect(e(Point(0, 100), Point(200, 0), Point(0, 10), Point(0, 20)) == [Point(100, 100), Point(100, 0)])
        #expect(e(Point(100, 0), Point(0, 200), Point(10, 0), Point(10, 0)) == [Point(100, 100), Point(0, 100)])
    }

    @Test(arguments: [EdgePathType.bezier, .simpleBezier])
    func curvesAreSmoothThroughEveryPoint(type: EdgePathType) {
        let points = [Point(100, 200), Point(110, 210), Point(400, 180), Point(260, 40)]
        let p = type.calculator.path(
            from: Point(0, 0), sourcePosition: .bottom, through: points, to: Point(500, 100), targetPosition: .left)
        let pieces = Self.pieces(p)
        #expect(pieces.count == points.count + 1)
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            #expect(a.end == b.start)
            // One tangent on both sides of each point.
            let u = a.end - a.controls[1], v = b.controls[0] - b.start
            #expect(abs(u.x * v.y - u.y * v.x) < 1e-6 * (1 + abs(u.x * v.x + u.y * v.y)))
            #expect(u.x * v.x + u.y * v.y > 0)
        }
        // It leaves along the source side: first piece's chord 223.6, 0.4 of it for bezier
        // (max(50, …)), 0.25 for simpleBezier (max(30, …)).
        let d = Point(0, 0).distance(to: points[0])
        let reach = type == .bezier ? 0.4 * d : 0.25 * d
        #expect(Self.close(pieces[0].controls[0], Point(0, reach)))
        let last = pieces[pieces.count - 1]
        if type == .bezier {
            // ...and enters along the target side, left: from x − c.
            let dl = points[3].distance(to: Point(500, 100))
            #expect(Self.close(last.controls[1], Point(500 - 0.4 * dl, 100)))
        } else {
            // simpleBezier ignores the target side: it enters along the chord.
            #expect(Self.close(last.controls[1], Point(500, 100) + (points[3] - Point(500, 100)) / 3))
        }
        // Points that run along the flow (FlowCurve): each control point a third of its
        // piece along the flow, so a short first piece keeps it within its chord...
        let short = BezierPath().path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(0, 20)], to: Point(0, 400),
            targetPosition: .top)
        #expect(Self.close(Self.pieces(short)[0].controls[0], Point(0, 20.0 / 3)))
        // ...and a flat one reaches no further along the side than its first point does (0.4
        // of the chord would be 120 below a point 30 below), nor a flat last piece.
        let flat = BezierPath().path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(300, 30)], to: Point(600, 60),
            targetPosition: .top)
        #expect(Self.close(Self.pieces(flat)[0].controls[0], Point(0, 10)))
        #expect(Self.close(Self.pieces(flat)[1].controls[1], Point(600, 50)))
        // Points that do not run along the flow keep the reach rule: half a short chord.
        let back = BezierPath().path(
            from: Point(0, 0), sourcePosition: .bottom, through: [Point(0, 20), Point(40, 10)], to: Point(0, 400),
            targetPosition: .top)
        #expect(Self.pieces(back)[0].controls[0] == Point(0, 10))
        // Centre handles leave along the chord.
        let centred = BezierPath().path(
            from: Point(0, 0), sourcePosition: .center, through: [Point(30, 40)], to: Point(60, 0),
            targetPosition: .center)
        #expect(Self.close(Self.pieces(centred)[0].controls[0], Point(0, 0) + Point(0.6, 0.8) * (50.0 / 3)))
    }

    @Test func labelsSitHalfwayAlongCurves() {
        // A symmetric curve: halfway by length is its middle point, on the curve.
        for type in [EdgePathType.bezier, .simpleBezier] {
            let p = type.calculator.path(
                from: Point(0, 0), sourcePosition: .center, through: [Point(100, 100), Point(200, 0)],
                to: Point(300, 100), targetPosition: .center)
            let mid = Self.pieces(p)[1]
            #expect(Self.close(p.labelPosition, (mid.start + mid.controls[0] * 3 + mid.controls[1] * 3 + mid.end) / 8, 1e-6))
            #expect(p.labelAngle == 0)
            #expect(p.distance(to: p.labelPosition) < 1e-6)
        }
        // `halfway()` of a path without length, and of an empty one.
        #expect(EdgePath(segments: [.move(Point(3, 4)), .line(Point(3, 4))], labelPosition: .zero).halfway()! == (Point(3, 4), Point.zero))
        #expect(EdgePath(segments: [], labelPosition: .zero).halfway() == nil)
    }

    @Test func customCalculatorsIgnorePointsUnlessTheyTakeThem() throws {
        struct Chord: EdgePathCalculator {
            func path(from s: Point, sourcePosition: HandlePosition, to t: Point, targetPosition: HandlePosition) -> EdgePath {
                EdgePath(segments: [.move(s), .line(t)], labelPosition: s)
            }
        }
        struct Dots: EdgePathCalculator {
            func path(from s: Point, sourcePosition: HandlePosition, to t: Point, targetPosition: HandlePosition) -> EdgePath {
                EdgePath(segments: [.move(s), .move(t)], labelPosition: s)
            }
            func path(
                from s: Point, sourcePosition: HandlePosition, through points: [Point], to t: Point,
                targetPosition: HandlePosition
            ) -> EdgePath {
                EdgePath(segments: ([s] + points + [t]).map(PathSegment.move), labelPosition: s)
            }
        }
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 40))
        try s.addNode(node("b", 400, 0, 100, 40))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", points: [Point(250, 300)]))
        s.setPathCalculator(Chord(), for: .bezier)
        #expect(try s.edgeGeometry("e").path.svgPathData == "M 50 20 L 450 20")
        #expect(s.hitTestEdge(at: Point(250, 20)) != nil)
        s.setPathCalculator(Dots(), for: .bezier)
        #expect(try s.edgeGeometry("e").path.svgPathData == "M 50 20 M 250 300 M 450 20")
        #expect(try s.edgeGeometry("e").bounds == Rect(50, 20, 400, 280))
        #expect(s.checkInvariants() == [])
    }

    // MARK: - Geometry and queries in the store

    /// a and b side by side, e1 between their centres bent far below: (50, 20) → (250, 300)
    /// → (450, 20).
    static func bentStore(_ type: EdgePathType = .straight) throws -> Store {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 40))
        try s.addNode(node("b", 400, 0, 100, 40))
        try s.addEdge(FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "b", pathType: type, points: [Point(250, 300)]))
        return s
    }

    @Test func geometryHitTestingAndRectanglesFollowThePoints() throws {
        let s = try Self.bentStore()
        let g = try s.edgeGeometry("e1")
        #expect(g.points == [Point(250, 300)])
        #expect(g.path.svgPathData == "M 50 20 L 250 300 L 450 20")
        #expect(g.bounds == Rect(50, 20, 400, 280))
        #expect(Self.close(g.labelPosition, Point(250, 300)))
        // A point on the far run hits; the straight chord between the ends misses.
        #expect(s.hitTestEdge(at: Point(350, 160))?.id == "e1")
        #expect(s.hitTest(at: Point(350, 160)) == .edge("e1"))
        #expect(s.hitTestEdge(at: Point(250, 20)) == nil)
        #expect(try s.selectInRect(Rect(340, 150, 20, 20)))
        #expect(s.selectedEdgeIDs == ["e1"])
        #expect(try s.selectInRect(Rect(240, 10, 20, 20)) == true)  // deselects
        #expect(s.selectedEdgeIDs == [])
        // The edge index follows a change of the points.
        try s.updateEdge("e1") { $0.points = [] }
        #expect(s.hitTestEdge(at: Point(250, 20))?.id == "e1")
        #expect(s.hitTestEdge(at: Point(350, 160)) == nil)
        try s.undo()
        #expect(s.hitTestEdge(at: Point(350, 160))?.id == "e1")
        // ...and a move of one end (the points stay).
        try s.moveNode("b", to: Point(400, 400))
        #expect(try s.edgeGeometry("e1").path.svgPathData == "M 50 20 L 250 300 L 450 420")
        #expect(s.hitTestEdge(at: Point(350, 360))?.id == "e1")
        #expect(s.hitTestEdge(at: Point(350, 160)) == nil)
        #expect(s.checkInvariants() == [])
    }

    @Test func aStraightRunOfPointsKeepsItsWholeFrame() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0, 100, 40))
        try s.addNode(node("b", 0, 200, 100, 40))
        try s.addEdge(
            FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", pathType: .straight, points: [Point(50, -100)]))
        let g = try s.edgeGeometry("e")
        #expect(g.bounds == Rect(50, -100, 0, 320))
        // Zero width: without points the frame would be the end points only.
        #expect(g.selectionFrame == Rect(49, -101, 2, 322))
    }

    // MARK: - Documents

    @Test func documentsWritePointsOnlyWhenThereAreSome() throws {
        let s = try Self.bentStore()
        try s.addEdge(FlowEdge(id: "e2", sourceNodeID: "b", targetNodeID: "a"))
        let text = try s.export()
        #expect(
            text.contains(
                """
                      "pathType": "straight",
                      "points": [
                        [250, 300]
                      ],
                      "sourceNodeID": "a",
                """))
        #expect(text.ranges(of: "\"points\"").count == 1)
        // The writer's own layout, and back to the same document and bytes.
        #expect(try JSONValue.parse(text).serialized(sortedKeys: false) + "\n" == text)
        let back = Store()
        #expect(try back.load(json: text) == [])
        #expect(back.edge("e1")?.points == [Point(250, 300)])
        #expect(back.edge("e2")?.points == [])
        #expect(try back.export() == text)
        // A document written before points existed reads with none, and writes the same.
        let old = try FlowDocument<JSONValue>(
            nodes: [node("a"), node("b", 300)], edges: [edge("e", "a", "b")]
        ).encoded()
        #expect(!old.contains("points"))
        #expect(try back.load(json: old) == [])
        #expect(back.edges.map(\.points) == [[]])
        #expect(try back.export() == old)
    }

    @Test func badPointsInADocumentAreReportedWithTheirPlace() throws {
        let s = try Self.bentStore()
        let before = try s.export()
        var doc = s.document()
        doc.edges[0].points = [Point(1, 2), Point(.nan, 0)]
        #expect(throws: FlowError.invalidValue("load", "edge 'e1': points must be finite numbers (point 2 is (nan, 0))")) {
            try s.load(doc)
        }
        #expect(try s.export() == before)
        #expect(
            decodeError(before.replacing("[250, 300]", with: "[250]"))
                == "load: edges[0].points[0]: expected an array of 2 numbers")
        #expect(try s.export() == before)
    }

    // MARK: - Undo and validation

    @Test func undoRestoresTheDocumentByteForByte() throws {
        let s = try Self.bentStore(.smoothStep)
        let log = EventLog(s)
        let before = try s.export()
        #expect(try s.updateEdge("e1") { $0.points = [Point(1, 2), Point(3.25, -4)] })
        #expect(log.take() == ["E[replace(e1)]"])
        #expect(try !s.updateEdge("e1") { $0.points = [Point(1, 2), Point(3.25, -4)] })
        let after = try s.export()
        #expect(after != before)
        #expect(try s.undo())
        #expect(try s.export() == before)
        #expect(log.take() == ["E[replace(e1)]"])
        #expect(try s.redo())
        #expect(try s.export() == after)
        // Clearing them: no field is written.
        try s.updateEdge("e1") { $0.points = [] }
        #expect(!(try s.export()).contains("points"))
        #expect(s.checkInvariants() == [])
    }

    @Test func invalidPointsAreRejectedAndTheStoreStaysAsItWas() throws {
        let s = try Self.bentStore()
        let state = StoreState(s)
        let text = try s.export()
        let bad = FlowEdge(id: "e2", sourceNodeID: "a", targetNodeID: "b", points: [Point(0, 0), Point(.nan, 0)])
        #expect(throws: FlowError.invalidValue("addEdge", "points must be finite numbers (point 2 is (nan, 0))")) {
            try s.addEdge(bad)
        }
        #expect(throws: FlowError.invalidValue("updateEdge", "points must be finite numbers (point 1 is (inf, 0))")) {
            try s.updateEdge("e1") { $0.points = [Point(.infinity, 0)] }
        }
        #expect(throws: FlowError.invalidValue("updateEdges", "points must be finite numbers (point 1 is (0, -inf))")) {
            try s.updateEdges { $0.points = [Point(0, -.infinity)] }
        }
        let many = [Point](repeating: Point(1, 1), count: FlowEdge.maximumPointCount + 1)
        #expect(throws: FlowError.invalidValue("addEdge", "an edge has at most 10000 points (got 10001)")) {
            try s.addEdge(FlowEdge(id: "e3", sourceNodeID: "a", targetNodeID: "b", points: many))
        }
        try s.addEdge(FlowEdge(id: "e4", sourceNodeID: "a", targetNodeID: "b", points: Array(many.dropLast())))
        try s.undo()
        #expect(StoreState(s) == state)
        #expect(try s.export() == text)
        #expect(s.checkInvariants() == [])
    }

    @Test func copiesKeepThePoints() {
        let e = FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", points: [Point(1, 2)])
        #expect(e.withID("f").points == [Point(1, 2)])
        var other = e
        other.points = []
        #expect(!e.sameContent(as: other))
    }

    // MARK: - Moving nodes

    /// A container g holding a and b, a node c outside; e1 a→b, e2 a→c and a self-loop e3
    /// on c, each with one bend point.
    static func groupStore() throws -> Store {
        let s = Store()
        try s.addNode(node("g", 0, 0, 500, 400, container: true))
        try s.addNode(node("a", 10, 10, parent: "g"))
        try s.addNode(node("b", 300, 300, parent: "g"))
        try s.addNode(node("c", 700, 0))
        try s.addEdge(FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "b", points: [Point(100, 200)]))
        try s.addEdge(FlowEdge(id: "e2", sourceNodeID: "a", targetNodeID: "c", points: [Point(400, 50)]))
        try s.addEdge(FlowEdge(id: "e3", sourceNodeID: "c", targetNodeID: "c", points: [Point(900, -50)]))
        return s
    }

    @Test func movingBothEndsByOneDeltaMovesThePointsInTheSameStep() throws {
        let s = try Self.groupStore()
        let log = EventLog(s)
        let before = try s.export()
        #expect(try s.moveNode("g", to: Point(50, 20)))
        #expect(s.edge("e1")?.points == [Point(150, 220)])
        #expect(s.edge("e2")?.points == [Point(400, 50)])  // c did not move
        #expect(log.take() == ["N[position(g (50, 20)), position(a (60, 30)), position(b (350, 320))]", "E[replace(e1)]"])
        #expect(s.undoActionName == "Move")
        let after = try s.export()
        try s.undo()
        #expect(try s.export() == before)
        #expect(log.take() == ["N[position(g (0, 0)), position(a (10, 10)), position(b (300, 300))]", "E[replace(e1)]"])
        try s.redo()
        #expect(try s.export() == after)
        // One end alone: the points stay.
        #expect(try s.moveNode("a", to: Point(0, 0)))
        #expect(s.edge("e1")?.points == [Point(150, 220)])
        #expect(s.edge("e2")?.points == [Point(400, 50)])
        #expect(s.checkInvariants() == [])
    }

    @Test func aSelfLoopFollowsItsNode() throws {
        let s = try Self.groupStore()  // nobody listens: the quiet path must not skip the points
        #expect(try s.moveNode("c", to: Point(710, 5)))
        #expect(s.edge("e3")?.points == [Point(910, -45)])
        try s.undo()
        #expect(s.edge("e3")?.points == [Point(900, -50)])
        #expect(s.node("c")?.position == Point(700, 0))
    }

    @Test func subtreesRoundedDifferentlyStillCount() throws {
        let s = Store()
        try s.addNode(node("g", 0.1, 0, 500, 400, container: true))
        try s.addNode(node("a", 100.1, 0.7, parent: "g"))
        try s.addNode(node("b", 0.3, 300.3, parent: "g"))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b", points: [Point(1, 1)]))
        try s.moveNode("g", to: Point(0.3, 0.2))
        let a = try #require(s.node("a")), b = try #require(s.node("b"))
        #expect(a.position - Point(100.1, 0.7) != b.position - Point(0.3, 300.3))  // not exactly equal
        #expect(Self.close(s.edge("e")!.points[0], Point(1.2, 1.2), 1e-12))
    }

    @Test func setNodePositionsMovesPointsOnlyForOneCommonDelta() throws {
        let s = try Self.groupStore()
        try s.interaction.setNodePositions([("a", Point(20, 10)), ("b", Point(310, 300))])
        #expect(s.edge("e1")?.points == [Point(110, 200)])
        try s.interaction.setNodePositions([("a", Point(0, 0)), ("b", Point(0, 0))])
        #expect(s.edge("e1")?.points == [Point(110, 200)])
    }

    @Test func anOperationThatSetsThePointsKeepsThem() throws {
        let s = try Self.groupStore()
        try s.transaction {
            try s.moveNode("a", to: Point(20, 10))
            try s.moveNode("b", to: Point(310, 300))
            try s.updateEdge("e1") { $0.points = [Point(5, 5)] }
        }
        #expect(s.edge("e1")?.points == [Point(5, 5)])
        // A transaction of moves is one operation: the common delta counts once.
        try s.transaction {
            try s.moveNode("a", to: Point(25, 10))
            try s.moveNode("b", to: Point(315, 300))
        }
        #expect(s.edge("e1")?.points == [Point(10, 5)])
        try s.undo()
        #expect(s.edge("e1")?.points == [Point(5, 5)])
        // An edge added by the operation keeps its points too.
        try s.transaction {
            try s.addEdge(FlowEdge(id: "e9", sourceNodeID: "a", targetNodeID: "b", points: [Point(7, 7)]))
            try s.moveNode("g", to: Point(100, 100))
        }
        #expect(s.edge("e9")?.points == [Point(7, 7)])
        #expect(s.edge("e1")?.points == [Point(105, 105)])
    }

    @Test func aDragMovesThePointsWhenItEnds() throws {
        let s = try Self.groupStore()
        try s.selectNode("a")
        try s.selectNode("b", exclusive: false)
        let log = EventLog(s)
        #expect(try s.interaction.beginNodeDrag("a"))
        #expect(try s.interaction.updateNodeDrag(translation: Point(10, 20)))
        #expect(s.edge("e1")?.points == [Point(100, 200)])  // frames leave them
        #expect(try s.interaction.updateNodeDrag(translation: Point(30, 40)))
        _ = log.take()
        #expect(s.interaction.endNodeDrag())
        #expect(s.edge("e1")?.points == [Point(130, 240)])
        #expect(s.edge("e2")?.points == [Point(400, 50)])
        #expect(log.take() == ["E[replace(e1)]"])
        try s.undo()
        #expect(s.edge("e1")?.points == [Point(100, 200)])
        #expect(s.node("a")?.position == Point(10, 10))
        // A cancelled drag records nothing and leaves the points.
        #expect(try s.interaction.beginNodeDrag("a"))
        #expect(try s.interaction.updateNodeDrag(translation: Point(10, 20)))
        #expect(s.interaction.cancelNodeDrag())
        #expect(s.edge("e1")?.points == [Point(100, 200)])
        #expect(s.checkInvariants() == [])
    }

    @Test func dragFramesInATransactionDoNotCountTwice() throws {
        let s = try Self.groupStore()
        try s.selectNode("a")
        try s.selectNode("b", exclusive: false)
        #expect(try s.interaction.beginNodeDrag("a"))
        try s.transaction { try s.interaction.updateNodeDrag(translation: Point(10, 0)) }
        #expect(s.edge("e1")?.points == [Point(100, 200)])
        #expect(try s.interaction.updateNodeDrag(translation: Point(30, 0)))
        #expect(s.interaction.endNodeDrag())
        #expect(s.edge("e1")?.points == [Point(130, 200)])
        // The whole drag inside one transaction: once as well.
        try s.transaction {
            _ = try s.interaction.beginNodeDrag("a")
            _ = try s.interaction.updateNodeDrag(translation: Point(5, 0))
            _ = try s.interaction.updateNodeDrag(translation: Point(10, 0))
            _ = s.interaction.endNodeDrag()
        }
        #expect(s.edge("e1")?.points == [Point(140, 200)])
    }

    @Test func anAnimatedMoveMovesThePointsWhenItSettles() throws {
        let s = try Self.groupStore()
        try s.interaction.setNodePositions([("a", Point(110, 10)), ("b", Point(400, 300))], animation: .easeInOut(duration: 0.1))
        try s.interaction.tick(1.0 / 30)
        #expect(s.edge("e1")?.points == [Point(100, 200)])
        var ticks = 0
        while s.interaction.isAnimating && ticks < 100 {
            try s.interaction.tick(1.0 / 30)
            ticks += 1
        }
        #expect(s.node("a")?.position == Point(110, 10))
        #expect(s.edge("e1")?.points == [Point(200, 200)])
        try s.undo()
        #expect(s.edge("e1")?.points == [Point(100, 200)])
        #expect(s.node("b")?.position == Point(300, 300))
    }
}
