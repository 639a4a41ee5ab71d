import FlowCore

/// Stepped ends: the stepped routes (`smoothStep`, and `orthogonal` when the layout routes
/// it) come into their target along the flow, in a last leg straight into the handle. When
/// several come into one side of one node those legs lie on one line and end at one point:
/// one arrowhead for several edges, and nobody can tell which came in. Each gets a point of
/// its own along the side instead (a port, as the curves get in `spreadPorts`), in the order
/// their legs come from across the flow, and its last leg moves over to it: the run across
/// the flow before it ends there instead. An edge that comes straight in (no run across
/// the flow, or hardly any) keeps the middle when the others fit around it.
extension LayoutPlan {
    /// Gives the stepped edges among `edges` that end on one node side points of their own
    /// along it (see above). Runs before `spreadTracks`, which then puts the moved runs on
    /// tracks.
    mutating func spreadSteppedEnds(_ edges: [FlowEdge]) {
        var sides: [PortSide: [SteppedEnd]] = [:]
        for e in edges where e.pathType == .smoothStep || e.pathType == .orthogonal {
            guard let route = routes[e.id], let b = index[e.targetNodeID] else { continue }
            let (s, t) = ends(e)
            guard t.side != .center, let room = portRoom(b, t.side) else { continue }
            let full = [s.point] + route + [t.point]
            let n = full.count
            // the last leg runs along the flow into the handle: its start lies in line with it
            let q = full[n - 2]
            guard t.side.across(q) == t.side.across(t.point), along(q, t.side) != along(t.point, t.side) else { continue }
            let straight = n == 2
            // the run across the flow before the last leg, from where the edge comes
            if !straight && along(full[n - 3], t.side) != along(q, t.side) { continue }
            let from = straight ? t.side.across(t.point) : t.side.across(full[n - 3])
            let middle = t.side.across(t.point)
            // runs from one side: the one that turns farther out takes the outer end, so the
            // nearer one's run does not cross its leg (where they come from does not matter)
            let far = abs(along(q, t.side) - along(t.point, t.side))
            let nest = from >= middle ? -far : far
            let group = from < middle - 0.5 ? 0 : from > middle + 0.5 ? 2 : 1
            sides[PortSide(node: b, side: t.side, room: room), default: []].append(
                SteppedEnd(edge: e.id, group: group, key: from, nest: nest, source: t.side.across(s.point),
                           lean: abs(from - middle), start: s.point))
        }
        for (side, list) in sides where list.count > 1 {
            let sorted = list.sorted {
                ($0.group, $0.nest, $0.key, $0.source, $0.edge) < ($1.group, $1.nest, $1.key, $1.source, $1.edge)
            }
            var gap = min(LayoutPlan.portGap, side.room / Double(sorted.count - 1))
            if gap < LayoutPlan.minimumPortGap, let wide = crowdedRoom(side.node, side.side) {
                gap = min(LayoutPlan.minimumPortGap, wide / Double(sorted.count - 1))
            }
            guard gap >= LayoutPlan.crowdedPortGap else { continue }
            // the end that comes (nearly) straight in keeps the middle
            let nearest = sorted.indices.min { (sorted[$0].lean, $0) < (sorted[$1].lean, $1) }!
            let anchor = sorted[nearest].lean < gap / 2 ? nearest : nil
            let offsets = LayoutPlan.steppedOffsets(count: sorted.count, anchor: anchor, gap: gap, room: side.room)
            let frame = newFrame(side.node), shape = shapes[side.node]
            for (end, offset) in zip(sorted, offsets) {
                let port = shape.portPoint(side.side, offset: offset, in: frame)
                routes[end.edge] = movedEnd(routes[end.edge]!, from: end.start, to: port, side: side.side)
            }
        }
    }

    /// Offsets along a side for `count` ends in order, `gap` apart around the middle, or
    /// shifted so the end at `anchor` keeps the middle when all still fit within `room`.
    static func steppedOffsets(count: Int, anchor: Int?, gap: Double, room: Double) -> [Double] {
        var shift = Double(count - 1) / 2
        if let k = anchor, Double(k) * gap <= room / 2 + 1e-9, Double(count - 1 - k) * gap <= room / 2 + 1e-9 {
            shift = Double(k)
        }
        return (0..<count).map { gap * (Double($0) - shift) }
    }

    /// `route` (without its ends, from `start`) with its last leg moved across the flow to
    /// end at `port` on `side`: the run before it now ends in line with the port, or, for a
    /// route that comes straight in, a step halfway along the last leg.
    private func movedEnd(_ route: [Point], from start: Point, to port: Point, side: HandlePosition) -> [Point] {
        let horizontal = side == .top || side == .bottom
        func moved(_ p: Point) -> Point { horizontal ? Point(port.x, p.y) : Point(p.x, port.y) }
        var out = route
        if let q = route.last {
            out[out.count - 1] = moved(q)
        } else {
            // straight in: step across halfway between the start and the side
            let m = (along(start, side) + along(port, side)) / 2
            let a = horizontal ? Point(start.x, m) : Point(m, start.y)
            out = [a, moved(a)]
        }
        return Array(LayoutPlan.simplified([start] + out + [port]).dropFirst())
    }

    /// Where `p` lies along the flow into `side` (across the side's line).
    private func along(_ p: Point, _ side: HandlePosition) -> Double {
        side == .top || side == .bottom ? p.y : p.x
    }
}

/// One stepped edge's end at a node side, ordered along it by `group` (its run across the
/// flow comes from before the handle, 0, from beyond it, 2, or there is hardly any, 1),
/// then `nest` (runs from one side nest: the one whose last leg is longer goes outside),
/// then `key` (where the run comes from), then `source` (where its source lies).
struct SteppedEnd {
    var edge: String
    var group: Int
    var key: Double
    var nest: Double
    var source: Double
    /// How far across the flow the run comes from the handle's line (0: straight in).
    var lean: Double
    var start: Point
}
