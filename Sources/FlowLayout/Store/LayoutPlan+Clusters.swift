import FlowCore

/// Groups laid out as clusters (`LayoutGraph.Cluster`): one layered graph of every
/// laid-out node that holds none, each group a box around the nodes it holds, set side by
/// side with the rest the way dot sets its clusters, instead of a group laid out on its
/// own and then placed as one big node.
extension LayoutPlan {
    /// The cluster of each laid-out group that holds laid-out nodes (by node index), parents
    /// before children; empty when the groups are laid out level by level instead: for the
    /// tree algorithm, and when an edge ends at such a group itself (a cluster has no node
    /// of its own to end at).
    func compoundGroups(_ edges: [FlowEdge], containers: [Int], depth: [Int]) -> [Int: Int] {
        let groups = containers.filter { $0 >= 0 }
        guard request.algorithm == .layered, !groups.isEmpty else { return [:] }
        for e in edges {
            guard let a = index[e.sourceNodeID], let b = index[e.targetNodeID], inScope[a], inScope[b] else { continue }
            // an edge between a group and its own descendant is not routed either way
            if ancestors(a).contains(b) || ancestors(b).contains(a) { continue }
            if members[a] != nil || members[b] != nil { return [:] }
        }
        var clusterOf: [Int: Int] = [:]
        for g in groups.sorted(by: { depth[$0] != depth[$1] ? depth[$0] < depth[$1] : $0 < $1 }) {
            clusterOf[g] = clusterOf.count
        }
        return clusterOf
    }

    /// The single level of a layout with clusters: every laid-out node that holds none, in
    /// store order, each in its innermost group's cluster.
    func clusterLevel(_ clusterOf: [Int: Int]) -> Level {
        var level = Level()
        level.graph.clusters = Array(repeating: LayoutGraph.Cluster(), count: clusterOf.count)
        for (g, c) in clusterOf {
            level.graph.clusters[c] = LayoutGraph.Cluster(
                parent: container[g] >= 0 ? clusterOf[container[g]]! : -1,
                padding: request.groupPadding, title: request.groupTitleHeight)
        }
        for m in 0..<nodes.count where inScope[m] && members[m] == nil {
            level.nodeOf[m] = level.graph.nodes.count
            // a stable layout's previous centre: on the canvas, as every node lies in this level
            let n = nodes[m]
            let centre = previous.isEmpty || previous[m] == nil
                ? nil : Point(n.position.x + n.size.width / 2, n.position.y + n.size.height / 2)
            level.graph.nodes.append(.init(
                width: n.size.width, height: n.size.height, previous: centre, hold: hold.isEmpty ? 1 : hold[m],
                cluster: container[m] >= 0 ? clusterOf[container[m]]! : -1))
        }
        return level
    }

    /// The groups' boxes in the level's frame, by node index.
    func clusterBoxes(_ r: LayoutResult, _ clusterOf: [Int: Int]) -> [Int: Rect] {
        clusterOf.mapValues { r.clusterFrames[$0] }
    }
}
