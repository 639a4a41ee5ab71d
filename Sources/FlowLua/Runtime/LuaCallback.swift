import CLua
import CLuaShims

/// A Lua function kept by Swift (a `luaL_ref` in the registry), e.g. `store.onConnect`.
///
/// `call` runs it with `lua_pcall` and a traceback handler. An error raised by the callback
/// is reported to the state's error sink (`LuaContext.errorOutput`: stderr in flowrepl)
/// and `call` returns false: it never raises through Swift. The one exception is an
/// interrupt (Ctrl-C, `LuaHost.interrupt()`): `call` then throws `LuaError.valueOnStack`
/// with the error on the stack, and the bound function must let it propagate (`try`), so
/// the running code stops and the REPL returns to its prompt.
///
/// The reference is released by `release()` or when the object is deallocated; after the
/// state has been closed nothing is touched.
public final class LuaCallback {
    /// Names the callback in error reports: "error in <label>: …".
    public let label: String?
    private var ref: Int32
    private let context: LuaContext

    /// Keeps the value at `index` (the caller has checked it is callable).
    public init(_ L: OpaquePointer, at index: Int32, label: String? = nil) {
        context = LuaContext.of(L)
        lua_pushvalue(L, index)
        ref = luaL_ref(L, FLUA_REGISTRYINDEX)
        self.label = label
    }

    deinit { release() }

    /// True until `release()`.
    public var isValid: Bool { ref != LUA_NOREF && ref != LUA_REFNIL && !context.isClosed }

    /// Pushes the function (nil once released).
    public func push(_ L: OpaquePointer) {
        if isValid { lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(ref)) } else { lua_pushnil(L) }
    }

    /// Calls the function with the values `arguments` pushes (it returns how many).
    /// On success `results` values are left on the stack and the result is true. On error
    /// the error (with traceback) goes to the error sink, the stack is as before, and the
    /// result is false. An interrupt throws `.valueOnStack` (see the type's documentation).
    @discardableResult
    public func call(
        _ L: OpaquePointer, results: Int32 = 0, arguments: (LuaStack) -> Int32 = { _ in 0 }
    ) throws(LuaError) -> Bool {
        guard isValid, lua_checkstack(L, 3) != 0 else { return false }
        flua_pushcfunction(L, flua_callback_msghandler)
        let base = lua_gettop(L)
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(ref))
        let n = arguments(LuaStack(L))
        let status = flua_pcall_swift(L, n, results, base)
        if status == LUA_OK {
            flua_remove(L, base)
            return true
        }
        if flua_interrupt_pending() != 0, LuaCallback.isInterrupt(L, -1) {
            flua_remove(L, base)
            throw .valueOnStack
        }
        let message = LuaStack(L).string(at: -1) ?? "(error object is a \(LuaStack(L).typeName(at: -1)) value)"
        lua_settop(L, base - 1)
        context.reportError(label.map { "error in \($0): \(message)" } ?? message)
        return false
    }

    /// Releases the registry reference (idempotent).
    public func release() {
        if ref != LUA_NOREF && ref != LUA_REFNIL && !context.isClosed {
            let main = context.mainState
            if lua_checkstack(main, 2) != 0 { luaL_unref(main, FLUA_REGISTRYINDEX, ref) }
        }
        ref = LUA_NOREF
    }

    /// True when the error value at `index` is the "interrupted!" raised by the hook.
    static func isInterrupt(_ L: OpaquePointer, _ index: Int32) -> Bool {
        guard lua_type(L, index) == LUA_TSTRING, let s = LuaStack(L).string(at: index) else { return false }
        return s.hasSuffix("interrupted!")
    }
}
