import Glibc
import CLua
import CLuaShims

/// Per-`lua_State` host services: where output, errors and event lines go, and whether the
/// state is still open. One context lives in the registry of each state (created on first
/// use; `LuaHost` and `openFlowModule` create it first thing). In the stock `lua5.4` the
/// defaults apply: output to stdout, errors to stderr, no event lines.
public final class LuaContext {
    /// Receives text to write verbatim (newlines included): a captured `print`, help text.
    public var output: (String) -> Void = LuaContext.writeStdout
    /// Receives one error report (it may span lines; no trailing newline), e.g. an error
    /// raised inside a callback, with its traceback.
    public var errorOutput: (String) -> Void = LuaContext.writeStderrLine
    /// Receives one event line (no trailing newline). nil: events are not printed (the
    /// default, and `flowrepl --quiet`).
    public var eventOutput: ((String) -> Void)?
    /// The main thread of the state (stable for its whole life).
    public let mainState: OpaquePointer
    /// True once `lua_close` has finalized the context; nothing may touch the state then.
    public private(set) var isClosed = false
    /// Objects a binding keeps per state, by a key of its choosing (the store binding keeps
    /// the state's stores and `flow.observe` observers here). Released with the context.
    public var attachments: [String: AnyObject] = [:]

    private init(mainState: OpaquePointer) { self.mainState = mainState }

    /// Prints an event line when event printing is on (the store binding calls this once
    /// per change; the format is the binding's).
    @inline(__always) public func emitEvent(_ line: @autoclosure () -> String) {
        if let sink = eventOutput { sink(line()) }
    }

    /// True when event lines are printed (so the binding can skip formatting them).
    public var eventsEnabled: Bool { eventOutput != nil }

    /// Reports an error that cannot be raised (callback errors).
    public func reportError(_ text: String) { errorOutput(text) }

    /// The context of `L`'s state, created on first use. Never raises (memory errors aside).
    public static func of(_ L: OpaquePointer) -> LuaContext {
        if lua_rawgetp(L, FLUA_REGISTRYINDEX, flua_key_context()) == LUA_TUSERDATA,
            let p = lua_touserdata(L, -1)?.load(as: UnsafeMutableRawPointer?.self)
        {
            flua_pop(L, 1)
            return Unmanaged<LuaContext>.fromOpaque(p).takeUnretainedValue()
        }
        flua_pop(L, 1)
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_MAINTHREAD))
        let main = lua_tothread(L, -1)!
        flua_pop(L, 1)
        let context = LuaContext(mainState: main)
        let ud = lua_newuserdatauv(L, MemoryLayout<UnsafeMutableRawPointer?>.size, 0)!
        ud.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        lua_createtable(L, 0, 1)
        luaPushFunction(L, contextGC)
        lua_setfield(L, -2, "__gc")
        lua_setmetatable(L, -2)
        ud.storeBytes(of: Unmanaged.passRetained(context).toOpaque(), as: UnsafeMutableRawPointer?.self)
        lua_rawsetp(L, FLUA_REGISTRYINDEX, flua_key_context())
        return context
    }

    /// Finalizer of the registry anchor: runs during `lua_close` (the anchor is never
    /// collected before). Objects finalized after it see `isClosed`.
    private static let contextGC: LuaFunction = { L in
        guard let ud = lua_touserdata(L, 1),
            let p = ud.load(as: UnsafeMutableRawPointer?.self)
        else { return 0 }
        ud.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        let un = Unmanaged<LuaContext>.fromOpaque(p)
        un.takeUnretainedValue().isClosed = true
        un.release()
        return 0
    }

    // MARK: Default sinks (C stdio, so output interleaves with Lua's own io.write/print)

    public static func writeStdout(_ s: String) {
        var s = s
        s.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, flua_stdout()) }
    }

    public static func writeStdoutLine(_ s: String) {
        writeStdout(s)
        fputc(10, flua_stdout())
    }

    public static func writeStderrLine(_ s: String) {
        fflush(flua_stdout())
        var s = s
        s.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, flua_stderr()) }
        fputc(10, flua_stderr())
        fflush(flua_stderr())
    }
}
