import CLua
import CLuaShims
import FlowCore

// lua-api §2 (hierarchy).

extension FlowStoreBinding {
    static var hierarchyMethods: [LuaMethod] {
        [
            LuaMethod("setParent", setParent), LuaMethod("setEdgeParent", setEdgeParent),
            LuaMethod("groupSelection", groupSelection), LuaMethod("ungroupNode", ungroupNode),
            LuaMethod("childNodes", childNodes), LuaMethod("childEdges", childEdges),
            LuaMethod("descendantNodeIDs", descendantNodeIDs),
        ]
    }

    static let setParent: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2), parent = try args.optionalID(3)
            args.push(try box.run(args.L) { try box.store.setParent(id, to: parent) })
            return 1
        }
    }

    static let setEdgeParent: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2), parent = try args.optionalID(3)
            args.push(try box.run(args.L) { try box.store.setEdgeParent(id, to: parent) })
            return 1
        }
    }

    static let groupSelection: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            var id: String?, data = JSONValue.null, padding = 24.0, zIndex: Int?
            if let t = try args.optionalTable(2) {
                try t.rejectUnknownKeys(["id", "data", "padding", "zIndex"])
                id = try t.optionalID("id")
                data = try t.json("data") ?? .null
                padding = try t.optionalNumber("padding", default: 24)
                zIndex = try t.optionalInteger("zIndex").map { Int($0) }
            }
            let group = try box.run(args.L) {
                try box.store.groupSelection(id: id, data: data, padding: padding, zIndex: zIndex)
            }
            box.pushNode(args.L, group.id, store: 1)
            return 1
        }
    }

    static let ungroupNode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let id = try args.id(2)
            args.push(try box.run(args.L) { try box.store.ungroupNode(id) })
            return 1
        }
    }

    static let childNodes: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            box.pushNodes(args.L, try box.store.childNodes(of: try args.optionalID(2)).map(\.id), store: 1)
            return 1
        }
    }

    static let childEdges: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            box.pushEdges(args.L, try box.store.childEdges(of: try args.optionalID(2)).map(\.id), store: 1)
            return 1
        }
    }

    static let descendantNodeIDs: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            args.push(strings: try box.store.descendantNodeIDs(of: try args.id(2)))
            return 1
        }
    }
}
