import CLua
import FlowCore
import Testing

@testable import FlowLua

/// `LuaStoreBox.hostCall`: a store call made from Swift (a preview page's click or drag)
/// behaves as the same call made from Lua: the same event lines, the same callbacks, one
/// undo step, errors named after the call and no change when it fails.
@Suite struct HostCallTests {
    static let setUp = """
        s = flow.newStore()
        s:addNode{id='a', x=0, y=0, width=100, height=100}
        s:addNode{id='b', x=300, y=0, width=100, height=100}
        s:connect('a', 'b')
        log = {}
        s.onNodesChange = function(c) log[#log + 1] = #c .. ' ' .. c[1].type end
        s.onNodeDoubleTap = function(id) log[#log + 1] = 'double ' .. id end
        """

    func box(_ h: StoreHost) throws -> LuaStoreBox {
        let L = h.host.L
        h.host.pushGlobal("s")
        defer { lua_settop(L, -2) }
        return try #require(LuaStoreBox.at(L, -1))
    }

    /// Runs the same gestures from Lua and from Swift in two fresh states; returns what
    /// each printed, logged and left.
    func both(lua: String, swift: (LuaStoreBox, OpaquePointer) -> Void) throws -> (String, String) {
        var results: [String] = []
        for viaSwift in [false, true] {
            let h = StoreHost(events: true)
            h.eval(Self.setUp)
            h.events = []
            if viaSwift { swift(try box(h), h.host.L) } else { h.eval(lua) }
            let state = h.eval("return table.concat(log, ';'), s:node('b').x, table.concat(s.selectedNodeIDs, ','), s.canUndo")
            h.eval("s:undo()")
            let undone = h.eval("return s:node('b').x")
            results.append(h.events.joined(separator: "\n") + "|" + state + "|" + undone + "|" + h.errors.joined())
        }
        return (results[0], results[1])
    }

    @Test func aDragIsTheSameAsFromLua() throws {
        let (lua, swift) = try both(lua: "s:pointerDown(350, 50) s:pointerMove(380, 70) s:pointerUp(400, 90)") { box, L in
            #expect(box.hostCall(L, "pointerDown", interaction: true) { try $0.interaction.pointerDown(at: Point(350, 50)) } == nil)
            #expect(box.hostCall(L, "pointerMove") { _ = try $0.interaction.pointerMove(to: Point(380, 70)) } == nil)
            #expect(box.hostCall(L, "pointerUp", interaction: true) { _ = try $0.interaction.pointerUp(at: Point(400, 90)) } == nil)
        }
        #expect(lua == swift)
        #expect(swift.contains("node~ b position (350, 40)"), "\(swift)")
        #expect(swift.contains("\t350\tb\ttrue|"), "\(swift)")  // moved, selected, undoable
    }

    @Test func aDoubleTapCallsTheHandlerAsFromLua() throws {
        let (lua, swift) = try both(lua: "s:tap(50, 50) s:tap(50, 50)") { box, L in
            for _ in 0..<2 {
                #expect(box.hostCall(L, "pointerDown", interaction: true) { try $0.interaction.pointerDown(at: Point(50, 50)) } == nil)
                #expect(box.hostCall(L, "pointerUp", interaction: true) { _ = try $0.interaction.pointerUp(at: Point(50, 50)) } == nil)
            }
        }
        #expect(lua == swift)
        #expect(swift.contains("double a"), "\(swift)")
    }

    @Test func selectionAsFromLua() throws {
        let (lua, swift) = try both(lua: "s:selectNode('a') s:selectNode('b', false) s:clearSelection() s:selectEdge('e1')") { box, L in
            #expect(box.hostCall(L, "selectNode") { try $0.selectNode("a", exclusive: true) } == nil)
            #expect(box.hostCall(L, "selectNode") { try $0.selectNode("b", exclusive: false) } == nil)
            #expect(box.hostCall(L, "clearSelection") { $0.clearSelection() } == nil)
            #expect(box.hostCall(L, "selectEdge") { try $0.selectEdge("e1", exclusive: true) } == nil)
        }
        #expect(lua == swift)
        #expect(swift.contains("edge* e1 selected"), "\(swift)")
    }

    @Test func aFailureIsNamedAndChangesNothing() throws {
        let h = StoreHost(events: true)
        h.eval(Self.setUp)
        h.eval("s:selectNode('a')")
        h.events = []
        let b = try box(h)
        let L = h.host.L
        let top = lua_gettop(L)
        #expect(b.hostCall(L, "selectNode") { try $0.selectNode("nope", exclusive: true) } == "selectNode: no node with id 'nope'")
        #expect(b.hostCall(L, "pointerDown", interaction: true) { try $0.interaction.pointerDown(at: Point(.nan, 0)) }?.hasPrefix("pointerDown: ") == true)
        #expect(lua_gettop(L) == top)
        #expect(h.events.isEmpty)
        #expect(h.eval("return table.concat(s.selectedNodeIDs, ',')") == "a")
        // a handler that fails: reported as at the prompt, its change rolled back
        h.eval("s.onNodeDoubleTap = function(id) s:moveNode('b', 999, 0) error('no thanks') end")
        for _ in 0..<2 {
            _ = b.hostCall(L, "pointerDown", interaction: true) { try $0.interaction.pointerDown(at: Point(50, 50)) }
            _ = b.hostCall(L, "pointerUp", interaction: true) { _ = try $0.interaction.pointerUp(at: Point(50, 50)) }
        }
        #expect(h.errors.contains { $0.contains("no thanks") }, "\(h.errors)")
        #expect(h.eval("return s:node('b').x") == "300")
        b.shutdown()  // what closing or collecting the store does
        #expect(b.hostCall(L, "clearSelection") { $0.clearSelection() } == "clearSelection: attempt to use a closed Store")
    }

    @Test func theStoresOfAStateAndTheirGlobalNames() throws {
        let h = StoreHost()
        h.eval("s = flow.newStore() local t = flow.newStore() keep = {t} other = s")
        let L = h.host.L
        let all = LuaStoreBox.all(in: L)
        #expect(all.map(\.number) == [1, 2])
        let names = LuaStoreBox.globalNames(in: L)
        #expect(["s", "other"].contains(names[ObjectIdentifier(all[0])] ?? ""))
        #expect(names[ObjectIdentifier(all[1])] == nil)  // held only by a table
        #expect(all[1].storeName == "store#2")
        h.eval("keep = nil collectgarbage() collectgarbage()")
        #expect(LuaStoreBox.all(in: L).count == 1)
    }
}
