import FlowCore

extension DOTReader.Builder {
    /// The rank sets of the graph's `rank` subgraphs (`DiagramLook.ranks`), in subgraph
    /// order; a value that is not a rank is reported.
    mutating func rankSets() -> [RankSet] {
        var sets: [RankSet] = []
        for set in graph.rankSets {
            guard let kind = RankSet.Kind(rawValue: set.rank.lowercased()) else {
                tally.add("subgraph rank '\(set.rank)' is not a rank (expected same, min, max, source or sink)", unit: "subgraph")
                continue
            }
            if !set.members.isEmpty { sets.append(RankSet(kind, set.members)) }
        }
        return sets
    }
}
