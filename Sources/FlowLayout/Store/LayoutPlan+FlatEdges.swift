import FlowCore

/// Flat edges: an edge between two nodes of one layer (a rank constraint's, `RankClasses`).
/// Between neighbours it is drawn straight across, from the side of its source that faces
/// its target into the side of its target that faces its source, as dot draws it; with
/// nodes between them it arcs over the layer, out of and into the sides facing the layer
/// before, through the gap above (each arc in that gap a little higher than the one before;
/// a labelled one high enough for its label to clear the layer, in the room the layout keeps).
extension LayoutPlan {
    /// How a flat edge is drawn: the sides it leaves and enters by, and its bend points (nil:
    /// the layout's). Nil when its ends are not centred on one layer of one container.
    func flatRoute(_ e: FlowEdge, arcs: inout [Int: Int]) -> (sides: (source: HandlePosition, target: HandlePosition), route: [Point]?)? {
        guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID], a != b, sameContainer(e),
            placesHandles(a), placesHandles(b)
        else { return nil }
        let horizontal = direction.isHorizontal
        // flow: across the layers (y for TB/BT, x for LR/RL); along: the other
        func flow(_ f: Rect) -> (centre: Double, half: Double) { horizontal ? (f.midX, f.size.width / 2) : (f.midY, f.size.height / 2) }
        func along(_ f: Rect) -> (centre: Double, half: Double) { horizontal ? (f.midY, f.size.height / 2) : (f.midX, f.size.width / 2) }
        let fa = newFrame(a), fb = newFrame(b)
        let layer = flow(fa).centre
        guard abs(layer - flow(fb).centre) < 0.5 else { return nil }
        let lower = min(along(fa).centre, along(fb).centre), upper = max(along(fa).centre, along(fb).centre)
        var between = false
        // the layer's extent towards the layer before (the smaller flow side for TB and LR)
        let before: Double = direction == .TB || direction == .LR ? -1 : 1
        var edge = before < 0 ? min(layer - flow(fa).half, layer - flow(fb).half) : max(layer + flow(fa).half, layer + flow(fb).half)
        for m in members[container[a]] ?? [] where m != a && m != b {
            let f = newFrame(m), fm = flow(f), am = along(f)
            guard abs(fm.centre - layer) < 0.5 else { continue }
            edge = before < 0 ? min(edge, fm.centre - fm.half) : max(edge, fm.centre + fm.half)
            if am.centre + am.half > lower && am.centre - am.half < upper { between = true }
        }
        if !between {
            let forward = along(fa).centre < along(fb).centre
            if horizontal { return (forward ? (.bottom, .top) : (.top, .bottom), nil) }
            return (forward ? (.right, .left) : (.left, .right), nil)
        }
        let side: HandlePosition = switch direction {
        case .TB: .top
        case .BT: .bottom
        case .LR: .left
        case .RL: .right
        }
        let key = Int((edge * 2).rounded())
        let k = arcs[key, default: 0]
        arcs[key] = k + 1
        var reach = min(12 + 6 * Double(k), max(12, request.options.layerSpacing / 2 - 4))
        if e.label?.isEmpty == false {
            // its label, centred on the arc, clear of the layer in the room kept for it
            // (`ProperGraph.flatLabelRoom`)
            let size = LayoutPlan.labelSize(e.label)
            reach = max(reach, (horizontal ? size.width : size.height) / 2 + ProperGraph.flatLabelMargin)
        }
        let g = edge + before * reach
        // in along the gap, a short way out of each end and back, so a curve through the
        // points runs along the gap instead of bulging over the layer before
        let from = along(fa).centre, to = along(fb).centre
        let step = (to > from ? 1.0 : -1.0) * min(reach, abs(to - from) / 4)
        let points = [from, from + step, to - step, to].map { horizontal ? Point(g, $0) : Point($0, g) }
        return ((side, side), points)
    }
}
