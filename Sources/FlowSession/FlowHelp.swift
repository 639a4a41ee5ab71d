import CLua
import CLuaShims
import FlowLua

/// The `help` global of flowrepl, backed by `FlowHelp.entries` (HelpEntries.swift).
public enum FlowHelp {
    /// The entry text for an exact name.
    public static func entry(_ name: String) -> String? {
        entries.first { $0.name == name }?.text
    }

    /// Every entry name, sorted.
    public static var topics: [String] { entries.map(\.name).sorted() }

    /// Resolves a name as typed: exact, then case-insensitive, then by the last component
    /// (`addNode` finds `Store:addNode`). Returns the matching names.
    public static func lookup(_ query: String) -> [String] {
        if entry(query) != nil { return [query] }
        let lower = query.lowercased()
        let ci = entries.filter { $0.name.lowercased() == lower }.map(\.name)
        if !ci.isEmpty { return ci }
        return entries.filter { e in
            let last = lastComponent(e.name)
            return last == query || last.lowercased() == lower
        }.map(\.name)
    }

    /// The text `help(...)` prints for the query `q`.
    public static func text(for query: String) -> String {
        let names = lookup(query)
        switch names.count {
        case 0:
            let near = topics.filter { $0.lowercased().contains(query.lowercased()) }
            if near.isEmpty { return "no help for '\(query)'" }
            return "no help for '\(query)'; related: \(near.joined(separator: ", "))"
        case 1: return fullEntry(names[0])!  // invariant: lookup returns existing names
        default: return "several entries match '\(query)': \(names.joined(separator: ", "))"
        }
    }

    /// The entry for an exact name; a flowrepl shortcut (`save`, `open`) is followed by the
    /// entries it stands for (`Store:save`, `flow.open`).
    public static func fullEntry(_ name: String) -> String? {
        guard let first = entry(name) else { return nil }
        return ([first] + wrapped(by: name).compactMap(entry)).joined(separator: "\n\n")
    }

    /// For a global without a qualifier (`save`), the entries of the same last name
    /// elsewhere (`Store:save`), sorted; empty for qualified names.
    static func wrapped(by name: String) -> [String] {
        guard !name.contains(where: { $0 == "." || $0 == ":" }) else { return [] }
        return topics.filter { $0 != name && lastComponent($0) == name }
    }

    static func lastComponent(_ name: String) -> String {
        name.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) ?? name
    }

    /// The overview printed by `help()`.
    public static var overview: String {
        """
        FlowScript \(flowVersion): Lua 5.4 with the flow module.
          help("name")  the entry for a name, e.g. help("flow.type")
          help(value)   the entry for a function, module or object
        \(groupedTopics)
        """
    }

    /// The topics grouped by what they belong to (module, Store methods and fields, Node,
    /// Edge, Walker, Observer, value types), each group wrapped at 80 columns.
    static var groupedTopics: String {
        var groups: [(title: String, names: [String])] = [
            ("module", []), ("Store methods", []), ("Store fields", []), ("Node", []), ("Edge", []),
            ("Walker", []), ("Observer", []), ("types and values", []),
        ]
        for name in topics {
            let i: Int
            if name == "flow" || name.hasPrefix("flow.") || name == "help" || name == "save" || name == "open" || name == "store"
                || name == "preview"
            {
                i = 0
            } else if name.hasPrefix("Store:") {
                i = 1
            } else if name.hasPrefix("Store.") {
                i = 2
            } else if name.hasPrefix("Node:") || name.hasPrefix("Node.") {
                i = 3
            } else if name.hasPrefix("Edge:") || name.hasPrefix("Edge.") {
                i = 4
            } else if name.hasPrefix("Walker:") || name.hasPrefix("Walker.") {
                i = 5
            } else if name.hasPrefix("Observer:") || name.hasPrefix("Observer.") {
                i = 6
            } else {
                i = 7
            }
            groups[i].names.append(name)
        }
        var out: [String] = []
        for g in groups where !g.names.isEmpty {
            var line = "\(g.title):"
            for n in g.names {
                let short = lastComponent(n)
                let shown = g.title == "module" || g.title == "types and values" ? n : short
                if line.count + shown.count + 1 > 80 {
                    out.append(line)
                    line = "   "
                }
                line += " " + shown
            }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }

    /// Defines the global `help` in `L`'s state.
    public static func install(_ L: OpaquePointer) {
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
        luaPushFunction(L, help)
        lua_setfield(L, -2, "help")
        flua_pop(L, 1)
    }

    static let help: LuaFunction = { L in
        luaGuarded(L) { args in
            let L = args.L
            let text: String
            if args.count == 0 {
                text = overview
            } else if args.type(at: 1) == LUA_TSTRING {
                text = Self.text(for: try args.string(1))
            } else if let name = name(of: L, 1) {
                text = fullEntry(name) ?? "no help for '\(name)'"
            } else {
                text = "no help for this \(args.typeName(at: 1)) value"
            }
            LuaContext.of(L).output(text + "\n")
            return 0
        }
    }

    /// The documented name of the value at `index`: the `flow` module, a module function
    /// (`flow.type`), a method of a bound type (`Store:addNode`), a bound object (`Store`),
    /// `flow.null`, or the `help` function. Raw access only.
    public static func name(of L: OpaquePointer, _ index: Int32) -> String? {
        let i = lua_absindex(L, index)
        let s = LuaStack(L)
        if LuaNull.isNull(L, i) { return "flow.null" }
        if let t = LuaTypes.name(L, i) { return t }
        // the module table and its functions
        let base = lua_gettop(L)
        lua_getfield(L, FLUA_REGISTRYINDEX, "_LOADED")
        defer { lua_settop(L, base) }
        if lua_type(L, -1) == LUA_TTABLE {
            s.push("flow")
            lua_rawget(L, -2)
            if lua_rawequal(L, -1, i) != 0 { return "flow" }
            if lua_type(L, -1) == LUA_TTABLE, let k = keyOf(L, i, in: lua_gettop(L)) { return "flow.\(k)" }
        }
        lua_settop(L, base)
        // methods of bound types
        LuaTypes.pushRegistry(L)
        let types = lua_gettop(L)
        lua_pushnil(L)
        while lua_next(L, types) != 0 {  // mt -> name
            let typeName = s.string(at: -1) ?? "?"
            flua_pop(L, 1)
            s.push("__methods")
            if lua_rawget(L, -2) == LUA_TTABLE, let k = keyOf(L, i, in: lua_gettop(L)) {
                return "\(typeName):\(k)"
            }
            flua_pop(L, 1)
        }
        // flowrepl's global functions: help itself, save, open
        lua_settop(L, base)
        guard lua_type(L, i) == LUA_TFUNCTION else { return nil }
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
        for global in ["help", "save", "open"] {
            s.push(global)
            lua_rawget(L, -2)
            if lua_rawequal(L, -1, i) != 0 { return global }
            flua_pop(L, 1)
        }
        return nil
    }

    /// The string key under which table `t` holds the value at `i` (raw), sorted for
    /// determinism when several keys hold it.
    static func keyOf(_ L: OpaquePointer, _ i: Int32, in t: Int32) -> String? {
        var found: [String] = []
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            if lua_rawequal(L, -1, i) != 0, lua_type(L, -2) == LUA_TSTRING, let k = LuaStack(L).string(at: -2) {
                found.append(k)
            }
            flua_pop(L, 1)
        }
        return found.min()
    }
}
