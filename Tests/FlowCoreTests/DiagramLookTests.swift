import Testing

@testable import FlowCore

/// A diagram's title and page colour (`FlowDocument.look`, `FlowStore.diagramLook`): in the
/// document's JSON, kept by load and export, and by a replayed load (#38).
@Suite struct DiagramLookTests {
    static let look = DiagramLook(
        title: "Title \"quoted\"\nsecond", titlePlace: .top, fontName: "Helvetica", fontSize: 20,
        textColor: FlowColor("#000080"), background: FlowColor("#ffffe0"), nodeSpacing: 18, layerSpacing: 36.5,
        equalLayerSpacing: true, direction: .LR)

    static func document() -> FlowDocument<JSONValue> {
        FlowDocument(
            nodes: [FlowNode(id: "a", position: .zero, data: .null)], look: look)
    }

    @Test func documentsKeepIt() throws {
        let text = try Self.document().encoded()
        #expect(text.contains("\"diagram\": {"))
        let back = try FlowDocument<JSONValue>.decode(text)
        #expect(back.look == Self.look)
        // an empty look is not written
        #expect(try !FlowDocument<JSONValue>(nodes: []).encoded().contains("diagram"))
    }

    @Test func theStoreKeepsItThroughLoadExportAndReplay() throws {
        let s = FlowStore<JSONValue>()
        let recorder = FlowActionRecorder<JSONValue>()
        s.actionRecorder = recorder
        _ = try s.load(Self.document())
        #expect(s.diagramLook == Self.look)
        #expect(s.document().look == Self.look)
        #expect(try FlowDocument<JSONValue>.decode(s.export()).look == Self.look)
        let t = FlowStore<JSONValue>()
        try t.replay(recorder.journal)
        #expect(t.diagramLook == Self.look)
        // a journal written as JSON and read back too
        let batch = try FlowBatch<JSONValue>(json: JSONValue.parse(recorder.journal[0].jsonText(), operation: "t"), operation: "t")
        let u = FlowStore<JSONValue>()
        try u.replay([batch])
        #expect(u.diagramLook == Self.look)
        // loading another document replaces it
        _ = try s.load(FlowDocument(nodes: []))
        #expect(s.diagramLook.isEmpty)
    }

    @Test func badValuesAreRefused() throws {
        let bad = [
            ("{\"diagram\": {\"fontSize\": -1}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.fontSize"),
            ("{\"diagram\": {\"titlePlace\": \"left\"}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.titlePlace"),
            ("{\"diagram\": {\"background\": \"yellow\"}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.background"),
            ("{\"diagram\": {\"nodeSpacing\": -1}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.nodeSpacing"),
            ("{\"diagram\": {\"layerSpacing\": \"wide\"}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.layerSpacing"),
            ("{\"diagram\": {\"equalLayerSpacing\": 1}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.equalLayerSpacing"),
            ("{\"diagram\": {\"direction\": \"TD\"}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.direction: expected TB, BT, LR or RL, found 'TD'"),
            ("{\"diagram\": {\"direction\": 2}, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram.direction: expected a string"),
            ("{\"diagram\": 3, \"edges\": [], \"nodes\": [], \"viewport\": {\"offset\": [0, 0], \"zoom\": 1}}", "diagram: expected an object"),
        ]
        for (text, path) in bad {
            let message = decodeError(text)
            #expect(message?.contains(path) == true, "\(message ?? "decoded")")
        }
        let s = FlowStore<JSONValue>()
        _ = try s.load(FlowDocument(nodes: [FlowNode(id: "a", position: .zero, data: .null)]))
        #expect(throws: FlowError.self) { _ = try s.load(FlowDocument(nodes: [], look: DiagramLook(fontSize: .nan))) }
        #expect(throws: FlowError.self) { _ = try s.load(FlowDocument(nodes: [], look: DiagramLook(layerSpacing: 2e6))) }
        #expect(s.nodes.map(\.id) == ["a"])
        #expect(s.nodeCount == 1)  // the store is left as it was
    }
}
