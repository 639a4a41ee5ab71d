import FlowCore

/// Where a laid-out top level goes on the canvas: beside the nodes that stay put.
extension LayoutPlan {
    /// Where the top level goes: where its nodes were (the top-left of their frames), moved
    /// right until it meets no node that stays where it is. `boxes`: the frames of groups
    /// laid out as clusters of the level (by node index, in the level's frame).
    func placeTop(_ r: LayoutResult, _ level: Level, boxes: [Int: Rect] = [:]) -> Point {
        var anchor = Point(Double.infinity, Double.infinity)
        for m in Array(level.nodeOf.keys) + Array(boxes.keys) where container[m] == -1 {
            anchor = Point(min(anchor.x, nodes[m].position.x), min(anchor.y, nodes[m].position.y))
        }
        if let stable = stableAnchor(r, level) { anchor = stable }
        if !anchor.x.isFinite { return .zero }
        // Obstacles: nodes that stay and are not groups holding laid-out nodes.
        var holds = Array(repeating: false, count: nodes.count)
        for i in 0..<nodes.count where inScope[i] {
            var p = nodes[i].parentID
            while let id = p, let pi = index[id] {
                holds[pi] = true
                p = nodes[pi].parentID
            }
        }
        let obstacles = (0..<nodes.count).filter { !inScope[$0] && !holds[$0] }.map { nodes[$0].frame }
        if obstacles.isEmpty { return anchor }
        var frames: [Rect] = []
        for (m, gi) in level.nodeOf {
            frames.append(Rect(origin: r.positions[gi], size: sizes[nodes[m].id] ?? nodes[m].size))
        }
        frames += boxes.keys.sorted().map { boxes[$0]! }
        let gap = request.options.componentSpacing
        func clear(_ dx: Double) -> Bool {
            for f in frames {
                let moved = Rect(origin: f.origin + anchor + Point(dx, 0), size: f.size)
                for o in obstacles where overlaps(moved, o, gap / 2) { return false }
            }
            return true
        }
        var candidates = [0.0]
        for o in obstacles { candidates.append(o.origin.x + o.size.width + gap - anchor.x) }
        for dx in candidates.filter({ $0 >= 0 }).sorted() where clear(dx) {
            return anchor + Point(dx, 0)
        }
        return anchor
    }

    func overlaps(_ a: Rect, _ b: Rect, _ margin: Double) -> Bool {
        a.origin.x < b.origin.x + b.size.width + margin && b.origin.x < a.origin.x + a.size.width + margin
            && a.origin.y < b.origin.y + b.size.height + margin && b.origin.y < a.origin.y + a.size.height + margin
    }
}
