import CLua
import CLuaShims
import FlowCore

// `flow.observe(fn)` (docs/queries.md): fn(storeName, changes, store) for the change
// batches of every store of the Lua state, and `store.name`.
//
// The state's stores and observers live in a LuaStores kept by the LuaContext. A store
// records change events only while someone listens, so the stores are attached (a FlowCore
// batch observer each) only while there is at least one observer: a store made while
// observers exist is attached when it is made, all of them when the first observer comes,
// none once the last one stops.

let observerClass = LuaClass<LuaObservation>("flow.Observer", name: "Observer")

/// One `flow.observe` registration.
final class LuaObservation: CustomStringConvertible {
    let callback: LuaCallback
    weak var stores: LuaStores?
    var isActive = true

    init(_ callback: LuaCallback, _ stores: LuaStores) {
        self.callback = callback
        self.stores = stores
    }

    var description: String { isActive ? "Observer (active)" : "Observer (stopped)" }

    /// Stops the observation (idempotent); returns whether it was active.
    func stop() -> Bool {
        guard isActive else { return false }
        isActive = false
        stores?.remove(self)
        callback.release()
        return true
    }
}

/// The stores of one Lua state (weakly, in creation order) and its observers.
final class LuaStores {
    private struct WeakBox { weak var box: LuaStoreBox? }
    private var stores: [WeakBox] = []
    private(set) var observers: [LuaObservation] = []
    /// How many stores the state has made: the default names are `store#1`, `store#2`, ….
    private var made = 0

    static func of(_ context: LuaContext) -> LuaStores {
        if let s = context.attachments["flow.stores"] as? LuaStores { return s }
        let s = LuaStores()
        context.attachments["flow.stores"] = s
        return s
    }

    /// Adds a new store; returns its default name.
    func add(_ box: LuaStoreBox) -> String {
        made += 1
        box.serial = made
        stores.removeAll { $0.box == nil }
        stores.append(WeakBox(box: box))
        if !observers.isEmpty { box.attachObservers() }
        return "store#\(made)"
    }

    /// The open stores, oldest first.
    var live: [LuaStoreBox] { stores.compactMap { $0.box.flatMap { $0.isClosed ? nil : $0 } } }

    func remove(_ box: LuaStoreBox) {
        stores.removeAll { $0.box == nil || $0.box === box }
    }

    /// The live box holding `store`, if any.
    func box(of store: LuaFlowStore) -> LuaStoreBox? {
        stores.first { $0.box?.store === store }?.box
    }

    func add(_ o: LuaObservation) {
        observers.append(o)
        if observers.count == 1 { for s in stores { s.box?.attachObservers() } }
    }

    func remove(_ o: LuaObservation) {
        observers.removeAll { $0 === o }
        if observers.isEmpty { for s in stores { s.box?.detachObservers() } }
    }
}

extension LuaStoreBox {
    func attachObservers() {
        guard observerToken == nil, !isClosed else { return }
        observerToken = store.addBatchObserver { [weak self] nodes, edges in
            self?.deliverToObservers(nodes, edges)
        }
    }

    func detachObservers() {
        guard let t = observerToken else { return }
        store.removeObserver(t)
        observerToken = nil
    }

    /// Calls every active observer with the store's name, `{nodes = …, edges = …}` and the
    /// store. An error an observer raises is reported (`error in observer: …`) and the
    /// observer stays; an interrupt is raised when the store's call returns.
    func deliverToObservers(_ nodes: [NodeChange<JSONValue>], _ edges: [EdgeChange]) {
        guard !isClosed else { return }
        for o in LuaStores.of(context).observers where o.isActive {
            invoke(o.callback) { [store] s in
                s.push(self.name)
                lua_createtable(s.L, 0, 2)
                LuaChanges.push(s, nodeChanges: nodes)
                s.setField("nodes")
                LuaChanges.push(s, edgeChanges: edges, store: store)
                s.setField("edges")
                storeClass.pushCached(s.L, self)
                return 3
            }
        }
    }
}

enum LuaObservers {
    static func register(_ L: OpaquePointer) {
        observerClass.register(
            L, methods: [LuaMethod("close", closeMethod), LuaMethod("stop", stop)], getters: [LuaMethod("isActive", isActive)],
            metamethods: [LuaMethod("__close", close)],
            readOnlyHints: ["isActive": "field 'isActive' is read-only (use observer:stop)"])
    }

    /// `flow.observe(fn)`.
    static let observe: LuaFunction = { L in
        luaGuarded(L) { args in
            let cb = try args.callback(1, label: "observer")
            let stores = LuaStores.of(LuaContext.of(args.L))
            let o = LuaObservation(cb, stores)
            stores.add(o)
            observerClass.push(args.L, o)
            return 1
        }
    }

    static let stop: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try observerClass.check(args.L, 1).stop())
            return 1
        }
    }

    /// `observer:close()`: stops the observation, as every object's `close` ends what it
    /// holds (`stop` is the same and says whether it was active).
    static let closeMethod: LuaFunction = { L in
        luaGuarded(L) { args in
            _ = try observerClass.check(args.L, 1).stop()
            return 0
        }
    }

    static let isActive: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try observerClass.check(args.L, 1).isActive)
            return 1
        }
    }

    /// `__close`: stops the observation (a `local o <close> = flow.observe(fn)` observes
    /// until its scope ends). `__gc` only lets go of the handle: an observer whose handle
    /// is dropped keeps observing.
    static let close: LuaFunction = { L in
        let L = L!
        _ = observerClass.test(L, 1)?.stop()
        return 0
    }

    // MARK: store.name

    static let name: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).name)
            return 1
        }
    }

    static let setName: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try args.object(1, storeClass)
            box.name = try args.assigned("name") { try args.string(2) }
            return 0
        }
    }
}
