import CLua
import CLuaShims
import FlowCore

/// A table on the stack, read field by field with raw access (no metamethod ever runs).
///
/// Errors name the field and are reported against the argument the table came from:
/// `bad argument #1 to 'addNode' (field 'x': number expected, got string)`; nested tables
/// extend the path (`field 'edgeStyle.lineWidth': …`). A table that is not an argument
/// (`argument == 0`, e.g. a table returned by a callback) reports
/// `<operation>: field 'x': …` as a plain error.
public struct LuaTable: LuaStackAccess {
    public let L: OpaquePointer
    /// Absolute stack index of the table.
    public let index: Int32
    /// The argument errors are reported against; 0 when the table is not an argument.
    public let argument: Int32
    /// Dotted path of this table inside the argument ("" for the argument itself).
    public let path: String
    /// For tables that are not arguments: the operation named in errors.
    public let operation: String

    public init(_ L: OpaquePointer, _ index: Int32, argument: Int32, path: String = "", operation: String = "") {
        self.L = L
        self.index = lua_absindex(L, index)
        self.argument = argument
        self.path = path
        self.operation = operation
    }

    // MARK: Errors

    public func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// An error about field `key`, attributed to the argument (or the operation).
    public func error(_ key: String, _ problem: String) -> LuaError {
        let text = "field '\(fieldPath(key))': \(problem)"
        if argument > 0 { return .argument(argument, text) }
        return .message(operation.isEmpty ? text : "\(operation): \(text)")
    }

    /// An error about the table itself (not one field).
    public func error(_ problem: String) -> LuaError {
        let text = path.isEmpty ? problem : "field '\(path)': \(problem)"
        if argument > 0 { return .argument(argument, text) }
        return .message(operation.isEmpty ? text : "\(operation): \(text)")
    }

    /// `unknown field 'k'`, followed by `; did you mean 'x'?` when one of `known` (in the
    /// order that decides ties) is a likely misspelling of it.
    public func unknownField(_ key: String, known: [String]) -> LuaError {
        error("unknown field '\(fieldPath(key))'\(LuaErrors.suggestion(for: key, among: known))")
    }

    private func typeError(_ key: String, expected: String) -> LuaError {
        error(key, LuaErrors.typeMessage(L, -1, expected: expected))
    }

    // MARK: Access

    /// Pushes `t[key]` (raw) and returns its type. The caller pops it.
    @discardableResult
    public func pushField(_ key: String) -> Int32 {
        push(key)
        return lua_rawget(L, index)
    }

    /// Runs `body` with `t[key]` on top of the stack (at index -1), then pops it.
    @inline(__always)
    public func withField<R>(_ key: String, _ body: (Int32) throws(LuaError) -> R) throws(LuaError) -> R {
        let type = pushField(key)
        defer { flua_pop(L, 1) }
        return try body(type)
    }

    /// True when `t[key]` is not nil.
    public func has(_ key: String) -> Bool {
        let t = pushField(key)
        flua_pop(L, 1)
        return t != LUA_TNIL
    }

    /// `#t` without metamethods.
    public var length: Int { Int(lua_rawlen(L, index)) }

    /// The string keys, sorted by their UTF-8 bytes; `nonString` is true when some key is not
    /// a string.
    public func stringKeys() -> (keys: [String], nonString: Bool) {
        var keys: [String] = []
        var other = false
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            if lua_type(L, -2) == LUA_TSTRING, let k = string(at: -2) { keys.append(k) } else { other = true }
            flua_pop(L, 1)
        }
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return (keys, other)
    }

    /// Throws for the first key (in sorted order) that is not in `allowed`, e.g.
    /// `(unknown field 'widht')`. Non-string keys are unknown too.
    public func rejectUnknownKeys(_ allowed: Set<String>) throws(LuaError) {
        let (keys, other) = stringKeys()
        if let bad = keys.first(where: { !allowed.contains($0) }) {
            throw unknownField(bad, known: allowed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
        if other { throw error("unexpected non-string key") }
    }

    // MARK: Typed fields

    public func number(_ key: String) throws(LuaError) -> Double {
        try withField(key) { (_) throws(LuaError) in
            var ok: Int32 = 0
            let v = lua_tonumberx(L, -1, &ok)
            if ok == 0 { throw typeError(key, expected: "number") }
            return v
        }
    }

    public func optionalNumber(_ key: String) throws(LuaError) -> Double? {
        try withField(key) { (t) throws(LuaError) in
            if t == LUA_TNIL { return nil }
            var ok: Int32 = 0
            let v = lua_tonumberx(L, -1, &ok)
            if ok == 0 { throw typeError(key, expected: "number") }
            return v
        }
    }

    public func optionalNumber(_ key: String, default d: Double) throws(LuaError) -> Double {
        try optionalNumber(key) ?? d
    }

    public func integer(_ key: String) throws(LuaError) -> Int64 {
        guard let v = try optionalInteger(key) else {
            throw try withField(key) { _ in typeError(key, expected: "number") }
        }
        return v
    }

    public func optionalInteger(_ key: String) throws(LuaError) -> Int64? {
        try withField(key) { (t) throws(LuaError) in
            if t == LUA_TNIL { return nil }
            var ok: Int32 = 0
            let v = lua_tointegerx(L, -1, &ok)
            if ok != 0 { return v }
            if lua_isnumber(L, -1) != 0 { throw error(key, "number has no integer representation") }
            throw typeError(key, expected: "number")
        }
    }

    public func string(_ key: String) throws(LuaError) -> String {
        try withField(key) { (_) throws(LuaError) in
            guard let s = string(at: -1) else { throw typeError(key, expected: "string") }
            return s
        }
    }

    public func optionalString(_ key: String) throws(LuaError) -> String? {
        try withField(key) { (t) throws(LuaError) in
            if t == LUA_TNIL { return nil }
            guard let s = string(at: -1) else { throw typeError(key, expected: "string") }
            return s
        }
    }

    /// An id field: a string, or a number in its string form.
    /// Invalid UTF-8 is refused, as in labels and data (D24).
    public func id(_ key: String) throws(LuaError) -> String {
        try withField(key) { (_) throws(LuaError) in
            guard let s = string(at: -1) else { throw typeError(key, expected: "string") }
            if hasInvalidUTF8(at: -1) { throw error(key, "id is not valid UTF-8") }
            return s
        }
    }

    public func optionalID(_ key: String) throws(LuaError) -> String? {
        try withField(key) { (t) throws(LuaError) in
            if t == LUA_TNIL { return nil }
            guard let s = string(at: -1) else { throw typeError(key, expected: "string") }
            if hasInvalidUTF8(at: -1) { throw error(key, "id is not valid UTF-8") }
            return s
        }
    }

    public func boolean(_ key: String) throws(LuaError) -> Bool {
        try withField(key) { (t) throws(LuaError) in
            guard t == LUA_TBOOLEAN else { throw typeError(key, expected: "boolean") }
            return lua_toboolean(L, -1) != 0
        }
    }

    public func optionalBoolean(_ key: String) throws(LuaError) -> Bool? {
        try withField(key) { (t) throws(LuaError) in
            if t == LUA_TNIL { return nil }
            guard t == LUA_TBOOLEAN else { throw typeError(key, expected: "boolean") }
            return lua_toboolean(L, -1) != 0
        }
    }

    public func optionalBoolean(_ key: String, default d: Bool) throws(LuaError) -> Bool {
        try optionalBoolean(key) ?? d
    }

    /// A string field naming a case of `E`; unknown strings raise FlowCore's message.
    public func enumValue<E: FlowEnum>(_ key: String, _ type: E.Type, in operation: String) throws -> E {
        guard let v = try optionalEnumValue(key, type, in: operation) else {
            throw try withField(key) { _ in typeError(key, expected: "string") }
        }
        return v
    }

    public func optionalEnumValue<E: FlowEnum>(_ key: String, _ type: E.Type, in operation: String) throws -> E? {
        let raw: String? = try withField(key) { (t) throws(LuaError) in
            if t == LUA_TNIL { return nil }
            guard t == LUA_TSTRING, let s = string(at: -1) else { throw typeError(key, expected: "string") }
            return s
        }
        guard let raw else { return nil }
        return try E.parse(raw, in: operation)
    }

    /// A JSON field (lua-api §0), or nil when the field is absent.
    public func json(_ key: String) throws(LuaError) -> JSONValue? {
        try withField(key) { (t) throws(LuaError) -> JSONValue? in
            if t == LUA_TNIL { return nil }
            do {
                return try LuaJSON.read(L, -1)
            } catch let error as LuaJSONError {
                let p = error.path.isEmpty ? key : (error.path.hasPrefix("[") ? key + error.path : "\(key).\(error.path)")
                throw self.error(p, error.reason)
            } catch {
                throw self.error(key, String(describing: error))
            }
        }
    }

    /// True when `t[key]` is the `flow.null` value (used by patches to clear a field).
    public func isNull(_ key: String) -> Bool {
        let t = pushField(key)
        defer { flua_pop(L, 1) }
        return t == LUA_TUSERDATA && LuaNull.isNull(L, -1)
    }

    /// A nested table field, read with `body` (its errors carry the nested path).
    public func table<R>(_ key: String, _ body: (LuaTable) throws -> R) throws -> R {
        guard let r = try optionalTable(key, body) else {
            throw try withField(key) { _ in typeError(key, expected: "table") }
        }
        return r
    }

    /// A nested table field, or nil when absent.
    public func optionalTable<R>(_ key: String, _ body: (LuaTable) throws -> R) throws -> R? {
        let t = pushField(key)
        defer { flua_pop(L, 1) }
        if t == LUA_TNIL { return nil }
        guard t == LUA_TTABLE else { throw typeError(key, expected: "table") }
        return try body(LuaTable(L, -1, argument: argument, path: fieldPath(key), operation: operation))
    }

    /// A `{x=, y=}` field.
    public func point(_ key: String) throws -> Point {
        try table(key) { t in Point(try t.number("x"), try t.number("y")) }
    }

    public func optionalPoint(_ key: String) throws -> Point? {
        try optionalTable(key) { t in Point(try t.number("x"), try t.number("y")) }
    }

    /// A `{width=, height=}` field.
    public func size(_ key: String) throws -> Size {
        try table(key) { t in Size(try t.number("width"), try t.number("height")) }
    }

    public func optionalSize(_ key: String) throws -> Size? {
        try optionalTable(key) { t in Size(try t.number("width"), try t.number("height")) }
    }

    /// Calls `body(i)` for i = 1...#t with `t[i]` on top of the stack (popped afterwards).
    public func forEachElement(_ body: (Int) throws -> Void) throws {
        let n = length
        guard n > 0 else { return }
        for i in 1...n {
            lua_rawgeti(L, index, lua_Integer(i))
            defer { flua_pop(L, 1) }
            try body(i)
        }
    }

    /// Calls `body(i, element)` for each element of an array of tables; an element that is
    /// not a table raises `field '<path>[i]': table expected, got …`.
    public func forEachTable(_ body: (Int, LuaTable) throws -> Void) throws {
        try forEachElement { i in
            let p = "\(path)[\(i)]"
            guard lua_type(L, -1) == LUA_TTABLE else {
                let msg = LuaErrors.typeMessage(L, -1, expected: "table")
                let text = "field '\(p)': \(msg)"
                if argument > 0 { throw LuaError.argument(argument, text) }
                throw LuaError.message(operation.isEmpty ? text : "\(operation): \(text)")
            }
            try body(i, LuaTable(L, -1, argument: argument, path: p, operation: operation))
        }
    }
}
