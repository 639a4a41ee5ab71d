import CLua
import CLuaShims
import Glibc
import Testing

@testable import FlowLua

/// One lifecycle (#39): `close()` on every object that holds something, `<close>`, one message
/// for a closed object's calls, and `ws:delete` of an open diagram closing its store.
@Suite struct LifecycleTests {
    @Test func storeCloseEndsTheStoreAndItsHandles() {
        let h = StoreHost()
        h.eval("s = flow.newStore(); n = s:addNode{id = 'a', x = 0, y = 0}; s:close()")
        #expect(h.errorOf("s:addNode{id = 'b', x = 0, y = 0}") == "attempt to use a closed Store")
        #expect(h.errorOf("return s.nodeCount") == "attempt to use a closed Store")
        #expect(h.errorOf("return n.x") == "attempt to use a closed Store")
        // closing again does nothing; close of something else raises
        #expect(h.eval("s:close() return tostring(s)") == "Store (closed)")
        #expect(h.errorOf("flow.newStore().close(42)").contains("Store expected"))
    }

    @Test func closeVariablesCloseStoresWorkspacesAndObservers() {
        let h = StoreHost()
        #expect(h.eval("do local s <close> = flow.newStore(); t = s end return tostring(t)") == "Store (closed)")
        #expect(h.eval("do local o <close> = flow.observe(print); p = o end return p.isActive") == "false")
        #expect(h.eval("local o = flow.observe(print); o:close() return o.isActive, o:stop()") == "false\tfalse")
    }

    @Test func encodeIsTheWriterOfDecodeAndTheOldNamesAreAliases() {
        let h = StoreHost()
        h.eval("s = flow.newStore(); s:addNode{id = 'a', x = 0, y = 0}; s:addNode{id = 'b', x = 200, y = 0}; s:connect('a', 'b')")
        #expect(h.eval("return s:encode() == s:export()") == "true")
        #expect(h.eval("return s:encode{format = 'dot'} == s:dot()") == "true")
        #expect(h.eval("return s:encode{format = 'mermaid'} == s:mermaid()") == "true")
        #expect(h.eval("return flow.decode(s:encode{format = 'dot'}, {format = 'dot'}).edgeCount") == "1")
        #expect(h.errorOf("s:encode{format = 'svg'}").contains("format"))
        #expect(h.errorOf("s:encode{colour = 1}").contains("unknown field 'colour'"))
    }

    @Test func saveTakesTheFormatOpenTakes() throws {
        let h = StoreHost()
        let path = "/tmp/flow-lifecycle-\(getpid()).txt"
        defer { unlink(path) }
        h.eval("s = flow.newStore(); s:addNode{id = 'a', x = 0, y = 0}; s:addNode{id = 'b', x = 200, y = 0}; s:connect('a', 'b')")
        #expect(h.eval("return s:save('\(path)', {format = 'dot'})") == "true")
        #expect(h.eval("return flow.open('\(path)', {format = 'dot'}).edgeCount") == "1")
        #expect(h.errorOf("s:save('\(path)', {format = 'dot', theme = 'dark'})").contains("unknown field 'theme'"))
    }

    /// A host whose `package.preload` has the workspace module, as flowrepl's.
    static func workspaceHost() -> StoreHost {
        let h = StoreHost()
        let L = h.host.L
        lua_getfield(L, FLUA_REGISTRYINDEX, "_PRELOAD")
        lua_pushcclosure(L, luaopen_flow_workspace, 0)
        lua_setfield(L, -2, "flow.workspace")
        flua_pop(L, 1)
        return h
    }

    @Test func deletingAnOpenDiagramClosesItsStore() {
        let h = Self.workspaceHost()
        let path = "/tmp/flow-lifecycle-\(getpid())-\(Int.random(in: 0..<1_000_000)).flowspace"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        h.eval("ws = assert(flow.workspace('\(path)')); s = ws:create('d'); s:addNode{id = 'a', x = 0, y = 0}")
        #expect(h.eval("ws:delete('d') return #ws:list()") == "0")
        #expect(h.errorOf("s:addNode{id = 'b', x = 0, y = 0}") == "attempt to use a closed Store")
        // a store closed by the script unbinds its diagram: it can be opened again
        #expect(h.eval("local t = ws:create('e'); t:close(); return ws:open('e').name") == "e")
        h.eval("ws:close()")
        #expect(h.errorOf("ws:list()") == "attempt to use a closed Workspace")
        #expect(h.eval("return ws.path == '\(path)'") == "true")
        #expect(h.eval("do local w <close> = assert(flow.workspace('\(path)')); v = w end return tostring(v):sub(-8)") == "(closed)")
    }

    @Test func workspaceIsLoadedOnFirstUse() {
        let h = Self.workspaceHost()
        #expect(h.eval("return package.loaded['flow.workspace'] == nil") == "true")
        #expect(h.errorOf("flow.workspace()") == "bad argument #1 to 'flow.workspace' (string expected, got no value)")
        #expect(h.eval("return type(package.loaded['flow.workspace'].workspace)") == "function")
        // without the module, the call says which module it needs
        let bare = StoreHost()
        #expect(bare.errorOf("flow.workspace('x')").contains("module 'flow.workspace' not found"))
    }
}
