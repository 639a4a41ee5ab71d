import CLua
import CLuaShims

/// The handles of one kind of item of a store (its Nodes, or its Edges), kept so that an id
/// has one handle while that handle is alive: `store:node("a")` is the very userdata
/// `addNode` returned. A store box has one for nodes and one for edges; both kinds work the
/// same way (docs/binding-internals.md, "Handles").
///
/// - **By slot.** FlowCore gives every item a slot (`FlowStore.nodeSlot`, `edgeSlot`: small,
///   dense, unique among the store's items of that kind, kept until the item leaves), so
///   the handle of the item in slot `s` is entry `s + 1` of `handles`, a weak-valued table:
///   an array write, no hashing of the id in Lua. The table is made with an array part for
///   `capacity` slots and remade twice as large when a slot reaches its end (`grow`), so no
///   handle ever goes to its hash part (where a rehash after the collector emptied entries
///   would shrink the array part again).
/// - **Orphans, by id.** An item that leaves the store frees its slot for a later item; its
///   handle, if still alive, moves to `orphans`, a weak-valued table keyed by id, where a
///   later handle for the same id (the item back by undo, redo or a load, or added again)
///   finds it. The store reports freed slots while it works (`noteFreed`, called from
///   `onNodeSlotFreed`/`onEdgeSlotFreed`), when no Lua may run, so they are noted and their
///   handles moved before the next handle is pushed (`moveFreedHandles`).
///
/// A class, not a struct: the store calls `noteFreed` in the middle of operations that a
/// push may run (a finaliser the collector runs while a handle is made), and a struct
/// mutated in place would be an overlapping access.
final class LuaHandleCache {
    let cls: LuaHandleClass<LuaStoreBox>
    /// Registry reference to the class's metatable, for making handles (an integer key).
    @exclusivity(unchecked) private var metatable: Int32 = LUA_NOREF
    /// Handles by slot: a weak-valued table, the handle of slot `s` at `s + 1`.
    @exclusivity(unchecked) private var handles: Int32 = LUA_NOREF
    /// The size of the array part `handles` was made with: every slot below it is an array
    /// entry.
    @exclusivity(unchecked) private var capacity = 0
    /// Handles of ids that are no item of the store now (removed, or never added), by id: a
    /// weak-valued table.
    @exclusivity(unchecked) private var orphans: Int32 = LUA_NOREF
    /// Whether `orphans` may hold a live handle. While false, an item's first handle is
    /// made without looking there.
    @exclusivity(unchecked) private var orphansMayExist = false
    /// A weak-valued table whose entry 1, a table nothing else refers to, is gone once the
    /// collector has finished a cycle: `orphans` is scanned for live handles at most once
    /// per cycle.
    @exclusivity(unchecked) private var collectionMarker: Int32 = LUA_NOREF
    /// Slots the store freed since the last handle was pushed, each once (`freedMark`).
    @exclusivity(unchecked) private var freedSlots: [Int32] = []
    /// `!freedSlots.isEmpty`, kept apart: a plain flag is the one read on every push.
    @exclusivity(unchecked) private var hasFreedSlots = false
    /// Per slot: whether it is in `freedSlots`.
    @exclusivity(unchecked) private var freedMark: [Bool] = []
    @exclusivity(unchecked) private var isReleased = false

    init(_ L: OpaquePointer, _ cls: LuaHandleClass<LuaStoreBox>) {
        self.cls = cls
        handles = Self.makeWeakTable(L)
        orphans = Self.makeWeakTable(L)
        collectionMarker = Self.makeWeakTable(L)
        cls.pushMetatable(L)
        metatable = luaL_ref(L, FLUA_REGISTRYINDEX)
    }

    private static func makeWeakTable(_ L: OpaquePointer) -> Int32 {
        lua_createtable(L, 0, 0)
        lua_createtable(L, 0, 1)
        LuaStack(L).push("v")
        lua_setfield(L, -2, "__mode")
        lua_setmetatable(L, -2)
        return luaL_ref(L, FLUA_REGISTRYINDEX)
    }

    /// Drops the tables (idempotent; `main` nil once the state is closed). Pushes afterwards
    /// make handles that only say their store is closed.
    func release(_ main: OpaquePointer?) {
        if let main {
            for ref in [handles, orphans, collectionMarker, metatable] where ref > 0 {
                luaL_unref(main, FLUA_REGISTRYINDEX, ref)
            }
        }
        isReleased = true
        handles = LUA_NOREF
        capacity = 0
        orphans = LUA_NOREF
        collectionMarker = LUA_NOREF
        metatable = LUA_NOREF
        orphansMayExist = false
        freedSlots = []
        hasFreedSlots = false
        freedMark = []
    }

    // MARK: Pushing

    /// Pushes the handle of the id at stack index `id` (a Lua string as `pushID` makes it),
    /// whose item is in `slot` (nil: no item of the store has that id), for the store
    /// userdata at `store`: the one in `handles` while it is alive, else the id's orphan (the
    /// item's handle from before it last left), else a new one. `keepingTable` leaves the
    /// handle table below the handle, for a function whose one result is the handle (the
    /// call returns only the top value). `fresh`: the item was just added and no Lua ran
    /// since, so its slot has no handle (a freed slot's handle left `handles` when the slot
    /// was noted and moved).
    @inline(__always)
    func push(
        _ L: OpaquePointer, slot: Int32?, idAt id: Int32, store: Int32, keepingTable: Bool = false,
        fresh: Bool = false
    ) {
        let id = lua_absindex(L, id), store = lua_absindex(L, store)
        guard let slot else { return pushOrphan(L, idAt: id, store: store) }
        guard var table = pushTable(L, handles, id: id, store: store) else { return }
        var fresh = fresh
        if Int(slot) >= capacity {
            table = grow(L, toHold: slot)
            fresh = false  // making the table may have run a finaliser, which may have pushed handles
        }
        // (Making the handle below may run a finaliser too. One that asks for this very item's
        // handle gets a second userdata, equal to this one by `==` but not by `rawequal`.)
        let key = lua_Integer(slot) + 1
        if fresh || lua_rawgeti(L, table, key) != LUA_TUSERDATA {
            if !fresh { flua_pop(L, 1) }
            if !(orphansMayExist && orphansAlive(L) && takeOrphan(L, idAt: id)) {
                cls.push(L, owner: store, key: id, metatable: metatable)
            }
            lua_pushvalue(L, -1)
            lua_rawseti(L, table, key)
        }
        if !keepingTable { flua_remove(L, table) }
    }

    /// Moves the handles of freed slots, then pushes the table `ref` (`handles` or
    /// `orphans`) and returns its index. There is none once the store was closed (by a
    /// callback of the call now returning): then it pushes a handle of the id at `id` that
    /// only says so, and returns nil.
    @inline(__always)
    private func pushTable(_ L: OpaquePointer, _ ref: Int32, id: Int32, store: Int32) -> Int32? {
        if hasFreedSlots { moveFreedHandles(L) }
        guard lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(ref)) == LUA_TTABLE else {
            flua_pop(L, 1)
            cls.push(L, owner: store, key: id, metatable: metatable)
            return nil
        }
        return lua_gettop(L)
    }

    /// Replaces the `handles` table on top of the stack with one whose array part holds
    /// `slot` (at least twice the old size), with the same entries and metatable; returns
    /// its index (the same).
    private func grow(_ L: OpaquePointer, toHold slot: Int32) -> Int32 {
        let old = lua_gettop(L)
        let newCapacity = max(64, 2 * capacity, Int(slot) + 1)
        lua_createtable(L, Int32(clamping: newCapacity), 0)
        let new = lua_gettop(L)
        if lua_getmetatable(L, old) != 0 { lua_setmetatable(L, new) }
        var key: lua_Integer = 1
        while key <= lua_Integer(capacity) {  // (a range of lua_Integer is not specialised)
            if lua_rawgeti(L, old, key) != LUA_TNIL { lua_rawseti(L, new, key) } else { flua_pop(L, 1) }
            key += 1
        }
        lua_pushvalue(L, new)
        lua_rawseti(L, FLUA_REGISTRYINDEX, lua_Integer(handles))
        flua_replace(L, old)
        capacity = newCapacity
        return old
    }

    // MARK: Orphans

    /// Pushes the handle of the id at stack index `id`, no item of the store: its entry in
    /// `orphans`, or a new one put there.
    private func pushOrphan(_ L: OpaquePointer, idAt id: Int32, store: Int32) {
        guard let table = pushTable(L, orphans, id: id, store: store) else { return }
        lua_pushvalue(L, id)
        if lua_rawget(L, table) != LUA_TUSERDATA {
            flua_pop(L, 1)
            cls.push(L, owner: store, key: id, metatable: metatable)
            lua_pushvalue(L, id)
            lua_pushvalue(L, -2)
            lua_rawset(L, table)
            orphansMayExist = true
        }
        flua_remove(L, table)
    }

    /// Takes the orphan of the id at stack index `id` out of `orphans` and pushes it; false,
    /// pushing nothing, when there is none.
    private func takeOrphan(_ L: OpaquePointer, idAt id: Int32) -> Bool {
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(orphans))
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

    /// Whether `orphans` may hold a live handle: true until the collector has finished a
    /// cycle since the last look, then a scan for one (a table whose handles were all
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
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(orphans))
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

    // MARK: Freed slots

    /// Called by the store when an item leaves `slot`. No Lua may run here: the slot is
    /// only noted, and `moveFreedHandles` moves its handle.
    func noteFreed(_ slot: Int32) {
        guard !isReleased else { return }
        let i = Int(slot)
        if i >= freedMark.count { freedMark.append(contentsOf: repeatElement(false, count: i + 1 - freedMark.count)) }
        if freedMark[i] { return }
        freedMark[i] = true
        freedSlots.append(slot)
        hasFreedSlots = true
    }

    /// Moves the handles of freed slots (alive, still in `handles`) to `orphans`. Runs
    /// before any handle is pushed, so that `handles` only ever yields the handle of the
    /// item now in a slot.
    private func moveFreedHandles(_ L: OpaquePointer) {
        defer {
            freedSlots.removeAll(keepingCapacity: true)
            hasFreedSlots = false
        }
        let capacity = capacity
        var moved = false
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(handles))
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(orphans))
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
}
