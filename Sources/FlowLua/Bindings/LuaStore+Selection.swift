import CLua
import CLuaShims
import FlowCore

// lua-api §4: selection, focus, hover.

extension FlowStoreBinding {
    static var selectionMethods: [LuaMethod] {
        [
            LuaMethod("selectNode", selectNode), LuaMethod("deselectNode", deselectNode),
            LuaMethod("selectEdge", selectEdge), LuaMethod("deselectEdge", deselectEdge),
            LuaMethod("clearSelection", clearSelection), LuaMethod("selectInRect", selectInRect),
            LuaMethod("deleteSelection", deleteSelection), LuaMethod("focusNode", focusNode),
            LuaMethod("focusEdge", focusEdge), LuaMethod("clearFocus", clearFocus),
            LuaMethod("setHoveredNode", setHoveredNode),
        ]
    }

    static var selectionGetters: [LuaMethod] {
        [
            LuaMethod("selectedNodeIDs", selectedNodeIDs), LuaMethod("selectedEdgeIDs", selectedEdgeIDs),
            LuaMethod("focusedTarget", focusedTarget), LuaMethod("hoveredNodeID", hoveredNodeID),
        ]
    }

    static let selectNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2), exclusive = try args.optionalBoolean(3, default: true)
            args.push(try box.run(args.L) { try box.store.selectNode(id, exclusive: exclusive) })
            return 1
        }
    }

    static let deselectNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            args.push(try box.run(args.L) { try box.store.deselectNode(id) })
            return 1
        }
    }

    static let selectEdge: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2), exclusive = try args.optionalBoolean(3, default: true)
            args.push(try box.run(args.L) { try box.store.selectEdge(id, exclusive: exclusive) })
            return 1
        }
    }

    static let deselectEdge: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            args.push(try box.run(args.L) { try box.store.deselectEdge(id) })
            return 1
        }
    }

    static let clearSelection: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.run(args.L) { box.store.clearSelection() })
            return 1
        }
    }

    static let selectInRect: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let r = try rect(args, 2)
            args.push(try box.run(args.L) { try box.store.selectInRect(r) })
            return 1
        }
    }

    static let deleteSelection: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.run(args.L) { box.store.deleteSelection() })
            return 1
        }
    }

    static let focusNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.focusNode(try args.id(2)))
            return 1
        }
    }

    static let focusEdge: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.focusEdge(try args.id(2)))
            return 1
        }
    }

    static let clearFocus: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.clearFocus())
            return 1
        }
    }

    static let setHoveredNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(try box.store.setHoveredNode(try args.optionalID(2)))
            return 1
        }
    }

    static let selectedNodeIDs: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(strings: try args.object(1, storeClass).store.selectedNodeIDs)
            return 1
        }
    }

    static let selectedEdgeIDs: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(strings: try args.object(1, storeClass).store.selectedEdgeIDs)
            return 1
        }
    }

    static let focusedTarget: LuaFunction = { L in
        luaGuarded(L) { args in
            switch try args.object(1, storeClass).store.focusedTarget {
            case .node(let id)?: pushKind(args, "node", id)
            case .edge(let id)?: pushKind(args, "edge", id)
            case nil: args.pushNil()
            }
            return 1
        }
    }

    /// Pushes `{kind=, id=}`.
    static func pushKind(_ args: LuaArgs, _ kind: String, _ id: String?) {
        args.pushTable(fields: 2)
        args.push(kind); args.setField("kind")
        if let id { args.push(id); args.setField("id") }
    }

    static let hoveredNodeID: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.hoveredNodeID)
            return 1
        }
    }
}
