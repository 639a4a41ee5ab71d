import CLua
import CLuaShims
import FlowCore

// lua-api §8: drop targets.

extension FlowStoreBinding {
    static var dropTargetMethods: [LuaMethod] {
        [
            LuaMethod("dragOver", dragOver), LuaMethod("drop", drop), LuaMethod("dragExit", dragExit),
            LuaMethod("setDropTargetNode", setDropTargetNode), LuaMethod("setDropTargetEdge", setDropTargetEdge),
        ]
    }

    static var dropTargetGetters: [LuaMethod] {
        [LuaMethod("dropTargetNodeID", dropTargetNodeID), LuaMethod("dropTargetEdgeID", dropTargetEdgeID)]
    }

    /// Calls `onDrop(phase, event)`; the payload (registry ref) is passed as the same value.
    static func callOnDrop(_ box: LuaStoreBox, _ phase: String, _ event: DropEvent?, payload: Int32) -> Bool {
        var accepted = false
        let ok = box.invoke(box.onDrop, results: 1) { s in
            s.push(phase)
            guard let event else {
                s.pushNil()
                return 2
            }
            lua_createtable(s.L, 0, 4)
            s.push(event.canvasPoint.x); s.setField("x")
            s.push(event.canvasPoint.y); s.setField("y")
            switch event.target {
            case .node(let id): pushKind(LuaArgs(s.L), "node", id)
            case .edge(let id): pushKind(LuaArgs(s.L), "edge", id)
            case .canvas: pushKind(LuaArgs(s.L), "canvas", nil)
            }
            s.setField("target")
            lua_rawgeti(s.L, FLUA_REGISTRYINDEX, lua_Integer(payload))
            s.setField("payload")
            return 2
        }
        if ok {
            accepted = lua_toboolean(box.L, -1) != 0
            flua_pop(box.L, 1)
        }
        return accepted
    }

    static func dragOrDrop(_ args: LuaArgs, drop: Bool) throws -> Bool {
        let box = try storeSelf(args)
        let (p, next) = try args.point(2)
        let L = args.L
        lua_pushvalue(L, next)
        let payload = luaL_ref(L, FLUA_REGISTRYINDEX)
        defer { luaL_unref(L, FLUA_REGISTRYINDEX, payload) }
        let handled = box.onDrop != nil
        return try box.runAtomic(L, drop ? "drop" : "dragOver", callbacks: handled) {
            if drop {
                return try box.store.interaction.drop(at: p) { e in handled && callOnDrop(box, "performed", e, payload: payload) }
            }
            return try box.store.interaction.dragOver(at: p) { e in handled && callOnDrop(box, "updated", e, payload: payload) }
        }
    }

    static let dragOver: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try dragOrDrop(args, drop: false))
            return 1
        }
    }

    static let drop: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try dragOrDrop(args, drop: true))
            return 1
        }
    }

    static let dragExit: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            try box.runAtomic(args.L, "dragExit", callbacks: box.onDrop != nil) {
                box.store.interaction.dragExit {
                    if box.onDrop != nil { _ = callOnDrop(box, "exited", nil, payload: LUA_REFNIL) }
                }
            }
            args.push(true)
            return 1
        }
    }

    static let setDropTargetNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.setDropTargetNode(try args.optionalID(2)))
            return 1
        }
    }

    static let setDropTargetEdge: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.setDropTargetEdge(try args.optionalID(2)))
            return 1
        }
    }

    static let dropTargetNodeID: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.dropTargetNodeID)
            return 1
        }
    }

    static let dropTargetEdgeID: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.dropTargetEdgeID)
            return 1
        }
    }
}
