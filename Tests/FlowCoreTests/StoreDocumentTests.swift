import Testing
@testable import FlowCore

@Suite("Store documents") struct StoreDocumentTests {
    func sample() throws -> Store {
        let s = Store()
        try s.addNode(node("g", 0, 0, 400, 300, container: true))
        try s.addNode(node("a", 10.5, 20, parent: "g"))
        try s.addNode(FlowNode(id: "t", position: Point(1, 2), data: .null, persistence: .transient))
        try s.addNode(FlowNode(id: "b", position: Point(500, 20), data: .object(JSONObject([("label", .string("B")), ("n", .number(3))])), isDraggable: false, zIndex: 3))
        try s.addEdge(FlowEdge(id: "e1", sourceNodeID: "a", sourceHandleID: "source", targetNodeID: "b", targetHandleID: "target", parentID: "g", pathType: .smoothStep, label: "yes"))
        try s.addEdge(edge("e2", "t", "b"))
        try s.selectNode("a")
        try s.setViewport(Viewport(offset: Point(-5, 7.25), zoom: 1.5))
        return s
    }

    @Test func exportKeepsFieldsDropsTransientAndFlags() throws {
        let s = try sample()
        let doc = s.document()
        #expect(doc.nodes.map(\.id) == ["g", "a", "b"])
        #expect(doc.edges.map(\.id) == ["e1"])
        #expect(doc.nodes[2].isDraggable == false)  // D4: kept as in the store
        let text = try s.export()
        #expect(!text.contains("isSelected"))
        #expect(text.contains("\"version\": 1"))
        #expect(s.selectedNodeIDs == ["a"])  // the store is not changed
    }

    /// export writes from the store's tables; document().encoded() from a copy: the same text,
    /// transient nodes, the edges touching them and the parents they were dropped.
    @Test func exportIsTheDocumentsText() throws {
        let s = try sample()
        try s.addNode(FlowNode(id: "tg", position: Point(0, 400), size: Size(300, 200), data: .null, persistence: .transient, acceptsChildren: true))
        try s.addNode(node("c", 10, 410, parent: "tg"))
        try s.addEdge(FlowEdge(id: "e3", sourceNodeID: "c", targetNodeID: "b", parentID: "tg"))
        try s.addEdge(FlowEdge(id: "e4", sourceNodeID: "a", targetNodeID: "c", parentID: "g"))
        let text = try s.export()
        #expect(text == (try s.document().encoded()))
        #expect(!text.contains("\"tg\"") && text.contains("\"e3\"") && text.contains("\"e4\""))
        // every node persistent: nothing dropped, parents kept
        for id in ["t", "tg"] { try s.removeNode(id) }
        #expect(try s.export() == (try s.document().encoded()))
        #expect(try s.export().contains("\"parentID\": \"g\""))
    }

    @Test func roundTripIsExact() throws {
        let s = try sample()
        let text = try s.export()
        let t = Store()
        #expect(try t.load(json: text).isEmpty)
        #expect(try t.export() == text)
        #expect(t.viewport == Viewport(offset: Point(-5, 7.25), zoom: 1.5))
        #expect(!t.canUndo)
    }

    @Test func invalidJSONLeavesTheStoreUnchanged() throws {
        let s = try sample()
        let before = try s.export()
        let log = EventLog(s)
        #expect(throws: FlowError.self) { try s.load(json: "{ nope") }
        #expect(throws: FlowError.self) { try s.load(json: #"{"nodes": [], "edges": []}"#) }
        #expect(throws: FlowError.self) {
            try s.load(json: #"{"nodes": [{"id": "a", "position": [0], "size": [1, 1]}], "edges": [], "viewport": {"offset": [0, 0], "zoom": 1}}"#)
        }
        #expect(try s.export() == before)
        #expect(s.selectedNodeIDs == ["a"])
        #expect(log.take().isEmpty)
    }

    @Test func loadRepairsAndReports() throws {
        let text = """
            {"nodes": [
              {"id": "a", "position": [0, 0], "size": [10, 10], "parentID": "b", "acceptsChildren": true},
              {"id": "b", "position": [0, 0], "size": [10, 10], "parentID": "a", "acceptsChildren": true},
              {"id": "a", "position": [5, 5], "size": [10, 10]},
              {"id": "c", "position": [0, 0], "size": [10, 10], "parentID": "nope"},
              {"id": "d", "position": [0, 0], "size": [10, 10], "data": {"k": 1}}
            ],
            "edges": [
              {"id": "e1", "sourceNodeID": "a", "targetNodeID": "b"},
              {"id": "e1", "sourceNodeID": "b", "targetNodeID": "a"},
              {"id": "e2", "sourceNodeID": "a", "targetNodeID": "zz"},
              {"id": "e3", "sourceNodeID": "a", "sourceHandleID": "target", "targetNodeID": "b"},
              {"id": "e4", "sourceNodeID": "a", "sourceHandleID": "nope", "targetNodeID": "b"},
              {"id": "e5", "sourceNodeID": "c", "targetNodeID": "d", "parentID": "d"}
            ],
            "viewport": {"offset": [0, 0], "zoom": 1}}
            """
        let s = Store()
        let warnings = try s.load(json: text)
        #expect(warnings == [
            "dropped duplicate node 'a'",
            "cleared the parent of node 'a': it has parent 'b' in a cycle; the link was broken here",
            "cleared the parent of node 'c': it has missing parent 'nope'",
            "dropped duplicate edge 'e1'",
            "dropped edge 'e2': target node 'zz' does not exist",
            "dropped edge 'e3': node 'a' has no source handle 'target'",
            "dropped edge 'e4': node 'a' has no source handle 'nope'",
            "cleared the parent of edge 'e5': node 'd' is missing or does not accept children",
        ])
        #expect(s.node("b")?.parentID == "a")
        #expect(s.node("a")?.parentID == nil)
        #expect(s.node("a")?.position == .zero)
        #expect(s.node("d")?.data == .object(JSONObject([("k", .number(1))])))
        #expect(s.node("c")?.data == .null)
        #expect(s.edges.map(\.id) == ["e1", "e5"])
        #expect(s.checkInvariants().isEmpty)
    }

    @Test func loadClearsInteractionStateAndHistory() throws {
        let s = try sample()
        try s.setHoveredNode("b")
        try s.interaction.beginConnection(nodeID: "a", handleID: "source")
        try s.setEdgeAnimated("e1", true)
        let text = try s.export()
        try s.load(json: text)
        #expect(s.selectedNodeIDs.isEmpty && s.hoveredNodeID == nil && s.interaction.connectionDraft == nil)
        #expect(s.animatedEdgeIDs.isEmpty && s.focusedTarget == nil && !s.canUndo)
        #expect(s.nextNodeID() == "n1")
    }
}
