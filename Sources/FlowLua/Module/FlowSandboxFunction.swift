import CLua
import CLuaShims

/// `flow.sandbox(code, limits)`: runs `code` in a fresh sandboxed state (docs/sandbox.md)
/// and returns `true` and its results, or `nil` and the error message. Nothing of the
/// caller's state is reachable from the code; its results come out as copies (nil,
/// booleans, numbers and strings only); its `print` output goes where the caller's does.
enum FlowSandboxFunction {
    static let limitKeys: Set<String> = [
        "memory", "instructions", "seconds", "patternSteps", "nodes", "edges", "labelBytes", "pictureBytes",
    ]

    static let sandbox: LuaFunction = { L in
        luaGuarded(L) { args in
            let code = try args.bytes(1)
            let limits = try readLimits(args)
            let outer = LuaContext.of(args.L)
            let host = LuaHost(LuaHost.Options(capturePrint: true), sandbox: limits)
            defer { host.close() }
            host.output = outer.output
            host.errorOutput = outer.errorOutput
            let inner = host.L
            var status = host.load(code, chunkName: "=(sandbox)")
            if status == LUA_OK { status = host.call(arguments: 0, results: LUA_MULTRET, traceback: false) }
            guard status == LUA_OK else {
                let s = LuaStack(inner)
                return args.pushFailure(s.string(at: -1) ?? "(error object is a \(s.typeName(at: -1)) value)")
            }
            let n = lua_gettop(inner)
            guard lua_checkstack(args.L, n + 1) != 0 else { return args.pushFailure("flow.sandbox: too many results") }
            for i in stride(from: 1, through: n, by: 1) where !copyable(inner, i) {
                return args.pushFailure(
                    "flow.sandbox: result #\(i) is a \(LuaStack(inner).typeName(at: i)) (only nil, booleans, numbers and strings come out of a sandbox)")
            }
            lua_pushboolean(args.L, 1)
            for i in stride(from: 1, through: n, by: 1) { copy(inner, i, to: args.L) }
            return n + 1
        }
    }

    /// The limits table (argument 2): the defaults, with the keys it gives.
    static func readLimits(_ args: LuaArgs) throws -> SandboxLimits {
        var limits = SandboxLimits.defaults
        guard let t = try args.optionalTable(2) else { return limits }
        try t.rejectUnknownKeys(limitKeys)
        func count(_ key: String) throws -> Int? {
            guard let v = try t.optionalInteger(key) else { return nil }
            if v < 0 { throw t.error(key, "a count of 0 or more expected (0: no limit)") }
            return Int(v)
        }
        func amount(_ key: String) throws -> Double? {
            guard let v = try t.optionalNumber(key) else { return nil }
            if !(v >= 0) || !v.isFinite { throw t.error(key, "a finite number of 0 or more expected (0: no limit)") }
            return v
        }
        if let v = try count("memory") { limits.memory = v }
        if let v = try count("instructions") { limits.instructions = v }
        if let v = try amount("seconds") { limits.seconds = v }
        if let v = try amount("patternSteps") { limits.patternSteps = v }
        if let v = try count("nodes") { limits.nodes = v }
        if let v = try count("edges") { limits.edges = v }
        if let v = try count("labelBytes") { limits.labelBytes = v }
        if let v = try count("pictureBytes") { limits.pictureBytes = v }
        return limits
    }

    private static func copyable(_ L: OpaquePointer, _ i: Int32) -> Bool {
        let t = lua_type(L, i)
        return t == LUA_TNIL || t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING
    }

    private static func copy(_ from: OpaquePointer, _ i: Int32, to L: OpaquePointer) {
        switch lua_type(from, i) {
        case LUA_TBOOLEAN: lua_pushboolean(L, lua_toboolean(from, i))
        case LUA_TNUMBER:
            if lua_isinteger(from, i) != 0 { lua_pushinteger(L, flua_tointeger(from, i)) } else {
                lua_pushnumber(L, flua_tonumber(from, i))
            }
        case LUA_TSTRING:
            var n = 0
            let p = lua_tolstring(from, i, &n)
            lua_pushlstring(L, p, n)
        default: lua_pushnil(L)
        }
    }
}
