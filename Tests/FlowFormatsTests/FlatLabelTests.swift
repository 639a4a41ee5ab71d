import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

/// A labelled flat edge (both ends in one rank, `rank=same`) whose ends are not side by side
/// arcs over the rank with its label in the gap before it; the layout keeps room for the
/// label there, as dot keeps it in the rank above (#38). Three labelled flat edges among
/// three nodes: whatever the order, two of the nodes are not neighbours.
@Suite struct FlatLabelTests {
    static func graph(_ rankdir: String) -> String {
        """
        digraph { \(rankdir) node [shape=box, fixedsize=true, width=1, height=0.5]; {rank=same; a; b; c}
          r -> a; r -> b; r -> c; b -> x;
          a -> b [label="from a\\nto b\\nflat"]; b -> c [label="from b\\nto c\\nflat"]; a -> c [label="from a\\nto c\\nflat"] }
        """
    }

    /// The gap between `r`'s rank and the flat rank, and how far the arc's farthest point
    /// lies from the flat rank, both along the flow; the arc's label's depth along the flow.
    static func measure(_ rankdir: String) throws -> (gap: Double, reach: Double) {
        let s = FlowStore<JSONValue>()
        try s.load(Self.graph(rankdir), format: .dot)
        let horizontal = rankdir.contains("LR")
        let r = s.node("r")!.frame, a = s.node("a")!.frame, b = s.node("b")!.frame, c = s.node("c")!.frame
        func along(_ f: Rect) -> Double { horizontal ? f.midY : f.midX }
        // the pair that is not side by side: the outer two
        let ends = [("a", a), ("b", b), ("c", c)].sorted { along($0.1) < along($1.1) }
        let arc = s.edges.first { Set([$0.sourceNodeID, $0.targetNodeID]) == Set([ends[0].0, ends[2].0]) }!
        if horizontal { return (a.minX - r.maxX, a.minX - (arc.points.map(\.x).min() ?? a.minX)) }
        return (a.minY - r.maxY, a.minY - (arc.points.map(\.y).min() ?? a.minY))
    }

    @Test func theArcsLabelHasRoomBeforeTheRank() throws {
        // the layout's measure of the labels: three lines of 16 and 4 more (52) deep, a
        // line of 6 characters of 7 and 8 more (50) wide, which is their depth along LR's flow
        for (rankdir, label) in [("", 52.0), ("rankdir=LR;", 50)] {
            let m = try Self.measure(rankdir)
            // the label, centred on the arc, clears the rank by the margin
            #expect(m.reach >= label / 2 + 6, "\(rankdir)")
            // and the gap holds it and half the rank spacing more
            #expect(m.gap >= label + 6 + LayoutOptions.curveLayerSpacing / 2, "\(rankdir)")
        }
    }

    /// Each label, centred where the layout puts it (`edgeGeometry(_:).labelPosition`) at the
    /// layout's measure of it (50 wide, 52 deep), overlaps no node: the arc's lies in the gap
    /// before the rank, the others between their ends.
    @Test func noLabelOverlapsANode() throws {
        for rankdir in ["", "rankdir=LR;", "rankdir=BT;"] {
            let s = FlowStore<JSONValue>()
            try s.load(Self.graph(rankdir), format: .dot)
            for e in s.edges where e.label != nil {
                let p = try s.edgeGeometry(e.id).labelPosition
                let box = Rect(x: p.x - 25, y: p.y - 26, width: 50, height: 52)
                for n in s.nodes {
                    #expect(!box.intersects(n.frame), "\(rankdir) \(e.sourceNodeID)->\(e.targetNodeID) over \(n.id)")
                }
            }
        }
    }
}
