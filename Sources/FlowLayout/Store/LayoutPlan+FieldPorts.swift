import FlowCore

/// Field ports: edges that end at one declared handle of a record (a field's port, DOT's
/// `node:field`, docs/formats.md "Records") end apart along that field's stretch of the
/// side, in the order they arrive, as the edges into one side of a node do (`spreadPorts`),
/// instead of sharing one arrowhead at the handle's point. The stretch runs halfway to the
/// record's next declared handle on that side (or to the side's end), so each field keeps
/// to its own part of the side. Other declared handles keep their point.
extension LayoutPlan {
    /// Ends at most this far apart on a field's stretch, and at least `crowdedPortGap`.
    static var fieldPortGap: Double { 8 }

    /// Gives the edges in `edges` that share a record's declared handle ports along its
    /// field (see above).
    mutating func spreadFieldPorts(_ edges: [FlowEdge]) {
        var shared: [FieldEnd: [PortEnd]] = [:]
        for (k, e) in edges.enumerated() where LayoutPlan.takesPorts(e.pathType) {
            guard let route = routes[e.id], let a = index[e.sourceNodeID], let b = index[e.targetNodeID], a != b
            else { continue }
            let (s, t) = ends(e)
            if let id = e.sourceHandleID, isField(a, id) {
                shared[FieldEnd(node: a, handle: id, isSource: true), default: []].append(
                    PortEnd(edge: k, isSource: true, key: s.side.across(route.first ?? t.point)))
            }
            if let id = e.targetHandleID, isField(b, id) {
                shared[FieldEnd(node: b, handle: id, isSource: false), default: []].append(
                    PortEnd(edge: k, isSource: false, key: t.side.across(route.last ?? s.point)))
            }
        }
        for (field, list) in shared where list.count > 1 {
            guard let points = fieldPoints(field, count: list.count) else { continue }
            let sorted = list.sorted { ($0.key, $0.edge) < ($1.key, $1.edge) }
            for (end, p) in zip(sorted, points) {
                let id = edges[end.edge].id
                if end.isSource { routes[id]!.insert(p, at: 0) } else { routes[id]!.append(p) }
            }
        }
    }

    /// Whether `handle` is a declared handle of record `i` on a side (not its centre).
    private func isField(_ i: Int, _ handle: String) -> Bool {
        guard shapes[i] == .record || shapes[i] == .mrecord, !placesHandles(i) else { return false }
        return newHandles(i).contains { $0.id == handle && $0.position != .center }
    }

    /// `count` points along the field's stretch of its side, centred on the handle's point;
    /// nil when the stretch has no room for them `crowdedPortGap` apart.
    private func fieldPoints(_ field: FieldEnd, count: Int) -> [Point]? {
        let all = newHandles(field.node)
        guard let h = all.first(where: { $0.id == field.handle }) else { return nil }
        let f = newFrame(field.node)
        let length = h.position == .top || h.position == .bottom ? f.width : f.height
        let at = h.offset * length
        // halfway to the neighbouring handles on the side, short of its ends
        var low = -length / 2 + 2, high = length / 2 - 2
        for o in all where o.position == h.position && o.id != h.id {
            let other = o.offset * length
            if other < at { low = max(low, (other + at) / 2) } else if other > at { high = min(high, (other + at) / 2) }
        }
        let room = 2 * min(at - low, high - at)
        let gap = min(LayoutPlan.fieldPortGap, room / Double(count - 1))
        guard gap >= LayoutPlan.crowdedPortGap else { return nil }
        return (0..<count).map { k in
            shapes[field.node].portPoint(h.position, offset: at + gap * (Double(k) - Double(count - 1) / 2), in: f)
        }
    }
}

/// The ends at one declared handle of a record.
private struct FieldEnd: Hashable {
    var node: Int
    var handle: String
    var isSource: Bool
}
