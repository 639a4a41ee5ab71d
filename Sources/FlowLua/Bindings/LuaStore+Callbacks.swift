import CLua
import CLuaShims
import FlowCore

// The callback fields of a Store (lua-api §2, §6–§9, §11): a function or nil; the old
// function is released on reassignment and when the store is closed or collected.

typealias CallbackPath = ReferenceWritableKeyPath<LuaStoreBox, LuaCallback?>

extension FlowStoreBinding {
    static func getCallback(_ L: OpaquePointer?, _ path: CallbackPath) -> Int32 {
        luaGuarded(L) { args in
            let box = try args.object(1, storeClass)
            if let cb = box[keyPath: path] { cb.push(args.L) } else { args.pushNil() }
            return 1
        }
    }

    static func setCallback(_ L: OpaquePointer?, _ path: CallbackPath, _ name: String) -> Int32 {
        luaGuarded(L) { args in
            let box = try args.object(1, storeClass)
            let cb = try args.assigned(name) { try args.optionalCallback(2, label: name) }
            box[keyPath: path]?.release()
            box[keyPath: path] = cb
            box.wireCallbacks()
            return 0
        }
    }

    static let callbackGetters: [LuaMethod] = [
        LuaMethod("onNodesChange", { L in getCallback(L, \.onNodesChange) }),
        LuaMethod("onEdgesChange", { L in getCallback(L, \.onEdgesChange) }),
        LuaMethod("onConnect", { L in getCallback(L, \.onConnect) }),
        LuaMethod("connectionValidator", { L in getCallback(L, \.connectionValidator) }),
        LuaMethod("onConnectionRejected", { L in getCallback(L, \.onConnectionRejected) }),
        LuaMethod("onNodeDoubleTap", { L in getCallback(L, \.onNodeDoubleTap) }),
        LuaMethod("onEdgeDoubleTap", { L in getCallback(L, \.onEdgeDoubleTap) }),
        LuaMethod("onCanvasDoubleTap", { L in getCallback(L, \.onCanvasDoubleTap) }),
        LuaMethod("onDrop", { L in getCallback(L, \.onDrop) }),
        LuaMethod("nodeAccessoryPlacement", { L in getCallback(L, \.nodeAccessoryPlacement) }),
    ]

    static let callbackSetters: [LuaMethod] = [
        LuaMethod("onNodesChange", { L in setCallback(L, \.onNodesChange, "onNodesChange") }),
        LuaMethod("onEdgesChange", { L in setCallback(L, \.onEdgesChange, "onEdgesChange") }),
        LuaMethod("onConnect", { L in setCallback(L, \.onConnect, "onConnect") }),
        LuaMethod("connectionValidator", { L in setCallback(L, \.connectionValidator, "connectionValidator") }),
        LuaMethod("onConnectionRejected", { L in setCallback(L, \.onConnectionRejected, "onConnectionRejected") }),
        LuaMethod("onNodeDoubleTap", { L in setCallback(L, \.onNodeDoubleTap, "onNodeDoubleTap") }),
        LuaMethod("onEdgeDoubleTap", { L in setCallback(L, \.onEdgeDoubleTap, "onEdgeDoubleTap") }),
        LuaMethod("onCanvasDoubleTap", { L in setCallback(L, \.onCanvasDoubleTap, "onCanvasDoubleTap") }),
        LuaMethod("onDrop", { L in setCallback(L, \.onDrop, "onDrop") }),
        LuaMethod("nodeAccessoryPlacement", { L in setCallback(L, \.nodeAccessoryPlacement, "nodeAccessoryPlacement") }),
    ]
}

extension LuaStoreBox {
    /// Points the store's Swift callbacks at the Lua ones that are set.
    func wireCallbacks() {
        let listens = onNodesChange != nil || onEdgesChange != nil
        if listens && changeObserver == nil {
            // After the REPL's event printer, which was registered when the store was made.
            changeObserver = store.addObserver(
                nodes: { [weak self] changes in self?.deliverNodeChanges(changes) },
                edges: { [weak self] changes in self?.deliverEdgeChanges(changes) })
        } else if !listens, let token = changeObserver {
            store.removeObserver(token)
            changeObserver = nil
        }
        store.onConnect = onConnect == nil ? nil : { [weak self] p in
            guard let self else { return }
            self.invoke(self.onConnect) { s in FlowStoreBinding.push(s, proposal: p); return 1 }
        }
        store.connectionValidator = connectionValidator == nil ? nil : { [weak self] p in
            guard let self else { return false }
            guard self.invoke(self.connectionValidator, results: 1, { s in FlowStoreBinding.push(s, proposal: p); return 1 })
            else { return false }
            let ok = lua_toboolean(self.L, -1) != 0
            flua_pop(self.L, 1)
            return ok
        }
        store.onConnectionRejected = onConnectionRejected == nil ? nil : { [weak self] p in
            guard let self else { return }
            self.invoke(self.onConnectionRejected) { s in FlowStoreBinding.push(s, proposal: p); return 1 }
        }
        store.interaction.onNodeDoubleTap = onNodeDoubleTap == nil ? nil : { [weak self] id in
            guard let self else { return }
            self.invoke(self.onNodeDoubleTap) { s in s.push(id); return 1 }
        }
        store.interaction.onEdgeDoubleTap = onEdgeDoubleTap == nil ? nil : { [weak self] id in
            guard let self else { return }
            self.invoke(self.onEdgeDoubleTap) { s in s.push(id); return 1 }
        }
        store.interaction.onCanvasDoubleTap = onCanvasDoubleTap == nil ? nil : { [weak self] p in
            guard let self else { return }
            self.invoke(self.onCanvasDoubleTap) { s in s.push(p); return 1 }
        }
        store.interaction.nodeAccessoryPlacement = nodeAccessoryPlacement == nil ? nil : { [weak self] n in
            guard let self else { return nil }
            guard self.invoke(self.nodeAccessoryPlacement, results: 1, { s in
                storeClass.pushCached(s.L, self)  // the Store userdata the handle keeps
                self.pushNode(s.L, n.id, store: -1)
                flua_remove(s.L, -2)
                return 1
            })
            else { return nil }
            let L = self.L
            defer { flua_pop(L, 1) }
            if lua_type(L, -1) == LUA_TSTRING, let s = LuaStack(L).string(at: -1),
                let p = AccessoryPlacement(rawValue: s)
            {
                return p
            }
            let got = lua_type(L, -1) == LUA_TSTRING
                ? "'\(LuaStack(L).string(at: -1) ?? "")'" : LuaStack(L).typeName(at: -1)
            self.context.reportError(
                "error in nodeAccessoryPlacement: invalid placement \(got) (expected one of: top, bottom, leading, trailing); using top")
            return nil
        }
    }
}
