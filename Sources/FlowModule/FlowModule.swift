import FlowLua

/// The entry point of the loadable module: `require "flow"` in the stock `lua5.4` finds
/// `flow.so` (a symlink to libflow.so, see scripts/install-lua-module) and calls this.
/// libflow.so does not link liblua: it binds to the host interpreter's Lua API.
@_cdecl("luaopen_flow")
public func luaopen_flow(_ L: OpaquePointer?) -> Int32 {
    openFlowModule(L)
}
