import FlowCore

/// Ports: where several laid-out edges meet one side of a node, each gets its own point on
/// that side, spread along it in the order their routes leave (or arrive), so no two end
/// at one arrowhead and none cross next to the node. The port is the route's first (last)
/// point, on the node's outline (`NodeShape.portPoint`), which is where the edge then
/// attaches (`EdgeEnds.resolve`). Only the curved and straight path types get ports (the
/// stepped ones keep the handle's point, their runs start straight out of it), and only on
/// sides whose handle the layout placed (a node with the default handles).
extension LayoutPlan {
    /// Gives the edges in `edges` that share a node side ports along it (see above).
    mutating func spreadPorts(_ edges: [FlowEdge]) {
        var sides: [PortSide: [PortEnd]] = [:]
        for (k, e) in edges.enumerated() where LayoutPlan.takesPorts(e.pathType) {
            guard let route = routes[e.id], let a = index[e.sourceNodeID], let b = index[e.targetNodeID], a != b
            else { continue }
            let (s, t) = ends(e)
            if let room = portRoom(a, s.side) {
                sides[PortSide(node: a, side: s.side, room: room), default: []].append(
                    PortEnd(edge: k, isSource: true, key: s.side.across(route.first ?? t.point)))
            }
            if let room = portRoom(b, t.side) {
                sides[PortSide(node: b, side: t.side, room: room), default: []].append(
                    PortEnd(edge: k, isSource: false, key: t.side.across(route.last ?? s.point)))
            }
        }
        var starts: [Int: Point] = [:], finishes: [Int: Point] = [:]
        for (side, list) in sides where list.count > 1 {
            let sorted = list.sorted { ($0.key, $0.edge, $0.isSource ? 0 : 1) < ($1.key, $1.edge, $1.isSource ? 0 : 1) }
            let gap = min(LayoutPlan.portGap, side.room / Double(sorted.count - 1))
            guard gap >= LayoutPlan.minimumPortGap else { continue }
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

    /// How long a stretch of node `i`'s `side`, centred on its middle, ports may spread
    /// over: nil when the layout did not place the handle there (declared handles) or the
    /// shape has no room for them there (a hexagon's points, a cylinder's caps, …).
    func portRoom(_ i: Int, _ side: HandlePosition) -> Double? {
        guard side != .center, HandleDeclaration.areDefaults(nodes[i].handles) || handles[nodes[i].id] != nil else {
            return nil
        }
        let f = newFrame(i)
        let horizontal = side == .top || side == .bottom
        let length = horizontal ? f.width : f.height
        switch shapes[i] {
        case .rounded, .rectangle, .note:
            return max(0, length - 24)
        case .stadium where horizontal:
            return max(0, f.width - f.height - 8)
        case .hexagon where horizontal, .parallelogram where horizontal:
            return max(0, f.width / 2 - 8)
        case .ellipse, .circle:
            // the middle half of the side, where the curve still faces that way
            return (shapes[i] == .circle ? NodeShape.diameter(in: f) : length) / 2
        case .diamond:
            // near the tip, on the two slants
            return length / 3
        default:
            return nil
        }
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
}
