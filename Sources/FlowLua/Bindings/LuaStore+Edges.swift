import CLua
import CLuaShims
import FlowCore

// lua-api §3: edges.

enum LuaEdgeTables {
    /// The fields of a EdgeSpec a table may give, in the order the column form compares them
    /// and "did you mean" suggestions prefer.
    static let fields = [
        "id", "sourceNodeID", "sourceHandleID", "targetNodeID", "targetHandleID", "pathType", "label",
        "parentID", "points", "class", "style",
    ]

    /// An edge from a table: a new one (`base` nil), a replacement or a patch of `base`. A
    /// new edge without `pathType` gets `defaultPathType` (the store's
    /// `configuration.defaultEdgePathType`).
    static func read(
        _ t: LuaTable, op: String, mode: TableMode, base: FlowEdge?, nextID: () -> String,
        defaultPathType: EdgePathType = .bezier
    ) throws -> FlowEdge {
        let L = t.L
        var id: String?, source: String?, target: String?, pathType: EdgePathType?
        var sourceHandle: String??, targetHandle: String??, label: String??, parent: String??
        var points: [Point]?
        var classes: [String]?, style: FlowStyle?
        var unknown: [String] = []
        lua_pushnil(L)
        while lua_next(L, t.index) != 0 {
            guard lua_type(L, -2) == LUA_TSTRING, let key = t.string(at: -2) else {
                throw t.error("unexpected non-string key")
            }
            let null = LuaNodeTables.isNull(L)
            switch key {
            case "id": id = try LuaNodeTables.id(t, key)
            case "sourceNodeID": source = try LuaNodeTables.id(t, key)
            case "targetNodeID": target = try LuaNodeTables.id(t, key)
            case "sourceHandleID": sourceHandle = null ? .some(nil) : try LuaNodeTables.id(t, key)
            case "targetHandleID": targetHandle = null ? .some(nil) : try LuaNodeTables.id(t, key)
            case "label": label = null ? .some(nil) : try LuaNodeTables.string(t, key)
            case "parentID": parent = null ? .some(nil) : try LuaNodeTables.id(t, key)
            case "points": points = null ? [] : try Self.points(t, key)
            case "class": classes = null ? [] : try LuaStyles.classes(t, key)
            case "style": style = null ? FlowStyle() : try LuaStyles.style(t, key, keys: LuaStyles.edgeKeys, op: op).0
            case "pathType":
                guard lua_type(L, -1) == LUA_TSTRING, let s = t.string(at: -1) else {
                    throw t.error(key, LuaErrors.typeMessage(L, -1, expected: "string"))
                }
                pathType = try EdgePathType.parse(s, in: op)
            case "isSelected", "isAnimated", "isDropTarget":
                // snapshot flags are ignored in a table that replaces the item, unknown elsewhere
                if mode != .replace { unknown.append(key) }
            default: unknown.append(key)
            }
            flua_pop(L, 1)
        }
        if let bad = unknown.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            throw t.unknownField(bad, known: fields)
        }
        if let base, let id, id != base.id {
            throw FlowError.invalidValue(op, "the id of edge '\(base.id)' cannot change")
        }
        let keep = mode == .patch ? base : nil
        guard let s = source ?? keep?.sourceNodeID else {
            throw t.error("sourceNodeID", "string expected, got nil")
        }
        guard let d = target ?? keep?.targetNodeID else {
            throw t.error("targetNodeID", "string expected, got nil")
        }
        var e = FlowEdge(
            id: base?.id ?? id ?? nextID(), sourceNodeID: s,
            sourceHandleID: sourceHandle ?? keep?.sourceHandleID, targetNodeID: d,
            targetHandleID: targetHandle ?? keep?.targetHandleID,
            parentID: parent ?? keep?.parentID, pathType: pathType ?? keep?.pathType ?? (base == nil ? defaultPathType : .bezier),
            label: label ?? keep?.label, points: points ?? keep?.points ?? [],
            classes: classes ?? keep?.classes ?? [], style: style ?? keep?.style ?? FlowStyle())
        if var b = base {
            b.sourceNodeID = e.sourceNodeID
            b.sourceHandleID = e.sourceHandleID
            b.targetNodeID = e.targetNodeID
            b.targetHandleID = e.targetHandleID
            b.parentID = e.parentID
            b.pathType = e.pathType
            b.label = e.label
            b.points = e.points
            b.classes = e.classes
            b.style = e.style
            e = b
        }
        return e
    }

    /// The value at the top of the stack as the bend points of field `key` of `t`: an array
    /// of `{x=, y=}` tables (keys exactly 1..n, so that a lone point or a typo never reads as
    /// no points).
    static func points(_ t: LuaTable, _ key: String) throws -> [Point] {
        let L = t.L
        guard lua_type(L, -1) == LUA_TTABLE else {
            throw t.error(key, LuaErrors.typeMessage(L, -1, expected: "table"))
        }
        let list = LuaTable(L, -1, argument: t.argument, path: t.fieldPath(key), operation: t.operation)
        var count = 0
        lua_pushnil(L)
        while lua_next(L, list.index) != 0 {
            count += 1
            flua_pop(L, 1)
        }
        guard count == list.length else {
            throw t.error(key, "array of points expected (keys must be exactly 1..n)")
        }
        var points: [Point] = []
        points.reserveCapacity(count)
        try list.forEachTable { _, p in points.append(Point(try p.number("x"), try p.number("y"))) }
        return points
    }
}

extension FlowStoreBinding {
    static var edgeMethods: [LuaMethod] {
        [
            // readEdge(of:) reads key i as bit i of `given` (and key i > 0 from strs[i - 1])
            LuaMethod("addEdge", fields: addEdge, keys: ["id", "sourceNodeID", "targetNodeID"], strings: true),
            LuaMethod("connect", connect), LuaMethod("removeEdge", removeEdge),
            LuaMethod("updateEdge", updateEdge), LuaMethod("updateEdges", updateEdges),
            LuaMethod("edge", edge), LuaMethod("edges", edges), LuaMethod("edgesForNode", edgesForNode),
            LuaMethod("edgeGeometry", edgeGeometry), LuaMethod("setEdgeAnimated", setEdgeAnimated),
            LuaMethod("setAnimatedEdges", setAnimatedEdges), LuaMethod("nextEdgeID", nextEdgeID),
        ]
    }

    static var edgeGetters: [LuaMethod] { [LuaMethod("animatedEdgeIDs", animatedEdgeIDs)] }

    static func push(_ args: LuaArgs, geometry g: EdgeGeometry) {
        let s = LuaStack(args.L)
        lua_createtable(args.L, 0, 8)
        s.push(g.path.svgPathData); s.setField("path")
        s.push(g.sourcePoint); s.setField("sourcePoint")
        s.push(g.targetPoint); s.setField("targetPoint")
        s.push(g.sourcePosition.rawValue); s.setField("sourcePosition")
        s.push(g.targetPosition.rawValue); s.setField("targetPosition")
        s.push(g.labelPosition); s.setField("labelPosition")
        s.push(g.labelAngle); s.setField("labelAngle")
        s.push(g.bounds); s.setField("bounds")
    }

    /// Calls `fn(edge_table)` (at stack index `fn`) in protected mode and reads the result:
    /// the returned table, or the edited one when it returns nil.
    static func callEdgeFunction(_ args: LuaArgs, _ box: LuaStoreBox, _ old: FlowEdge, fn: Int32, op: String) throws -> FlowEdge {
        let L = args.L
        LuaChanges.push(LuaStack(L), edge: old, animated: box.store.isEdgeAnimated(old.id))
        let copy = lua_gettop(L)
        lua_pushvalue(L, fn)
        lua_pushvalue(L, copy)
        guard try box.run(L, { flua_pcall_swift(L, 1, 1, 0) }) == LUA_OK else { throw LuaError.valueOnStack }
        let result = lua_type(L, -1)
        if result == LUA_TNIL { flua_pop(L, 1) } else if result != LUA_TTABLE {
            throw LuaError.message("\(op): the update function must return a table or nil (got \(LuaStack(L).typeName(at: -1)))")
        }
        let e = try LuaEdgeTables.read(
            LuaTable(L, -1, argument: 0, operation: op), op: op, mode: .replace, base: old, nextID: { old.id })
        lua_settop(L, copy - 1)
        return e
    }

    /// `updateEdge(id, fn_or_patch)`; with a function, one atomic operation (D23).
    static func updateEdge(_ args: LuaArgs, _ box: LuaStoreBox, _ id: String, at arg: Int32) throws -> Bool {
        let calls = lua_type(args.L, arg) == LUA_TFUNCTION
        return try box.runAtomic(args.L, "updateEdge", callbacks: calls) { try updateEdgeNow(args, box, id, at: arg) }
    }

    private static func updateEdgeNow(_ args: LuaArgs, _ box: LuaStoreBox, _ id: String, at arg: Int32) throws -> Bool {
        let L = args.L
        let op = "updateEdge"
        guard let old = box.store.edge(id) else { throw FlowError.unknownEdge(op, id) }
        let new: FlowEdge
        switch lua_type(L, arg) {
        case LUA_TFUNCTION: new = try callEdgeFunction(args, box, old, fn: arg, op: op)
        case LUA_TTABLE:
            new = try LuaEdgeTables.read(LuaTable(L, arg, argument: arg), op: op, mode: .patch, base: old, nextID: { id })
        default: throw LuaError.type(arg, expected: "function or table")
        }
        return try box.run(L) { try box.store.updateEdge(id) { $0 = new } }
    }

    /// `store:addEdge(t)`, every call (a fields method, see `flua_FieldsFunction`): the edge
    /// comes from the fields C read (`readEdge(of:)`) when it could read them, else from the
    /// table reader; then one store call, and the handle keyed by the id as given.
    static let addEdge: flua_FieldsFunction = { L, object, fields in
        withMethodBox(L, object) { L, box in
            let store = box.store
            let edge: FlowEdge, idIndex: Int32
            if let fields, let e = readEdge(of: fields.pointee, store.defaultEdgePathType) {
                edge = e
                idIndex = 3  // the id string Lua already has
            } else {
                if fields != nil { lua_settop(L, 2) }
                edge = try LuaEdgeTables.read(
                    try LuaArgs(L).table(2), op: "addEdge", mode: .add, base: nil, nextID: store.nextEdgeID,
                    defaultPathType: store.defaultEdgePathType)
                pushGivenID(L, table: 2, else: edge.id)
                idIndex = lua_gettop(L)
            }
            let runs = box.callbackRuns
            let slot = try box.run(L, moving: consume edge) { e throws in try store.add(e) }
            box.pushAdded(.edge, L, slot: slot, idAt: idIndex, since: runs)
            return 1
        }
    }

    /// The edge of `store:addEdge{id=, sourceNodeID=, targetNodeID=}` from the fields C read
    /// (the id's bytes in `f.s`, the others in `f.strs`), with the store's default path type
    /// as the table reader gives it; nil when a key is missing (an id to generate, an endpoint
    /// to report) or a string is not ASCII (the table reader refuses invalid UTF-8 and spells
    /// other ids canonically, D24; the handle is keyed by the id's bytes as given).
    @inline(__always)
    private static func readEdge(of f: flua_Fields, _ pathType: EdgePathType) -> FlowEdge? {
        guard f.given == 7 else { return nil }
        let id = UnsafeRawBufferPointer(start: f.s, count: f.len)  // the string stays on the stack
        // the table holds these two while the call runs
        let source = UnsafeRawBufferPointer(start: f.strs.0, count: f.lens.0)
        let target = UnsafeRawBufferPointer(start: f.strs.1, count: f.lens.1)
        func ascii(_ b: UnsafeRawBufferPointer) -> Bool { b.allSatisfy { $0 < 0x80 } }
        guard ascii(id), ascii(source), ascii(target) else { return nil }
        return FlowEdge(
            id: decodeUTF8(id), sourceNodeID: decodeUTF8(source), targetNodeID: decodeUTF8(target),
            pathType: pathType)
    }

    /// `"node.handle"` or `"node"`; a string naming an existing node is a node id even when it
    /// contains dots; otherwise the handle id follows the last dot.
    static func endpoint(_ store: LuaFlowStore, _ s: String, type: HandleType) -> (String, String?) {
        if let n = store.node(s) { return (s, n.handles.first { $0.type == type }?.id) }
        if let dot = s.lastIndex(of: ".") {
            return (String(s[..<dot]), String(s[s.index(after: dot)...]))
        }
        return (s, nil)
    }

    static let connect: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let store = box.store
            let (s, sh) = endpoint(store, try args.string(2), type: .source)
            let (t, th) = endpoint(store, try args.string(3), type: .target)
            var id: String?, label: String?, pathType = store.defaultEdgePathType, parent: String?
            var points: [Point] = []
            var classes: [String] = [], style = FlowStyle()
            if let o = try args.optionalTable(4) {
                try o.rejectUnknownKeys(["id", "label", "pathType", "parentID", "points", "class", "style"])
                id = try o.optionalID("id")
                label = try o.optionalString("label")
                pathType = try o.optionalEnumValue("pathType", EdgePathType.self, in: "connect") ?? pathType
                parent = try o.optionalID("parentID")
                if o.pushField("points") != LUA_TNIL {
                    defer { flua_pop(args.L, 1) }
                    points = try LuaEdgeTables.points(o, "points")
                } else {
                    flua_pop(args.L, 1)
                }
                if o.pushField("class") != LUA_TNIL { classes = try LuaStyles.classes(o, "class") }
                flua_pop(args.L, 1)
                if o.pushField("style") != LUA_TNIL {
                    style = try LuaStyles.style(o, "style", keys: LuaStyles.edgeKeys, op: "connect").0
                }
                flua_pop(args.L, 1)
            }
            let edge = FlowEdge(
                id: id ?? store.nextEdgeID(), sourceNodeID: s, sourceHandleID: sh, targetNodeID: t,
                targetHandleID: th, parentID: parent, pathType: pathType, label: label, points: points,
                classes: classes, style: style)
            pushGivenID(args.L, table: 4, else: edge.id)
            let idIndex = lua_gettop(args.L), runs = box.callbackRuns
            let slot: Int32
            do {
                slot = try box.run(args.L, moving: consume edge) { e throws in try store.add(e) }
            } catch let e as FlowError {
                throw e.reported(as: "connect")
            }
            box.pushAdded(.edge, args.L, slot: slot, idAt: idIndex, since: runs)
            return 1
        }
    }

    static let removeEdge: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            try box.run(args.L) { try box.store.removeEdge(id) }
            args.push(true)
            return 1
        }
    }

    static let updateEdge: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            args.push(try updateEdge(args, box, id, at: 3))
            return 1
        }
    }

    static let updateEdges: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            guard lua_type(args.L, 2) == LUA_TFUNCTION else { throw LuaError.type(2, expected: "function") }
            let changed = try box.runAtomic(args.L, "updateEdges") {
                var new: [String: FlowEdge] = [:]
                for old in box.store.edges {
                    new[old.id] = try callEdgeFunction(args, box, old, fn: 2, op: "updateEdges")
                }
                return try box.store.updateEdges { e in if let n = new[e.id] { e = n } }
            }
            args.push(changed)
            return 1
        }
    }

    static let edge: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let L = args.L
            guard pushID(L, at: 2) else { throw LuaError.type(2, expected: "string") }
            var len = 0
            let id = UnsafeRawBufferPointer(start: lua_tolstring(L, -1, &len), count: len)
            if let slot = box.store.edgeSlot(utf8: id) {
                box.edgeHandles.push(L, slot: slot, idAt: -1, store: 1)
            } else {
                args.pushNil()
            }
            return 1
        }
    }

    static let edges: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let L = args.L
            lua_createtable(L, Int32(clamping: box.store.edgeCount), 0)
            var i: lua_Integer = 0
            box.store.forEachEdge { e in
                box.pushEdge(L, e.id, store: 1)
                i += 1
                lua_rawseti(L, -2, i)
            }
            return 1
        }
    }

    static let edgesForNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            box.pushEdges(args.L, try box.store.edgesForNode(try args.id(2)).map(\.id), store: 1)
            return 1
        }
    }

    static let edgeGeometry: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            push(args, geometry: try box.store.edgeGeometry(try args.id(2)))
            return 1
        }
    }

    static let setEdgeAnimated: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            args.push(try box.store.setEdgeAnimated(id, try args.optionalBoolean(3, default: true)))
            return 1
        }
    }

    static let setAnimatedEdges: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.setAnimatedEdges(try idList(args, 2)))
            return 1
        }
    }

    /// An array of ids at argument `i`.
    static func idList(_ args: LuaArgs, _ i: Int32) throws -> [String] {
        let t = try args.table(i)
        var ids: [String] = []
        try t.forEachElement { k in
            guard let s = t.string(at: -1) else {
                throw t.error("[\(k)]", LuaErrors.typeMessage(args.L, -1, expected: "string"))
            }
            ids.append(s)
        }
        return ids
    }

    static let nextEdgeID: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.nextEdgeID())
            return 1
        }
    }

    static let animatedEdgeIDs: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(strings: try args.object(1, storeClass).store.animatedEdgeIDs)
            return 1
        }
    }
}
