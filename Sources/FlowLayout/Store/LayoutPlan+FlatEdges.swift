import FlowCore

/// Flat edges: an edge between two nodes of one layer (a rank constraint's, `RankClasses`)
/// whose nodes are neighbours is drawn straight across, from the side of its source that
/// faces its target into the side of its target that faces its source, as dot draws it.
extension LayoutPlan {
    /// The sides a flat edge between neighbours leaves and enters by; nil when its ends are
    /// not centred on one layer of one container, or a node of it lies between them.
    func flatSides(_ e: FlowEdge) -> (source: HandlePosition, target: HandlePosition)? {
        guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID], a != b, sameContainer(e),
            placesHandles(a), placesHandles(b)
        else { return nil }
        let fa = newFrame(a), fb = newFrame(b)
        let horizontal = direction.isHorizontal
        // across the flow: x for TB/BT, y for LR/RL
        let (ca, cb) = horizontal ? (fa.midX, fb.midX) : (fa.midY, fb.midY)
        guard abs(ca - cb) < 0.5 else { return nil }
        let (la, lb) = horizontal ? (fa.midY, fb.midY) : (fa.midX, fb.midX)
        let lower = min(la, lb), upper = max(la, lb)
        for m in members[container[a]] ?? [] where m != a && m != b {
            let f = newFrame(m)
            let (c, l, half, depth) = horizontal
                ? (f.midX, f.midY, f.size.height / 2, f.size.width / 2) : (f.midY, f.midX, f.size.width / 2, f.size.height / 2)
            let reach = (horizontal ? max(fa.size.width, fb.size.width) : max(fa.size.height, fb.size.height)) / 2
            if abs(c - ca) < depth + reach && l + half > lower && l - half < upper { return nil }
        }
        if horizontal { return la < lb ? (.bottom, .top) : (.top, .bottom) }
        return la < lb ? (.right, .left) : (.left, .right)
    }
}
