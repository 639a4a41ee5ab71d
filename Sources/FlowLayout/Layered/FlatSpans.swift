/// A flat edge's `minLength` between two vertices of one layer that are not neighbours in
/// it: dot keeps the ends `minLength` node spacings of free space apart whatever lies
/// between (its auxiliary edge from the left end to the right one), where the separations
/// of neighbours alone may leave them closer.
struct FlatSpan: Equatable {
    /// The ends, `left` before `right` in their layer.
    var left: Int
    var right: Int
    /// The least distance from `left`'s centre to `right`'s.
    var distance: Double
}

extension ProperGraph {
    /// The spans of `flatLengths` (a `minLength`'s or a label's room) between vertices that
    /// `layers` does not put side by side (neighbours take theirs in `flatGap`), in the order of their left ends in the layers,
    /// then of their right ends.
    func flatSpans(_ layers: [[Int]]) -> [FlatSpan] {
        guard !flatLengths.isEmpty else { return [] }
        let position = Self.positions(of: flatLengths.keys, in: layers)
        var spans: [FlatSpan] = []
        for (pair, gap) in flatLengths {
            guard let pa = position[pair.a], let pb = position[pair.b], pa >= 0, pb >= 0, abs(pa - pb) > 1 else { continue }
            let (l, r) = pa < pb ? (pair.a, pair.b) : (pair.b, pair.a)
            spans.append(FlatSpan(left: l, right: r, distance: (breadth[l] + breadth[r]) / 2 + gap))
        }
        return spans.sorted { (position[$0.left]!, position[$0.right]!, $0.left) < (position[$1.left]!, position[$1.right]!, $1.left) }
    }

    /// The room each layer keeps before it (towards the layer before) for the labels of
    /// its flat edges whose ends are not side by side: such an edge arcs over the layer
    /// (`LayoutPlan.flatRoute`) with its label in the gap, `flatLabelMargin` clear of the
    /// layer, as dot puts it in the rank above. 0 for a layer without one.
    func flatLabelRoom(_ layers: [[Int]]) -> [Double] {
        var room = Array(repeating: 0.0, count: layerCount)
        guard !flatLabelDepths.isEmpty else { return room }
        let position = Self.positions(of: flatLabelDepths.keys, in: layers)
        for (pair, depth) in flatLabelDepths {
            guard let pa = position[pair.a], let pb = position[pair.b], pa >= 0, pb >= 0, abs(pa - pb) > 1 else { continue }
            room[layer[pair.a]] = max(room[layer[pair.a]], depth + Self.flatLabelMargin)
        }
        return room
    }

    /// Each end of `pairs` by its place in its layer (-1 when in none).
    static func positions(of pairs: some Sequence<FlatPair>, in layers: [[Int]]) -> [Int: Int] {
        var position: [Int: Int] = [:]
        for pair in pairs {
            position[pair.a] = -1
            position[pair.b] = -1
        }
        for layer in layers {
            for (i, v) in layer.enumerated() where position[v] != nil { position[v] = i }
        }
        return position
    }
}
