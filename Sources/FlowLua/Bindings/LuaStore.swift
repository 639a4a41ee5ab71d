import CLua
import CLuaShims
import FlowCore

/// The store type the binding drives: node data is any JSON value.
public typealias LuaFlowStore = FlowStore<JSONValue>
typealias LuaFlowNode = FlowNode<JSONValue>

let storeClass = LuaClass<LuaStoreBox>("flow.Store", name: "Store")
let nodeClass = LuaClass<LuaNodeRef>("flow.Node", name: "Node")
let edgeClass = LuaClass<LuaEdgeRef>("flow.Edge", name: "Edge")

/// What a Store userdata holds: the store, the Lua callbacks assigned to its fields, and
/// the per-store caches of node and edge handles (weak-valued tables, one per kind, so
/// `store:node("a") == store:node("a")`).
public final class LuaStoreBox: CustomStringConvertible {
    public let store: LuaFlowStore
    let context: LuaContext
    /// The field names `addNode` reads without making strings.
    let quickKeys: QuickNodeKeys
    /// The thread running the current bound call: callbacks run on it.
    var L: OpaquePointer
    /// Set by `__close`/`__gc`: handles of a closed store raise.
    var isClosed = false
    /// An interrupt raised inside a callback, re-raised when the bound call returns.
    var pendingError: Int32 = LUA_NOREF
    var nodeCache: Int32 = LUA_NOREF
    var edgeCache: Int32 = LUA_NOREF

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
        quickKeys = QuickNodeKeys(L)
        self.L = L
        nodeCache = LuaStoreBox.makeWeakTable(L)
        edgeCache = LuaStoreBox.makeWeakTable(L)
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
            for ref in [nodeCache, edgeCache, pendingError] where ref != LUA_NOREF {
                luaL_unref(main, FLUA_REGISTRYINDEX, ref)
            }
        }
        nodeCache = LUA_NOREF
        edgeCache = LUA_NOREF
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
        let saved = self.L
        self.L = L
        defer { self.L = saved }
        let r = try body()
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

    /// Pushes the Node handle of `id` (the cached one when alive).
    func pushNode(_ L: OpaquePointer, _ id: String) {
        pushHandle(L, id, cache: nodeCache) { nodeClass.push(L, LuaNodeRef(self, id), userValue: -1) }
    }

    /// Pushes the Edge handle of `id` (the cached one when alive).
    func pushEdge(_ L: OpaquePointer, _ id: String) {
        pushHandle(L, id, cache: edgeCache) { edgeClass.push(L, LuaEdgeRef(self, id), userValue: -1) }
    }

    private func pushHandle(_ L: OpaquePointer, _ id: String, cache: Int32, make: () -> Void) {
        let s = LuaStack(L)
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(cache))
        s.push(id)
        if lua_rawget(L, -2) == LUA_TUSERDATA {
            flua_remove(L, -2)
            return
        }
        flua_pop(L, 1)
        storeClass.pushCached(L, self)  // the handle keeps the store userdata alive
        make()
        flua_remove(L, -2)
        s.push(id)
        lua_pushvalue(L, -2)
        lua_rawset(L, -4)
        flua_remove(L, -2)
    }

    func pushNodes(_ L: OpaquePointer, _ ids: [String]) {
        lua_createtable(L, Int32(clamping: ids.count), 0)
        for (i, id) in ids.enumerated() {
            pushNode(L, id)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    func pushEdges(_ L: OpaquePointer, _ ids: [String]) {
        lua_createtable(L, Int32(clamping: ids.count), 0)
        for (i, id) in ids.enumerated() {
            pushEdge(L, id)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }
}

// MARK: - Fast receiver checks

/// The receiver of a method registered with its class's metatable as upvalue 1: compared
/// by identity (no registry look-up by name); anything else takes `check`'s path for the
/// exact error message.
@inline(__always)
func fastSelf<O: AnyObject>(_ args: LuaArgs, _ cls: LuaClass<O>) throws(LuaError) -> O {
    let L = args.L
    if lua_type(L, 1) == LUA_TUSERDATA, lua_getmetatable(L, 1) != 0 {
        let same = lua_rawequal(L, -1, args.upvalue(1)) != 0
        flua_pop(L, 1)
        if same, let p = lua_touserdata(L, 1)?.load(as: UnsafeMutableRawPointer?.self) {
            return unsafeDowncast(Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue(), to: O.self)
        }
    }
    return try cls.check(L, 1)
}

/// The store receiver of a Store method: one comparison when the method is the one bound
/// to this store (`store:moveNode(...)`, see `LuaClass.pushBound`), the full check else.
@inline(__always)
func storeSelf(_ args: LuaArgs) throws(LuaError) -> LuaStoreBox {
    if let u = storeClass.boundSelf(args.L, upvalue: args.upvalue(1)) { return u.takeUnretainedValue() }
    return try storeClass.check(args.L, 1)
}

/// Adds `methods` to the methods table of a registered class, each with the class's
/// metatable as upvalue 1 (for `fastSelf`).
func addMethods(_ L: OpaquePointer, registry name: String, _ methods: [LuaMethod]) {
    lua_getfield(L, FLUA_REGISTRYINDEX, name)
    lua_getfield(L, -1, "__methods")
    for m in methods {
        lua_pushvalue(L, -2)
        luaPushFunction(L, m.function, upvalues: 1)
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
