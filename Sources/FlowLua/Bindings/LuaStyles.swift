import CLua
import CLuaShims
import FlowCore

// Shapes, styles and classes in Lua tables (lua-api §2, §3, §1): `shape = "diamond"`,
// `class = "db"` or `class = {"db", "hot"}`, `style = {fill = "#eeeeff", …}`, and the style
// sheet `classes = {db = {shape = "cylinder", fill = "#eeeeff"}}`.

enum LuaStyles {
    /// The style keys of a node, of an edge, of a class of the sheet.
    static let nodeKeys: Set<String> = [
        "fill", "stroke", "strokeWidth", "dash", "opacity", "textColor", "fontSize", "bold", "italic", "wrapWidth",
    ]
    static let edgeKeys: Set<String> = [
        "fill", "stroke", "strokeWidth", "dash", "opacity", "textColor", "fontSize", "bold", "italic", "sourceArrow",
        "targetArrow",
    ]
    static let classKeys: Set<String> = nodeKeys.union(edgeKeys).union(["shape"])

    /// The style table at the top of the stack (field `key` of `t`), with only `keys`
    /// allowed; a class's `shape` too when `keys` has it. Colours are checked here, the
    /// numbers by the store, each error naming the field (`style.fill`).
    static func style(_ t: LuaTable, _ key: String, keys: Set<String>, op: String) throws -> (FlowStyle, NodeShape?) {
        guard lua_type(t.L, -1) == LUA_TTABLE else {
            throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "table"))
        }
        let s = LuaTable(t.L, -1, argument: t.argument, path: t.fieldPath(key), operation: t.operation)
        return try read(s, keys: keys, op: op)
    }

    /// The fields of style table `s`.
    static func read(_ s: LuaTable, keys: Set<String>, op: String) throws -> (FlowStyle, NodeShape?) {
        try s.rejectUnknownKeys(keys)
        var style = FlowStyle()
        func colour(_ k: String) throws -> FlowColor? {
            guard let text = try s.optionalString(k) else { return nil }
            return try FlowColor(parsing: text, field: s.fieldPath(k), operation: op)
        }
        style.fill = try colour("fill")
        style.stroke = try colour("stroke")
        style.textColor = try colour("textColor")
        style.strokeWidth = try s.optionalNumber("strokeWidth")
        style.opacity = try s.optionalNumber("opacity")
        style.fontSize = try s.optionalNumber("fontSize")
        style.wrapWidth = try s.optionalNumber("wrapWidth")
        style.bold = try s.optionalBoolean("bold")
        style.italic = try s.optionalBoolean("italic")
        style.dash = try numbers(s, "dash")
        style.sourceArrow = try s.optionalEnumValue("sourceArrow", ArrowHead.self, in: op)
        style.targetArrow = try s.optionalEnumValue("targetArrow", ArrowHead.self, in: op)
        try style.validate(op, s.path)
        let shape = try s.optionalEnumValue("shape", NodeShape.self, in: op)
        return (style, shape)
    }

    /// An array of numbers, each passed through `check` with its path (a style's are
    /// checked by `FlowStyle.validate`).
    static func numbers(
        _ t: LuaTable, _ key: String, check: (Double, String) throws -> Double = { v, _ in v }
    ) throws -> [Double]? {
        try t.optionalTable(key) { a in
            var out: [Double] = []
            try a.forEachElement { i in
                var ok: Int32 = 0
                let v = lua_tonumberx(a.L, -1, &ok)
                if ok == 0 { throw a.error("[\(i)]", LuaErrors.typeMessage(a.L, -1, expected: "number")) }
                out.append(try check(v, "\(a.path)[\(i)]"))
            }
            return out
        }
    }

    /// The classes at the top of the stack (field `key` of `t`): a name or a list of names.
    static func classes(_ t: LuaTable, _ key: String) throws -> [String] {
        let L = t.L
        if lua_type(L, -1) == LUA_TSTRING, let s = t.string(at: -1) { return [s] }
        guard lua_type(L, -1) == LUA_TTABLE else {
            throw t.error(key, LuaErrors.typeMessage(L, -1, expected: "string or table"))
        }
        let list = LuaTable(L, -1, argument: t.argument, path: t.fieldPath(key), operation: t.operation)
        var out: [String] = []
        var count = 0
        lua_pushnil(L)
        while lua_next(L, list.index) != 0 {
            count += 1
            flua_pop(L, 1)
        }
        guard count == list.length else { throw t.error(key, "list of class names expected (keys must be exactly 1..n)") }
        try list.forEachElement { i in
            guard lua_type(L, -1) == LUA_TSTRING, let s = list.string(at: -1) else {
                throw t.error("\(key)[\(i)]", LuaErrors.typeMessage(L, -1, expected: "string"))
            }
            out.append(s)
        }
        return out
    }

    /// The style sheet table `t` (`configure{classes = …}`).
    static func sheet(_ t: LuaTable, op: String) throws -> [String: FlowClass] {
        let L = t.L
        var out: [String: FlowClass] = [:]
        lua_pushnil(L)
        while lua_next(L, t.index) != 0 {
            guard lua_type(L, -2) == LUA_TSTRING, let name = t.string(at: -2) else {
                throw t.error("class names must be strings")
            }
            let (style, shape) = try Self.style(t, name, keys: classKeys, op: op)
            out[name] = FlowClass(shape: shape, style: style)
            flua_pop(L, 1)
        }
        return out
    }

    // MARK: Pushing

    /// The properties a style sets, as a table.
    static func push(_ s: LuaStack, style: FlowStyle, shape: NodeShape? = nil) {
        lua_createtable(s.L, 0, 4)
        if let v = shape { s.push(v.rawValue); s.setField("shape") }
        if let v = style.fill { s.push(v.description); s.setField("fill") }
        if let v = style.stroke { s.push(v.description); s.setField("stroke") }
        if let v = style.strokeWidth { s.push(v); s.setField("strokeWidth") }
        if let v = style.dash {
            lua_createtable(s.L, Int32(clamping: v.count), 0)
            for (i, x) in v.enumerated() {
                s.push(x)
                lua_rawseti(s.L, -2, lua_Integer(i + 1))
            }
            s.setField("dash")
        }
        if let v = style.opacity { s.push(v); s.setField("opacity") }
        if let v = style.textColor { s.push(v.description); s.setField("textColor") }
        if let v = style.fontSize { s.push(v); s.setField("fontSize") }
        if let v = style.bold { s.push(v); s.setField("bold") }
        if let v = style.italic { s.push(v); s.setField("italic") }
        if let v = style.wrapWidth { s.push(v); s.setField("wrapWidth") }
        if let v = style.sourceArrow { s.push(v.rawValue); s.setField("sourceArrow") }
        if let v = style.targetArrow { s.push(v.rawValue); s.setField("targetArrow") }
    }

    static func push(_ s: LuaStack, classes: [String]) {
        lua_createtable(s.L, Int32(clamping: classes.count), 0)
        for (i, c) in classes.enumerated() {
            s.push(c)
            lua_rawseti(s.L, -2, lua_Integer(i + 1))
        }
    }

    static func push(_ s: LuaStack, sheet: [String: FlowClass]) {
        lua_createtable(s.L, 0, Int32(clamping: sheet.count))
        for name in sheet.keys.sorted() {
            let c = sheet[name]!  // invariant: a key of the sheet
            push(s, style: c.style, shape: c.shape)
            s.setField(name)
        }
    }

    // MARK: Event lines

    /// ` shape diamond class {db, hot} style {fill=#eeeeff}` for what differs from `old`
    /// (everything set, without one).
    static func diff(
        shape: NodeShape?, classes: [String], style: FlowStyle, old: (NodeShape?, [String], FlowStyle)?
    ) -> [String] {
        let (oldShape, oldClasses, oldStyle) = old ?? (nil, [], FlowStyle())
        var parts: [String] = []
        if shape != oldShape { parts.append("shape \(shape?.rawValue ?? "nil")") }
        if classes != oldClasses { parts.append("class {\(classes.joined(separator: ", "))}") }
        if style != oldStyle { parts.append("style \(describe(style))") }
        return parts
    }

    /// `{fill=#eeeeff, strokeWidth=2}`, in the order of `FlowStyle`'s properties.
    static func describe(_ s: FlowStyle) -> String {
        var p: [String] = []
        if let v = s.fill { p.append("fill=\(v)") }
        if let v = s.stroke { p.append("stroke=\(v)") }
        if let v = s.strokeWidth { p.append("strokeWidth=\(formatNumber(v))") }
        if let v = s.dash { p.append("dash={\(v.map(formatNumber).joined(separator: ", "))}") }
        if let v = s.opacity { p.append("opacity=\(formatNumber(v))") }
        if let v = s.textColor { p.append("textColor=\(v)") }
        if let v = s.fontSize { p.append("fontSize=\(formatNumber(v))") }
        if let v = s.bold { p.append("bold=\(v)") }
        if let v = s.italic { p.append("italic=\(v)") }
        if let v = s.wrapWidth { p.append("wrapWidth=\(formatNumber(v))") }
        if let v = s.sourceArrow { p.append("sourceArrow=\(v.rawValue)") }
        if let v = s.targetArrow { p.append("targetArrow=\(v.rawValue)") }
        return "{" + p.joined(separator: ", ") + "}"
    }
}
