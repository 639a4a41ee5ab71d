import CLua
import CLuaShims
import FlowCore

/// The arguments of a bound function, read without raising: every reader *throws* a
/// `LuaError`, which the trampoline turns into Lua's own message after the Swift frame has
/// returned, e.g. `bad argument #2 to 'moveNode' (number expected, got string)`.
///
/// Indices are Lua stack indices: for a method `store:moveNode(id, x, y)` the receiver is 1,
/// `id` is 2. Report errors with those indices; `luaL_argerror` renumbers them for colon
/// calls. Readers follow the matching `luaL_check*` rules (a number where a string is
/// expected is accepted, a numeric string where a number is expected is accepted).
public struct LuaArgs: LuaStackAccess {
    public let L: OpaquePointer
    /// How many arguments were passed (`lua_gettop`; read it before pushing anything).
    public var count: Int32 { lua_gettop(L) }

    @inline(__always) public init(_ L: OpaquePointer) {
        self.L = L
    }

    /// The stack index of extra upvalue `k` (1-based) of a function pushed with
    /// `luaPushFunction(_:_:upvalues:)`.
    @inline(__always) public func upvalue(_ k: Int32) -> Int32 { flua_upvalueindex(k + 1) }

    @inline(__always) public func isNoneOrNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }

    // MARK: Strings

    /// A string (a number is accepted and converted, like `luaL_checkstring`).
    public func string(_ i: Int32) throws(LuaError) -> String {
        guard let s = string(at: i) else { throw .type(i, expected: "string") }
        return s
    }

    public func optionalString(_ i: Int32) throws(LuaError) -> String? {
        isNoneOrNil(i) ? nil : try string(i)
    }

    public func optionalString(_ i: Int32, default d: String) throws(LuaError) -> String {
        isNoneOrNil(i) ? d : try string(i)
    }

    /// A file path: a string without NUL bytes (the C library would end the path at the
    /// first one and open another file than the one named).
    public func path(_ i: Int32) throws(LuaError) -> String {
        let s = try string(i)
        guard !s.utf8.contains(0) else { throw .argument(i, "path contains a NUL byte") }
        return s
    }

    /// The raw bytes of a string argument (no UTF-8 repair).
    public func bytes(_ i: Int32) throws(LuaError) -> [UInt8] {
        guard let b = bytes(at: i) else { throw .type(i, expected: "string") }
        return b
    }

    /// An id (lua-api §0): a string, or a number converted to its string form (`1` -> "1").
    /// Invalid UTF-8 is refused, as in labels and data (D24).
    public func id(_ i: Int32) throws(LuaError) -> String {
        guard let s = string(at: i) else { throw .type(i, expected: "string") }
        if hasInvalidUTF8(at: i) { throw .argument(i, "id is not valid UTF-8") }
        return s
    }

    /// Runs `body` on the bytes of the string at `i` without making a Swift string; nil when
    /// the value is not a string (numbers included: read those with `id(_:)`). The bytes are
    /// valid during `body` only.
    @inline(__always)
    public func withStringBytes<R>(_ i: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, i, &len) else { return nil }
        return try body(UnsafeRawBufferPointer(start: p, count: len))
    }

    /// Runs `body` on the bytes of an id argument (lua-api §0: a string, or a number in its
    /// string form, as `luaL_checklstring` converts it in place) without making a Swift
    /// string; nil when the value is neither.
    @inline(__always)
    public func withIDBytes<R>(_ i: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        var len = 0
        guard let p = lua_tolstring(L, i, &len) else { return nil }
        return try body(UnsafeRawBufferPointer(start: p, count: len))
    }

    /// An id, or nil when the argument is nil or absent.
    public func optionalID(_ i: Int32) throws(LuaError) -> String? {
        isNoneOrNil(i) ? nil : try id(i)
    }

    // MARK: Numbers

    /// A number (a numeric string is accepted, like `luaL_checknumber`).
    public func number(_ i: Int32) throws(LuaError) -> Double {
        var ok: Int32 = 0
        let v = lua_tonumberx(L, i, &ok)
        guard ok != 0 else { throw .type(i, expected: "number") }
        return v
    }

    public func optionalNumber(_ i: Int32) throws(LuaError) -> Double? {
        isNoneOrNil(i) ? nil : try number(i)
    }

    public func optionalNumber(_ i: Int32, default d: Double) throws(LuaError) -> Double {
        isNoneOrNil(i) ? d : try number(i)
    }

    /// An integer (`luaL_checkinteger`: `1.5` gives "number has no integer representation").
    public func integer(_ i: Int32) throws(LuaError) -> Int64 {
        var ok: Int32 = 0
        let v = lua_tointegerx(L, i, &ok)
        if ok != 0 { return v }
        if lua_isnumber(L, i) != 0 { throw .argument(i, "number has no integer representation") }
        throw .type(i, expected: "number")
    }

    public func optionalInteger(_ i: Int32, default d: Int64) throws(LuaError) -> Int64 {
        isNoneOrNil(i) ? d : try integer(i)
    }

    // MARK: Booleans

    /// A boolean: only `true` or `false` are accepted.
    public func boolean(_ i: Int32) throws(LuaError) -> Bool {
        guard lua_type(L, i) == LUA_TBOOLEAN else { throw .type(i, expected: "boolean") }
        return lua_toboolean(L, i) != 0
    }

    public func optionalBoolean(_ i: Int32) throws(LuaError) -> Bool? {
        isNoneOrNil(i) ? nil : try boolean(i)
    }

    public func optionalBoolean(_ i: Int32, default d: Bool) throws(LuaError) -> Bool {
        isNoneOrNil(i) ? d : try boolean(i)
    }

    /// Lua truthiness (`nil`/`false` are false, everything else true); never fails.
    public func truthy(_ i: Int32) -> Bool { lua_toboolean(L, i) != 0 }

    // MARK: Enums

    /// A string naming a case of `E`. A non-string raises the usual type error; an unknown
    /// string raises FlowCore's message, e.g.
    /// `addEdge: invalid path type 'curvy' (expected one of: bezier, straight, smoothStep, simpleBezier, orthogonal)`.
    public func enumValue<E: FlowEnum>(_ i: Int32, _ type: E.Type, in operation: String) throws -> E {
        guard lua_type(L, i) == LUA_TSTRING, let s = string(at: i) else {
            throw LuaError.type(i, expected: "string")
        }
        return try E.parse(s, in: operation)
    }

    public func optionalEnumValue<E: FlowEnum>(_ i: Int32, _ type: E.Type, in operation: String) throws -> E? {
        isNoneOrNil(i) ? nil : try enumValue(i, type, in: operation)
    }

    // MARK: Tables and functions

    /// A table argument, for reading fields (raw: no metamethods run).
    public func table(_ i: Int32) throws(LuaError) -> LuaTable {
        guard lua_type(L, i) == LUA_TTABLE else { throw .type(i, expected: "table") }
        return LuaTable(L, absolute(i), argument: i)
    }

    public func optionalTable(_ i: Int32) throws(LuaError) -> LuaTable? {
        isNoneOrNil(i) ? nil : try table(i)
    }

    /// A function argument, kept as a callback (see `LuaCallback`).
    public func callback(_ i: Int32, label: String? = nil) throws(LuaError) -> LuaCallback {
        guard lua_type(L, i) == LUA_TFUNCTION else { throw .type(i, expected: "function") }
        return LuaCallback(L, at: i, label: label)
    }

    /// A function or nil (e.g. assigning a callback field).
    public func optionalCallback(_ i: Int32, label: String? = nil) throws(LuaError) -> LuaCallback? {
        isNoneOrNil(i) ? nil : try callback(i, label: label)
    }

    // MARK: Geometry

    /// A point given either as a table `{x=, y=}` at `i`, or as two numbers at `i` and `i+1`.
    /// `next` is the index of the argument after the point.
    @inline(__always)
    public func point(_ i: Int32) throws(LuaError) -> (point: Point, next: Int32) {
        var ok: Int32 = 0
        let x = lua_tonumberx(L, i, &ok)
        if ok != 0 {
            let y = lua_tonumberx(L, i + 1, &ok)
            if ok != 0 { return (Point(x, y), i + 2) }
            throw .type(i + 1, expected: "number")
        }
        return try pointTable(i)
    }

    private func pointTable(_ i: Int32) throws(LuaError) -> (point: Point, next: Int32) {
        if lua_type(L, i) == LUA_TTABLE {
            let t = LuaTable(L, absolute(i), argument: i)
            return (Point(try t.number("x"), try t.number("y")), i + 1)
        }
        throw .type(i, expected: "number")
    }

    /// A size given either as a table `{width=, height=}` at `i`, or as two numbers.
    public func size(_ i: Int32) throws(LuaError) -> (size: Size, next: Int32) {
        if lua_type(L, i) == LUA_TTABLE {
            let t = LuaTable(L, absolute(i), argument: i)
            return (Size(try t.number("width"), try t.number("height")), i + 1)
        }
        return (Size(try number(i), try number(i + 1)), i + 2)
    }

    // MARK: JSON

    /// Any JSON-representable value (lua-api §0); nil and absent read as `.null`. A value
    /// that cannot be converted is an argument error naming the offending place, e.g.
    /// `bad argument #2 to 'setData' (field 'list[2]': cannot convert a function to JSON)`.
    public func json(_ i: Int32) throws(LuaError) -> JSONValue {
        do {
            return try LuaJSON.read(L, i)
        } catch {
            throw .argument(i, error.description)
        }
    }

    // MARK: Setters

    /// Reads the value assigned to a field in a setter (`store.onConnect = f`: the value is
    /// argument 2). Type and argument errors become a plain message naming the field, since
    /// "bad argument #2 to '?'" means nothing to someone writing an assignment:
    /// `bad value for field 'onConnect' (function expected, got number)`.
    public func assigned<T>(_ field: String, _ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as LuaError {
            switch error {
            case .type(let k, let expected):
                throw LuaError.message(
                    "bad value for field '\(field)' (\(LuaErrors.typeMessage(L, k, expected: expected)))")
            case .argument(_, let message):
                throw LuaError.message("bad value for field '\(field)' (\(message))")
            default:
                throw error
            }
        }
    }

    // MARK: Userdata

    /// The object of bound type `cls` at `i`. A wrong type gives
    /// `bad argument #1 to 'f' (Store expected, got table)` (for a colon call:
    /// `calling 'f' on bad self (...)`); a closed object gives `attempt to use a closed Store`.
    @inline(__always)
    public func object<Object>(_ i: Int32, _ cls: LuaClass<Object>) throws(LuaError) -> Object {
        try cls.check(L, i)
    }

    public func optionalObject<Object>(_ i: Int32, _ cls: LuaClass<Object>) throws(LuaError) -> Object? {
        isNoneOrNil(i) ? nil : try cls.check(L, i)
    }
}
