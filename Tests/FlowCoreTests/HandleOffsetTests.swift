import Testing

@testable import FlowCore

/// A handle's offset along its side: in documents, in the store's checks and edge ends.
@Suite struct HandleOffsetTests {
    static let handles = #"[{"id":"p","type":"source","position":"bottom","offset":0.25},{"id":"t","type":"target","position":"top"}]"#

    @Test func documentsReadAndWriteTheOffset() throws {
        let text = documentText(nodes: [#"{"id":"a","position":[0,0],"size":[100,40],"data":"x","handles":\#(Self.handles)}"#])
        let typed = try FlowDocument<String>.decode(text)
        let json = try FlowDocument<JSONValue>.decode(text)
        for handles in [typed.nodes[0].handles, json.nodes[0].handles] {
            #expect(handles.map(\.offset) == [0.25, 0])
        }
        let out = try typed.encoded()
        // written only when not 0
        #expect(out.contains("\"offset\": 0.25") && !out.contains("\"offset\": 0,"))
        #expect(try FlowDocument<String>.decode(out).nodes[0].handles == typed.nodes[0].handles)
    }

    @Test func edgesEndAtTheOffsetAndBadOffsetsAreRefused() throws {
        let store = FlowStore<String>()
        let handles = [
            HandleDeclaration(id: "p", type: .source, position: .bottom, offset: 0.25),
            HandleDeclaration(id: "t", type: .target, position: .top, offset: -0.5),
        ]
        try store.addNode(FlowNode(id: "a", position: Point(0, 0), size: Size(100, 40), data: "a", handles: handles))
        try store.addNode(FlowNode(id: "b", position: Point(0, 200), size: Size(100, 40), data: "b", handles: handles))
        try store.addEdge(FlowEdge(id: "e", sourceNodeID: "a", sourceHandleID: "p", targetNodeID: "b", targetHandleID: "t"))
        let g = try store.edgeGeometry("e")
        #expect(g.sourcePoint == Point(75, 40))
        #expect(g.targetPoint == Point(0, 200))
        #expect(store.handleInfo(nodeID: "a", handleID: "p")?.point == Point(75, 40))
        for bad in [0.6, -0.51, Double.nan] {
            let h = [HandleDeclaration(id: "h", type: .source, position: .left, offset: bad)]
            #expect(throws: FlowError.self) {
                try store.addNode(FlowNode(id: "c", position: .zero, size: Size(10, 10), data: "c", handles: h))
            }
        }
        #expect(store.node("c") == nil)
    }
}
