import FlowCore
import Testing

@testable import FlowLayout

/// A group's width weighs in the positions (`ClusterLayout.boxWeight`, issue #37): the
/// microservices diagram's row of databases, each under the service that uses it, made a
/// frame as wide as the whole picture around five nodes.
@Suite struct ClusterBoxTests {
    /// Six services in a row, each with a worker under it; the first and the last worker
    /// each write to a store of one group below (with some weight: an edge into a group from
    /// a long chain of bends weighs as much). The stores sit side by side in a narrow
    /// box, not under their writers at the two ends of the row.
    @Test func aGroupsMembersArePulledTogether() {
        var g = LayoutGraph()
        g.clusters = [.init(parent: -1, padding: 20)]
        for _ in 0..<12 { g.nodes.append(.init(width: 100, height: 40)) }
        for _ in 0..<2 { g.nodes.append(.init(width: 100, height: 40, cluster: 0)) }
        // each service also calls the next one's worker, which keeps the row in its order
        for i in 0..<6 { g.edges.append(.init(source: i, target: 6 + i)) }
        for i in 0..<5 { g.edges.append(.init(source: i, target: 7 + i)) }
        // weighing 3 each: the stores' two edges pull them apart harder than one box width
        // (1) pulls them together, not harder than eight
        g.edges.append(.init(source: 6, target: 12, weight: 3))
        g.edges.append(.init(source: 11, target: 13, weight: 3))
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        let row = r.positions[11].x - r.positions[6].x
        let box = r.clusterFrames[0]
        #expect(row > 500, "the row of workers spans \(row)")
        // two stores, the spacing between them and the padding on both sides
        #expect(box.width <= 2 * 100 + LayoutOptions().nodeSpacing + 2 * 20 + 1, "the box is \(box.width) wide")
    }
}

extension ClusterBoxTests {
    /// git-flow's develop branch has commits before and after a feature branch's, and
    /// none in the feature's layers: develop's frame spans those layers too, so the feature
    /// group lies beside it, not inside it; the edges in and out of the feature run outside
    /// develop on the feature's side.
    @Test func aGroupWithAHoleInItsLayersHoldsNoOtherGroup() {
        var g = LayoutGraph()
        g.clusters = [.init(parent: -1, padding: 20), .init(parent: -1, padding: 20)]
        for c in [0, 1, 1, 0, 0] { g.nodes.append(.init(width: 60, height: 60, cluster: c)) }
        g.nodes.append(.init(width: 60, height: 60))  // a node outside both, after develop's first
        for (s, t) in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 5)] {
            g.edges.append(.init(source: s, target: t, labelSize: Size(40, 16)))
        }
        let r = LayeredLayout.layout(g, options: LayoutOptions())
        let develop = r.clusterFrames[0], feature = r.clusterFrames[1]
        #expect(!develop.intersects(feature), "\(develop) and \(feature) overlap")
        for v in [1, 2, 5] {
            let frame = Rect(origin: r.positions[v], size: Size(60, 60))
            #expect(!develop.intersects(frame), "node \(v) at \(frame) lies in develop's \(develop)")
        }
    }
}

extension ClusterBoxTests {
    /// A labelled edge from one group into the next (a network map's "10G" between its
    /// Internet edge and its DMZ): the label's layer keeps a label layer's gap
    /// (`LayeredLayout.labelLayerShare`, 20 at the default 50) clear of each box, not half
    /// a whole layer gap more (25).
    @Test func aLabelBetweenTwoGroupsSitsALabelGapFromEach() {
        var g = LayoutGraph()
        g.clusters = [.init(parent: -1, padding: 20, title: 24), .init(parent: -1, padding: 20, title: 24)]
        g.nodes.append(.init(width: 100, height: 40, cluster: 0))
        g.nodes.append(.init(width: 100, height: 40, cluster: 1))
        g.edges.append(.init(source: 0, target: 1, labelSize: Size(40, 16)))
        let options = LayoutOptions()
        let r = LayeredLayout.layout(g, options: options)
        let upper = r.clusterFrames[0], lower = r.clusterFrames[1]
        let label = r.labelPositions[0]!
        let clear = options.layerSpacing * LayeredLayout.labelLayerShare
        #expect(abs(label.y - 8 - (upper.origin.y + upper.height) - clear) < 0.5, "label at \(label), box above \(upper)")
        #expect(abs(lower.origin.y - (label.y + 8) - clear) < 0.5, "label at \(label), box below \(lower)")
    }
}
