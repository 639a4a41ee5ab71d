import CLua
import CLuaShims
import FlowCore

/// Why a Lua value could not be converted to JSON, and where (`list[2].f`; "" for the value
/// itself).
public struct LuaJSONError: Error, CustomStringConvertible, Equatable {
    public var reason: String
    public var path: String
    public var description: String { path.isEmpty ? reason : "field '\(path)': \(reason)" }
}

/// Conversions between Lua values and FlowCore's `JSONValue` (lua-api §0).
///
/// Lua → JSON:
/// - nil → `null`; `flow.null` → `null`; booleans, strings (must be valid UTF-8).
/// - numbers: integers and finite floats → `.number(Double)` (integers beyond ±2^53 are
///   rounded to the nearest double); NaN and ±inf are rejected.
/// - a table whose keys are exactly 1...n (n ≥ 1) → array; a table with only string keys →
///   object, keys sorted by their UTF-8 bytes (Lua's traversal order is not deterministic);
///   the empty table → empty object.
/// - rejected: functions, userdata (other than `flow.null`), threads, tables mixing array
///   and string keys, sparse arrays, other key types, cycles, nesting deeper than 200.
///
/// JSON → Lua:
/// - `null` → nil at the top level, `flow.null` inside arrays and objects (so an array keeps
///   its length and an object its key);
/// - numbers → a Lua integer when integral and inside [-2^63, 2^63) (and not -0.0), else a
///   float (`LuaNumbers.exactInteger`); so JSON `1.0` reads back as `1`;
/// - arrays → sequences; objects → tables with string keys.
public enum LuaJSON {
    public static let maxDepth = 200

    /// Reads the value at `index`. Never raises.
    public static func read(_ L: OpaquePointer, _ index: Int32) throws(LuaJSONError) -> JSONValue {
        var reader = Reader(L: L)
        return try reader.read(lua_absindex(L, index), path: "", depth: 0)
    }

    /// Pushes `value` (see the rules above). Never raises, except on memory errors.
    public static func push(_ L: OpaquePointer, _ value: JSONValue) {
        push(L, value, nested: false)
    }

    private static func push(_ L: OpaquePointer, _ value: JSONValue, nested: Bool) {
        let s = LuaStack(L)
        switch value {
        case .null: if nested { LuaNull.push(L) } else { lua_pushnil(L) }
        case .bool(let b): s.push(b)
        case .number(let v): s.push(v)
        case .string(let str): s.push(str)
        case .array(let items):
            _ = lua_checkstack(L, 3)
            lua_createtable(L, Int32(clamping: items.count), 0)
            for (i, item) in items.enumerated() {
                push(L, item, nested: true)
                lua_rawseti(L, -2, lua_Integer(i + 1))
            }
        case .object(let object):
            _ = lua_checkstack(L, 3)
            lua_createtable(L, 0, Int32(clamping: object.count))
            for (k, v) in object {
                s.push(k)
                push(L, v, nested: true)
                lua_rawset(L, -3)
            }
        }
    }

    private struct Reader {
        let L: OpaquePointer
        var path: [UnsafeRawPointer] = []  // tables on the current path, for cycle detection

        init(L: OpaquePointer) { self.L = L }

        static func join(_ base: String, _ key: String) -> String { base.isEmpty ? key : "\(base).\(key)" }

        mutating func read(_ i: Int32, path p: String, depth: Int) throws(LuaJSONError) -> JSONValue {
            switch lua_type(L, i) {
            case LUA_TNONE, LUA_TNIL:
                return .null
            case LUA_TBOOLEAN:
                return .bool(lua_toboolean(L, i) != 0)
            case LUA_TNUMBER:
                if lua_isinteger(L, i) != 0 { return .number(Double(lua_tointegerx(L, i, nil))) }
                let v = lua_tonumberx(L, i, nil)
                guard v.isFinite else {
                    throw LuaJSONError(reason: "cannot convert \(v.isNaN ? "nan" : (v < 0 ? "-inf" : "inf")) to JSON", path: p)
                }
                return .number(v)
            case LUA_TSTRING:
                guard let s = Self.utf8(L, i) else {
                    throw LuaJSONError(reason: "string is not valid UTF-8", path: p)
                }
                return .string(s)
            case LUA_TTABLE:
                return try table(i, path: p, depth: depth)
            case LUA_TUSERDATA where LuaNull.isNull(L, i):
                return .null
            default:
                let t = lua_type(L, i) == LUA_TLIGHTUSERDATA ? "light userdata" : String(cString: fluaL_typename(L, i))
                throw LuaJSONError(reason: "cannot convert a \(t) to JSON", path: p)
            }
        }

        mutating func table(_ i: Int32, path p: String, depth: Int) throws(LuaJSONError) -> JSONValue {
            guard depth < LuaJSON.maxDepth, lua_checkstack(L, 4) != 0 else {
                throw LuaJSONError(reason: "nesting too deep for JSON", path: p)
            }
            let id = lua_topointer(L, i)!
            guard !path.contains(id) else { throw LuaJSONError(reason: "table contains a cycle", path: p) }
            path.append(id)
            defer { path.removeLast() }

            // Classify the keys.
            var strings: [String] = []
            var intCount = 0
            var minInt = Int64.max, maxInt = Int64.min
            lua_pushnil(L)
            while lua_next(L, i) != 0 {  // [key, value]
                switch lua_type(L, -2) {
                case LUA_TSTRING:
                    guard let k = Self.utf8(L, -2) else {
                        flua_pop(L, 2)
                        throw LuaJSONError(reason: "table key is not valid UTF-8", path: p)
                    }
                    strings.append(k)
                case LUA_TNUMBER where lua_isinteger(L, -2) != 0:
                    let k = lua_tointegerx(L, -2, nil)
                    intCount += 1
                    minInt = min(minInt, k)
                    maxInt = max(maxInt, k)
                default:
                    let desc: String
                    if lua_type(L, -2) == LUA_TNUMBER, let n = LuaStack(L).string(at: -2) {
                        desc = n
                    } else {
                        desc = "of type \(String(cString: fluaL_typename(L, -2)))"
                    }
                    flua_pop(L, 2)
                    throw LuaJSONError(reason: "table key \(desc) is neither a string nor an array index", path: p)
                }
                flua_pop(L, 1)  // keep the key for lua_next
            }
            if intCount > 0 && !strings.isEmpty {
                throw LuaJSONError(reason: "table mixes array and string keys", path: p)
            }
            if intCount > 0 {
                guard minInt == 1, maxInt == Int64(intCount) else {
                    throw LuaJSONError(reason: "sparse array (keys must be exactly 1..n)", path: p)
                }
                var items: [JSONValue] = []
                items.reserveCapacity(intCount)
                for k in 1...intCount {
                    lua_rawgeti(L, i, lua_Integer(k))
                    defer { flua_pop(L, 1) }
                    items.append(try read(lua_gettop(L), path: "\(p)[\(k)]", depth: depth + 1))
                }
                return .array(items)
            }
            strings.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var object = JSONObject()
            for k in strings {
                LuaStack(L).push(k)
                lua_rawget(L, i)
                defer { flua_pop(L, 1) }
                object[k] = try read(lua_gettop(L), path: Self.join(p, k), depth: depth + 1)
            }
            return .object(object)
        }

        /// The string at `i` when it is valid UTF-8.
        static func utf8(_ L: OpaquePointer, _ i: Int32) -> String? {
            var len = 0
            guard let p = lua_tolstring(L, i, &len) else { return nil }
            let buf = UnsafeRawBufferPointer(start: p, count: len)
            return String(validating: buf, as: UTF8.self)
        }
    }
}

/// `flow.null`: a unique full userdata (zero bytes, no address in its `tostring`, which is
/// `flow.null`). It stands for JSON null inside tables and clears an optional field in a
/// patch. One per `lua_State`, kept in the registry.
public enum LuaNull {
    /// Pushes the state's `flow.null`, creating it on first use.
    public static func push(_ L: OpaquePointer) {
        if lua_rawgetp(L, FLUA_REGISTRYINDEX, flua_key_null()) == LUA_TUSERDATA { return }
        flua_pop(L, 1)
        _ = lua_newuserdatauv(L, 0, 0)
        lua_createtable(L, 0, 3)
        LuaStack(L).push("flow.null")
        lua_setfield(L, -2, "__name")
        luaPushFunction(L, nullToString)
        lua_setfield(L, -2, "__tostring")
        lua_pushboolean(L, 0)
        lua_setfield(L, -2, "__metatable")  // getmetatable(flow.null) == false; cannot be changed
        lua_setmetatable(L, -2)
        lua_pushvalue(L, -1)
        lua_rawsetp(L, FLUA_REGISTRYINDEX, flua_key_null())
    }

    /// True when the value at `index` is `flow.null`.
    public static func isNull(_ L: OpaquePointer, _ index: Int32) -> Bool {
        guard lua_type(L, index) == LUA_TUSERDATA else { return false }
        let i = lua_absindex(L, index)
        lua_rawgetp(L, FLUA_REGISTRYINDEX, flua_key_null())
        defer { flua_pop(L, 1) }
        return lua_rawequal(L, i, -1) != 0
    }

    private static let nullToString: LuaFunction = { L in
        LuaStack(L!).push("flow.null")
        return 1
    }
}
