import FlowCore
import FlowLayout
import Testing

/// A labelled edge between two nodes has its label in a half layer between theirs, 0.4 of a
/// gap from each, so the edge takes less than a spacing more than the label's height, as dot
/// draws it, not two whole spacings. With a label anywhere, every edge spans twice its layers
/// (dot's label ranks): the labels share those half layers, and two layers of nodes with no
/// label between them are two such gaps apart.
@Suite struct LabelLayerTests {
    private func chain(labels: [String?]) throws -> Store {
        let store = Store()
        for i in 0...labels.count {
            try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(100, 40), data: .null))
        }
        for (i, label) in labels.enumerated() {
            try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "n\(i)", targetNodeID: "n\(i + 1)", label: label))
        }
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .TB, nodeSpacing: 30, layerSpacing: 60)))
        return store
    }

    @Test func aLabelLayerIsHalfAGapFromItsNodes() throws {
        let plain = try chain(labels: [nil])
        let gap = plain.node("n1")!.frame.minY - plain.node("n0")!.frame.maxY
        #expect(gap == 60)
        let labelled = try chain(labels: ["yes"])
        let labelGap = labelled.node("n1")!.frame.minY - labelled.node("n0")!.frame.maxY
        // half a gap, the label's layer, half a gap
        #expect(labelGap > 60 && labelGap < 60 + 40, "\(labelGap)")
    }

    @Test func aLabelBesideANodeSharesItsLayer() throws {
        // n0 -> n1 labelled, n0 -> n2 -> n1: the label's half layer is n2's layer, and the
        // half layers between the nodes hold only edges
        let store = Store()
        for i in 0..<3 { try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(100, 40), data: .null)) }
        try store.addEdge(FlowEdge(id: "a", sourceNodeID: "n0", targetNodeID: "n1", label: "direct"))
        try store.addEdge(FlowEdge(id: "b", sourceNodeID: "n0", targetNodeID: "n2"))
        try store.addEdge(FlowEdge(id: "c", sourceNodeID: "n2", targetNodeID: "n1"))
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .TB, nodeSpacing: 30, layerSpacing: 60)))
        #expect(store.node("n2")!.frame.minY - store.node("n0")!.frame.maxY == 48)
        #expect(store.node("n1")!.frame.minY - store.node("n2")!.frame.maxY == 48)
        // the label is centred on n2's layer
        let g = LayoutGraph(
            nodes: (0..<3).map { _ in .init(width: 100, height: 40) },
            edges: [.init(source: 0, target: 1, labelSize: Size(40, 16)), .init(source: 0, target: 2), .init(source: 2, target: 1)])
        let r = LayeredLayout.layout(g, options: LayoutOptions(direction: .TB, nodeSpacing: 30, layerSpacing: 60))
        #expect(r.labelPositions[0]?.y == r.positions[2].y + 20)
    }

    @Test func anUnlabelledEdgeTakesTwoLabelGapsBesideALabel() throws {
        // n0 -"yes"-> n1 -> n2: the label's half layer between n0 and n1, an empty one
        // between n1 and n2 (its edge bends there), 0.4 of a gap on either side
        let store = try chain(labels: ["yes", nil])
        let labelled = store.node("n1")!.frame.minY - store.node("n0")!.frame.maxY
        #expect(labelled > 48 && labelled < 48 + 40, "\(labelled)")
        #expect(store.node("n2")!.frame.minY - store.node("n1")!.frame.maxY == 48)
    }

    @Test func aPartWithoutLabelsKeepsItsLayers() throws {
        // a -> b beside x -"yes"-> y, not connected: only x and y's part has label ranks
        let store = Store()
        for id in ["a", "b", "x", "y"] {
            try store.addNode(FlowNode(id: id, position: .zero, size: Size(100, 40), data: .null))
        }
        try store.addEdge(FlowEdge(id: "ab", sourceNodeID: "a", targetNodeID: "b"))
        try store.addEdge(FlowEdge(id: "xy", sourceNodeID: "x", targetNodeID: "y", label: "yes"))
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .TB, nodeSpacing: 30, layerSpacing: 60)))
        #expect(store.node("b")!.frame.minY - store.node("a")!.frame.maxY == 60)
        let labelled = store.node("y")!.frame.minY - store.node("x")!.frame.maxY
        #expect(labelled > 48 && labelled < 48 + 40, "\(labelled)")
    }
}
