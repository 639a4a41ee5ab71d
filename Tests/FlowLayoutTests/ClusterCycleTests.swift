import FlowCore
import TestSupport
import Testing

@testable import FlowLayout

/// Cycles through groups are broken between the groups (issue #37): a loop back into a
/// group turns the edge coming back, not an edge inside the group, which would stretch the
/// group over the whole loop.
@Suite struct ClusterCycleTests {
    /// `tune -> fit -> check -> tune`, with `tune` and `fit` in cluster 0 and `check` in
    /// cluster 1; `prep -> fit` enters the loop at `fit`, so a plain depth-first search from
    /// `prep` turns `tune -> fit`.
    static let loop = [(0, 2), (1, 2), (2, 3), (3, 1)]  // prep, tune, fit, check
    static let clusters = [-1, 0, 0, 1]

    @Test func aLoopThroughTwoGroupsTurnsTheEdgeBetweenThem() {
        let plain = edgesToReverse(nodeCount: 4, edges: Self.loop)
        #expect(plain == [false, true, false, false])
        let clustered = clusteredReversal(nodeCount: 4, edges: Self.loop, cluster: Self.clusters, parent: [-1, -1])
        #expect(clustered == [false, false, false, true])
        #expect(CycleBreakingTests.isAcyclic(4, Self.loop, clustered))
    }

    @Test func groupsPointingBothWaysWithoutACycleOfNodesKeepEveryEdge() {
        // a1 -> d1 -> m2 (main, develop, main): the groups point at each other both ways,
        // the nodes form no cycle
        let edges = [(0, 1), (1, 2), (0, 2)]
        let reversed = clusteredReversal(nodeCount: 3, edges: edges, cluster: [0, 1, 0], parent: [-1, -1])
        #expect(reversed == [false, false, false])
    }

    @Test(arguments: [10, 60, 300])
    func nestedClustersBreakEveryCycle(n: Int) {
        let edges = RandomGraphs.cyclic(nodes: n, seed: UInt64(n) + 7)
        // clusters 0..3 at the top, 4..7 inside them; a third of the nodes in none
        let parent = [-1, -1, -1, -1, 0, 1, 2, 3]
        let cluster = (0..<n).map { v in v % 3 == 0 ? -1 : (v * 7) % 8 }
        let reversed = clusteredReversal(nodeCount: n, edges: edges, cluster: cluster, parent: parent)
        #expect(CycleBreakingTests.isAcyclic(n, edges, reversed))
        #expect(reversed == clusteredReversal(nodeCount: n, edges: edges, cluster: cluster, parent: parent))
    }

    @Test func aStoreLoopThroughGroupsKeepsTheGroupInOrder() throws {
        let store = FlowStore<JSONValue>()
        for g in ["train", "eval"] {
            try store.addNode(FlowNode(id: g, position: .zero, size: Size(10, 10), data: .null, acceptsChildren: true))
        }
        for (id, parent) in [("prep", nil), ("tune", "train"), ("fit", "train"), ("check", "eval")] as [(String, String?)] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(100, 40), data: .null, parentID: parent))
        }
        for (s, t) in [("prep", "fit"), ("tune", "fit"), ("fit", "check"), ("check", "tune")] {
            try store.addEdge(FlowEdge(id: "\(s)-\(t)", sourceNodeID: s, targetNodeID: t))
        }
        try store.layout(LayoutRequest())
        let y = { (id: String) in store.node(id)!.position.y }
        // tune above fit inside its group (a plain search put it below, the loop's way);
        // the group of the loop's far end below
        #expect(y("tune") < y("fit"))
        #expect(y("train") < y("eval"))
    }
}
