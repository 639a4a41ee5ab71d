import Testing
@testable import FlowCore

@Suite("Node paths and reveal") struct NodePathTests {
    @Test func pathsThroughTheGroupTree() throws {
        let s = Store()
        try s.addNode(node("checkout", container: true))
        try s.addNode(node("payment", parent: "checkout", container: true))
        try s.addNode(node("card", parent: "payment"))
        try s.addNode(node("a/b%c"))
        #expect(try s.nodePath("card") == "checkout/payment/card")
        #expect(try s.nodePath("a/b%c") == "a%2Fb%25c")
        #expect(try s.node(atPath: "checkout/payment/card")?.id == "card")
        #expect(try s.node(atPath: "a%2fb%25c")?.id == "a/b%c")
        #expect(try s.node(atPath: "payment/card") == nil)  // not from the root
        #expect(try s.node(atPath: "checkout/card") == nil)
        #expect(try s.node(atPath: "x/checkout/payment/card") == nil)
        #expect(try s.node(atPath: "nothing") == nil)
        #expect(throws: FlowError.invalidValue("find", "invalid path 'a//b' (empty segment)")) {
            try s.node(atPath: "a//b")
        }
        #expect(throws: FlowError.invalidValue("find", "invalid path '' (empty segment)")) { try s.node(atPath: "") }
        #expect(throws: FlowError.invalidValue("find", "invalid path 'a%2' ('%' must be followed by two hex digits)")) {
            try s.node(atPath: "a%2")
        }
        #expect(throws: FlowError.unknownNode("nodePath", "x")) { try s.nodePath("x") }
        for id in ["checkout", "payment", "card", "a/b%c"] {
            #expect(try s.node(atPath: try s.nodePath(id))?.id == id)
        }
    }

    @Test func revealSelectsAndFits() throws {
        let s = Store()
        try s.addNode(node("a", 0, 0))
        try s.addNode(node("b", 1000, 500, 100, 50))
        s.clearHistory()
        #expect(try s.reveal("b"))
        #expect(s.selectedNodeIDs == ["b"] && s.focusedTarget == .node("b"))
        // 100x50 with padding 50 fits 800x600 at zoom 1: centred
        #expect(s.viewport == Viewport(offset: Point(-1000 + 350, -500 + 275), zoom: 1))
        #expect(try !s.reveal("b"))
        #expect(try s.reveal("b", canvasSize: Size(100, 100), padding: 0))
        #expect(s.viewport.zoom == 1)
        #expect(!s.canUndo)
        #expect(throws: FlowError.unknownNode("reveal", "x")) { try s.reveal("x") }
        #expect(throws: FlowError.invalidValue("reveal", "canvas size must be positive numbers")) {
            try s.reveal("a", canvasSize: Size(0, 10))
        }
        #expect(s.selectedNodeIDs == ["b"])
    }
}
