import CLua
import CLuaShims
import FlowCore

// lua-api §2: nodes.

/// The fields a node table names (one pass over the table, no per-field look-ups).
struct NodeFields {
    var id: String?
    var x: Double?, y: Double?, position: Point?
    var width: Double?, height: Double?, size: Size?
    var data: JSONValue?, clearsData = false
    var parentID: String?, clearsParent = false
    var isDraggable: Bool?, zIndex: Int?, acceptsChildren: Bool?
    var handles: [HandleDeclaration]?
    /// `size = "auto"`.
    var autoSize = false
    /// nil: not given; `.some(nil)`: cleared with `flow.null`.
    var shape: NodeShape??, classes: [String]?, style: FlowStyle?
}

/// How a node table is read: `add` (defaults for what it lacks), `replace` (a table returned
/// by or edited in an update function: defaults too, flags accepted and ignored), `patch`
/// (only the named fields change).
enum TableMode { case add, replace, patch }

enum LuaNodeTables {
    /// The fields of a NodeSpec a table may give, in the order the column form compares them
    /// and "did you mean" suggestions prefer.
    static let fields = [
        "id", "x", "y", "position", "width", "height", "size", "data", "shape", "class", "style",
        "isDraggable", "zIndex", "parentID", "acceptsChildren", "handles",
    ]

    /// Reads the number at the top of the stack for field `key` of `t`.
    @inline(__always)
    static func number(_ t: LuaTable, _ key: String) throws(LuaError) -> Double {
        var ok: Int32 = 0
        let v = lua_tonumberx(t.L, -1, &ok)
        if ok == 0 { throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "number")) }
        return v
    }

    @inline(__always)
    static func string(_ t: LuaTable, _ key: String) throws(LuaError) -> String {
        guard let s = t.string(at: -1) else { throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "string")) }
        return s
    }

    /// An id field (the top of the stack): a string of valid UTF-8 (D24), or a number.
    @inline(__always)
    static func id(_ t: LuaTable, _ key: String) throws(LuaError) -> String {
        let s = try string(t, key)
        if t.hasInvalidUTF8(at: -1) { throw t.error(key, "id is not valid UTF-8") }
        return s
    }

    @inline(__always)
    static func boolean(_ t: LuaTable, _ key: String) throws(LuaError) -> Bool {
        guard lua_type(t.L, -1) == LUA_TBOOLEAN else {
            throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "boolean"))
        }
        return lua_toboolean(t.L, -1) != 0
    }

    static func integer(_ t: LuaTable, _ key: String) throws(LuaError) -> Int {
        var ok: Int32 = 0
        let v = lua_tointegerx(t.L, -1, &ok)
        if ok != 0 { return Int(v) }
        if lua_isnumber(t.L, -1) != 0 { throw t.error(key, "number has no integer representation") }
        throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "number"))
    }

    @inline(__always)
    static func isNull(_ L: OpaquePointer) -> Bool {
        lua_type(L, -1) == LUA_TUSERDATA && LuaNull.isNull(L, -1)
    }

    static func json(_ t: LuaTable, _ key: String) throws(LuaError) -> JSONValue {
        do {
            return try LuaJSON.read(t.L, -1)
        } catch {
            let p = error.path.isEmpty ? key : (error.path.hasPrefix("[") ? key + error.path : "\(key).\(error.path)")
            throw t.error(p, error.reason)
        }
    }

    /// One pass over a node table.
    static func scan(_ t: LuaTable, op: String, mode: TableMode) throws -> NodeFields {
        let L = t.L
        var f = NodeFields()
        var unknown: [String] = []
        lua_pushnil(L)
        while lua_next(L, t.index) != 0 {
            guard lua_type(L, -2) == LUA_TSTRING, let key = t.string(at: -2) else {
                throw t.error("unexpected non-string key")
            }
            switch key {
            case "id": f.id = try id(t, key)
            case "x": f.x = try number(t, key)
            case "y": f.y = try number(t, key)
            case "position": f.position = try point(t, key)
            case "width": f.width = try number(t, key)
            case "height": f.height = try number(t, key)
            case "size":
                if lua_type(L, -1) == LUA_TSTRING, t.string(at: -1) == "auto" {
                    f.autoSize = true
                } else {
                    f.size = try size(t, key)
                }
            case "shape":
                if isNull(L) { f.shape = .some(nil) } else { f.shape = try NodeShape.parse(try string(t, key), in: op) }
            case "class": f.classes = isNull(L) ? [] : try LuaStyles.classes(t, key)
            case "style":
                f.style = isNull(L) ? FlowStyle() : try LuaStyles.style(t, key, keys: LuaStyles.nodeKeys, op: op).0
            case "data":
                if isNull(L) { f.clearsData = true } else { f.data = try json(t, key) }
            case "parentID":
                if isNull(L) { f.clearsParent = true } else { f.parentID = try id(t, key) }
            case "isDraggable": f.isDraggable = try boolean(t, key)
            case "zIndex": f.zIndex = try integer(t, key)
            case "acceptsChildren": f.acceptsChildren = try boolean(t, key)
            case "handles": f.handles = try handles(t, key, op: op)
            case "isSelected", "isHovered", "isDropTarget":
                // snapshot flags are ignored in a table that replaces the item, unknown elsewhere
                if mode != .replace { unknown.append(key) }
            default: unknown.append(key)
            }
            flua_pop(L, 1)
        }
        if let bad = unknown.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            // the usual first guesses for a node's text (and their misspellings, when no
            // field is meant): say where it goes
            let guesses = ["label", "text", "title", "name"]
            if guesses.contains(bad)
                || (LuaErrors.suggestion(for: bad, among: fields).isEmpty
                    && !LuaErrors.suggestion(for: bad, among: guesses).isEmpty)
            {
                throw t.error("unknown field '\(t.fieldPath(bad))'; a node's label goes in its data: data = {label = ...}")
            }
            throw t.unknownField(bad, known: fields)
        }
        if f.position != nil && (f.x != nil || f.y != nil) {
            throw t.error("fields 'x'/'y' and 'position' cannot be combined")
        }
        if (f.size != nil || f.autoSize) && (f.width != nil || f.height != nil) {
            throw t.error("fields 'width'/'height' and 'size' cannot be combined")
        }
        return f
    }

    /// The value at the top of the stack as a point table.
    static func point(_ t: LuaTable, _ key: String) throws -> Point {
        guard lua_type(t.L, -1) == LUA_TTABLE else {
            throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "table"))
        }
        let p = LuaTable(t.L, -1, argument: t.argument, path: t.fieldPath(key), operation: t.operation)
        return Point(try p.number("x"), try p.number("y"))
    }

    static func size(_ t: LuaTable, _ key: String) throws -> Size {
        guard lua_type(t.L, -1) == LUA_TTABLE else {
            throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "table"))
        }
        let p = LuaTable(t.L, -1, argument: t.argument, path: t.fieldPath(key), operation: t.operation)
        return Size(try p.number("width"), try p.number("height"))
    }

    static func handles(_ t: LuaTable, _ key: String, op: String) throws -> [HandleDeclaration] {
        guard lua_type(t.L, -1) == LUA_TTABLE else {
            throw t.error(key, LuaErrors.typeMessage(t.L, -1, expected: "table"))
        }
        let list = LuaTable(t.L, -1, argument: t.argument, path: t.fieldPath(key), operation: t.operation)
        var out: [HandleDeclaration] = []
        try list.forEachTable { _, h in
            try h.rejectUnknownKeys(["id", "type", "position", "offset", "connectionStartArea", "connectionTargetArea"])
            let type = try h.enumValue("type", HandleType.self, in: op)
            out.append(
                HandleDeclaration(
                    id: try h.id("id"), type: type,
                    position: try h.optionalEnumValue("position", HandlePosition.self, in: op)
                        ?? (type == .source ? .bottom : .top),
                    connectionStartArea: try h.optionalTable("connectionStartArea") { try area($0, op) },
                    connectionTargetArea: try h.optionalTable("connectionTargetArea") { try area($0, op) },
                    offset: try h.optionalNumber("offset", default: 0)))
        }
        return out
    }

    static func area(_ a: LuaTable, _ op: String) throws -> HandleHitArea {
        try a.rejectUnknownKeys(["kind", "radius", "width"])
        let kind = try a.string("kind")
        switch kind {
        case "point": return .point(radius: try a.number("radius"))
        case "node": return .node
        case "nodeBorder": return .nodeBorder(width: try a.number("width"))
        case "disabled": return .disabled
        default:
            throw FlowError.invalidEnum(
                operation: op, kind: "hit area kind", value: kind,
                expected: ["point", "node", "nodeBorder", "disabled"])
        }
    }

    /// A node from a table: a new one (`base` nil), a replacement or a patch of `base`.
    static func read(
        _ t: LuaTable, op: String, mode: TableMode, base: LuaFlowNode?, nextID: () -> String
    ) throws -> LuaFlowNode {
        let f = try scan(t, op: op, mode: mode)
        let id: String
        if let given = f.id {
            if let base, given != base.id {
                throw FlowError.invalidValue(op, "the id of node '\(base.id)' cannot change")
            }
            id = given
        } else {
            id = base?.id ?? nextID()
        }
        let keep = mode == .patch ? base : nil
        let p0 = keep?.position ?? .zero
        let s0 = keep?.size ?? LuaFlowNode.defaultSize
        let position = f.position ?? Point(f.x ?? p0.x, f.y ?? p0.y)
        let size = f.size ?? Size(f.width ?? s0.width, f.height ?? s0.height)
        let data = f.clearsData ? .null : (f.data ?? keep?.data ?? .null)
        let parentID = f.clearsParent ? nil : (f.parentID ?? keep?.parentID)
        let isDraggable = f.isDraggable ?? keep?.isDraggable ?? true
        let zIndex = f.zIndex ?? keep?.zIndex ?? 0
        let accepts = f.acceptsChildren ?? keep?.acceptsChildren ?? false
        let handles = f.handles ?? keep?.handles ?? HandleDeclaration.defaults
        let sized = f.size != nil || f.width != nil || f.height != nil
        // Sized to the title: asked for, or no size given to a new node; a node that is kept
        // the size it has (a replacement table names it as it was) stays as it was.
        let autoSize: Bool
        switch mode {
        case .add: autoSize = f.autoSize || !sized
        case .patch: autoSize = f.autoSize || (!sized && base?.autoSize == true)
        case .replace: autoSize = f.autoSize || (base?.autoSize == true && size == base?.size)
        }
        let shape = f.shape ?? keep?.shape
        let classes = f.classes ?? keep?.classes ?? []
        let style = f.style ?? keep?.style ?? FlowStyle()
        if var n = base {
            n.position = position
            n.size = size
            n.data = data
            n.parentID = parentID
            n.isDraggable = isDraggable
            n.zIndex = zIndex
            n.acceptsChildren = accepts
            n.handles = handles
            n.autoSize = autoSize
            n.shape = shape
            n.classes = classes
            n.style = style
            return n
        }
        return LuaFlowNode(
            id: id, position: position, size: size, data: data, parentID: parentID,
            isDraggable: isDraggable, acceptsChildren: accepts, zIndex: zIndex, handles: handles,
            shape: shape, classes: classes, style: style, autoSize: autoSize)
    }
}

extension FlowStoreBinding {
    static var nodeMethods: [LuaMethod] {
        [
            // readNode(of:) reads key i as bit i of `given` (and key i > 0 from v.(i - 1))
            LuaMethod("addNode", fields: addNode, keys: ["id", "x", "y", "width", "height"]),
            LuaMethod("removeNode", removeNode),
            LuaMethod("moveNode", snn: moveNode), LuaMethod("updateNode", updateNode),
            LuaMethod("updateNodeSize", updateNodeSize), LuaMethod("node", node),
            LuaMethod("nodes", nodes), LuaMethod("nextNodeID", nextNodeID),
            LuaMethod("nodesInRect", nodesInRect),
        ]
    }

    static var nodeGetters: [LuaMethod] {
        [LuaMethod("nodeCount", nodeCount), LuaMethod("edgeCount", edgeCount)]
    }

    // MARK: Shared with node handles

    static func moveNode(_ args: LuaArgs, _ box: LuaStoreBox, _ id: String, at i: Int32) throws -> Bool {
        let (p, _) = try args.point(i)
        return try box.run(args.L) { try box.store.moveNode(id, to: p) }
    }

    static func resizeNode(_ args: LuaArgs, _ box: LuaStoreBox, _ id: String, at i: Int32) throws -> Bool {
        let (s, _) = try args.size(i)
        return try box.run(args.L) { try box.store.updateNodeSize(id, to: s) }
    }

    static func removeNode(_ args: LuaArgs, _ box: LuaStoreBox, _ id: String) throws {
        try box.run(args.L) { try box.store.removeNode(id) }
    }

    /// `updateNode(id, fn_or_patch)` with the function or patch at `arg`. With a function,
    /// the call and what the function changes are one atomic operation (D23).
    static func updateNode(_ args: LuaArgs, _ box: LuaStoreBox, _ id: String, at arg: Int32) throws -> Bool {
        let calls = lua_type(args.L, arg) == LUA_TFUNCTION
        return try box.runAtomic(args.L, "updateNode", callbacks: calls) { try updateNodeNow(args, box, id, at: arg) }
    }

    private static func updateNodeNow(_ args: LuaArgs, _ box: LuaStoreBox, _ id: String, at arg: Int32) throws -> Bool {
        let L = args.L
        let op = "updateNode"
        let store = box.store
        guard let old = store.node(id) else { throw FlowError.unknownNode(op, id) }
        let new: LuaFlowNode
        switch lua_type(L, arg) {
        case LUA_TFUNCTION:
            LuaChanges.push(LuaStack(L), node: old)
            let copy = lua_gettop(L)
            lua_pushvalue(L, arg)
            lua_pushvalue(L, copy)
            guard try box.run(L, { flua_pcall_swift(L, 1, 1, 0) }) == LUA_OK else { throw LuaError.valueOnStack }
            let result = lua_type(L, -1)
            if result == LUA_TNIL { flua_pop(L, 1) } else if result != LUA_TTABLE {
                throw LuaError.message("\(op): the update function must return a table or nil (got \(LuaStack(L).typeName(at: -1)))")
            }
            new = try LuaNodeTables.read(
                LuaTable(L, -1, argument: 0, operation: op), op: op, mode: .replace, base: old, nextID: { id })
        case LUA_TTABLE:
            new = try LuaNodeTables.read(
                LuaTable(L, arg, argument: arg), op: op, mode: .patch, base: old, nextID: { id })
        default:
            throw LuaError.type(arg, expected: "function or table")
        }
        return try box.run(L) {
            try store.updateNode(id) { n in
                n.position = new.position
                n.size = new.size
                n.data = new.data
                n.parentID = new.parentID
                n.isDraggable = new.isDraggable
                n.zIndex = new.zIndex
                n.acceptsChildren = new.acceptsChildren
                n.handles = new.handles
                n.autoSize = new.autoSize
                n.shape = new.shape
                n.classes = new.classes
                n.style = new.style
            }
        }
    }

    // MARK: Store methods

    /// `store:addNode(t)`, every call (a fields method, see `flua_FieldsFunction`): the node
    /// comes from the fields C read (`readNode(of:)`) when it could read them, else from the
    /// table reader; then one store call, and the handle keyed by the id as given.
    static let addNode: flua_FieldsFunction = { L, object, fields in
        withMethodBox(L, object) { L, box in
            let store = box.store
            let node: LuaFlowNode, idIndex: Int32
            if let fields, let n = readNode(of: fields.pointee, L, store) {
                node = n
                idIndex = 3  // the id string Lua already has, or the one made up
            } else {
                if fields != nil { lua_settop(L, 2) }
                node = try LuaNodeTables.read(
                    try LuaArgs(L).table(2), op: "addNode", mode: .add, base: nil, nextID: store.nextNodeID)
                pushGivenID(L, table: 2, else: node.id)
                idIndex = lua_gettop(L)
            }
            let runs = box.callbackRuns
            let slot = try box.run(L, moving: consume node) { n throws in try store.add(n) }
            box.pushAdded(.node, L, slot: slot, idAt: idIndex, since: runs)
            return 1
        }
    }

    /// The node of `store:addNode{id=, x=, y=, width=, height=}` from the fields C read, with
    /// the table reader's defaults; a generated id is put in stack slot 3. Nil when the id is
    /// not ASCII (the table reader refuses invalid UTF-8 and spells other ids canonically,
    /// D24).
    @inline(__always)
    private static func readNode(of f: flua_Fields, _ L: OpaquePointer, _ store: LuaFlowStore) -> LuaFlowNode? {
        let id: String
        if f.given & 1 != 0 {
            let bytes = UnsafeRawBufferPointer(start: f.s, count: f.len)  // the string stays on the stack
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            id = decodeUTF8(bytes)
        } else {
            id = store.nextNodeID()
            LuaStack(L).push(id)
            flua_replace(L, 3)
        }
        var size = LuaFlowNode.defaultSize
        if f.given & 8 != 0 { size.width = f.v.2 }
        if f.given & 16 != 0 { size.height = f.v.3 }
        let position = Point(f.given & 2 != 0 ? f.v.0 : 0, f.given & 4 != 0 ? f.v.1 : 0)
        // without a width or a height the node is sized to its title (its id)
        return LuaFlowNode(id: id, position: position, size: size, autoSize: f.given & 24 == 0, parentID: nil)
    }

    static let removeNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            try removeNode(args, box, try args.id(2))
            args.push(true)
            return 1
        }
    }

    /// `store:moveNode(id, x, y)` or `store:moveNode(id, {x=, y=})`, every call (an SNN
    /// method, see `flua_SNNFunction`). Given the id's bytes and two numbers by C, it moves
    /// the node found straight from those bytes (no Swift string made); an id of invalid
    /// UTF-8 or one no node has, and any other call shape, take the argument readers, which
    /// raise what is wrong.
    static let moveNode: flua_SNNFunction = { L, object, read in
        withMethodBox(L, object) { L, box in
            if let read, let moved = try moveNode(L, box, read.pointee) {
                lua_pushboolean(L, moved ? 1 : 0)
                return 1
            }
            let args = LuaArgs(L)
            let id = try args.id(2)
            args.push(try moveNode(args, box, id, at: 3))
            return 1
        }
    }

    /// A move from the arguments C read; nil, and nothing done, when the id is not valid
    /// UTF-8 (the id reader refuses it, D24) or no node has it.
    @inline(__always)
    private static func moveNode(_ L: OpaquePointer, _ box: LuaStoreBox, _ a: flua_SNN) throws -> Bool? {
        let id = UnsafeRawBufferPointer(start: a.s, count: a.len)  // the string stays on the stack
        guard isValidUTF8(id) else { return nil }
        return try box.run(L) { try box.store.moveNode(utf8: id, to: Point(a.a, a.b)) }
    }

    static let updateNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            args.push(try updateNode(args, box, id, at: 3))
            return 1
        }
    }

    static let updateNodeSize: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            args.push(try resizeNode(args, box, id, at: 3))
            return 1
        }
    }

    static let node: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let L = args.L
            guard pushID(L, at: 2) else { throw LuaError.type(2, expected: "string") }
            var len = 0
            let id = UnsafeRawBufferPointer(start: lua_tolstring(L, -1, &len), count: len)
            guard let ref = box.store.nodeRef(utf8: id) else {
                args.pushNil()
                return 1
            }
            // a canonically equivalent spelling names the node too: its handle has the id
            // the store keeps, whichever spelling made it
            if !ref.id.utf8.elementsEqual(id) { args.push(ref.id) }
            box.nodeHandles.push(L, slot: ref.slot, idAt: -1, store: 1)
            return 1
        }
    }

    static let nodes: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let L = args.L
            lua_createtable(L, Int32(clamping: box.store.nodeCount), 0)
            var i: lua_Integer = 0
            box.store.forEachNode { n in
                box.pushNode(L, n.id, store: 1)
                i += 1
                lua_rawseti(L, -2, i)
            }
            return 1
        }
    }

    static let nextNodeID: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.nextNodeID())
            return 1
        }
    }

    static let nodesInRect: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let r = try rect(args, 2)
            box.pushNodes(args.L, box.store.nodesInRect(r).map(\.id), store: 1)
            return 1
        }
    }

    /// A rect given as `x, y, w, h` or a table `{x=, y=, width=, height=}`.
    static func rect(_ args: LuaArgs, _ i: Int32) throws -> Rect {
        if lua_type(args.L, i) == LUA_TTABLE {
            let t = try args.table(i)
            return Rect(try t.number("x"), try t.number("y"), try t.number("width"), try t.number("height"))
        }
        return Rect(try args.number(i), try args.number(i + 1), try args.number(i + 2), try args.number(i + 3))
    }

    static let nodeCount: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.nodeCount)
            return 1
        }
    }

    static let edgeCount: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.edgeCount)
            return 1
        }
    }
}
