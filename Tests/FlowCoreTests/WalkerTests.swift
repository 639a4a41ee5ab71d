import Testing
@testable import FlowCore

/// An order machine: received -> paid? (yes: stock, no: cancelled); stock -> shipped.
private func machine() throws -> Store {
    let s = Store()
    let decision = [
        HandleDeclaration(id: "in", type: .target, position: .top),
        HandleDeclaration(id: "yes", type: .source, position: .right),
        HandleDeclaration(id: "no", type: .source, position: .left),
    ]
    for id in ["received", "stock", "cancelled", "shipped"] { try s.addNode(node(id)) }
    try s.addNode(node("paid", handles: decision))
    try s.addEdge(edge("e1", "received", "paid"))
    try s.addEdge(FlowEdge(id: "e2", sourceNodeID: "paid", sourceHandleID: "yes", targetNodeID: "stock", label: "ok"))
    try s.addEdge(FlowEdge(id: "e3", sourceNodeID: "paid", sourceHandleID: "no", targetNodeID: "cancelled", label: "no"))
    try s.addEdge(edge("e4", "stock", "shipped"))
    return s
}

@Suite("Walker") struct WalkerTests {
    @Test func walksAndShowsItsStep() throws {
        let s = try machine()
        var moves: [FlowWalker<JSONValue>.Move] = []
        s.clearHistory()
        let w = try s.walk(from: "received", onMove: { moves.append($0) })
        #expect(s.selectedNodeIDs == ["received"] && s.animatedEdgeIDs == ["e1"])
        #expect(!w.canGoBack)
        try w.next()
        #expect(w.current == "paid" && s.selectedNodeIDs == ["paid"] && s.animatedEdgeIDs == ["e2", "e3"])
        #expect(try w.options().map(\.id) == ["e2", "e3"])
        #expect(try w.next("yes").edge == "e2")  // a source handle
        try w.back()
        #expect(try w.next("no").edge == "e3")  // a handle before a label: e3's handle is "no"
        try w.back()
        #expect(try w.next("ok").edge == "e2")  // a label
        try w.next()
        #expect(w.current == "shipped" && w.visitedNodeIDs == ["received", "paid", "stock", "shipped"])
        #expect(s.animatedEdgeIDs.isEmpty)
        #expect(throws: FlowError.invalidState("next", "no way on from 'shipped'")) { try w.next() }
        try w.reset()
        #expect(w.current == "received" && w.steps.isEmpty && !w.canGoBack)
        #expect(moves.first == .start("received") && moves.last == .reset(from: "shipped", to: "received"))
        #expect(!s.canUndo)  // showing steps records nothing
    }

    @Test func errorsNameTheWaysOn() throws {
        let s = try machine()
        let w = try s.walk(from: "paid")
        let ways = "e2 (handle yes, label \"ok\") -> stock, e3 (handle no, label \"no\") -> cancelled"
        #expect(throws: FlowError.invalidState("next", "2 ways on from 'paid', choose one: \(ways)")) { try w.next() }
        #expect(throws: FlowError.invalidState("next", "no way 'maybe' from 'paid'; the ways on: \(ways)")) {
            try w.next("maybe")
        }
        #expect(throws: FlowError.invalidState("back", "no step to go back (the walker is at its start)")) {
            try w.back()
        }
        try s.addEdge(FlowEdge(id: "e5", sourceNodeID: "paid", sourceHandleID: "yes", targetNodeID: "shipped"))
        #expect(throws: FlowError.self) { try w.next("yes") }  // two ways leave handle yes
        #expect(try w.next("e5").to == "shipped")
    }

    @Test func guardClosesEdgesAndItsErrorsPropagate() throws {
        let s = try machine()
        var paid = false
        struct Boom: Error {}
        let w = try s.walk(from: "paid", edgeGuard: { e in
            if e.id == "e4" { throw Boom() }
            return e.id != "e2" || paid
        })
        #expect(try w.options().map(\.id) == ["e3"])
        #expect(throws: FlowError.invalidState("next", "the guard closes 'yes' from 'paid'; the ways on: e3 (handle no, label \"no\") -> cancelled")) {
            try w.next("yes")
        }
        paid = true
        // moving to stock asks the guard for stock's ways on (to show them): it throws, and
        // the walker stays where it was
        #expect(throws: Boom.self) { try w.next("yes") }
        #expect(w.current == "paid" && w.steps.isEmpty && s.selectedNodeIDs == ["paid"])
    }

    @Test func storeChangingUnderTheWalker() throws {
        let s = try machine()
        let w = try s.walk(from: "received")
        try w.next()
        try s.removeNode("paid")
        #expect(throws: FlowError.invalidState("options", "node 'paid' no longer exists")) { try w.options() }
        #expect(throws: FlowError.invalidState("next", "node 'paid' no longer exists")) { try w.next() }
        try w.back()
        #expect(w.current == "received" && s.selectedNodeIDs == ["received"] && s.animatedEdgeIDs.isEmpty)
        #expect(throws: FlowError.unknownNode("walk", "paid")) { try s.walk(from: "paid") }
    }

    @Test func reentrantCallsAreRefused() throws {
        let s = try machine()
        var inner: Error?
        var w: FlowWalker<JSONValue>?
        w = try s.walk(from: "received", edgeGuard: { _ in
            if let w { do { _ = try w.options() } catch { inner = error } }
            return true
        })
        _ = try w!.options()
        #expect((inner as? FlowError)?.message == "the walker is busy (called from its guard or an event)")
    }
}
