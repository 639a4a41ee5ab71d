import FlowCore

/// Ends that face away from their route: the way out of a handle, around its node, and
/// the steps that turn a route into horizontal and vertical runs.
extension LayoutPlan {
    /// Adds a way around the node at an end whose handle faces away from the route (an edge
    /// drawn against the flow leaves its source's bottom but goes up): out of the handle,
    /// around the node's nearer side, then on.
    func detoured(_ route: [Point], _ e: FlowEdge) -> [Point] {
        guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID] else { return route }
        let room = handleRoom(e.pathType)
        let fa = newFrame(a), fb = newFrame(b)
        let ha = handleSide(a, e.sourceHandleID, .source), hb = handleSide(b, e.targetHandleID, .target)
        let towardsTarget = route.first ?? ha.position.point(in: fb)
        let towardsSource = route.last ?? hb.position.point(in: fa)
        var out = route
        let f = flowVector
        let start = around(fa, ha, towards: towardsTarget, flow: f, room: room)
        let end = around(fb, hb, towards: towardsSource, flow: Point(-f.x, -f.y), room: room)
        out = start + out + end.reversed()
        return out
    }

    /// A route for `smoothStep` (and `orthogonal` when the store has no router): every run
    /// between two points that are not in line becomes a step through the middle of the gap
    /// between them (across the flow first), so the path is drawn exactly as placed, handle
    /// to handle, with no elbows of its own. A step that passes a group's border turns in
    /// the gap outside the group (`turn`), never along the border or through the title.
    func orthogonal(_ route: [Point], _ e: FlowEdge) -> [Point] {
        guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID] else { return route }
        let start = handleSide(a, e.sourceHandleID, .source).point(on: .rectangle, in: newFrame(a))
        let end = handleSide(b, e.targetHandleID, .target).point(on: .rectangle, in: newFrame(b))
        let all = [start] + route + [end]
        let vertical = !direction.isHorizontal
        let spans = crossedGroups(a, b).map { g -> (Double, Double) in
            let f = newFrame(g)
            return vertical ? (f.minY, f.maxY) : (f.minX, f.maxX)
        }
        var out: [Point] = []
        for i in 1..<all.count {
            let p = all[i - 1], q = all[i]
            if p.x != q.x && p.y != q.y {
                if vertical {
                    let m = LayoutPlan.turn(p.y, q.y, outside: spans)
                    out += [Point(p.x, m), Point(q.x, m)]
                } else {
                    let m = LayoutPlan.turn(p.x, q.x, outside: spans)
                    out += [Point(m, p.y), Point(m, q.y)]
                }
            }
            if i < all.count - 1 { out.append(q) }
        }
        // points in line with both neighbours add nothing
        return Array(LayoutPlan.simplified([start] + out + [end]).dropFirst().dropLast())
    }

    /// Where a step from `u` to `v` (coordinates along the flow) turns: the middle of the
    /// widest stretch between them that lies outside every group span in `spans` (the
    /// groups' borders cut the stretch from `u` to `v`), or the middle of the whole stretch
    /// when no part of it lies outside them.
    static func turn(_ u: Double, _ v: Double, outside spans: [(Double, Double)]) -> Double {
        let lo = min(u, v), hi = max(u, v)
        var cuts = [lo, hi]
        for (s, t) in spans {
            if s > lo && s < hi { cuts.append(s) }
            if t > lo && t < hi { cuts.append(t) }
        }
        if cuts.count == 2 { return (u + v) / 2 }
        cuts.sort()
        var best: (width: Double, middle: Double)?
        for k in 1..<cuts.count {
            let m = (cuts[k - 1] + cuts[k]) / 2, width = cuts[k] - cuts[k - 1]
            if spans.contains(where: { m > $0.0 && m < $0.1 }) { continue }
            if best == nil || width > best!.width { best = (width, m) }
        }
        return best?.middle ?? (u + v) / 2
    }

    func newFrame(_ i: Int) -> Rect {
        let id = nodes[i].id
        return Rect(origin: positions[id] ?? nodes[i].position, size: sizes[id] ?? nodes[i].size)
    }

    func handleSide(_ i: Int, _ handleID: String?, _ type: HandleType) -> HandleDeclaration {
        let hs = newHandles(i)
        return handleID.flatMap { id in hs.first { $0.id == id } } ?? hs.first { $0.type == type }
            ?? HandleDeclaration(id: "", type: type, position: .center)
    }

    /// The unit vector from a layer to the next.
    var flowVector: Point {
        switch direction {
        case .TB: Point(0, 1)
        case .BT: Point(0, -1)
        case .LR: Point(1, 0)
        case .RL: Point(-1, 0)
        }
    }

    /// The points that take a route from handle `h` of `frame` to `next` without crossing
    /// the node: none when `next` lies on the handle's side; a short run out of the handle
    /// when the handle faces across the flow (a decision's yes/no on its sides) and `next`
    /// lies on the way the route goes (`flow`); else a way around the nearer side.
    func around(_ frame: Rect, _ h: HandleDeclaration, towards next: Point, flow: Point, room: Double) -> [Point] {
        let d = h.position.direction
        if d == .zero { return [] }
        let p = h.point(on: .rectangle, in: frame)
        let ahead = (next.x - p.x) * d.x + (next.y - p.y) * d.y
        let out = Point(p.x + d.x * room, p.y + d.y * room)
        let across = d.x * flow.x + d.y * flow.y == 0
        let onTheWay = (next.x - p.x) * flow.x + (next.y - p.y) * flow.y >= 0
        if across && onTheWay {
            if ahead > room { return [] }
            // out of the handle, then past the node's far side before turning to `next`
            let far: Point
            if flow.x > 0 { far = Point(frame.origin.x + frame.size.width + room, out.y) }
            else if flow.x < 0 { far = Point(frame.origin.x - room, out.y) }
            else if flow.y > 0 { far = Point(out.x, frame.origin.y + frame.size.height + room) }
            else { far = Point(out.x, frame.origin.y - room) }
            return [out, far]
        }
        if ahead > 0 { return [] }
        let minX = frame.origin.x, maxX = minX + frame.size.width
        let minY = frame.origin.y, maxY = minY + frame.size.height
        if d.y != 0 {
            // leave through the top or bottom, pass the left or right side
            let x = next.x < (minX + maxX) / 2 ? minX - room : maxX + room
            return [out, Point(x, out.y), Point(x, next.y)]
        } else {
            let y = next.y < (minY + maxY) / 2 ? minY - room : maxY + room
            return [out, Point(out.x, y), Point(next.x, y)]
        }
    }
}
