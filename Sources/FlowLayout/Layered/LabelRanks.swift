import FlowCore

// dot's label ranks (its rank step doubles every edge's minimum length and halves the rank
// separation when a graph has edge labels): when an edge between two layers has a label,
// every edge spans twice the layers it would, so each label lies in a half layer between
// its ends that all the edges between those layers share, instead of a layer of its own
// that pushes the rest of the drawing apart.
extension LayeredLayout {
    /// Whether a part's layers double (`ranks` by node, `edges` pointing down, `labels`
    /// the room each edge's label needs in the layers, nil for none): some labelled edge
    /// joins two layers. A flat edge's label lies beside its ends, a back edge's along its
    /// route (nil here): neither needs a layer.
    static func hasLabelRanks(ranks: [Int], edges: [(source: Int, target: Int)], labels: [Size?]) -> Bool {
        edges.indices.contains { labels[$0] != nil && ranks[edges[$0].source] != ranks[edges[$0].target] }
    }
}
