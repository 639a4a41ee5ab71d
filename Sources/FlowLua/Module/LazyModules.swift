import CLua
import CLuaShims

/// Functions of `flow` whose code is a module of its own, loaded on the first call:
/// `flow.workspace` requires `flow.workspace` (FlowLuaWorkspace: Foundation, SQLite), so
/// that `require "flow"` maps neither (docs/embedding.md, "Weight").
enum LazyModules {
    /// `flow.<name>` → the module `flow.<name>`'s function `<name>`.
    static let functions = ["workspace"]

    /// Sets the lazy functions on the module table at `module` (`flua_pushlazy`: each
    /// requires its module as any require would, from `package.preload`, where in-process
    /// hosts put it (`FlowHooks.preloads`), or `package.cpath`, where `flow/workspace.so`
    /// sits beside `flow.so`). Never raises but on memory errors.
    static func install(_ L: OpaquePointer, module: Int32) {
        for name in functions {
            flua_pushlazy(L, "flow." + name, name)
            flua_namefunction(L, "flow." + name)
            lua_setfield(L, module, name)
        }
    }
}
