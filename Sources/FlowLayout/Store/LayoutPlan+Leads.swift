import FlowCore

/// Leads: an edge whose route runs far sideways right after it leaves its node would, drawn
/// as a curve, cut across the node's neighbours in its layer: where the end sits inside its
/// box (the outline of an ellipse, a triangle or a diamond is short of the box's side; a
/// column of triangles feeding one node in a left-to-right flow), or where a neighbour is
/// deeper than the node (a small box beside a tall ellipse). Where a node lies in the way,
/// the route gets a lead: a point straight out of the end, just past the box's side and
/// every such neighbour, so the curve leaves (or enters) straight and makes its sideways
/// run in the gap between the layers.
extension LayoutPlan {
    /// How far past the box's side a lead sits.
    static var leadClearance: Double { 4 }

    /// Adds leads to the routes of `edges` (after their ports: see above). `turned` as for
    /// `spreadPorts`.
    mutating func addLeads(_ edges: [FlowEdge], turned: [String: (source: HandlePosition, target: HandlePosition)]) {
        var frames: FrameIndex? = nil
        for e in edges where LayoutPlan.takesPorts(e.pathType) {
            guard var route = routes[e.id], !route.isEmpty, let a = index[e.sourceNodeID], let b = index[e.targetNodeID],
                a != b
            else { continue }
            let (s, t) = ends(e)
            let sourceSide = turned[e.id]?.source ?? s.side, targetSide = turned[e.id]?.target ?? t.side
            // the nodes drawn (a group's box holds its children's: those are what the curve must miss)
            let all = frames ?? FrameIndex((0..<nodes.count).map(newFrame), only: nodes.indices.filter { members[$0] == nil })
            frames = all
            if let (lead, at) = lead(route, node: a, side: sourceSide, atStart: true, other: b, frames: all) {
                route.insert(lead, at: at)
            }
            if let (lead, at) = lead(route, node: b, side: targetSide, atStart: false, other: a, frames: all) {
                route.insert(lead, at: at)
            }
            routes[e.id] = route
        }
    }

    /// The lead at one end of `route` (its start when `atStart`) and where it goes in the
    /// route; nil when the end is at the box's side, the route does not run sideways past a
    /// node there, or there is no room before the route's next point.
    private func lead(
        _ route: [Point], node i: Int, side: HandlePosition, atStart: Bool, other: Int, frames: FrameIndex
    ) -> (Point, Int)? {
        guard side != .center, placesHandles(i) else { return nil }
        let f = frames.frames[i]
        // the end: a port the route starts (ends) with, on the node, or the handle's point
        let first = atStart ? route[0] : route[route.count - 1]
        let ported = f.insetBy(dx: -0.01, dy: -0.01).contains(first)
        let end = ported ? first : shapes[i].handlePoint(side, in: f)
        let rest = ported ? (atStart ? route.dropFirst() : route.dropLast()) : route[...]
        guard let next = atStart ? rest.first : rest.last else { return nil }
        let d = side.direction
        // only a run further sideways than along needs one
        guard abs((next.x - end.x) * d.y) + abs((next.y - end.y) * d.x) > abs((next - end).x * d.x + (next - end).y * d.y)
        else { return nil }
        func along(_ p: Point) -> Double { p.x * d.x + p.y * d.y }
        func farthest(_ r: Rect) -> Double {
            max(along(Point(r.minX, r.minY)), along(Point(r.maxX, r.maxY)), along(Point(r.minX, r.maxY)), along(Point(r.maxX, r.minY)))
        }
        let sideAlong = along(side.point(in: f))
        let inset = sideAlong - along(end)
        // the stretch the curve sweeps on its way to the next point: from the end to the
        // next point, along and across; the lead goes past every node in it
        let zone = Rect(corner: end, corner: next).insetBy(dx: -0.5, dy: -0.5)
        var reach = -Double.infinity
        let met = frames.meeting(zone)
        if !met.isEmpty {
            // the edge's own ends and the groups holding them are not in the way
            let holding = Set(enclosing(i) + enclosing(other))
            for j in met where !holding.contains(j) { reach = max(reach, farthest(frames.frames[j])) }
        }
        // none in the way, or the curve is past them once out of the box
        guard reach > -Double.infinity, inset >= 1 || reach > sideAlong + 0.5 else { return nil }
        let lead = end + d * (max(reach, sideAlong) - along(end) + LayoutPlan.leadClearance)
        guard along(next) - along(lead) > 1 else { return nil }
        if atStart { return (lead, ported ? 1 : 0) }
        return (lead, ported ? route.count - 1 : route.count)
    }
}
