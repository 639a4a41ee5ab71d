import FlowCore
import FlowLayout
import Testing

/// A labelled edge between two nodes gets a layer for its label; that layer is half a gap
/// from the nodes' layers, so the edge takes the spacing and the label's height, as dot draws
/// it, not two whole spacings.
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

    @Test func layersWithNodesKeepTheWholeGap() throws {
        // n0 -> n1 labelled, n0 -> n2 -> n1: n2 sits in the label's layer, which holds a node
        let store = Store()
        for i in 0..<3 { try store.addNode(FlowNode(id: "n\(i)", position: .zero, size: Size(100, 40), data: .null)) }
        try store.addEdge(FlowEdge(id: "a", sourceNodeID: "n0", targetNodeID: "n1", label: "direct"))
        try store.addEdge(FlowEdge(id: "b", sourceNodeID: "n0", targetNodeID: "n2"))
        try store.addEdge(FlowEdge(id: "c", sourceNodeID: "n2", targetNodeID: "n1"))
        try store.layout(LayoutRequest(options: LayoutOptions(direction: .TB, nodeSpacing: 30, layerSpacing: 60)))
        #expect(store.node("n2")!.frame.minY - store.node("n0")!.frame.maxY == 60)
        #expect(store.node("n1")!.frame.minY - store.node("n2")!.frame.maxY == 60)
    }
}
