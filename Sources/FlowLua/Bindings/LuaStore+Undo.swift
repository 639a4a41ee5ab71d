import CLua
import CLuaShims
import FlowCore

// lua-api §10: undo, redo, transactions.

extension FlowStoreBinding {
    static var undoMethods: [LuaMethod] {
        [LuaMethod("undo", undo), LuaMethod("redo", redo), LuaMethod("transaction", transaction)]
    }

    static var undoGetters: [LuaMethod] {
        [LuaMethod("canUndo", canUndo), LuaMethod("canRedo", canRedo)]
    }

    static let undo: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.run(args.L) { try box.store.undo() })
            return 1
        }
    }

    static let redo: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.run(args.L) { try box.store.redo() })
            return 1
        }
    }

    /// `store:transaction(fn)`: `fn(store)` runs in protected mode inside the store's
    /// transaction. When it raises, the Swift side throws so the store rolls back, and the
    /// original error value is raised after Swift has returned. Returns what `fn` returns.
    static let transaction: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let L = args.L
            guard lua_type(L, 2) == LUA_TFUNCTION else { throw LuaError.type(2, expected: "function") }
            lua_settop(L, 2)
            return try box.run(L) {
                try box.store.transaction { () throws(LuaError) -> Int32 in
                    lua_pushvalue(L, 2)
                    lua_pushvalue(L, 1)
                    if flua_pcall_swift(L, 1, LUA_MULTRET, 0) != LUA_OK { throw .valueOnStack }
                    return lua_gettop(L) - 2
                }
            }
        }
    }

    static let canUndo: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.canUndo)
            return 1
        }
    }

    static let canRedo: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.canRedo)
            return 1
        }
    }
}
