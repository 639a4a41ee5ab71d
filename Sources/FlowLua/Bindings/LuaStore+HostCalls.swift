import CLua
import CLuaShims
import FlowCore

// For hosts inside the package (flowrepl's live preview): the stores a Lua state made, and
// calls on them from Swift that behave as the same calls made from Lua. A request from a
// preview page is one such call: its change events print, the store's callbacks run on the
// state, a failure leaves the store as it was, and its undo step is the prompt's.

extension LuaStoreBox {
    /// The number of the store among those its state made, from 1 (the `n` of its default
    /// name `store#n`).
    package var number: Int { serial }

    /// The store's name (`store.name`: `store#n` unless a script named it).
    package var storeName: String { name }

    /// The open stores of `L`'s state, oldest first. Runs no Lua code.
    package static func all(in L: OpaquePointer) -> [LuaStoreBox] {
        LuaStores.of(LuaContext.of(L)).live
    }

    /// The open Store at stack index `index`, if it is one. Never raises.
    package static func at(_ L: OpaquePointer, _ index: Int32) -> LuaStoreBox? {
        guard let box = storeClass.test(L, index), !box.isClosed else { return nil }
        return box
    }

    /// Pushes the store's userdata (the same one Lua code holds) onto `L`.
    package func push(_ L: OpaquePointer) { storeClass.pushCached(L, self) }

    /// The global variables of `L`'s state that hold a store, by store (the first name in
    /// the order `next` gives). Reads `_G` raw: runs no Lua code.
    package static func globalNames(in L: OpaquePointer) -> [ObjectIdentifier: String] {
        var names: [ObjectIdentifier: String] = [:]
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
        lua_pushnil(L)
        while lua_next(L, -2) != 0 {
            if lua_type(L, -2) == LUA_TSTRING, let box = at(L, -1), names[ObjectIdentifier(box)] == nil,
                let key = LuaStack(L).string(at: -2)
            {
                names[ObjectIdentifier(box)] = key
            }
            flua_pop(L, 1)
        }
        flua_pop(L, 1)
        return names
    }

    /// Calls the store from Swift as the bound method `operation` would be called from Lua
    /// on `L` (the state's main thread): callbacks run on `L`, errors are reported under
    /// `operation`. `interaction`: a pointer, tap or connection call, during which handlers
    /// (`onConnect`, double taps, …) may run: as one atomic operation, rolled back when one
    /// of them fails, as `store:pointerUp` does. Returns the error message, nil on success.
    package func hostCall(
        _ L: OpaquePointer, _ operation: String, interaction: Bool = false, _ body: (LuaFlowStore) throws -> Void
    ) -> String? {
        guard !isClosed else { return "\(operation): attempt to use a closed Store" }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        do {
            if interaction {
                try runAtomic(L, operation, callbacks: hasInteractionHandlers) { try body(store) }
            } else {
                try run(L) { try body(store) }
            }
            return nil
        } catch let e as FlowError {
            return e.operation.isEmpty ? "\(operation): \(e.message)" : e.description
        } catch LuaError.valueOnStack {
            // an interrupt raised inside a callback, re-raised here
            return LuaStack(L).string(at: -1) ?? "\(operation): error (a \(LuaStack(L).typeName(at: -1)) value)"
        } catch let e as LuaError {
            _ = LuaErrors.code(for: e, L)
            return LuaStack(L).string(at: -1) ?? "\(operation): error"
        } catch {
            return "\(operation): \(error)"
        }
    }
}
