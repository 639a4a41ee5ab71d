import FlowCore

/// Ports: where several laid-out edges meet one side of a node, each gets its own point on
/// that side, spread along it in the order their routes leave (or arrive), so no two end
/// at one arrowhead and none cross next to the node. The port is the route's first (last)
/// point, on the node's outline (`NodeShape.portPoint`), which is where the edge then
/// attaches (`EdgeEnds.resolve`). Only the curved and straight path types get ports (the
/// stepped ones keep the handle's point, their runs start straight out of it), and only on
/// sides whose handle the layout placed (a node with the default handles).
extension LayoutPlan {
    /// Gives the edges in `edges` that share a node side ports along it (see above). The
    /// ends of the edges in `turned` attach by the sides given there instead of their
    /// handles' (back edges drawn facing their nodes): each gets a point on that side, a
    /// port or the side's middle.
    mutating func spreadPorts(_ edges: [FlowEdge], turned: [String: (source: HandlePosition, target: HandlePosition)] = [:]) {
        var sides: [PortSide: [PortEnd]] = [:]
        var starts: [Int: Point] = [:], finishes: [Int: Point] = [:]
        for (k, e) in edges.enumerated() where LayoutPlan.takesPorts(e.pathType) {
            guard let route = routes[e.id], let a = index[e.sourceNodeID], let b = index[e.targetNodeID]
            else { continue }
            let (s, t) = ends(e)
            let turn = turned[e.id]
            let sourceSide = turn?.source ?? s.side, targetSide = turn?.target ?? t.side
            if turn != nil {
                starts[k] = shapes[a].handlePoint(sourceSide, in: newFrame(a))
                finishes[k] = shapes[b].handlePoint(targetSide, in: newFrame(b))
            }
            if let room = portRoom(a, sourceSide) {
                sides[PortSide(node: a, side: sourceSide, room: room), default: []].append(
                    PortEnd(edge: k, isSource: true, key: sourceSide.across(route.first ?? t.point)))
            }
            if let room = portRoom(b, targetSide) {
                sides[PortSide(node: b, side: targetSide, room: room), default: []].append(
                    PortEnd(edge: k, isSource: false, key: targetSide.across(route.last ?? s.point)))
            }
        }
        for (side, list) in sides where list.count == 1 {
            // an end with no handle id attaches at the node's centre, under the node, where
            // its arrowhead would be hidden: it gets the port at the middle of the side the
            // route was laid out from
            let end = list[0], e = edges[end.edge]
            guard (end.isSource ? e.sourceHandleID : e.targetHandleID) == nil else { continue }
            let p = shapes[side.node].portPoint(side.side, offset: 0, in: newFrame(side.node))
            if end.isSource { starts[end.edge] = p } else { finishes[end.edge] = p }
        }
        for (side, list) in sides where list.count > 1 {
            let sorted = list.sorted { ($0.key, $0.edge, $0.isSource ? 0 : 1) < ($1.key, $1.edge, $1.isSource ? 0 : 1) }
            var gap = min(LayoutPlan.portGap, side.room / Double(sorted.count - 1))
            if gap < LayoutPlan.minimumPortGap, let wide = crowdedRoom(side.node, side.side) {
                gap = min(LayoutPlan.minimumPortGap, wide / Double(sorted.count - 1))
            }
            if gap < LayoutPlan.crowdedPortGap {
                // too many for the side: round its corners onto the neighbouring sides
                guard let points = fannedPorts(side, count: sorted.count) else { continue }
                for (i, end) in sorted.enumerated() {
                    if end.isSource { starts[end.edge] = points[i] } else { finishes[end.edge] = points[i] }
                }
                continue
            }
            let frame = newFrame(side.node), shape = shapes[side.node]
            for (i, end) in sorted.enumerated() {
                let p = shape.portPoint(side.side, offset: gap * (Double(i) - Double(sorted.count - 1) / 2), in: frame)
                if end.isSource { starts[end.edge] = p } else { finishes[end.edge] = p }
            }
        }
        for (k, e) in edges.enumerated() where starts[k] != nil || finishes[k] != nil {
            var route = routes[e.id]!
            if let p = starts[k] { route.insert(p, at: 0) }
            if let p = finishes[k] { route.append(p) }
            routes[e.id] = route
        }
    }

    /// Whether edges of `type` get ports.
    static func takesPorts(_ type: EdgePathType) -> Bool {
        type == .bezier || type == .straight || type == .simpleBezier
    }

    /// Ports on one side sit this far apart at most, spread evenly over the side's straight
    /// stretch when it is shorter; under the minimum apart they are not spread.
    static var portGap: Double { 16 }
    static var minimumPortGap: Double { 4 }
    /// On a side too crowded for the minimum, ports may spread over the whole stretch that
    /// still faces that way (`crowdedRoom`), down to this far apart.
    static var crowdedPortGap: Double { 3.5 }

    /// Whether the layout placed node `i`'s handles (a node with the default handles, or
    /// with those an earlier layout turned to face this flow), so its edges may end
    /// elsewhere on its outline.
    func placesHandles(_ i: Int) -> Bool {
        handles[nodes[i].id] != nil || HandleDeclaration.areDefaults(nodes[i].handles)
            || (inScope[i] && nodes[i].handles == LayoutPlan.flowHandles(direction))
    }

    /// How long a stretch of node `i`'s `side`, centred on its middle, ports may spread
    /// over: nil when the layout did not place the handle there (declared handles) or the
    /// shape has no room for them there (a hexagon's points, a cylinder's caps, …).
    func portRoom(_ i: Int, _ side: HandlePosition) -> Double? {
        guard side != .center, placesHandles(i) else { return nil }
        let f = newFrame(i)
        let horizontal = side == .top || side == .bottom
        let length = horizontal ? f.width : f.height
        switch shapes[i] {
        case .rounded, .rectangle, .note, .record, .mrecord, .plain, .msquare, .box3d, .component, .tab, .folder,
            .subroutine, .asymmetric:
            return max(0, length - 24)
        case .stadium where shapes[i].stadiumCap(side, in: f) == nil:
            return max(0, abs(f.width - f.height) - 8)
        case .stadium:
            // the middle half of the round cap
            return min(f.width, f.height) / 2
        case .hexagon where horizontal, .parallelogram where horizontal:
            return max(0, f.width / 2 - 8)
        case .parallelogram:
            // along the slant
            return f.height / 2
        case .cylinder where !horizontal:
            return max(0, f.height - 2 * NodeShape.cylinderCap(in: f) - 16)
        case .cylinder:
            // the middle half of the cap
            return f.width / 2
        case .document where !horizontal:
            return max(0, f.height - 2 * NodeShape.documentWave(in: f) - 16)
        case .document where side == .top:
            return max(0, length - 24)
        case .ellipse, .circle, .doublecircle:
            // the middle half of the side, where the curve still faces that way
            return (shapes[i] == .ellipse ? length : NodeShape.diameter(in: f)) / 2
        case .diamond, .mdiamond:
            // near the tip, on the two slants
            return length / 3
        case .house, .invhouse, .trapezium, .invtrapezium, .pentagon, .septagon, .octagon, .doubleoctagon,
            .tripleoctagon, .triangle, .invtriangle:
            // the middle third: on a side or near a point, as for a diamond
            return length / 3
        default:
            return nil
        }
    }
}

extension LayoutPlan {
    /// The longest stretch of node `i`'s `side` ports may spread over when the side is too
    /// crowded for `portRoom`: all of the side's straight stretch (a box), the quarter of
    /// the outline that faces that way (an ellipse, a circle, a diamond). Nil where
    /// `portRoom` is.
    func crowdedRoom(_ i: Int, _ side: HandlePosition) -> Double? {
        guard portRoom(i, side) != nil else { return nil }
        let f = newFrame(i)
        let horizontal = side == .top || side == .bottom
        let length = horizontal ? f.width : f.height
        switch shapes[i] {
        case .rounded, .note, .mrecord, .tab, .folder, .component: return max(0, length - 12)
        case .rectangle, .record, .plain, .msquare, .box3d, .subroutine, .asymmetric: return max(0, length - 4)
        case .parallelogram where !horizontal: return f.height * 0.8
        // the straight stretch of the top and bottom, short of the slants
        case .parallelogram: return max(0, f.width - 2 * NodeShape.skew(in: f))
        case .cylinder where !horizontal: return max(0, f.height - 2 * NodeShape.cylinderCap(in: f) - 4)
        case .cylinder: return f.width * 0.7
        case .document where !horizontal: return max(0, f.height - 2 * NodeShape.documentWave(in: f) - 4)
        case .stadium where shapes[i].stadiumCap(side, in: f) != nil: return min(f.width, f.height) * 0.7
        case .stadium: return max(0, abs(f.width - f.height))
        // the points of the quarter facing the side, short of its ends (0.7 < 1/sqrt 2)
        case .ellipse: return length * 0.7
        case .circle, .doublecircle: return NodeShape.diameter(in: f) * 0.7
        case .diamond, .mdiamond: return length * 0.48
        case .house, .invhouse, .trapezium, .invtrapezium, .pentagon, .septagon, .octagon, .doubleoctagon,
            .tripleoctagon, .triangle, .invtriangle:
            return length * 0.48
        default: return nil
        }
    }
}

extension LayoutPlan {
    /// Points for `count` ends on a side too crowded for them even at `crowdedPortGap`
    /// (many edges into one small node): `crowdedPortGap` apart, in order along the outline
    /// from the neighbouring side before it (top before left and right, left before top
    /// and bottom), round the corner, along the whole side, and round the other corner:
    /// the side's stretch, and as little of each neighbour's as the rest need, from its
    /// corner end (at most its half; all of it when only the other neighbour has a node
    /// close beyond it, `hasNeighbour`, and takes none). Each end then attaches by the side it
    /// lies on. Nil when even those have too little room.
    func fannedPorts(_ side: PortSide, count: Int) -> [Point]? {
        let s = side.side
        let horizontal = s == .top || s == .bottom
        let (before, after): (HandlePosition, HandlePosition) = horizontal ? (.left, .right) : (.top, .bottom)
        // offsets on the neighbours grow towards the facing side: up for top, left for left
        let sign: Double = s == .top || s == .left ? -1 : 1
        let facing = crowdedRoom(side.node, s) ?? 0
        // a neighbouring side with a node close beyond it has no room: the edges coming
        // round the corner would run through that node
        // (with nodes close beyond both, both are taken: a fan beats one arrowhead for all)
        let nearBefore = hasNeighbour(side.node, beyond: before), nearAfter = hasNeighbour(side.node, beyond: after)
        let blockedBefore = nearBefore && !nearAfter, blockedAfter = nearAfter && !nearBefore
        let halfBefore = blockedBefore ? 0 : (crowdedRoom(side.node, before) ?? 0) / 2
        let halfAfter = blockedAfter ? 0 : (crowdedRoom(side.node, after) ?? 0) / 2
        // with one neighbour blocked, the other may give all of its room, past its middle
        let mostBefore = blockedAfter ? 2 * halfBefore : halfBefore, mostAfter = blockedBefore ? 2 * halfAfter : halfAfter
        let step = LayoutPlan.crowdedPortGap
        let needed = step * Double(count - 1)
        // what the side lacks, half from each neighbour (the other's spare when one is short)
        let lack = max(0, needed - facing)
        var roomBefore = min(mostBefore, lack / 2), roomAfter = min(mostAfter, lack - roomBefore)
        roomBefore = min(mostBefore, lack - roomAfter)
        let total = roomBefore + facing + roomAfter
        guard count > 1, total >= needed - 1e-9 else { return nil }
        let frame = newFrame(side.node), shape = shapes[side.node]
        let spread = total / Double(count - 1)
        return (0..<count).map { k in
            let u = spread * Double(k)
            // on the neighbour before: from `roomBefore` short of its corner end to the end
            if u < roomBefore { return shape.portPoint(before, offset: sign * (halfBefore - roomBefore + u), in: frame) }
            if u <= roomBefore + facing { return shape.portPoint(s, offset: u - roomBefore - facing / 2, in: frame) }
            return shape.portPoint(after, offset: sign * (halfAfter - (u - roomBefore - facing)), in: frame)
        }
    }
}

extension LayoutPlan {
    /// How far beyond a side another node must be for ends to come round the corner onto it.
    static var fanClearance: Double { 60 }

    /// Whether a node of node `i`'s level (a sibling in its container) lies within
    /// `fanClearance` beyond `side` of it, across from some of the side.
    func hasNeighbour(_ i: Int, beyond side: HandlePosition) -> Bool {
        let f = newFrame(i), c = LayoutPlan.fanClearance
        let zone: Rect
        switch side {
        case .top: zone = Rect(x: f.minX, y: f.minY - c, width: f.width, height: c)
        case .bottom: zone = Rect(x: f.minX, y: f.maxY, width: f.width, height: c)
        case .left: zone = Rect(x: f.minX - c, y: f.minY, width: c, height: f.height)
        case .right: zone = Rect(x: f.maxX, y: f.minY, width: c, height: f.height)
        case .center: return false
        }
        return (members[container[i]] ?? []).contains { j in j != i && newFrame(j).intersects(zone) }
    }
}

/// A node side that ports spread along.
struct PortSide: Hashable {
    var node: Int
    var side: HandlePosition
    var room: Double
}

/// One edge end at a port side: `key` orders the ends along it.
struct PortEnd {
    var edge: Int
    var isSource: Bool
    var key: Double
}

extension HandlePosition {
    /// Where `p` lies along this side's direction.
    func across(_ p: Point) -> Double { self == .top || self == .bottom ? p.x : p.y }

    /// The side across the node from this one (the centre for the centre).
    var opposite: HandlePosition {
        switch self {
        case .center: return .center
        case .top: return .bottom
        case .bottom: return .top
        case .left: return .right
        case .right: return .left
        }
    }
}
