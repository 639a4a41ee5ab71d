import CLuaShims
import FlowLua

/// The entry point of the loadable module: `require "flow"` in the stock `lua5.4` finds
/// `flow.so` (a symlink to libflow.so, see scripts/install-lua-module) and calls this.
/// libflow.so does not link liblua: it binds to the host interpreter's Lua API.
///
/// The library first marks itself as never to be unloaded: `lua_close` unloads it at exit
/// while the threads a closed workspace leaves behind (SQLite's, Dispatch's) may still run
/// its code, which crashed `lua5.4` at exit now and then (scripts/lua-exit-soak).
@_cdecl("luaopen_flow")
public func luaopen_flow(_ L: OpaquePointer?) -> Int32 {
    _ = flua_stay_loaded()
    return openFlowModule(L)
}
