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

    /// Reports a `minlen` above 1 on an edge whose ends one rank set puts on one rank
    /// (KW91.gv): dot spaces such ends that far apart sideways; the layout keeps them on
    /// their rank, at the usual spacing.
    mutating func reportSidewaysLengths(_ edges: [FlowEdge], ranks: [RankSet]) {
        var set: [String: Int] = [:]
        for (k, r) in ranks.enumerated() { for n in r.nodes { set[n] = k } }
        var ends: [String: (String, String)] = [:]
        for e in edges { ends[e.id] = (e.sourceNodeID, e.targetNodeID) }
        for r in edgeRanks where r.minLength > 1 {
            guard let (a, b) = ends[r.edge], let k = set[a], set[b] == k else { continue }
            tally.add("edge minlen between two nodes of one rank set is not honoured (dot spaces them apart sideways)", unit: "edge")
        }
    }
}
