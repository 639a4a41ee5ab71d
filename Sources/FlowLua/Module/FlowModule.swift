import CLua
import CLuaShims

/// The `flow` module's version (`flow.version`).
public let flowVersion = "0.1.0"

/// Opens the `flow` module and returns it (one result): the body of `luaopen_flow`, and what
/// in-process hosts pass to `luaL_requiref`. Taking the address of the `@_cdecl` function
/// from another module gives duplicate symbols, so hosts use this constant.
///
/// It creates the state's `LuaContext`, a module table, and runs every installer of
/// `FlowHooks.moduleInstallers` on it. Never raises (except on a Lua version mismatch,
/// checked before anything else, and memory errors).
public let openFlowModule: @convention(c) (OpaquePointer?) -> Int32 = { L in
    fluaL_checkversion(L)
    let L = L.unsafelyUnwrapped
    _ = LuaContext.of(L)
    lua_createtable(L, 0, 8)
    let top = lua_gettop(L)
    for install in FlowHooks.moduleInstallers {
        install(L)
        lua_settop(L, top)
    }
    return 1
}

/// What the module has before the store binding: `flow.version`, `flow.null`, `flow.type`,
/// `flow.sandbox`.
public enum FlowBaseModule {
    /// Module installer: adds the base fields to the module table on top of the stack.
    public static func install(_ L: OpaquePointer) {
        let s = LuaStack(L)
        s.push(flowVersion)
        lua_setfield(L, -2, "version")
        LuaNull.push(L)
        lua_setfield(L, -2, "null")
        luaSetFunctions(
            L, [LuaMethod("type", flowType), LuaMethod("sandbox", FlowSandboxFunction.sandbox)], table: -1,
            qualifier: "flow.")
    }

    /// `flow.type(x)`: the registered type name of a flow userdata ("Store", "Node", …) or
    /// nil, like `io.type`.
    static let flowType: LuaFunction = { L in
        luaGuarded(L) { args in
            if args.count < 1 { throw LuaError.argument(1, "value expected") }
            args.push(LuaTypes.name(args.L, 1))
            return 1
        }
    }
}
