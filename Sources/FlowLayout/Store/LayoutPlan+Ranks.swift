import FlowCore

/// Rank constraints (`RankSet`) in the graphs of the levels: each set holds among the nodes
/// of one level, so a set whose nodes lie in several groups laid out on their own applies
/// within each of them (with groups laid out as clusters there is one level: all of it).
extension LayoutPlan {
    mutating func constrainRanks(_ levels: inout [Int: Level]) {
        guard !rankSets.isEmpty else { return }
        for set in rankSets {
            var byLevel: [Int: [Int]] = [:]
            for id in set.nodes {
                guard let m = index[id], inScope[m] else { continue }
                // the level the node is laid out in: its container's, or the single one
                let l = levels[container[m]]?.nodeOf[m] != nil ? container[m] : -1
                guard let v = levels[l]?.nodeOf[m] else { continue }
                byLevel[l, default: []].append(v)
            }
            for (l, vs) in byLevel { levels[l]!.graph.ranks.append(.init(set.kind, vs)) }
        }
    }
}

extension LayoutGraph {
    /// Which of `pairs` (edges over the graph's nodes) the layered layout draws against the
    /// flow: as `LayeredLayout.reversedEdges` chooses them for a part of its nodes.
    func edgesToReverse(_ pairs: [(Int, Int)]) -> [Bool] {
        var local: [Int: Int] = [:]
        for c in ranks { for v in c.nodes { local[v] = v } }
        let merged = RankClasses(ranks, local: local, nodeCount: nodes.count)
        return LayeredLayout.cyclesBroken(self, nodes: Array(nodes.indices), pairs: pairs, merged: merged)
    }
}
