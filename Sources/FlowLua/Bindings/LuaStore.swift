import CLua
import CLuaShims
import FlowCore

/// The store type the binding drives: node data is any JSON value.
public typealias LuaFlowStore = FlowStore<JSONValue>
typealias LuaFlowNode = FlowNode<JSONValue>

let storeClass = LuaClass<LuaStoreBox>("flow.Store", name: "Store")
/// Node and Edge handles (lua-api §2, §3): user value 1 is the Store userdata, 2 the id.
let nodeClass = LuaHandleClass("flow.Node", name: "Node", owner: storeClass)
let edgeClass = LuaHandleClass("flow.Edge", name: "Edge", owner: storeClass)

/// What a Store userdata holds: the store, the Lua callbacks assigned to its fields, and
/// the per-store caches of node and edge handles (weak-valued tables, one per kind, so
/// `store:node("a") == store:node("a")`).
public final class LuaStoreBox: CustomStringConvertible {
    public let store: LuaFlowStore
    let context: LuaContext
    /// The thread running the current bound call: callbacks run on it.
    var L: OpaquePointer
    /// Set by `__close`/`__gc`: handles of a closed store raise.
    var isClosed = false
    /// An interrupt raised inside a callback, re-raised when the bound call returns.
    var pendingError: Int32 = LUA_NOREF
    var nodeCache: Int32 = LUA_NOREF
    var edgeCache: Int32 = LUA_NOREF
    /// Registry references to the Node and Edge metatables, for making handles.
    var nodeMetatable: Int32 = LUA_NOREF
    var edgeMetatable: Int32 = LUA_NOREF

    var onNodesChange: LuaCallback?
    var onEdgesChange: LuaCallback?
    var onConnect: LuaCallback?
    var connectionValidator: LuaCallback?
    var onConnectionRejected: LuaCallback?
    var onNodeDoubleTap: LuaCallback?
    var onEdgeDoubleTap: LuaCallback?
    var onCanvasDoubleTap: LuaCallback?
    var onDrop: LuaCallback?
    var nodeAccessoryPlacement: LuaCallback?
    /// The observer that calls `onNodesChange`/`onEdgesChange`, registered only while one of
    /// them is set: a store nobody listens to records no change events at all.
    var changeObserver: Int?

    init(_ L: OpaquePointer, configuration: FlowConfiguration) {
        store = LuaFlowStore(configuration: configuration)
        context = LuaContext.of(L)
        self.L = L
        nodeCache = LuaStoreBox.makeWeakTable(L)
        edgeCache = LuaStoreBox.makeWeakTable(L)
        nodeClass.pushMetatable(L)
        nodeMetatable = luaL_ref(L, FLUA_REGISTRYINDEX)
        edgeClass.pushMetatable(L)
        edgeMetatable = luaL_ref(L, FLUA_REGISTRYINDEX)
        if context.eventsEnabled {
            let ctx = context
            store.addObserver(
                nodes: { [weak self] changes, previous in
                    guard let self, !self.isClosed else { return }
                    EventLines.printNodeChanges(changes, previous: previous, to: ctx)
                },
                edges: { [weak self] changes, previous in
                    guard let self, !self.isClosed else { return }
                    EventLines.printEdgeChanges(changes, previous: previous, to: ctx)
                })
        }
    }

    deinit { shutdown() }

    private static func makeWeakTable(_ L: OpaquePointer) -> Int32 {
        lua_createtable(L, 0, 0)
        lua_createtable(L, 0, 1)
        LuaStack(L).push("v")
        lua_setfield(L, -2, "__mode")
        lua_setmetatable(L, -2)
        return luaL_ref(L, FLUA_REGISTRYINDEX)
    }

    /// Releases every callback and cache (idempotent). Handles raise afterwards.
    func shutdown() {
        isClosed = true
        for cb in [onNodesChange, onEdgesChange, onConnect, connectionValidator, onConnectionRejected,
                   onNodeDoubleTap, onEdgeDoubleTap, onCanvasDoubleTap, onDrop, nodeAccessoryPlacement] {
            cb?.release()
        }
        onNodesChange = nil; onEdgesChange = nil; onConnect = nil; connectionValidator = nil
        onConnectionRejected = nil; onNodeDoubleTap = nil; onEdgeDoubleTap = nil
        onCanvasDoubleTap = nil; onDrop = nil; nodeAccessoryPlacement = nil
        store.onConnect = nil; store.connectionValidator = nil; store.onConnectionRejected = nil
        store.onNodeDoubleTap = nil; store.onEdgeDoubleTap = nil; store.onCanvasDoubleTap = nil
        store.nodeAccessoryPlacement = nil
        if !context.isClosed {
            let main = context.mainState
            for ref in [nodeCache, edgeCache, nodeMetatable, edgeMetatable, pendingError] where ref > 0 {
                luaL_unref(main, FLUA_REGISTRYINDEX, ref)
            }
        }
        nodeCache = LUA_NOREF
        edgeCache = LUA_NOREF
        nodeMetatable = LUA_NOREF
        edgeMetatable = LUA_NOREF
        pendingError = LUA_NOREF
    }

    public var description: String {
        let n = store.nodeCount, e = store.edgeCount
        return "Store (\(n) \(n == 1 ? "node" : "nodes"), \(e) \(e == 1 ? "edge" : "edges"))"
    }

    // MARK: Running bound calls

    /// Runs one bound call on thread `L`: callbacks triggered by it run on `L`, and an
    /// interrupt raised inside one of them is re-raised when `body` has returned.
    @inline(__always)
    func run<R>(_ L: OpaquePointer, _ body: () throws -> R) throws -> R {
        try run(L, moving: ()) { _ in try body() }
    }

    /// `run` for a body that takes `value` over: it is moved in, not copied (a closure
    /// that captured it would have to copy it).
    @inline(__always)
    func run<T, R>(_ L: OpaquePointer, moving value: consuming T, _ body: (consuming T) throws -> R) throws -> R {
        let saved = self.L
        self.L = L
        defer { self.L = saved }
        let r = try body(value)
        if pendingError != LUA_NOREF { try raisePending(L) }
        return r
    }

    private func raisePending(_ L: OpaquePointer) throws {
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(pendingError))
        luaL_unref(L, FLUA_REGISTRYINDEX, pendingError)
        pendingError = LUA_NOREF
        throw LuaError.valueOnStack
    }

    /// Calls a callback on the current thread. Errors go to the error sink (false); an
    /// interrupt is kept for `run` to re-raise. On success `results` values are on the stack.
    @discardableResult
    func invoke(_ cb: LuaCallback?, results: Int32 = 0, _ arguments: (LuaStack) -> Int32) -> Bool {
        guard let cb, cb.isValid, !isClosed else { return false }
        let L = self.L
        do {
            return try cb.call(L, results: results, arguments: arguments)
        } catch {
            if pendingError == LUA_NOREF { pendingError = luaL_ref(L, FLUA_REGISTRYINDEX) } else { flua_pop(L, 1) }
            return false
        }
    }

    // MARK: Change callbacks

    func deliverNodeChanges(_ changes: [NodeChange<JSONValue>]) {
        guard onNodesChange != nil, !isClosed else { return }
        invoke(onNodesChange) { s in
            LuaChanges.push(s, nodeChanges: changes)
            return 1
        }
    }

    func deliverEdgeChanges(_ changes: [EdgeChange]) {
        guard onEdgesChange != nil, !isClosed else { return }
        invoke(onEdgesChange) { [store] s in
            LuaChanges.push(s, edgeChanges: changes, store: store)
            return 1
        }
    }

    // MARK: Handles

    /// Pushes the Node handle of the id at stack index `id` (a Lua string as `pushID` makes
    /// it) of this store, whose userdata is at `store`: the cached one while it is alive.
    @inline(__always)
    func pushNode(_ L: OpaquePointer, idAt id: Int32, store: Int32) {
        pushHandle(nodeClass, L, id: id, store: store, cache: nodeCache, metatable: nodeMetatable)
    }

    /// `pushNode(_:idAt:store:)` for a function whose one result is the handle: the cache
    /// table stays on the stack below it (the call returns only the top value).
    @inline(__always)
    func pushNodeResult(_ L: OpaquePointer, idAt id: Int32, store: Int32) {
        pushHandle(nodeClass, L, id: id, store: store, cache: nodeCache, metatable: nodeMetatable, dropCache: false)
    }

    /// Pushes the Node handle of `id` (see `pushNode(_:idAt:store:)`).
    func pushNode(_ L: OpaquePointer, _ id: String, store: Int32) {
        pushHandle(nodeClass, L, id, store: store, cache: nodeCache, metatable: nodeMetatable)
    }

    /// Pushes the Edge handle of the id at stack index `id` (see `pushNode(_:idAt:store:)`).
    @inline(__always)
    func pushEdge(_ L: OpaquePointer, idAt id: Int32, store: Int32) {
        pushHandle(edgeClass, L, id: id, store: store, cache: edgeCache, metatable: edgeMetatable)
    }

    /// Pushes the Edge handle of `id` (see `pushNode(_:idAt:store:)`).
    func pushEdge(_ L: OpaquePointer, _ id: String, store: Int32) {
        pushHandle(edgeClass, L, id, store: store, cache: edgeCache, metatable: edgeMetatable)
    }

    /// `pushHandle` for an id given as a Swift string.
    private func pushHandle(
        _ cls: LuaHandleClass<LuaStoreBox>, _ L: OpaquePointer, _ id: String, store: Int32, cache: Int32,
        metatable: Int32
    ) {
        let store = lua_absindex(L, store)
        LuaStack(L).push(id)
        pushHandle(cls, L, id: lua_gettop(L), store: store, cache: cache, metatable: metatable)
        flua_remove(L, -2)
    }

    @inline(__always)
    private func pushHandle(
        _ cls: LuaHandleClass<LuaStoreBox>, _ L: OpaquePointer, id: Int32, store: Int32, cache: Int32,
        metatable: Int32, dropCache: Bool = true
    ) {
        let id = lua_absindex(L, id), store = lua_absindex(L, store)
        // no cache once the store was closed (by a callback of the call now returning): the
        // handle then only says so
        let cached = lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(cache)) == LUA_TTABLE
        cls.push(L, owner: store, key: id, cache: cached ? lua_gettop(L) : 0, metatable: metatable)
        if dropCache { flua_remove(L, -2) }  // the cache
    }

    func pushNodes(_ L: OpaquePointer, _ ids: [String], store: Int32) {
        let store = lua_absindex(L, store)
        lua_createtable(L, Int32(clamping: ids.count), 0)
        for (i, id) in ids.enumerated() {
            pushNode(L, id, store: store)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    func pushEdges(_ L: OpaquePointer, _ ids: [String], store: Int32) {
        let store = lua_absindex(L, store)
        lua_createtable(L, Int32(clamping: ids.count), 0)
        for (i, id) in ids.enumerated() {
            pushEdge(L, id, store: store)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }
}

/// Pushes the id at `index` (lua-api §0: a string, or a number in its string form) as the
/// Lua string a handle keeps: the value itself when it is a string of valid UTF-8 (no new
/// string), else the string `args.id` reads (a number's string form; invalid UTF-8 repaired
/// as FlowCore's ids are). False, pushing nothing, when the value is neither.
func pushID(_ L: OpaquePointer, at index: Int32) -> Bool {
    switch lua_type(L, index) {
    case LUA_TSTRING:
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return false }
        let bytes = UnsafeRawBufferPointer(start: p, count: len)
        if isValidUTF8(bytes) {
            lua_pushvalue(L, index)
        } else {
            LuaStack(L).push(decodeUTF8(bytes))
        }
        return true
    case LUA_TNUMBER:
        lua_pushvalue(L, index)
        _ = lua_tolstring(L, -1, nil)  // converts the copy in place
        return true
    default:
        return false
    }
}

/// Pushes (as `pushID`) field `id` of the table at `table` when it has one (the id an item
/// is added with, as the script gave it), else `id` (one the store made up). Call it before
/// the add: a callback the add runs could change the table.
func pushGivenID(_ L: OpaquePointer, table: Int32, else id: String) {
    let t = lua_absindex(L, table)
    if lua_type(L, t) == LUA_TTABLE {
        lua_pushstring(L, "id")
        lua_rawget(L, t)
        let given = pushID(L, at: -1)
        flua_remove(L, given ? -2 : -1)
        if given { return }
    }
    LuaStack(L).push(id)
}

/// True when `bytes` are valid UTF-8 (an ASCII pass first, the full check only when a
/// byte is not ASCII).
@inline(__always)
func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var high: UInt8 = 0
    for b in bytes { high |= b }
    return high < 0x80 || String(validating: bytes, as: UTF8.self) != nil
}

// MARK: - Receivers

/// The store receiver of a Store method: one comparison when the method is the one bound
/// to this store (`store:moveNode(...)`, see `LuaClass.pushBound`), the full check else.
@inline(__always)
func storeSelf(_ args: LuaArgs) throws(LuaError) -> LuaStoreBox {
    if let u = storeClass.boundSelf(args.L, upvalue: args.upvalue(1)) { return u.takeUnretainedValue() }
    return try storeClass.check(args.L, 1)
}

/// Adds `methods` to the methods table of a registered class, each with the class's
/// metatable as upvalue 1 (the place `flua_bind_instance` gives the bound receiver: see
/// `storeSelf`); a method with a fast entry is pushed with it (`flua_pushfastmethod_snn`).
func addMethods(_ L: OpaquePointer, registry name: String, _ methods: [LuaMethod]) {
    lua_getfield(L, FLUA_REGISTRYINDEX, name)
    lua_getfield(L, -1, "__methods")
    for m in methods {
        lua_pushvalue(L, -2)
        if let fast = m.fastSNN {
            flua_pushfastmethod_snn(L, m.function, fast)
        } else if let (entry, keys) = m.fastFields {
            for k in keys { LuaStack(L).push(k) }
            flua_pushfastmethod_fields(L, m.function, entry, Int32(keys.count))
        } else {
            luaPushFunction(L, m.function, upvalues: 1)
        }
        flua_namefunction(L, m.name)
        lua_setfield(L, -2, m.name)
    }
    flua_pop(L, 2)
}

// MARK: - Registration

/// The store binding: `flow.newStore`, `flow.open`, `flow.decode` and the Store, Node and
/// Edge types. Installed by `FlowHooks.moduleInstallers`.
public enum FlowStoreBinding {
    /// Module installer (see `FlowHooks.moduleInstallers`).
    public static func install(_ L: OpaquePointer) {
        let module = lua_gettop(L)
        var hints: [String: String] = [:]
        for name in storeReadOnlyFields { hints[name] = "field '\(name)' is read-only" }
        storeClass.register(
            L, methods: [], getters: storeGetters + callbackGetters, setters: callbackSetters,
            metamethods: [LuaMethod("__gc", storeGC), LuaMethod("__close", storeGC)],
            readOnlyHints: hints)
        addMethods(L, registry: "flow.Store", storeMethods)
        LuaNode.register(L)
        LuaEdge.register(L)
        luaSetFunctions(
            L, [LuaMethod("newStore", newStore), LuaMethod("open", open), LuaMethod("decode", decode)],
            table: module, qualifier: "flow.")
    }

    static var storeMethods: [LuaMethod] {
        nodeMethods + edgeMethods + hierarchyMethods + selectionMethods + viewportMethods
            + connectionMethods + pointerMethods + dropTargetMethods + accessoryMethods
            + undoMethods + documentMethods + pictureMethods + configMethods
    }

    static var storeGetters: [LuaMethod] {
        nodeGetters + selectionGetters + viewportGetters + connectionGetters + pointerGetters
            + dropTargetGetters + undoGetters + configGetters + edgeGetters
    }

    static var storeReadOnlyFields: [String] { storeGetters.map(\.name) }

    /// `__gc` and `__close`: releases the callbacks and the caches; later use raises
    /// `attempt to use a closed Store`.
    static let storeGC: LuaFunction = { L in
        let L = L!
        if let box = storeClass.test(L, 1) { box.shutdown() }
        storeClass.close(L, 1)
        return 0
    }

    /// Pushes the userdata of a new store.
    static func pushNewStore(_ L: OpaquePointer, configuration: FlowConfiguration) -> LuaStoreBox {
        let box = LuaStoreBox(L, configuration: configuration)
        storeClass.pushBound(L, box)
        return box
    }

    /// `flow.newStore(config?)`.
    static let newStore: LuaFunction = { L in
        luaGuarded(L) { args in
            var config = FlowConfiguration()
            var undo = true
            if let t = try args.optionalTable(1) {
                try LuaConfig.apply(t, to: &config, undo: &undo)
            }
            let box = pushNewStore(args.L, configuration: config)
            box.store.isUndoEnabled = undo
            return 1
        }
    }
}
