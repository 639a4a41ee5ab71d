import CLua
import CLuaShims
import FlowCore

// lua-api §2/§3: the batch adds, store:addNodes(list) and store:addEdges(list), and their
// column form, store:addNodes{id = ids, x = xs, ...} (BatchColumns.swift).
//
// The list is read in chunks by C (flua_readentries: entries naming only the common keys,
// no Lua error possible), an entry naming anything else by the general table readers of
// addNode/addEdge, so every entry gets exactly the defaults and checks of the single add.
// Columns are read the same way, item by item (flua_readcolumns). Nothing reaches the
// store until every item is read; then FlowCore moves them in as one operation
// (FlowStore+Batch.swift). The items are made in the state's scratch memory (BatchScratch).

extension FlowStoreBinding {
    static var batchMethods: [LuaMethod] {
        [LuaMethod("addNodes", addNodes), LuaMethod("addEdges", addEdges)]
    }

    /// Items read by C per call of `flua_readentries` or `flua_readcolumns`.
    private static let chunk = 256

    /// The keys C reads, in its order (luashims.h).
    private static let nodeKeys = ["id", "x", "y", "width", "height", "parentID"]
    private static let edgeKeys = [
        "id", "sourceNodeID", "targetNodeID", "sourceHandleID", "targetHandleID", "label", "parentID", "pathType",
    ]

    static let addNodes: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let added = try readItems(
                args.L, try args.table(2), into: BatchScratch.of(box.context), kind: FLUA_NODE_ENTRY, op: "addNodes",
                fields: LuaNodeTables.fields, keys: nodeKeys
            ) { e, i in
                try node(e, i)
            } general: { t, i in
                try generalNode(t, i)
            } add: { nodes in
                try box.run(args.L) { try box.store.addNodes(moving: nodes, generatingIDs: true) }
            }
            args.push(added)
            return 1
        }
    }

    static let addEdges: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let pathType = box.store.defaultEdgePathType
            let added = try readItems(
                args.L, try args.table(2), into: BatchScratch.of(box.context), kind: FLUA_EDGE_ENTRY, op: "addEdges",
                fields: LuaEdgeTables.fields, keys: edgeKeys
            ) { e, i in
                try edge(e, i, pathType)
            } general: { t, i in
                try generalEdge(t, i, pathType)
            } add: { edges in
                try box.run(args.L) { try box.store.addEdges(moving: edges, generatingIDs: true) }
            }
            args.push(added)
            return 1
        }
    }

    /// Reads the items of the argument `arg`, a list of entry tables or a table of columns,
    /// and hands them to `add`, which moves them into the store: C reads the items it can
    /// (`fast` builds the item from them; nil when a string is not ASCII), the others are
    /// read by `general` from their entry table. Errors name the item: `addNodes: item 3:
    /// field 'x': number expected, got string`; nothing reaches `add` until every item is
    /// read.
    private static func readItems<T>(
        _ L: OpaquePointer, _ arg: LuaTable, into scratch: BatchScratch, kind: Int32, op: String, fields: [String],
        keys: [String], fast: (UnsafePointer<flua_Entry>, Int) throws -> T?, general: (LuaTable, Int) throws -> T,
        add: (UnsafeMutableBufferPointer<T>) throws -> Int
    ) throws -> Int {
        if let columns = try BatchColumns(arg, op: op, names: fields, keys: keys) {
            return try readChunks(count: columns.count, scratch, fast: fast, add: add) { from, n, out in
                columns.fill(kind: kind, from: from, count: n, into: out)
            } general: { i in
                try columns.item(i) { try entry(L, -1, op, i, general) }
            }
        }
        let list = arg.index
        return try readChunks(count: Int(lua_rawlen(L, list)), scratch, fast: fast, add: add) { from, n, out in
            Int(flua_readentries(L, list, lua_Integer(from), Int32(n), kind, out))
        } general: { i in
            lua_rawgeti(L, list, lua_Integer(i))
            defer { flua_pop(L, 1) }
            guard lua_type(L, -1) == LUA_TTABLE else {
                throw LuaError.message("\(op): item \(i): \(LuaErrors.typeMessage(L, -1, expected: "table"))")
            }
            return try entry(L, -1, op, i, general)
        }
    }

    /// Items 1...count: `fill` reads a chunk of them into entries (returning how many it
    /// read, stopping at one it cannot), `fast` builds each, `general` reads the others;
    /// then `add` takes them. The items are made in place in the store's scratch memory
    /// (no array to grow, copy and destroy, and no allocation for a batch of up to about
    /// 1,000); when one fails, those made are deinitialised.
    private static func readChunks<T>(
        count n: Int, _ scratch: BatchScratch, fast: (UnsafePointer<flua_Entry>, Int) throws -> T?,
        add: (UnsafeMutableBufferPointer<T>) throws -> Int,
        fill: (Int, Int, UnsafeMutablePointer<flua_Entry>) -> Int, general: (Int) throws -> T
    ) throws -> Int {
        let capacity = min(chunk, max(n, 1))
        let entryOffset = (n * MemoryLayout<T>.stride + 15) & ~15
        return try scratch.with(bytes: entryOffset + capacity * MemoryLayout<flua_Entry>.stride) { raw in
            let items = raw.bindMemory(to: T.self, capacity: n)
            let entries = (raw + entryOffset).bindMemory(to: flua_Entry.self, capacity: capacity)
            var made = 0
            defer { if made < n { items.deinitialize(count: made) } }
            while made < n {
                let i = made + 1
                let want = min(capacity, n - made)
                let got = fill(i, want, entries)
                for k in 0..<got {
                    (items + made).initialize(to: try fast(entries + k, i + k) ?? general(i + k))
                    made += 1
                }
                if got < want {
                    (items + made).initialize(to: try general(i + got))
                    made += 1
                }
            }
            return try add(UnsafeMutableBufferPointer(start: items, count: n))
        }
    }

    /// Item `i` read by `general` from its entry table at `index`, errors naming the item.
    private static func entry<T>(
        _ L: OpaquePointer, _ index: Int32, _ op: String, _ i: Int, _ general: (LuaTable, Int) throws -> T
    ) throws -> T {
        let t = LuaTable(L, index, argument: 0, operation: "\(op): item \(i)")
        do {
            return try general(t, i)
        } catch let e as FlowError {
            throw e.item(i)
        }
    }

    /// The string of key `k` of an entry, nil when absent; `ascii` turns false when it is
    /// not ASCII (the general reader checks and spells such ids, D24).
    @inline(__always)
    private static func string(_ e: UnsafePointer<flua_Entry>, _ k: Int32, _ ascii: inout Bool) -> String? {
        var len = 0
        guard let bytes = flua_entrystring(e, k, &len) else { return nil }
        let b = UnsafeRawBufferPointer(start: bytes, count: len)
        if !b.allSatisfy({ $0 < 0x80 }) { ascii = false }
        return decodeUTF8(b)
    }

    @inline(__always)
    private static func number(_ e: UnsafePointer<flua_Entry>, _ k: Int32) -> Double? {
        var v = 0.0
        return flua_entrynumber(e, k, &v) != 0 ? v : nil
    }

    /// The error of an item that names an empty id (an absent id is generated).
    private static func emptyID(_ kind: String, _ op: String, _ i: Int) -> FlowError {
        FlowError.invalidValue(op, "\(kind) id must not be empty").item(i)
    }

    /// A node from an entry C read (keys id, x, y, width, height, parentID), with the
    /// defaults of `addNode`; nil when a string is not ASCII.
    private static func node(_ e: UnsafePointer<flua_Entry>, _ i: Int) throws -> LuaFlowNode? {
        var ascii = true
        let id = string(e, 0, &ascii) ?? ""
        let parent = string(e, 5, &ascii)
        guard ascii else { return nil }
        if id.isEmpty && e.pointee.given & 1 != 0 { throw emptyID("node", "addNodes", i) }
        let d = LuaFlowNode.defaultSize
        let w = number(e, 3), h = number(e, 4)
        // without a width or a height the node is sized to its title (its id)
        return LuaFlowNode(
            id: id, position: Point(number(e, 1) ?? 0, number(e, 2) ?? 0), size: Size(w ?? d.width, h ?? d.height),
            autoSize: w == nil && h == nil, parentID: parent)
    }

    /// An edge from an entry C read, with the defaults of `addEdge`; nil when a string is
    /// not ASCII.
    private static func edge(_ e: UnsafePointer<flua_Entry>, _ i: Int, _ defaultPathType: EdgePathType) throws -> FlowEdge? {
        var ascii = true
        let id = string(e, 0, &ascii) ?? ""
        let source = string(e, 1, &ascii), target = string(e, 2, &ascii)
        let sourceHandle = string(e, 3, &ascii), targetHandle = string(e, 4, &ascii)
        let label = string(e, 5, &ascii), parent = string(e, 6, &ascii), pathName = string(e, 7, &ascii)
        guard ascii else { return nil }
        let op = "addEdges"
        if id.isEmpty && e.pointee.given & 1 != 0 { throw emptyID("edge", op, i) }
        guard let source else { throw LuaError.message("\(op): item \(i): field 'sourceNodeID': string expected, got nil") }
        guard let target else { throw LuaError.message("\(op): item \(i): field 'targetNodeID': string expected, got nil") }
        var pathType = defaultPathType
        if let pathName {
            do { pathType = try EdgePathType.parse(pathName, in: op) } catch { throw error.item(i) }
        }
        // made once, in place (an edge changed after it was made is copied out and dropped)
        guard e.pointee.given & 0b1111000 != 0 else {
            return FlowEdge(id: id, sourceNodeID: source, targetNodeID: target, pathType: pathType)
        }
        return FlowEdge(
            id: id, sourceNodeID: source, sourceHandleID: sourceHandle, targetNodeID: target,
            targetHandleID: targetHandle, parentID: parent, pathType: pathType, label: label)
    }

    /// Whether the entry table names an id (`read` was given an empty one to generate).
    private static func namesID(_ t: LuaTable) -> Bool {
        defer { flua_pop(t.L, 1) }
        return t.pushField("id") != LUA_TNIL
    }

    private static func generalNode(_ t: LuaTable, _ i: Int) throws -> LuaFlowNode {
        let node = try LuaNodeTables.read(t, op: "addNodes", mode: .add, base: nil, nextID: { "" })
        if node.id.isEmpty && namesID(t) { throw emptyID("node", "addNodes", i) }
        return node
    }

    private static func generalEdge(_ t: LuaTable, _ i: Int, _ pathType: EdgePathType) throws -> FlowEdge {
        let edge = try LuaEdgeTables.read(
            t, op: "addEdges", mode: .add, base: nil, nextID: { "" }, defaultPathType: pathType)
        if edge.id.isEmpty && namesID(t) { throw emptyID("edge", "addEdges", i) }
        return edge
    }
}
