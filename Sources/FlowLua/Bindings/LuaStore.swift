import CLua
import CLuaShims
import FlowCore
import FlowRouting

/// The store type the binding drives: node data is any JSON value.
public typealias LuaFlowStore = FlowStore<JSONValue>
typealias LuaFlowNode = FlowNode<JSONValue>

package let storeClass = LuaClass<LuaStoreBox>("flow.Store", name: "Store")
/// Node and Edge handles (lua-api §2, §3): user value 1 is the Store userdata, 2 the id.
let nodeClass = LuaHandleClass("flow.Node", name: "Node", owner: storeClass)
let edgeClass = LuaHandleClass("flow.Edge", name: "Edge", owner: storeClass)

/// What a Store userdata holds: the store, the Lua callbacks assigned to its fields, and
/// the per-store caches of Node and Edge handles (`LuaHandleCache`: by the item's slot, so
/// that `store:node("a")` is the very userdata `addNode` returned while that one is alive).
public final class LuaStoreBox: CustomStringConvertible {
    public let store: LuaFlowStore
    let context: LuaContext
    /// The thread running the current bound call: callbacks run on it.
    var L: OpaquePointer
    /// Set by `__close`/`__gc`: handles of a closed store raise.
    package var isClosed = false
    /// An interrupt raised inside a callback, re-raised when the bound call returns.
    var pendingError: Int32 = LUA_NOREF
    /// The Node handles, by node slot, and the Edge handles, by edge slot.
    let nodeHandles: LuaHandleCache
    let edgeHandles: LuaHandleCache

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
    /// How many callbacks have been called (`invoke`): a bound call that sees it unchanged
    /// across a store operation knows that no Lua code ran meanwhile.
    var callbackRuns = 0
    /// The observer that calls `onNodesChange`/`onEdgesChange`, registered only while one of
    /// them is set: a store nobody listens to records no change events at all.
    var changeObserver: Int?
    /// Whether a store call may run Lua code: a change callback or a `flow.observe` observer
    /// is set (see `withFastEntryBox`).
    var mayCallLua: Bool { changeObserver != nil || observerToken != nil }
    /// The store's name, as `flow.observe` observers get it (`store.name`).
    package var name = ""
    /// The number of the store among those its state made, from 1 (`LuaStores.add`).
    var serial = 0
    /// The batch observer that calls the `flow.observe` observers, registered only while
    /// the state has one (LuaObservers.swift).
    var observerToken: Int?

    init(_ L: OpaquePointer, configuration: FlowConfiguration) {
        store = LuaFlowStore(configuration: configuration)
        // Scripts always route orthogonal edges live (docs/routing.md).
        store.edgeRouter = OrthogonalRouter()
        // every store a sandbox makes keeps to its limits (docs/sandbox.md)
        context = LuaContext.of(L)
        if let limits = SandboxStoreLimits.read(L) {
            store.limits = limits.store
            store.memoryBudget = LuaSandboxState.of(context)  // its nodes and edges count against the cap
        }
        self.L = L
        let nodeHandles = LuaHandleCache(L, nodeClass), edgeHandles = LuaHandleCache(L, edgeClass)
        self.nodeHandles = nodeHandles
        self.edgeHandles = edgeHandles
        store.onNodeSlotFreed = { slot in nodeHandles.noteFreed(slot) }
        store.onEdgeSlotFreed = { slot in edgeHandles.noteFreed(slot) }
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
        name = LuaStores.of(context).add(self)
        LuaStoreBox.account(L, bytes: LuaStoreBox.baseBytes)
    }

    deinit { shutdown() }

    /// About what an empty store holds outside Lua's accounting (its tables, indexes,
    /// router and history), and what each stored item adds.
    static let baseBytes = 128 * 1024
    static let bytesPerItem = 400

    /// Tells the collector about `bytes` the store allocated outside Lua (a collection step
    /// as if Lua had allocated them), so a loop that makes stores, or loads large documents,
    /// is collected as its real memory grows, not only as the small userdata add up.
    /// `bytesPerItem` for each node and edge of the store.
    var itemBytes: Int { (store.nodeCount + store.edgeCount) * LuaStoreBox.bytesPerItem }

    static func account(_ L: OpaquePointer, bytes: Int) {
        flua_gc_step(L, Int32(clamping: bytes / 1024))
    }

    /// Releases every callback and cache (idempotent). Handles raise afterwards.
    package func shutdown() {
        detachObservers()
        LuaStores.of(context).remove(self)
        isClosed = true
        for cb in [onNodesChange, onEdgesChange, onConnect, connectionValidator, onConnectionRejected,
                   onNodeDoubleTap, onEdgeDoubleTap, onCanvasDoubleTap, onDrop, nodeAccessoryPlacement] {
            cb?.release()
        }
        onNodesChange = nil; onEdgesChange = nil; onConnect = nil; connectionValidator = nil
        onConnectionRejected = nil; onNodeDoubleTap = nil; onEdgeDoubleTap = nil
        onCanvasDoubleTap = nil; onDrop = nil; nodeAccessoryPlacement = nil
        store.onConnect = nil; store.connectionValidator = nil; store.onConnectionRejected = nil
        store.interaction.onNodeDoubleTap = nil; store.interaction.onEdgeDoubleTap = nil; store.interaction.onCanvasDoubleTap = nil
        store.interaction.nodeAccessoryPlacement = nil
        store.onNodeSlotFreed = nil
        store.onEdgeSlotFreed = nil
        let main = context.isClosed ? nil : context.mainState
        if let main, pendingError > 0 { luaL_unref(main, FLUA_REGISTRYINDEX, pendingError) }
        nodeHandles.release(main)
        edgeHandles.release(main)
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
        // a refused commit (a workspace write, a store limit) inside a call whose error type
        // could not carry it (a transaction's body raises Lua errors)
        if let failure = store.takeWriteFailure() { throw failure }
        return r
    }

    /// Thrown inside `invoke` to roll back what a failed handler changed.
    private struct HandlerFailed: Error {}

    /// Whether a Lua handler may run inside a pointer, tap, connection or drop call.
    var hasInteractionHandlers: Bool {
        onConnect != nil || connectionValidator != nil || onConnectionRejected != nil || onNodeDoubleTap != nil
            || onEdgeDoubleTap != nil || onCanvasDoubleTap != nil || onDrop != nil
    }

    /// Runs bound call `op`, during which Lua callbacks may run (`callbacks`), as one atomic
    /// operation (D23): what the callbacks change joins it, and when the call or one of
    /// them fails, everything is rolled back before the error is raised. Store errors are
    /// reported under `op`, the name the script called (`endConnection`, not `addEdge`).
    func runAtomic<R>(_ L: OpaquePointer, _ op: String, callbacks: Bool = true, _ body: () throws -> R) throws -> R {
        do {
            guard callbacks else { return try run(L, body) }
            return try run(L) {
                try store.atomically {
                    let r = try body()
                    if pendingError != LUA_NOREF { try raisePending(L) }
                    return r
                }
            }
        } catch let e as FlowError {
            throw e.reported(as: op)
        }
    }

    private func raisePending(_ L: OpaquePointer) throws {
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(pendingError))
        luaL_unref(L, FLUA_REGISTRYINDEX, pendingError)
        pendingError = LUA_NOREF
        throw LuaError.valueOnStack
    }

    /// Calls a callback on the current thread. Errors go to the error sink (false); an
    /// interrupt is kept for `run` to re-raise. On success `results` values are on the stack.
    /// A handler called in the middle of a store call (a validator, `onConnect`, a tap or
    /// drop handler) that fails leaves no change of its own behind (D23).
    @discardableResult
    func invoke(_ cb: LuaCallback?, results: Int32 = 0, _ arguments: (LuaStack) -> Int32) -> Bool {
        guard let cb, cb.isValid, !isClosed else { return false }
        callbackRuns &+= 1
        let L = self.L
        do {
            guard store.isInOperation else { return try cb.call(L, results: results, arguments: arguments) }
            return try store.atomically { () throws -> Bool in
                guard try cb.call(L, results: results, arguments: arguments) else { throw HandlerFailed() }
                return true
            }
        } catch is HandlerFailed {
            return false
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

    /// The two kinds of handle a store gives.
    enum HandleKind { case node, edge }

    /// The handle cache of a kind.
    @inline(__always)
    func handles(_ kind: HandleKind) -> LuaHandleCache { kind == .node ? nodeHandles : edgeHandles }

    /// The slot of the node or edge whose id has these bytes, if there is one.
    @inline(__always)
    func slot(_ kind: HandleKind, utf8 bytes: UnsafeRawBufferPointer) -> Int32? {
        kind == .node ? store.nodeSlot(utf8: bytes) : store.edgeSlot(utf8: bytes)
    }

    /// Pushes the handle of the node or edge whose id is the string at stack index `id` (a
    /// Lua string as `pushID` makes it) of this store, whose userdata is at `store`: the one
    /// alive for that id, if any.
    func pushHandle(_ kind: HandleKind, _ L: OpaquePointer, idAt id: Int32, store: Int32) {
        var len = 0
        let bytes = UnsafeRawBufferPointer(start: lua_tolstring(L, id, &len), count: len)
        handles(kind).push(L, slot: slot(kind, utf8: bytes), idAt: id, store: store)
    }

    /// `pushHandle` for an id given as a Swift string.
    func pushHandle(_ kind: HandleKind, _ L: OpaquePointer, _ id: String, store: Int32) {
        let store = lua_absindex(L, store)
        LuaStack(L).push(id)
        pushHandle(kind, L, idAt: lua_gettop(L), store: store)
        flua_remove(L, -2)
    }

    /// Pushes the handle of the node or edge a Store method (the store userdata at 1) just
    /// added to `slot`, its id at stack index `id`, leaving the handle table below it (for a
    /// function whose one result is the handle). `runs` is `callbackRuns` from before the
    /// add: when no Lua ran since, the slot is the item's and has no handle yet (no look-up,
    /// no read); else a callback may have changed the store, and the id is looked up.
    @inline(__always)
    func pushAdded(_ kind: HandleKind, _ L: OpaquePointer, slot: Int32, idAt id: Int32, since runs: Int) {
        if callbackRuns == runs {
            handles(kind).push(L, slot: slot, idAt: id, store: 1, keepingTable: true, fresh: true)
        } else {
            pushHandle(kind, L, idAt: id, store: 1)
        }
    }

    /// Pushes the Node handle of the id at stack index `id` (see `pushHandle`).
    func pushNode(_ L: OpaquePointer, idAt id: Int32, store: Int32) { pushHandle(.node, L, idAt: id, store: store) }

    /// Pushes the Node handle of `id` (see `pushHandle`).
    func pushNode(_ L: OpaquePointer, _ id: String, store: Int32) { pushHandle(.node, L, id, store: store) }

    /// Pushes the Edge handle of the id at stack index `id` (see `pushHandle`).
    func pushEdge(_ L: OpaquePointer, idAt id: Int32, store: Int32) { pushHandle(.edge, L, idAt: id, store: store) }

    /// Pushes the Edge handle of `id` (see `pushHandle`).
    func pushEdge(_ L: OpaquePointer, _ id: String, store: Int32) { pushHandle(.edge, L, id, store: store) }

    /// Pushes an array of the handles of `ids`.
    func pushHandles(_ kind: HandleKind, _ L: OpaquePointer, _ ids: [String], store: Int32) {
        let store = lua_absindex(L, store)
        lua_createtable(L, Int32(clamping: ids.count), 0)
        for (i, id) in ids.enumerated() {
            pushHandle(kind, L, id, store: store)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    func pushNodes(_ L: OpaquePointer, _ ids: [String], store: Int32) { pushHandles(.node, L, ids, store: store) }

    func pushEdges(_ L: OpaquePointer, _ ids: [String], store: Int32) { pushHandles(.edge, L, ids, store: store) }
}

extension LuaStackAccess {
    /// An expected failure, returned rather than raised (like `io.open`'s `luaL_fileresult`):
    /// pushes `nil, message` and returns their count, 2, for the bound function to return.
    package func pushFailure(_ message: String) -> Int32 {
        pushNil()
        push(message)
        return 2
    }
}

/// Pushes the id at `index` (lua-api §0: a string, or a number in its string form) as the
/// Lua string a handle keeps: the value itself when it is ASCII (no new string), else its
/// canonical spelling, the one the store keeps (D24; invalid UTF-8 repaired first). False,
/// pushing nothing, when the value is neither.
func pushID(_ L: OpaquePointer, at index: Int32) -> Bool {
    switch lua_type(L, index) {
    case LUA_TSTRING:
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return false }
        let bytes = UnsafeRawBufferPointer(start: p, count: len)
        if bytes.allSatisfy({ $0 < 0x80 }) {
            lua_pushvalue(L, index)
        } else {
            LuaStack(L).push(canonicalID(decodeUTF8(bytes)))
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

// MARK: - Receivers

/// The store receiver of a Store method: one comparison when the method is the one bound
/// to this store (`store:moveNode(...)`, see `LuaClass.pushBound`), the full check else.
@inline(__always)
func storeSelf(_ args: LuaArgs) throws(LuaError) -> LuaStoreBox {
    if let u = storeClass.boundSelf(args.L, upvalue: args.upvalue(1)) { return u.takeUnretainedValue() }
    return try storeClass.check(args.L, 1)
}

/// Runs a fast entry's `body` with the store box `object` points to (the bound store's
/// block). When a store call may run Lua code (a change callback or a `flow.observe`
/// observer is set: `mayCallLua`), `body` holds a strong reference, since that code may close
/// the store, which releases the box; otherwise it borrows the box, saving a retain and a
/// release (the slow kind: the box has weak references, so a side table) on every call.
@inline(__always)
func withFastEntryBox<R>(_ object: UnsafeMutableRawPointer?, _ body: (LuaStoreBox) -> R) -> R {
    let box = Unmanaged<LuaStoreBox>.fromOpaque(object.unsafelyUnwrapped)
    if box._withUnsafeGuaranteedRef({ $0.mayCallLua }) {
        let strong = box.takeUnretainedValue()
        return withExtendedLifetime(strong) { body(strong) }
    }
    return box._withUnsafeGuaranteedRef(body)
}

/// Runs the body of a fields or SNN method (`flua_FieldsFunction`, `flua_SNNFunction`) with
/// its store box: the bound
/// store's when `object` is set (held as `withFastEntryBox` holds it), else the receiver's,
/// checked by `storeSelf`. Whatever the body throws becomes the trampoline's code.
@inline(__always)
func withMethodBox(
    _ L: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ body: (OpaquePointer, LuaStoreBox) throws -> Int32
) -> Int32 {
    let L = L.unsafelyUnwrapped
    guard let object else { return luaGuarded(L) { args in try body(L, try storeSelf(args)) } }
    return withFastEntryBox(object) { box in
        do {
            return try body(L, box)
        } catch {
            return LuaErrors.code(for: error, L)
        }
    }
}

/// Adds `methods` to the methods table of a registered class, each with the class's
/// metatable as upvalue 1 (the place `flua_bind_instance` gives the bound receiver: see
/// `storeSelf`); a method whose arguments C reads is pushed with its reader
/// (`flua_pushsnnmethod`, `flua_pushfieldsmethod`).
func addMethods(_ L: OpaquePointer, registry name: String, _ methods: [LuaMethod]) {
    lua_getfield(L, FLUA_REGISTRYINDEX, name)
    lua_getfield(L, -1, "__methods")
    for m in methods {
        lua_pushvalue(L, -2)
        if let function = m.snn {
            flua_pushsnnmethod(L, function)
        } else if let (function, keys, strings) = m.fields {
            for k in keys { LuaStack(L).push(k) }
            flua_pushfieldsmethod(L, function, Int32(keys.count), strings ? 1 : 0)
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
            L, methods: [], getters: storeGetters + callbackGetters + [LuaMethod("name", LuaObservers.name)],
            setters: callbackSetters + journalSetters + [LuaMethod("name", LuaObservers.setName)],
            metamethods: [LuaMethod("__gc", storeGC), LuaMethod("__close", storeGC)],
            readOnlyHints: hints)
        addMethods(L, registry: "flow.Store", storeMethods)
        LuaNode.register(L)
        LuaEdge.register(L)
        LuaWalker.register(L)
        LuaObservers.register(L)
        luaSetFunctions(
            L,
            [LuaMethod("newStore", newStore), LuaMethod("open", open), LuaMethod("decode", decode),
             LuaMethod("observe", LuaObservers.observe)],
            table: module, qualifier: "flow.")
        LazyModules.install(L, module: module)
    }

    static var storeMethods: [LuaMethod] {
        nodeMethods + edgeMethods + batchMethods + hierarchyMethods + selectionMethods + viewportMethods
            + connectionMethods + pointerMethods + dropTargetMethods + accessoryMethods
            + undoMethods + documentMethods + pictureMethods + layoutMethods + routingMethods + configMethods
            + queryMethods + journalMethods
            + [LuaMethod("walk", LuaWalker.walk), LuaMethod("close", closeMethod)]
    }

    static var storeGetters: [LuaMethod] {
        nodeGetters + selectionGetters + viewportGetters + connectionGetters + pointerGetters
            + dropTargetGetters + undoGetters + configGetters + edgeGetters + journalGetters
    }

    static var storeReadOnlyFields: [String] { storeGetters.map(\.name) }

    /// `__gc` and `__close`: releases the callbacks and the caches; later use raises
    /// `attempt to use a closed Store`.
    static let storeGC: LuaFunction = { L in
        closeUserdata(L!, 1)
        return 0
    }

    /// `store:close()`: what `__close` does, for a script that closes a store itself; a
    /// closed store's close does nothing.
    static let closeMethod: LuaFunction = { L in
        luaGuarded(L) { args in
            guard storeClass.isInstance(args.L, 1) else { throw LuaError.type(1, expected: "Store") }
            closeUserdata(args.L, 1)
            return 0
        }
    }

    /// Closes the Store userdata at `index` (nothing when closed already).
    static func closeUserdata(_ L: OpaquePointer, _ index: Int32) {
        if let box = storeClass.test(L, index) { box.shutdown() }
        storeClass.close(L, index)
    }

    /// Closes the Store userdata of `store` in state `L`, if it has one (`ws:delete` of an
    /// open diagram): its calls then raise `attempt to use a closed Store`.
    package static func close(_ L: OpaquePointer, store: LuaFlowStore) {
        guard let box = LuaStores.of(LuaContext.of(L)).box(of: store) else { return }
        storeClass.pushCached(L, box)
        closeUserdata(L, -1)
        flua_pop(L, 1)
    }

    /// Pushes the userdata of a new store.
    package static func pushNewStore(_ L: OpaquePointer, configuration: FlowConfiguration) -> LuaStoreBox {
        let box = LuaStoreBox(L, configuration: configuration)
        storeClass.pushBound(L, box)
        return box
    }

    /// `flow.newStore(config?)`.
    static let newStore: LuaFunction = { L in
        luaGuarded(L) { args in
            var config = FlowConfiguration()
            var undo = true
            var classes: [String: FlowClass]?
            if let t = try args.optionalTable(1) {
                classes = try LuaConfig.apply(t, to: &config, undo: &undo, op: "newStore")
            }
            let box = pushNewStore(args.L, configuration: config)
            if let classes {
                // a new store starts with an empty history
                box.store.isUndoEnabled = false
                do {
                    try box.store.setClassStyles(classes)
                } catch {
                    box.shutdown()
                    throw error
                }
            }
            box.store.isUndoEnabled = undo
            return 1
        }
    }
}
