import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

/// A long edge beside a group is drawn as straight as the room its neighbours in each layer
/// leave; that room ends `spacing` outside the group's frame, not at the group's outermost
/// node, so the edge does not run down the frame's border or just inside it (#37).
@Suite struct GroupBorderRouteTests {
    /// Graphviz's clust5.gv: a -> z2 passes cluster0 on its right, on the way down to z2.
    static let clust5 = """
        digraph G {
          a -> b -> c;
          subgraph cluster0 { x0 -> y0; x0 -> z0; }
          subgraph cluster1 { x1 -> y1; x1 -> z1; }
          subgraph cluster2 { x2 -> y2; x2 -> z2; }
          a -> x0; b -> x1; b -> x2; a -> z2; c -> z1;
        }
        """

    @Test func aLongEdgeBesideAGroupStaysOutsideItsFrame() throws {
        let s = FlowStore<JSONValue>()
        try s.load(Self.clust5, format: .dot)
        let groups = s.nodes.filter(\.acceptsChildren)
        #expect(groups.count == 3)
        // a -> z2, four layers long, passes cluster0 (b -> c, between neighbouring layers,
        // still cuts the corner of cluster1 with its middle bend point: not the straightening)
        for e in s.edges where e.sourceNodeID == "a" && e.targetNodeID == "z2" {
            #expect(e.points.count > 2)
            let ends = [e.sourceNodeID, e.targetNodeID].compactMap { s.node($0)?.parentID }
            for g in groups where !ends.contains(g.id) {
                for p in e.points {
                    #expect(!g.frame.insetBy(dx: 1, dy: 1).contains(p), "\(e.id) \(e.sourceNodeID)->\(e.targetNodeID) at \(p) in \(g.id)'s \(g.frame)")
                }
            }
        }
    }
}
