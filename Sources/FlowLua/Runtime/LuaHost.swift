import CLua
import CLuaShims
import FlowCore

/// A Lua state for embedders, the REPL and the tests: standard libraries, `flow` preloaded
/// (`luaL_requiref`, so `require "flow"` returns the same table as the global `flow`),
/// chunks run in protected mode with lua.c's traceback handler, errors reported to a sink.
///
///     let host = LuaHost()
///     host.errorOutput = { message in log(message) }
///     host.run(string: "print(flow.version)")          // ["..."] or nil on error
///
/// `LuaHost(sandbox: .defaults)` runs scripts you did not write: no file system, no
/// processes, a memory cap, an instruction and time budget per run (docs/sandbox.md).
///
/// Not thread-safe (a Lua state never is), except `interrupt()`.
public final class LuaHost {
    public struct Options: Sendable {
        /// Open Lua's standard libraries.
        public var standardLibraries = true
        /// Like `lua -E`: ignore LUA_PATH/LUA_CPATH (sets the registry's LUA_NOENV).
        public var ignoreEnvironment = false
        /// Preload `flow` (`package.loaded.flow`) and set the global `flow`.
        public var preloadFlow = true
        /// Route `print` to `output` instead of C's stdout (tests capture it this way).
        public var capturePrint = false

        public init(
            standardLibraries: Bool = true, ignoreEnvironment: Bool = false,
            preloadFlow: Bool = true, capturePrint: Bool = false
        ) {
            self.standardLibraries = standardLibraries
            self.ignoreEnvironment = ignoreEnvironment
            self.preloadFlow = preloadFlow
            self.capturePrint = capturePrint
        }
    }

    /// The main Lua state. Valid until `close()`.
    public let L: OpaquePointer
    /// The state's host services (sinks).
    public let context: LuaContext
    /// Arm lua.c's SIGINT handler around each call (the REPL sets this; embedders usually
    /// do not want a library to install signal handlers).
    public var handlesSIGINT = false
    /// How results are rendered by `run`.
    public var pretty = LuaPretty()
    /// The last error reported by `run` (message with traceback), nil after a success.
    public private(set) var lastError: String?
    public private(set) var isClosed = false
    /// The sandbox's limits and accounting; nil for an ordinary host.
    let sandboxState: LuaSandboxState?
    /// The sandbox's limits; nil for an ordinary host.
    public var sandbox: SandboxLimits? { sandboxState?.limits }
    /// Bytes a sandboxed state holds now, the most it held, and its cap (0: none); nil for
    /// an ordinary host.
    public var sandboxMemory: (used: Int, peak: Int, limit: Int)? {
        sandboxState.map { ($0.memoryUsed, $0.memoryPeak, $0.memoryLimit) }
    }

    /// A host; with `sandbox`, one whose scripts run within those limits, with the
    /// standard libraries and `flow` cut down to what cannot reach outside the state.
    public init(_ options: Options = Options(), sandbox: SandboxLimits? = nil) {
        // luaL_newstate and opening the libraries fail only when out of memory, where Swift
        // traps as well (the sandbox's memory cap is off until they are open).
        sandboxState = sandbox.map(LuaSandboxState.init)
        guard let L = sandboxState.map({ $0.newState() }) ?? luaL_newstate() else {
            fatalError("cannot create a Lua state: not enough memory")  // invariant
        }
        self.L = L
        // The context first: its finalizer then runs last in lua_close.
        context = LuaContext.of(L)
        sandboxState?.attach(to: context)
        if options.ignoreEnvironment {
            lua_pushboolean(L, 1)
            lua_setfield(L, FLUA_REGISTRYINDEX, "LUA_NOENV")
        }
        let status = flua_openlibs(
            L, options.standardLibraries ? 1 : 0, options.preloadFlow ? openFlowModule : nil, 1)
        if status != LUA_OK {
            fatalError("cannot open the Lua libraries: \(LuaStack(L).string(at: -1) ?? "?")")  // invariant
        }
        if options.standardLibraries { addPreloads() }
        if let sandboxState, sandboxState.restrict(L) != LUA_OK {
            fatalError("cannot restrict the Lua libraries: \(LuaStack(L).string(at: -1) ?? "?")")  // invariant
        }
        if options.capturePrint {
            lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
            flua_pushprint(L, LuaHost.printWriter)
            lua_setfield(L, -2, "print")
            flua_pop(L, 1)
        }
        sandboxState?.arm()
    }

    deinit { close() }

    /// `package.preload[name] = open` for each of `FlowHooks.preloads` (raw sets on the
    /// registry's preload table: nothing can raise but a memory error).
    private func addPreloads() {
        guard !FlowHooks.preloads.isEmpty else { return }
        lua_getfield(L, FLUA_REGISTRYINDEX, "_PRELOAD")
        for (name, open) in FlowHooks.preloads {
            lua_pushcclosure(L, open, 0)
            lua_setfield(L, -2, name)
        }
        flua_pop(L, 1)
    }

    // MARK: Sinks

    /// Where captured `print` output, results of `help` etc. go (text verbatim).
    public var output: (String) -> Void {
        get { context.output }
        set { context.output = newValue }
    }

    /// Where errors go: failed chunks, and errors raised inside callbacks.
    public var errorOutput: (String) -> Void {
        get { context.errorOutput }
        set { context.errorOutput = newValue }
    }

    /// Where event lines go; nil: not printed.
    public var eventOutput: ((String) -> Void)? {
        get { context.eventOutput }
        set { context.eventOutput = newValue }
    }

    private static let printWriter: flua_Writer = { L, s, n in
        guard let L, let s else { return }
        let text = decodeUTF8(UnsafeRawBufferPointer(start: s, count: n))
        LuaContext.of(L).output(text)
    }

    // MARK: Running

    /// Loads and runs `code`. Returns the results rendered with `pretty` (strings raw), or
    /// nil after reporting the error (message and traceback) to `errorOutput`.
    @discardableResult
    public func run(string code: String, chunkName: String = "=(string)") -> [String]? {
        var code = code
        let status = code.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, chunkName, loadMode) }
        }
        return finish(loadStatus: status)
    }

    /// Loads and runs a file (nil: stdin), like `lua script.lua`.
    @discardableResult
    public func run(file path: String?) -> [String]? {
        finish(loadStatus: loadFile(path))
    }

    /// Loads a file (nil: stdin) without running it, like `luaL_loadfile` (text only in a
    /// sandbox): pushes the function or the error message, returns the status.
    public func loadFile(_ path: String?) -> Int32 { luaL_loadfilex(L, path, loadMode) }

    private func finish(loadStatus: Int32) -> [String]? {
        let base = lua_gettop(L) - 1
        var status = loadStatus
        if status == LUA_OK { status = call(arguments: 0, results: LUA_MULTRET) }
        guard status == LUA_OK else {
            report()
            lua_settop(L, base)
            return nil
        }
        lastError = nil
        let top = lua_gettop(L)
        let results = top > base ? (base + 1...top).map { pretty.render(L, $0) } : []
        lua_settop(L, base)
        return results
    }

    /// Loads a chunk from bytes without running it: pushes the function (or the error
    /// message) and returns the `luaL_loadbuffer` status.
    public func load(_ bytes: [UInt8], chunkName: String) -> Int32 {
        bytes.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, chunkName, loadMode) }
        }
    }

    /// The mode of the chunks the host loads: text only in a sandbox (nil: text or binary).
    private var loadMode: String? { sandboxState == nil ? nil : "t" }

    /// lua.c's `docall`: calls the function below the `arguments` values on top of the stack
    /// in protected mode with the traceback handler (unless `traceback` is false) and the
    /// SIGINT handler when `handlesSIGINT`. Returns the status; on error the message is on
    /// top. In a sandbox each call is a run with fresh instruction and time budgets.
    public func call(arguments: Int32, results: Int32, traceback: Bool = true) -> Int32 {
        let base = lua_gettop(L) - arguments
        if traceback { flua_pushcfunction(L, flua_msghandler) } else { lua_pushnil(L) }
        flua_insert(L, base)
        sandboxState?.begin(L)
        // a sandbox's run compares strings in the C collation (docs/sandbox.md)
        let locale = sandboxState != nil ? flua_sandbox_pin_locale() : nil
        defer { flua_sandbox_unpin_locale(locale) }
        if handlesSIGINT { flua_sigint_arm(L) }
        let status: Int32
        if let limit = sandboxState?.workLimit() {
            status = WorkLimit.$current.withValue(limit) { flua_pcall_swift(L, arguments, results, traceback ? base : 0) }
        } else {
            status = flua_pcall_swift(L, arguments, results, traceback ? base : 0)
        }
        if handlesSIGINT { flua_sigint_disarm() }
        flua_remove(L, base)
        flua_interrupt_clear()
        if status == LUA_OK, let sandboxState, sandboxState.spent(L, resultsFrom: base) { return LUA_ERRRUN }
        if status == LUA_ERRMEM, let limits = sandbox, limits.memory > 0 {
            flua_pop(L, 1)
            LuaStack(L).push("sandbox: memory limit exceeded (\(limits.memory) bytes)")
        }
        return status
    }

    /// Reports the error message on top of the stack to `errorOutput` and pops it.
    public func report() {
        let s = LuaStack(L)
        let message = s.string(at: -1) ?? "(error object is a \(s.typeName(at: -1)) value)"
        flua_pop(L, 1)
        lastError = message
        context.reportError(message)
    }

    /// Stops the running Lua code at its next instruction with the error "interrupted!".
    /// Safe from another thread or a signal handler.
    public func interrupt() { flua_interrupt(L) }

    // MARK: Globals (raw: no metamethod of _G runs)

    /// Pushes the global table.
    public func pushGlobals() {
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
    }

    /// Pops the value on top and sets it as global `name` (raw).
    public func setGlobal(_ name: String) {
        pushGlobals()
        lua_rotate(L, -2, 1)
        LuaStack(L).setField(name)
        flua_pop(L, 1)
    }

    /// Pushes global `name` (raw) and returns its type.
    @discardableResult
    public func pushGlobal(_ name: String) -> Int32 {
        pushGlobals()
        LuaStack(L).push(name)
        let t = lua_rawget(L, -2)
        flua_remove(L, -2)
        return t
    }

    /// Sets global `name` (raw) to a Swift function (see `LuaFunction`); its argument
    /// errors name it `name`.
    public func setGlobal(_ name: String, function: LuaFunction) {
        luaPushFunction(L, function)
        flua_namefunction(L, name)
        setGlobal(name)
    }

    /// Sets global `name` (raw) to a new table of Swift functions, like a module of the
    /// host's own next to `flow`; their argument errors name them `name.f`.
    public func setGlobal(_ name: String, functions: [LuaMethod]) {
        lua_createtable(L, 0, Int32(clamping: functions.count))
        luaSetFunctions(L, functions, table: -1, qualifier: name + ".")
        setGlobal(name)
    }

    /// Closes the state: every object is finalized. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        lua_close(L)
    }
}
