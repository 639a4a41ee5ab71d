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
/// the per-store caches of node and edge handles (weak-valued tables, so that
/// `store:node("a")` is the very userdata `addNode` returned while that one is alive).
///
/// Node handles are kept by the node's slot (`FlowStore.nodeSlot`), so making a node's
/// handle hashes no id in Lua: `nodeHandles[slot + 1]`, an array entry. A node that leaves
/// the store frees its slot for a later node; its handle, if still alive, moves to
/// `orphanHandles`, keyed by id, where a later handle for the same id (the node back by
/// undo, redo or a load, or added again) finds it. The store reports freed slots while it
/// works (`onNodeSlotFreed`), when no Lua may run, so they are noted (`freedSlots`) and
/// their handles moved before the next handle is pushed. Edge handles are kept by id.
public final class LuaStoreBox: CustomStringConvertible {
    public let store: LuaFlowStore
    let context: LuaContext
    /// The thread running the current bound call: callbacks run on it.
    var L: OpaquePointer
    /// Set by `__close`/`__gc`: handles of a closed store raise.
    package var isClosed = false
    /// An interrupt raised inside a callback, re-raised when the bound call returns.
    var pendingError: Int32 = LUA_NOREF
    /// Node handles by slot: a weak-valued table, the handle of slot `s` at `s + 1`.
    var nodeHandles: Int32 = LUA_NOREF
    /// The size of the array part `nodeHandles` was made with: every slot below it is an
    /// array entry. The table is remade twice as large when a slot reaches it
    /// (`growNodeHandles`), so no handle ever goes to its hash part (where integer keys are
    /// hashed, and a rehash after the collector emptied entries would shrink the array part).
    var nodeHandleCapacity = 0
    /// Node handles of ids that are no node of the store now (removed, or never added), by
    /// id: a weak-valued table.
    var orphanHandles: Int32 = LUA_NOREF
    /// Whether `orphanHandles` may hold a live handle. While false, a node's first handle
    /// is made without looking there.
    var orphansMayExist = false
    /// A weak-valued table whose entry 1, a table nothing else refers to, is gone once the
    /// collector has finished a cycle: `orphanHandles` is scanned for live handles at most
    /// once per cycle.
    var collectionMarker: Int32 = LUA_NOREF
    /// Slots the store freed since the last handle was pushed, each once (`freedMark`).
    var freedSlots: [Int32] = []
    /// `!freedSlots.isEmpty`, kept apart: a plain flag is read without the run-time
    /// exclusivity check that reading the array costs on every push.
    var hasFreedSlots = false
    /// Per slot: whether it is in `freedSlots`.
    var freedMark: [Bool] = []
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
    /// How many callbacks have been called (`invoke`): a bound call that sees it unchanged
    /// across a store operation knows that no Lua code ran meanwhile.
    var callbackRuns = 0
    /// The observer that calls `onNodesChange`/`onEdgesChange`, registered only while one of
    /// them is set: a store nobody listens to records no change events at all.
    var changeObserver: Int?
    /// The store's name, as `flow.observe` observers get it (`store.name`).
    var name = ""
    /// The batch observer that calls the `flow.observe` observers, registered only while
    /// the state has one (LuaObservers.swift).
    var observerToken: Int?

    init(_ L: OpaquePointer, configuration: FlowConfiguration) {
        store = LuaFlowStore(configuration: configuration)
        // Scripts always route orthogonal edges live (docs/routing.md).
        store.edgeRouter = OrthogonalRouter()
        // every store a sandbox makes keeps to its limits (docs/sandbox.md)
        if let limits = SandboxStoreLimits.read(L) { store.limits = limits.store }
        context = LuaContext.of(L)
        self.L = L
        nodeHandles = LuaStoreBox.makeWeakTable(L)
        orphanHandles = LuaStoreBox.makeWeakTable(L)
        collectionMarker = LuaStoreBox.makeWeakTable(L)
        edgeCache = LuaStoreBox.makeWeakTable(L)
        store.onNodeSlotFreed = { [weak self] slot in self?.noteFreed(slot) }
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
        if !context.isClosed {
            let main = context.mainState
            for ref in [nodeHandles, orphanHandles, collectionMarker, edgeCache, nodeMetatable, edgeMetatable,
                        pendingError] where ref > 0 {
                luaL_unref(main, FLUA_REGISTRYINDEX, ref)
            }
        }
        nodeHandles = LUA_NOREF
        nodeHandleCapacity = 0
        orphanHandles = LUA_NOREF
        collectionMarker = LUA_NOREF
        orphansMayExist = false
        freedSlots = []
        hasFreedSlots = false
        freedMark = []
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

    /// Pushes the Node handle of the id at stack index `id` (a Lua string as `pushID` makes
    /// it) of this store, whose userdata is at `store`: the one alive for that id, if any.
    func pushNode(_ L: OpaquePointer, idAt id: Int32, store: Int32) {
        var len = 0
        let bytes = UnsafeRawBufferPointer(start: lua_tolstring(L, id, &len), count: len)
        if let slot = self.store.nodeSlot(utf8: bytes) {
            pushNode(L, slot: slot, idAt: id, store: store)
        } else {
            pushOrphan(L, idAt: id, store: store)
        }
    }

    /// Pushes the Node handle of `id` (see `pushNode(_:idAt:store:)`).
    func pushNode(_ L: OpaquePointer, _ id: String, store: Int32) {
        let store = lua_absindex(L, store)
        LuaStack(L).push(id)
        pushNode(L, idAt: lua_gettop(L), store: store)
        flua_remove(L, -2)
    }

    /// Pushes the Node handle of the node in `slot`, whose id is the string at stack index
    /// `id`: the one in `nodeHandles` while it is alive, else the id's orphan (the node's
    /// handle from before it was last removed), else a new one. `keepingTable` leaves the
    /// handle table below the handle, for a function whose one result is the handle (the
    /// call returns only the top value). `fresh`: the node was just added and no Lua ran
    /// since (`callbackRuns` unchanged), so its slot has no handle: a freed slot's handle
    /// left `nodeHandles` when the slot was noted and moved.
    @inline(__always)
    func pushNode(
        _ L: OpaquePointer, slot: Int32, idAt id: Int32, store: Int32, keepingTable: Bool = false, fresh: Bool = false
    ) {
        let id = lua_absindex(L, id), store = lua_absindex(L, store)
        guard var table = pushHandleTable(L, nodeHandles, id: id, store: store) else { return }
        var fresh = fresh
        if Int(slot) >= nodeHandleCapacity {
            table = growNodeHandles(L, toHold: slot)
            fresh = false  // making the table may have run a finaliser, which may have pushed handles
        }
        // (Making the handle below may run a finaliser too. One that asks for this very node's
        // handle gets a second userdata, equal to this one by `==` but not by `rawequal`; the
        // old id-keyed cache had the same window.)
        let key = lua_Integer(slot) + 1
        if fresh || lua_rawgeti(L, table, key) != LUA_TUSERDATA {
            if !fresh { flua_pop(L, 1) }
            if !(orphansMayExist && orphansAlive(L) && takeOrphan(L, idAt: id)) {
                nodeClass.push(L, owner: store, key: id, cache: 0, metatable: nodeMetatable)
            }
            lua_pushvalue(L, -1)
            lua_rawseti(L, table, key)
        }
        if !keepingTable { flua_remove(L, table) }
    }

    /// Moves the handles of freed slots, then pushes the table `ref` (`nodeHandles` or
    /// `orphanHandles`) and returns its index. There is none once the store was closed (by
    /// a callback of the call now returning): then it pushes a handle of the id at `id`
    /// that only says so, and returns nil.
    @inline(__always)
    private func pushHandleTable(_ L: OpaquePointer, _ ref: Int32, id: Int32, store: Int32) -> Int32? {
        if hasFreedSlots { moveFreedHandles(L) }
        guard lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(ref)) == LUA_TTABLE else {
            flua_pop(L, 1)
            nodeClass.push(L, owner: store, key: id, cache: 0, metatable: nodeMetatable)
            return nil
        }
        return lua_gettop(L)
    }

    /// Replaces the `nodeHandles` table on top of the stack with one whose array part holds
    /// `slot` (at least twice the old size), with the same entries and metatable; returns
    /// its index (the same).
    private func growNodeHandles(_ L: OpaquePointer, toHold slot: Int32) -> Int32 {
        let old = lua_gettop(L)
        let capacity = max(64, 2 * nodeHandleCapacity, Int(slot) + 1)
        lua_createtable(L, Int32(clamping: capacity), 0)
        let new = lua_gettop(L)
        if lua_getmetatable(L, old) != 0 { lua_setmetatable(L, new) }
        var key: lua_Integer = 1
        while key <= lua_Integer(nodeHandleCapacity) {  // (a range of lua_Integer is not specialised)
            if lua_rawgeti(L, old, key) != LUA_TNIL { lua_rawseti(L, new, key) } else { flua_pop(L, 1) }
            key += 1
        }
        lua_pushvalue(L, new)
        lua_rawseti(L, FLUA_REGISTRYINDEX, lua_Integer(nodeHandles))
        flua_replace(L, old)
        nodeHandleCapacity = capacity
        return old
    }

    /// Pushes the Node handle of the id at stack index `id`, no node of the store: its
    /// entry in `orphanHandles`, or a new one put there.
    private func pushOrphan(_ L: OpaquePointer, idAt id: Int32, store: Int32) {
        let id = lua_absindex(L, id), store = lua_absindex(L, store)
        guard let table = pushHandleTable(L, orphanHandles, id: id, store: store) else { return }
        lua_pushvalue(L, id)
        if lua_rawget(L, table) != LUA_TUSERDATA {
            flua_pop(L, 1)
            nodeClass.push(L, owner: store, key: id, cache: 0, metatable: nodeMetatable)
            lua_pushvalue(L, id)
            lua_pushvalue(L, -2)
            lua_rawset(L, table)
            orphansMayExist = true
        }
        flua_remove(L, table)
    }

    /// Takes the orphan of the id at stack index `id` out of `orphanHandles` and pushes it;
    /// false, pushing nothing, when there is none.
    private func takeOrphan(_ L: OpaquePointer, idAt id: Int32) -> Bool {
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(orphanHandles))
        let table = lua_gettop(L)
        lua_pushvalue(L, id)
        guard lua_rawget(L, table) == LUA_TUSERDATA else {
            flua_pop(L, 2)
            return false
        }
        lua_pushvalue(L, id)
        lua_pushnil(L)
        lua_rawset(L, table)
        flua_remove(L, table)
        return true
    }

    /// Whether `orphanHandles` may hold a live handle: true until the collector has finished
    /// a cycle since the last look, then a scan for one (a table whose handles were all
    /// collected has no entry left to visit). A scan that finds one starts the wait for the
    /// next cycle; one that finds none sets `orphansMayExist` to false.
    private func orphansAlive(_ L: OpaquePointer) -> Bool {
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(collectionMarker))
        let marker = lua_gettop(L)
        if lua_rawgeti(L, marker, 1) != LUA_TNIL {
            flua_pop(L, 2)
            return true
        }
        flua_pop(L, 1)
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(orphanHandles))
        lua_pushnil(L)
        if lua_next(L, -2) != 0 {
            flua_pop(L, 3)  // key, value, table
            lua_createtable(L, 0, 0)
            lua_rawseti(L, marker, 1)
            flua_pop(L, 1)
            return true
        }
        flua_pop(L, 2)  // table, marker
        orphansMayExist = false
        return false
    }

    /// Called by the store when a node leaves `slot` (see `FlowStore.onNodeSlotFreed`). No Lua
    /// may run here: the slot is only noted, and `moveFreedHandles` moves its handle.
    private func noteFreed(_ slot: Int32) {
        guard !isClosed else { return }
        let i = Int(slot)
        if i >= freedMark.count { freedMark.append(contentsOf: repeatElement(false, count: i + 1 - freedMark.count)) }
        if freedMark[i] { return }
        freedMark[i] = true
        freedSlots.append(slot)
        hasFreedSlots = true
    }

    /// Moves the handles of freed slots (alive, still in `nodeHandles`) to `orphanHandles`.
    /// Runs before any handle is pushed, so that `nodeHandles` only ever yields the handle
    /// of the node now in a slot.
    private func moveFreedHandles(_ L: OpaquePointer) {
        defer {
            freedSlots.removeAll(keepingCapacity: true)
            hasFreedSlots = false
        }
        let capacity = nodeHandleCapacity
        var moved = false
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(nodeHandles))
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(orphanHandles))
        let handles = lua_gettop(L) - 1, orphans = handles + 1
        let usable = lua_type(L, handles) == LUA_TTABLE && lua_type(L, orphans) == LUA_TTABLE
            && lua_checkstack(L, 4) != 0
        // Only raw table operations below: no Lua runs, so no slot is freed meanwhile.
        freedSlots.withUnsafeBufferPointer { slots in
            freedMark.withUnsafeMutableBufferPointer { mark in
                for s in slots {
                    mark[Int(s)] = false
                    guard usable, Int(s) < capacity else { continue }
                    let key = lua_Integer(s) + 1
                    if lua_rawgeti(L, handles, key) == LUA_TUSERDATA {
                        if lua_getiuservalue(L, -1, 2) == LUA_TSTRING {
                            lua_pushvalue(L, -2)
                            lua_rawset(L, orphans)
                            moved = true
                        } else {
                            flua_pop(L, 1)
                        }
                        lua_pushnil(L)
                        lua_rawseti(L, handles, key)
                    }
                    flua_pop(L, 1)
                }
            }
        }
        if moved { orphansMayExist = true }
        flua_pop(L, 2)
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
        metatable: Int32
    ) {
        let id = lua_absindex(L, id), store = lua_absindex(L, store)
        // no cache once the store was closed (by a callback of the call now returning): the
        // handle then only says so
        let cached = lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(cache)) == LUA_TTABLE
        cls.push(L, owner: store, key: id, cache: cached ? lua_gettop(L) : 0, metatable: metatable)
        flua_remove(L, -2)  // the cache
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

extension LuaStackAccess {
    /// An expected failure, returned rather than raised (like `io.open`'s `luaL_fileresult`):
    /// pushes `nil, message` and returns their count, 2, for the bound function to return.
    func pushFailure(_ message: String) -> Int32 {
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

/// Adds `methods` to the methods table of a registered class, each with the class's
/// metatable as upvalue 1 (the place `flua_bind_instance` gives the bound receiver: see
/// `storeSelf`); a method with a fast entry is pushed with it (`flua_pushfastmethod_snn`,
/// `flua_pushfastmethod_fields`, `flua_pushfastmethod_strings`).
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
        } else if let (entry, keys) = m.fastStrings {
            for k in keys { LuaStack(L).push(k) }
            flua_pushfastmethod_strings(L, m.function, entry, Int32(keys.count))
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
        LuaWorkspace.register(L)
        luaSetFunctions(
            L,
            [LuaMethod("newStore", newStore), LuaMethod("open", open), LuaMethod("decode", decode),
             LuaMethod("observe", LuaObservers.observe), LuaMethod("workspace", LuaWorkspace.workspace)],
            table: module, qualifier: "flow.")
    }

    static var storeMethods: [LuaMethod] {
        nodeMethods + edgeMethods + hierarchyMethods + selectionMethods + viewportMethods
            + connectionMethods + pointerMethods + dropTargetMethods + accessoryMethods
            + undoMethods + documentMethods + pictureMethods + layoutMethods + routingMethods + configMethods
            + queryMethods + journalMethods
            + [LuaMethod("walk", LuaWalker.walk)]
    }

    static var storeGetters: [LuaMethod] {
        nodeGetters + selectionGetters + viewportGetters + connectionGetters + pointerGetters
            + dropTargetGetters + undoGetters + configGetters + edgeGetters + journalGetters
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
