import FlowCore

/// Long edges drawn as straight as their layers let them. Coordinates keep a long edge's
/// dummies in one line across the layers (`Coordinates` weighs the runs between dummies
/// most), so the edge drops straight down and makes its whole sideways run in the first and
/// last gap. Here each dummy may leave that line: where the edge crosses the top and the
/// bottom of the dummy's layer, it moves within the room the dummy's neighbours in the layer
/// leave it (with their spacing), so that the edge takes the shortest way between its ends
/// (or its label) through those rooms: straight where nothing is in the way, turning only
/// at what is.
///
/// Only where the edge crosses each layer's top and bottom moves, and never past a
/// neighbour, so every layer keeps its order at both lines: the drawn crossings between
/// layers stay exactly the same, no route enters a node, and the drawing keeps its width.
/// Edges are taken in order, each against its neighbours as already placed, so the result
/// depends on the input alone.
struct StraightRoutes {
    let graph: ProperGraph
    let layers: [[Int]]
    let x: [Double]
    /// Where each layer's band starts and ends across the layers.
    let bandTop: [Double], bandBottom: [Double]
    let separation: (Int, Int) -> Double
    /// With groups, the span each vertex's route may take in its layer among the boxes
    /// (`ClusterLayout.walls`): a route beside a group stays outside its frame, one inside
    /// stays in.
    var walls: [ClosedRange<Double>]? = nil

    /// For every vertex, where its route crosses the top and the bottom of its layer (a
    /// real vertex, or a dummy of an edge not straightened, keeps its `x` at both).
    /// `straight[i]` says whether edge `i` may run across its layers.
    func place(straight: [Bool]) -> (top: [Double], bottom: [Double]) {
        var top = x, bottom = x
        var position = Array(repeating: 0, count: graph.count)
        for layer in layers { for (i, v) in layer.enumerated() { position[v] = i } }
        var probe = WorkLimitProbe(stride: 64)  // past the limit the layout fails (nothing to keep)
        for (i, chain) in graph.chains.enumerated() where straight[i] && chain.count > 2 && graph.chainOwner[i] == i {
            if probe.shouldStop() { break }
            // anchors: the ends and the label's vertex, which keep their places
            var anchors = [0]
            if graph.labelVertex[i] >= 0, let k = chain.firstIndex(of: graph.labelVertex[i]) { anchors.append(k) }
            anchors.append(chain.count - 1)
            for (a, b) in zip(anchors, anchors.dropFirst()) where b - a > 1 {
                let from = exit(chain[a], edge: i), to = entry(chain[b], edge: i)
                let dummies = Array(chain[(a + 1)..<b])
                // two points per dummy, where the edge crosses the top and the bottom of its
                // layer, each with the room its neighbours there leave it
                var ys: [Double] = [], rooms: [ClosedRange<Double>] = []
                for d in dummies {
                    let l = graph.layer[d], p = position[d]
                    let left = p > 0 ? layers[l][p - 1] : nil
                    let right = p + 1 < layers[l].count ? layers[l][p + 1] : nil
                    func room(_ at: [Double]) -> ClosedRange<Double> {
                        var low = left.map { at[$0] + separation($0, d) } ?? -Double.infinity
                        var high = right.map { at[$0] - separation(d, $0) } ?? Double.infinity
                        if let wall = walls?[d] {
                            low = max(low, wall.lowerBound)
                            high = min(high, wall.upperBound)
                        }
                        // the dummy's own place always fits; keep it when rounding says otherwise
                        return min(low, x[d])...max(high, x[d])
                    }
                    ys += [bandTop[l], bandBottom[l]]
                    rooms += [room(top), room(bottom)]
                }
                let xs = StraightRoutes.taut(from: from, to: to, ys: ys, rooms: rooms)
                for (j, d) in dummies.enumerated() {
                    top[d] = xs[2 * j]
                    bottom[d] = xs[2 * j + 1]
                }
            }
        }
        return (top, bottom)
    }

    /// The shortest route from `from` to `to` through a point at each height `ys[k]` (not
    /// decreasing, all between the ends' heights) whose x lies within `rooms[k]`: the x of
    /// those points. It runs straight wherever it can and bends only at the end of a room.
    ///
    /// From each bend (the start first) the directions that pass every room so far narrow
    /// down, room by room; when a room lies wholly to one side of them, the route bends at
    /// the room that bounded that side, at its end, and goes on from there. Points at one
    /// height (a layer with no depth) share the room both allow.
    static func taut(from: Point, to: Point, ys: [Double], rooms: [ClosedRange<Double>]) -> [Double] {
        // one gate per height
        var gateY: [Double] = [], gateRoom: [ClosedRange<Double>] = [], gateOf: [Int] = []
        for (k, y) in ys.enumerated() {
            if let last = gateY.last, last == y {
                let r = gateRoom[gateRoom.count - 1]
                let low = max(r.lowerBound, rooms[k].lowerBound), high = min(r.upperBound, rooms[k].upperBound)
                if low <= high { gateRoom[gateRoom.count - 1] = low...high }
            } else {
                gateY.append(y)
                gateRoom.append(rooms[k])
            }
            gateOf.append(gateY.count - 1)
        }
        var gateX = Array(repeating: 0.0, count: gateY.count)
        var apex = from, start = 0
        while start < gateY.count {
            var lowSlope = -Double.infinity, highSlope = Double.infinity
            var lowGate = -1, highGate = -1
            var bend: Point? = nil, bendGate = -1
            for k in start...gateY.count {
                let target = k == gateY.count
                let dy = (target ? to.y : gateY[k]) - apex.y
                if dy <= 0 {
                    // level with the bend (no room between the layers): step across there
                    if !target {
                        bendGate = k
                        bend = Point(apex.x.clamped(to: gateRoom[k]), gateY[k])
                    }
                    break
                }
                let lo = ((target ? to.x : gateRoom[k].lowerBound) - apex.x) / dy
                let hi = ((target ? to.x : gateRoom[k].upperBound) - apex.x) / dy
                if lo > highSlope {
                    bendGate = highGate
                    bend = Point(gateRoom[highGate].upperBound, gateY[highGate])
                    break
                }
                if hi < lowSlope {
                    bendGate = lowGate
                    bend = Point(gateRoom[lowGate].lowerBound, gateY[lowGate])
                    break
                }
                if !target {
                    if lo > lowSlope { lowSlope = lo; lowGate = k }
                    if hi < highSlope { highSlope = hi; highGate = k }
                }
            }
            let end = bend ?? to, last = bend == nil ? gateY.count - 1 : bendGate
            for k in start...last {
                gateX[k] = StraightRoutes.line(apex, end, at: gateY[k]).clamped(to: gateRoom[k])
            }
            if bend == nil { break }
            apex = end
            start = bendGate + 1
        }
        return gateOf.map { gateX[$0] }
    }

    /// The bend point in the middle of edge `i` when it joins neighbouring layers and the
    /// plain Bézier curve (control points `max(50, 0.4·d)` out along the handle sides, `d`
    /// the edge's length) would reach more than one and a half times past its other end, or
    /// past it at all while running sideways more than half the gap (such a curve turns
    /// back against the flow in the middle and runs across flat, where a neighbour's curve
    /// meets it several times; a small sideways step stays a plain curve): halfway across,
    /// in the middle of the gap between the two layers (not between the two boxes, which a
    /// deeper neighbour of either may reach).
    func middle(of i: Int) -> Point? {
        let chain = graph.chains[i]
        guard chain.count == 2 else { return nil }
        let owner = graph.chainOwner[i]  // a shared chain's segments are its owner's
        let a = exit(chain[0], edge: owner), b = entry(chain[1], edge: owner)
        let reach = max(50, 0.4 * a.distance(to: b))
        let gap = b.y - a.y, sideways = abs(b.x - a.x)
        guard reach > 1.5 * gap || (reach > gap && sideways > gap / 2) else { return nil }
        let gapMiddle = (bandBottom[graph.layer[chain[0]]] + bandTop[graph.layer[chain[1]]]) / 2
        return Point((a.x + b.x) / 2, gapMiddle)
    }

    /// Where edge `i` leaves vertex `v` downwards: the bottom of its box, at its port (the
    /// edge's own segment, so edges between the same two nodes keep their own ports).
    private func exit(_ v: Int, edge i: Int) -> Point {
        let port = graph.down[v].first { graph.segments[$0].edge == i }.map { graph.segments[$0].upperPort } ?? 0
        return Point(x[v] + port * graph.breadth[v], centre(v) + graph.depth[v] / 2)
    }

    /// Where edge `i` enters vertex `v` from above: the top of its box, at its port.
    private func entry(_ v: Int, edge i: Int) -> Point {
        let port = graph.up[v].first { graph.segments[$0].edge == i }.map { graph.segments[$0].lowerPort } ?? 0
        return Point(x[v] + port * graph.breadth[v], centre(v) - graph.depth[v] / 2)
    }

    private func centre(_ v: Int) -> Double {
        (bandTop[graph.layer[v]] + bandBottom[graph.layer[v]]) / 2
    }

    /// The x of the line from `a` to `b` at height `y`.
    private static func line(_ a: Point, _ b: Point, at y: Double) -> Double {
        b.y == a.y ? a.x : a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y)
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
