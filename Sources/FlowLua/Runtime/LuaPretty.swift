import CLua
import CLuaShims

/// Renders Lua values for people (the REPL's result printer, `LuaHost.run` results).
///
/// - Top-level strings print raw and numbers as Lua's `tostring` does (`1`, `1.5`, `1.0`),
///   exactly like the stock REPL.
/// - Tables print as constructors: the sequence part first (`{1, 2, 3}`), then the other keys
///   sorted (numbers ascending, then strings by bytes, then booleans, then the rest), keys
///   that are identifiers bare (`{a = 1, ["b c"] = 2}`), strings quoted. Nested tables are
///   inlined while the result fits in `width` columns, otherwise one entry per line,
///   indented by two spaces. A table met again on its own path prints as `<cycle>`;
///   deeper than `maxDepth` prints as `{...}`.
/// - Values with a `__tostring` metamethod (userdata such as a Node, `flow.null`, tables with
///   a metatable) print through it, in protected mode; other functions, threads and userdata
///   print as `<function>`, `<thread>`, `<userdata>` or `<Name>` from `__name`. No address is
///   ever printed.
///
/// Only raw access is used, so no metamethod other than `__tostring` runs.
public struct LuaPretty {
    public var width = 80
    public var maxDepth = 12

    public init(width: Int = 80, maxDepth: Int = 12) {
        self.width = width
        self.maxDepth = maxDepth
    }

    /// The text for the value at `index` (strings unquoted at top level).
    public func render(_ L: OpaquePointer, _ index: Int32) -> String {
        let i = lua_absindex(L, index)
        if lua_type(L, i) == LUA_TSTRING { return LuaStack(L).string(at: i) ?? "" }
        var builder = Builder(L: L, maxDepth: maxDepth)
        let doc = builder.build(i, depth: 0)
        var out = ""
        layout(doc, indent: 0, into: &out)
        return out
    }

    /// The results `from...top` rendered and joined with tabs, like `print`.
    public func render(_ L: OpaquePointer, from first: Int32, to last: Int32) -> String {
        guard first <= last else { return "" }
        return (first...last).map { render(L, $0) }.joined(separator: "\t")
    }

    // MARK: Document tree

    indirect enum Doc {
        case atom(String)
        case table([(key: String?, value: Doc)])

        var flatLength: Int {
            switch self {
            case .atom(let s): return s.utf8.count
            case .table(let items):
                if items.isEmpty { return 2 }
                var n = 2 + 2 * (items.count - 1)
                for it in items { n += it.value.flatLength + (it.key.map { $0.utf8.count + 3 } ?? 0) }
                return n
            }
        }

        func flat(into out: inout String) {
            switch self {
            case .atom(let s): out += s
            case .table(let items):
                out += "{"
                for (n, it) in items.enumerated() {
                    if n > 0 { out += ", " }
                    if let k = it.key { out += k + " = " }
                    it.value.flat(into: &out)
                }
                out += "}"
            }
        }
    }

    func layout(_ doc: Doc, indent: Int, into out: inout String) {
        guard case .table(let items) = doc, indent + doc.flatLength > width, !items.isEmpty else {
            doc.flat(into: &out)
            return
        }
        let pad = String(repeating: " ", count: indent + 2)
        out += "{\n"
        for (n, it) in items.enumerated() {
            out += pad
            var prefix = 0
            if let k = it.key {
                out += k + " = "
                prefix = k.utf8.count + 3
            }
            layout(it.value, indent: indent + 2 + prefix, into: &out)
            out += n == items.count - 1 ? "\n" : ",\n"
        }
        out += String(repeating: " ", count: indent) + "}"
    }

    struct Builder {
        let L: OpaquePointer
        let maxDepth: Int
        var path: [UnsafeRawPointer] = []

        mutating func build(_ i: Int32, depth: Int) -> Doc {
            switch lua_type(L, i) {
            case LUA_TNIL, LUA_TNONE: return .atom("nil")
            case LUA_TBOOLEAN: return .atom(lua_toboolean(L, i) != 0 ? "true" : "false")
            case LUA_TNUMBER: return .atom(LuaStack(L).string(at: i) ?? "?")
            case LUA_TSTRING: return .atom(LuaPretty.quote(LuaStack(L).bytes(at: i) ?? []))
            case LUA_TTABLE:
                if let s = viaToString(i) { return .atom(s) }
                return table(i, depth: depth)
            default:
                if let s = viaToString(i) { return .atom(s) }
                return .atom(opaque(i))
            }
        }

        /// `__tostring` (through `luaL_tolstring` in protected mode) when the metatable has one.
        func viaToString(_ i: Int32) -> String? {
            guard luaL_getmetafield(L, i, "__tostring") != LUA_TNIL else { return nil }
            flua_pop(L, 1)
            defer { flua_pop(L, 1) }
            if flua_safetostring(L, i) == LUA_OK { return LuaStack(L).string(at: -1) }
            return "<error in __tostring: \(LuaStack(L).string(at: -1) ?? "?")>"
        }

        func opaque(_ i: Int32) -> String {
            let t = luaL_getmetafield(L, i, "__name")
            if t != LUA_TNIL {
                defer { flua_pop(L, 1) }
                if t == LUA_TSTRING { return "<\(LuaStack(L).string(at: -1) ?? "?")>" }
            }
            switch lua_type(L, i) {
            case LUA_TFUNCTION: return LuaPretty.functionName(L, i).map { "<function: \($0)>" } ?? "<function>"
            case LUA_TTHREAD: return "<thread>"
            case LUA_TLIGHTUSERDATA: return "<light userdata>"
            default: return "<userdata>"
            }
        }

        mutating func table(_ i: Int32, depth: Int) -> Doc {
            let id = lua_topointer(L, i)!
            if path.contains(id) { return .atom("<cycle>") }
            if depth >= maxDepth || lua_checkstack(L, 6) == 0 { return .atom("{...}") }
            path.append(id)
            defer { path.removeLast() }

            // The sequence part 1..n (stops at the first nil).
            var items: [(key: String?, value: Doc)] = []
            var n: lua_Integer = 0
            while lua_rawgeti(L, i, n + 1) != LUA_TNIL {
                n += 1
                items.append((nil, build(lua_gettop(L), depth: depth + 1)))
                flua_pop(L, 1)
            }
            flua_pop(L, 1)

            // The other keys, sorted.
            var keys: [Key] = []
            lua_pushnil(L)
            while lua_next(L, i) != 0 {
                flua_pop(L, 1)
                if lua_isinteger(L, -1) != 0 {
                    let k = lua_tointegerx(L, -1, nil)
                    if k >= 1 && k <= n { continue }
                }
                // keep a reference to the key so it can be pushed again later
                keys.append(Key.make(L, -1))
            }
            keys.sort(by: Key.less)
            let s = LuaStack(L)
            for key in keys {
                key.push(L)
                let keyText: String
                switch key.kind {
                case .string(let bytes) where LuaPretty.isIdentifier(bytes):
                    keyText = String(decoding: bytes, as: UTF8.self)
                case .string(let bytes): keyText = "[\(LuaPretty.quote(bytes))]"
                case .number: keyText = "[\(s.string(at: -1) ?? "?")]"
                case .boolean(let b): keyText = "[\(b)]"
                case .other(_, let slot):
                    keyText = "[\(opaqueKey(slot))]"
                }
                lua_pushvalue(L, -1)
                lua_rawget(L, i)
                items.append((keyText, build(lua_gettop(L), depth: depth + 1)))
                flua_pop(L, 2)
            }
            for key in keys { key.release(L) }
            return .table(items)
        }

        func opaqueKey(_ slot: Int32) -> String {
            lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(slot))
            defer { flua_pop(L, 1) }
            if lua_type(L, -1) == LUA_TTABLE { return "<table>" }
            return viaToString(lua_gettop(L)) ?? opaque(lua_gettop(L))
        }
    }

    /// A table key captured for sorting.
    struct Key {
        enum Kind {
            case number(Double, Int64?)
            case string([UInt8])
            case boolean(Bool)
            case other(String, Int32)  // type name, registry ref of the key value
        }
        var kind: Kind

        static func make(_ L: OpaquePointer, _ i: Int32) -> Key {
            switch lua_type(L, i) {
            case LUA_TNUMBER:
                let isInt = lua_isinteger(L, i) != 0
                return Key(kind: .number(lua_tonumberx(L, i, nil), isInt ? lua_tointegerx(L, i, nil) : nil))
            case LUA_TSTRING: return Key(kind: .string(LuaStack(L).bytes(at: i) ?? []))
            case LUA_TBOOLEAN: return Key(kind: .boolean(lua_toboolean(L, i) != 0))
            default:
                lua_pushvalue(L, i)
                let ref = luaL_ref(L, FLUA_REGISTRYINDEX)
                return Key(kind: .other(String(cString: fluaL_typename(L, i)), ref))
            }
        }

        func push(_ L: OpaquePointer) {
            switch kind {
            case .number(let d, let i): if let i { lua_pushinteger(L, i) } else { lua_pushnumber(L, d) }
            case .string(let b): LuaStack(L).push(bytes: b)
            case .boolean(let b): lua_pushboolean(L, b ? 1 : 0)
            case .other(_, let ref): lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(ref))
            }
        }

        func release(_ L: OpaquePointer) {
            if case .other(_, let ref) = kind { luaL_unref(L, FLUA_REGISTRYINDEX, ref) }
        }

        var rank: Int {
            switch kind {
            case .number: return 0
            case .string: return 1
            case .boolean: return 2
            case .other: return 3
            }
        }

        static func less(_ a: Key, _ b: Key) -> Bool {
            if a.rank != b.rank { return a.rank < b.rank }
            switch (a.kind, b.kind) {
            case (.number(let x, let xi), .number(let y, let yi)):
                if let xi, let yi { return xi < yi }
                return x < y
            case (.string(let x), .string(let y)): return x.lexicographicallyPrecedes(y)
            case (.boolean(let x), .boolean(let y)): return !x && y
            case (.other(let x, _), .other(let y, _)): return x < y
            default: return false
            }
        }
    }

    /// The name of a library function, found (raw) in `package.loaded`: `print`,
    /// `string.format`, `flow.type`. Globals win; otherwise the smallest name, so the result
    /// is deterministic. nil for other functions.
    public static func functionName(_ L: OpaquePointer, _ index: Int32) -> String? {
        let fn = lua_absindex(L, index)
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard lua_checkstack(L, 6) != 0, lua_getfield(L, FLUA_REGISTRYINDEX, "_LOADED") == LUA_TTABLE else { return nil }
        let loaded = lua_gettop(L)
        var found: [String] = []
        lua_pushnil(L)
        while lua_next(L, loaded) != 0 {  // module name -> module table
            if lua_type(L, -2) == LUA_TSTRING, lua_type(L, -1) == LUA_TTABLE, let module = LuaStack(L).string(at: -2) {
                let t = lua_gettop(L)
                lua_pushnil(L)
                while lua_next(L, t) != 0 {
                    if lua_rawequal(L, -1, fn) != 0, lua_type(L, -2) == LUA_TSTRING, let k = LuaStack(L).string(at: -2) {
                        if module == "_G" {
                            lua_settop(L, top)
                            return k
                        }
                        found.append("\(module).\(k)")
                    }
                    flua_pop(L, 1)
                }
            }
            flua_pop(L, 1)
        }
        return found.min()
    }

    static let reserved: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    static func isIdentifier(_ b: [UInt8]) -> Bool {
        guard let first = b.first, first == UInt8(ascii: "_") || isAlpha(first) else { return false }
        for c in b where !(c == UInt8(ascii: "_") || isAlpha(c) || (c >= 48 && c <= 57)) { return false }
        return !reserved.contains(String(decoding: b, as: UTF8.self))
    }

    static func isAlpha(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }

    /// A double-quoted Lua string literal: `\\`, `\"`, `\n`, `\r`, `\t` and other control
    /// bytes escaped; bytes >= 0x80 are kept (UTF-8 prints as is).
    public static func quote(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = [34]
        for c in bytes {
            switch c {
            case 34: out += [92, 34]
            case 92: out += [92, 92]
            case 10: out += [92, 110]
            case 13: out += [92, 114]
            case 9: out += [92, 116]
            case 0..<32, 127:
                out += [92, 48 + c / 100, 48 + (c / 10) % 10, 48 + c % 10]
            default: out.append(c)
            }
        }
        out.append(34)
        return String(decoding: out, as: UTF8.self)
    }
}
