import TestSupport
import Testing
@testable import FlowCore

/// Actions as values: every committed batch is journaled; replaying the journal on a
/// fresh store gives the same document, and replaying its first n batches gives the
/// document as it was after n batches.
@Suite("Actions: journal and replay") struct ActionJournalTests {
    /// Runs random calls on a recorded store; returns it, its recorder and the document
    /// after each batch (index 0: before any).
    static func session(seed: Int, calls: Int = 60) -> (Store, FlowActionRecorder<JSONValue>, [DocumentState]) {
        var rng = SplitMix64(seed: UInt64(seed))
        let s = Store()
        s.checksInvariants = true
        let recorder = FlowActionRecorder<JSONValue>()
        s.actionRecorder = recorder
        var states = [DocumentState(s)]
        for i in 0..<calls {
            if i == calls / 2 {
                try? s.setClassStyles(["hot": FlowClass(style: FlowStyle(fill: FlowColor("red")))])
            } else {
                try? StorePropertyTests.randomOperation(s, &rng)
            }
            #expect(recorder.journal.count <= states.count, "one batch per call at most")
            if recorder.journal.count == states.count { states.append(DocumentState(s)) }
        }
        return (s, recorder, states)
    }

    @Test(arguments: 0..<40)
    func replayGivesTheSameDocument(seed: Int) throws {
        let (s, recorder, states) = Self.session(seed: seed)
        let t = Store()
        t.checksInvariants = true
        try t.replay(recorder.journal)
        #expect(DocumentState(t) == DocumentState(s))
        #expect(try t.export() == s.export())
        #expect(t.classStyles == s.classStyles)
        // Through the JSON form, as a workspace stores it.
        var decoded: [FlowBatch<JSONValue>] = []
        for b in recorder.journal {
            let text = try b.jsonText()
            // the same value (style sheets are written with sorted keys)
            #expect(try JSONValue.parse(text).serialized(pretty: false) == b.jsonValue().serialized(pretty: false))
            decoded.append(try FlowBatch(json: JSONValue.parse(text), operation: "test"))
        }
        let u = Store()
        try u.replay(decoded)
        #expect(try u.export() == s.export())
        // Open at version n.
        for n in 0..<states.count {
            let v = Store()
            try v.replay(Array(recorder.journal.prefix(n)))
            #expect(DocumentState(v) == states[n], "version \(n) of seed \(seed)")
        }
    }

    @Test func undoAndRedoAreBatches() throws {
        let s = Store()
        let recorder = FlowActionRecorder<JSONValue>()
        s.actionRecorder = recorder
        try s.addNode(FlowNode(id: "a", position: Point(0, 0), data: .null))
        try s.moveNode("a", to: Point(10, 20))
        try s.undo()
        try s.redo()
        #expect(recorder.journal.map(\.name) == ["Add", "Move", "Undo Move", "Redo Move"])
        #expect(recorder.journal[1].actions == [.moveNode("a", to: Point(10, 20))])
        #expect(recorder.journal[2].actions == [.moveNode("a", to: Point(0, 0))])
    }

    @Test func aRefusedBatchLeavesTheStoreAsItWas() throws {
        let s = Store()
        s.checksInvariants = true
        try s.addNode(FlowNode(id: "a", position: Point(0, 0), data: .null))
        var refuse = false
        s.actionRecorder = FlowActionRecorder { _ in refuse ? FlowError(.io, operation: "workspace", message: "disk full") : nil }
        try s.addNode(FlowNode(id: "b", position: Point(5, 5), data: .null))
        refuse = true
        let before = try s.export()
        #expect(throws: FlowError(.io, operation: "workspace", message: "disk full")) { try s.moveNode("a", to: Point(3, 3)) }
        #expect(throws: FlowError.self) { try s.addNode(FlowNode(id: "c", position: Point(0, 0), data: .null)) }
        #expect(throws: FlowError.self) { try s.removeNode("a") }
        #expect(throws: FlowError.self) { try s.undo() }
        #expect(try s.export() == before)
        #expect(s.undoActionName == "Add")
        refuse = false
        try s.undo()
        #expect(s.node("b") == nil)
    }

    /// A drag tells its moves as it goes; when the batch at its end is refused, its nodes
    /// go back to where they started, and an event says so (what listeners were last told
    /// is where the nodes are).
    @Test func aRefusedDragPutsItsNodesBackAndSaysSo() throws {
        let s = Store()
        s.checksInvariants = true
        try s.addNode(node("a", 0, 0, 100, 50))
        let refusal = FlowError(.io, operation: "workspace", message: "refused")
        s.actionRecorder = FlowActionRecorder { b in b.name == "Move" ? refusal : nil }
        let log = EventLog(s)
        try s.interaction.pointerDown(at: Point(50, 25))
        try s.interaction.pointerMove(to: Point(70, 25))
        try s.interaction.pointerMove(to: Point(90, 25))
        #expect(throws: refusal) { try s.interaction.pointerUp(at: Point(90, 25)) }
        #expect(s.node("a")?.position == Point(0, 0))
        #expect(log.take().suffix(2) == ["N[position(a (40, 0))]", "N[position(a (0, 0))]"])
        #expect(!s.canUndo || s.undoActionName != "Move")
        #expect(throws: FlowError.self) { try s.moveNode("a", to: Point(5, 5)) }  // a refused call: no event
        #expect(log.take().isEmpty)
    }

    @Test func replayIsAllOrNothing() throws {
        let s = Store()
        try s.addNode(FlowNode(id: "a", position: Point(0, 0), data: .null))
        let before = try s.export()
        let bad: [FlowBatch<JSONValue>] = [
            FlowBatch(name: "Move", actions: [.moveNode("a", to: Point(1, 1))]),
            FlowBatch(name: "Edge", actions: [.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "zz"), seq: 0)]),
        ]
        #expect(throws: FlowError(.missingEndpoint, operation: "replay", message: "node 'zz' does not exist but has edges")) {
            try s.replay(bad)
        }
        #expect(try s.export() == before)
        #expect(throws: FlowError(.unknownNode, operation: "replay", message: "batch 1, action 1 (removeNode): no node with id 'q'")) {
            try s.replay([FlowBatch(name: "x", actions: [.removeNode("q")])])
        }
    }
}
