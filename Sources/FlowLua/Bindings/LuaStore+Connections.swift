import CLua
import CLuaShims
import FlowCore

// lua-api §6: connections.

extension FlowStoreBinding {
    static var connectionMethods: [LuaMethod] {
        [
            LuaMethod("beginConnection", beginConnection), LuaMethod("updateConnection", updateConnection),
            LuaMethod("endConnection", endConnection), LuaMethod("cancelConnection", cancelConnection),
        ]
    }

    static var connectionGetters: [LuaMethod] { [LuaMethod("connectionDraft", connectionDraft)] }

    static func push(_ s: LuaStack, proposal p: ConnectionProposal) {
        lua_createtable(s.L, 0, 4)
        s.push(p.sourceNodeID); s.setField("sourceNodeID")
        if let h = p.sourceHandleID { s.push(h); s.setField("sourceHandleID") }
        s.push(p.targetNodeID); s.setField("targetNodeID")
        if let h = p.targetHandleID { s.push(h); s.setField("targetHandleID") }
    }

    static let beginConnection: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2), handle = try args.optionalID(3)
            try box.run(args.L) { try box.store.interaction.beginConnection(nodeID: id, handleID: handle) }
            args.push(true)
            return 1
        }
    }

    /// Returns whether a target handle is under the point.
    static let updateConnection: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let p = try args.point(2).point
            args.push(try box.store.interaction.updateConnection(to: p) != nil)
            return 1
        }
    }

    static let endConnection: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let node = try args.optionalID(2), handle = try args.optionalID(3)
            args.push(try box.runAtomic(args.L, "endConnection", callbacks: box.hasInteractionHandlers) {
                try box.store.interaction.endConnection(targetNodeID: node, targetHandleID: handle)
            })
            return 1
        }
    }

    static let cancelConnection: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.interaction.cancelConnection())
            return 1
        }
    }

    static let connectionDraft: LuaFunction = { L in
        luaGuarded(L) { args in
            guard let d = try args.object(1, storeClass).store.interaction.connectionDraft else {
                args.pushNil()
                return 1
            }
            args.pushTable(fields: 7)
            args.push(d.sourceNodeID); args.setField("sourceNodeID")
            args.push(d.sourceHandleID); args.setField("sourceHandleID")
            args.push(d.sourceHandleType.rawValue); args.setField("sourceHandleType")
            args.push(d.sourceHandlePosition.rawValue); args.setField("sourceHandlePosition")
            args.push(d.targetNodeID); args.setField("targetNodeID")
            args.push(d.targetHandleID); args.setField("targetHandleID")
            args.push(d.currentPoint); args.setField("currentPoint")
            return 1
        }
    }
}
