import CLua
import CLuaShims
import FlowCore

/// Non-raising access to a Lua stack: the push helpers every bound function uses.
/// `LuaArgs` and `LuaStack` both conform, so `args.push(point)` and `LuaStack(L).push(point)`
/// are the same thing.
///
/// Number rule: `push(_: Double)` pushes a Lua *integer* when the value is integral and
/// representable as a 64-bit integer (`-0.0`, fractions, ±inf and NaN stay floats), so
/// `print(node.x)` shows `50`, not `50.0`. Use `push(float:)` to force a float.
public protocol LuaStackAccess {
    var L: OpaquePointer { get }
}

/// A `lua_State` seen through the non-raising helpers.
public struct LuaStack: LuaStackAccess {
    public let L: OpaquePointer
    @inline(__always) public init(_ L: OpaquePointer) { self.L = L }
}

extension LuaStackAccess {
    @inline(__always) public var top: Int32 { lua_gettop(L) }
    @inline(__always) public func pop(_ n: Int32 = 1) { flua_pop(L, n) }
    @inline(__always) public func absolute(_ index: Int32) -> Int32 { lua_absindex(L, index) }
    /// The `LUA_T*` type of the value at `index` (`LUA_TNONE` past the top).
    @inline(__always) public func type(at index: Int32) -> Int32 { lua_type(L, index) }
    /// Makes sure `n` more slots can be pushed; false when the stack cannot grow.
    @inline(__always) public func reserve(_ n: Int32) -> Bool { lua_checkstack(L, n) != 0 }

    // MARK: Scalars

    @inline(__always) public func pushNil() { lua_pushnil(L) }
    @inline(__always) public func push(_ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
    @inline(__always) public func push(_ i: Int) { lua_pushinteger(L, lua_Integer(i)) }
    @inline(__always) public func push(integer i: Int64) { lua_pushinteger(L, i) }
    @inline(__always) public func push(float v: Double) { lua_pushnumber(L, v) }

    /// Pushes a number, as an integer when exactly integral (see the number rule above).
    @inline(__always) public func push(_ v: Double) {
        if let i = LuaNumbers.exactInteger(v) { lua_pushinteger(L, i) } else { lua_pushnumber(L, v) }
    }

    /// Pushes the string's UTF-8 bytes (embedded NULs included).
    public func push(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            _ = buf.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes raw bytes as a Lua string.
    public func push(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buf in
            _ = buf.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes a string or nil.
    public func push(_ s: String?) {
        if let s { push(s) } else { lua_pushnil(L) }
    }

    // MARK: Tables

    /// Pushes a new empty table with room for `array` and `fields` entries.
    @inline(__always) public func pushTable(array: Int32 = 0, fields: Int32 = 0) {
        lua_createtable(L, array, fields)
    }

    /// Pops the value on top and stores it as `t[key]` in the table at `table` (default: the
    /// value below it). Raw: only use it on tables you created.
    @inline(__always) public func setField(_ key: String, in table: Int32 = -2) {
        let t = table < 0 ? table - 1 : table  // account for the key we push
        push(key)
        lua_rotate(L, -2, 1)  // key below value
        lua_rawset(L, t)
    }

    /// Pops the value on top and stores it as `t[i]` in the table at `table` (default -2).
    @inline(__always) public func setIndex(_ i: Int, in table: Int32 = -2) {
        lua_rawseti(L, table, lua_Integer(i))
    }

    /// Pushes `{x=, y=}`.
    public func push(_ p: Point) {
        lua_createtable(L, 0, 2)
        push(p.x); setField("x")
        push(p.y); setField("y")
    }

    /// Pushes an array of points (`{ {x=, y=}, … }`; `{}` for none).
    public func push(points: [Point]) {
        lua_createtable(L, Int32(clamping: points.count), 0)
        for (i, p) in points.enumerated() {
            push(p)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    /// Pushes `{width=, height=}`.
    public func push(_ s: Size) {
        lua_createtable(L, 0, 2)
        push(s.width); setField("width")
        push(s.height); setField("height")
    }

    /// Pushes `{x=, y=, width=, height=}`.
    public func push(_ r: Rect) {
        lua_createtable(L, 0, 4)
        push(r.x); setField("x")
        push(r.y); setField("y")
        push(r.width); setField("width")
        push(r.height); setField("height")
    }

    /// Pushes an array of strings (`{ "a", "b" }`), e.g. a list of ids.
    public func push(strings: [String]) {
        lua_createtable(L, Int32(clamping: strings.count), 0)
        for (i, s) in strings.enumerated() {
            push(s)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    /// Pushes a JSON value as Lua values (see `LuaJSON.push`).
    public func push(_ json: JSONValue) { LuaJSON.push(L, json) }

    // MARK: Reading without raising

    /// The bytes of the string (or number, converted) at `index`; nil for other types.
    /// A number is converted on a copy, so the stack is unchanged.
    public func bytes(at index: Int32) -> [UInt8]? {
        switch lua_type(L, index) {
        case LUA_TSTRING:
            var len = 0
            guard let p = lua_tolstring(L, index, &len) else { return nil }
            return Array(UnsafeRawBufferPointer(start: p, count: len))
        case LUA_TNUMBER:
            lua_pushvalue(L, index)
            defer { flua_pop(L, 1) }
            var len = 0
            guard let p = lua_tolstring(L, -1, &len) else { return nil }
            return Array(UnsafeRawBufferPointer(start: p, count: len))
        default:
            return nil
        }
    }

    /// Whether the value at `index` is a string whose bytes are not valid UTF-8.
    public func hasInvalidUTF8(at index: Int32) -> Bool {
        guard lua_type(L, index) == LUA_TSTRING else { return false }
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return false }
        return !isValidUTF8(UnsafeRawBufferPointer(start: p, count: len))
    }

    /// The string (or number, converted as Lua's `tostring` does) at `index`; nil for other
    /// types. Invalid UTF-8 is repaired with U+FFFD (use `bytes(at:)` to keep bytes).
    public func string(at index: Int32) -> String? {
        switch lua_type(L, index) {
        case LUA_TSTRING:
            var len = 0
            guard let p = lua_tolstring(L, index, &len) else { return nil }
            return decodeUTF8(UnsafeRawBufferPointer(start: p, count: len))
        case LUA_TNUMBER:
            lua_pushvalue(L, index)
            defer { flua_pop(L, 1) }
            var len = 0
            guard let p = lua_tolstring(L, -1, &len) else { return nil }
            return decodeUTF8(UnsafeRawBufferPointer(start: p, count: len))
        default:
            return nil
        }
    }

    /// `luaL_typename` of the value at `index`.
    public func typeName(at index: Int32) -> String { String(cString: fluaL_typename(L, index)) }
}

/// The integral-number rule shared by `push(_: Double)` and the JSON conversion.
public enum LuaNumbers {
    /// `v` as an Int64 when it is integral, not `-0.0`, and inside [-2^63, 2^63).
    @inline(__always) public static func exactInteger(_ v: Double) -> Int64? {
        guard v.rounded(.towardZero) == v, v >= -9.223372036854775808e18, v < 9.223372036854775808e18
        else { return nil }
        if v == 0 && v.sign == .minus { return nil }
        return Int64(v)
    }
}

/// True when `bytes` are valid UTF-8 (an ASCII pass first, the full check only when a
/// byte is not ASCII).
@inline(__always)
func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var high: UInt8 = 0
    for b in bytes { high |= b }
    return high < 0x80 || String(validating: bytes, as: UTF8.self) != nil
}

/// `String(decoding: bytes, as: UTF8.self)`, invalid sequences repaired the same way, made
/// by the initializer that copies the bytes into the new string and checks them there: a
/// short ASCII string (most ids) costs one call into the Swift runtime instead of three.
/// Every Swift string the binding makes from a Lua string's bytes goes through it.
@inline(__always)
func decodeUTF8(_ bytes: UnsafeRawBufferPointer) -> String {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
    return String(unsafeUninitializedCapacity: bytes.count) { buffer in
        UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped).copyMemory(from: base, byteCount: bytes.count)
        return bytes.count
    }
}
