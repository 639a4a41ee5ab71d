import CLua
import CLuaShims
import FlowCore

// A Node handle (lua-api §2) is a userdata of `nodeClass`: user value 1 is the Store
// userdata, 2 the id (see `LuaHandleClass`). Every field is read from the store at access
// time, looked up by the id's bytes; a Swift string of the id is made only for messages and
// for FlowCore calls that take one.

/// The node the handle at index 1 names, read now, or the error (not a Node, a closed
/// store, a removed node).
@inline(__always)
func liveNode(_ args: LuaArgs) throws(LuaError) -> LuaFlowNode {
    let (h, box) = try nodeClass.checkOwned(args.L, 1)
    guard let n = box._withUnsafeGuaranteedRef({ $0.store.node(utf8: h.key) }) else { throw nodeClass.gone(h) }
    return n
}

/// The store (retained: the method may run Lua code) and the id of the handle at index 1,
/// for the methods that call FlowCore with a `String` id; the error when the node is gone.
func liveNodeID(_ args: LuaArgs) throws(LuaError) -> (LuaStoreBox, String, LuaHandle<LuaStoreBox>) {
    let (h, u) = try nodeClass.checkOwned(args.L, 1)
    let box = u.takeUnretainedValue()
    guard box.store.nodeRef(utf8: h.key) != nil else { throw nodeClass.gone(h) }
    return (box, h.keyString, h)
}

enum LuaNode {
    static func register(_ L: OpaquePointer) {
        var hints: [String: String] = [:]
        for f in ["x", "y", "position"] { hints[f] = "field '\(f)' is read-only (use node:move)" }
        for f in ["width", "height", "size"] { hints[f] = "field '\(f)' is read-only (use node:resize)" }
        for f in ["data", "parentID", "isDraggable", "zIndex", "acceptsChildren", "handles", "shape", "class", "style"] {
            hints[f] = "field '\(f)' is read-only (use node:update)"
        }
        for f in ["id", "isSelected", "isHovered", "isDropTarget", "frame"] { hints[f] = "field '\(f)' is read-only" }
        hints["autoSize"] = "field 'autoSize' is read-only (use node:update{size = \"auto\"} or node:resize)"
        nodeClass.register(L, methods: methods, getters: getters, readOnlyHints: hints, tostring: tostring)
    }

    static let getters: [LuaMethod] = [
        LuaMethod("id", id), LuaMethod("x", x), LuaMethod("y", y), LuaMethod("position", position),
        LuaMethod("width", width), LuaMethod("height", height), LuaMethod("size", size),
        LuaMethod("data", data), LuaMethod("parentID", parentID), LuaMethod("isDraggable", isDraggable),
        LuaMethod("zIndex", zIndex), LuaMethod("acceptsChildren", acceptsChildren),
        LuaMethod("handles", handles), LuaMethod("isSelected", isSelected),
        LuaMethod("isHovered", isHovered), LuaMethod("isDropTarget", isDropTarget), LuaMethod("frame", frame),
        LuaMethod("shape", shape), LuaMethod("class", classes), LuaMethod("style", style),
        LuaMethod("autoSize", autoSize),
    ]

    static let methods: [LuaMethod] = [
        LuaMethod("move", move), LuaMethod("update", update), LuaMethod("resize", resize),
        LuaMethod("remove", remove), LuaMethod("edges", edges), LuaMethod("exists", exists),
        LuaMethod("table", table),
    ]

    // MARK: Fields

    static let id: LuaFunction = { L in
        luaGuarded(L) { a in
            let (h, box) = try nodeClass.checkOwned(a.L, 1)
            guard box._withUnsafeGuaranteedRef({ $0.store.nodeRef(utf8: h.key) }) != nil else { throw nodeClass.gone(h) }
            lua_pushvalue(a.L, h.keyIndex)
            return 1
        }
    }
    static let x: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).position.x); return 1 }
    }
    static let y: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).position.y); return 1 }
    }
    static let position: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).position); return 1 }
    }
    static let width: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).size.width); return 1 }
    }
    static let height: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).size.height); return 1 }
    }
    static let size: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).size); return 1 }
    }
    static let data: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).data); return 1 }
    }
    static let parentID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).parentID); return 1 }
    }
    static let isDraggable: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).isDraggable); return 1 }
    }
    static let zIndex: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).zIndex); return 1 }
    }
    static let acceptsChildren: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).acceptsChildren); return 1 }
    }
    static let handles: LuaFunction = { L in
        luaGuarded(L) { a in
            LuaChanges.push(LuaStack(a.L), handles: try liveNode(a).handles)
            return 1
        }
    }
    static let isSelected: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).isSelected); return 1 }
    }
    static let isHovered: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).isHovered); return 1 }
    }
    static let isDropTarget: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).isDropTarget); return 1 }
    }
    static let frame: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).frame); return 1 }
    }
    /// `node.shape`: its own shape, nil when its classes or the default decide.
    static let shape: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).shape?.rawValue); return 1 }
    }
    /// `node.class`: its classes, a list (empty for none).
    static let classes: LuaFunction = { L in
        luaGuarded(L) { a in
            LuaStyles.push(LuaStack(a.L), classes: try liveNode(a).classes)
            return 1
        }
    }
    /// `node.style`: the properties of its own style (an empty table for none).
    static let style: LuaFunction = { L in
        luaGuarded(L) { a in
            LuaStyles.push(LuaStack(a.L), style: try liveNode(a).style)
            return 1
        }
    }
    static let autoSize: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNode(a).autoSize); return 1 }
    }

    // MARK: Methods

    /// `node:move(x, y)`: straight from the id's bytes to the store (`moveNode(utf8:to:)`).
    static let move: LuaFunction = { L in
        luaGuarded(L) { args in
            let (h, u) = try nodeClass.checkOwned(args.L, 1)
            let box = u.takeUnretainedValue()  // retained: callbacks may close the store
            let p: Point
            do {
                p = try args.point(2).point
            } catch {
                // a removed node is reported before a bad argument, as by the other methods
                guard box.store.nodeRef(utf8: h.key) != nil else { throw nodeClass.gone(h) }
                throw error
            }
            guard let moved = try box.run(args.L, { try box.store.moveNode(utf8: h.key, to: p) }) else {
                throw nodeClass.gone(h)
            }
            args.push(moved)
            return 1
        }
    }

    static let update: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, id, _) = try liveNodeID(args)
            args.push(try FlowStoreBinding.updateNode(args, box, id, at: 2))
            return 1
        }
    }

    static let resize: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, id, _) = try liveNodeID(args)
            args.push(try FlowStoreBinding.resizeNode(args, box, id, at: 2))
            return 1
        }
    }

    static let remove: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, id, _) = try liveNodeID(args)
            try FlowStoreBinding.removeNode(args, box, id)
            args.push(true)
            return 1
        }
    }

    static let edges: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, id, h) = try liveNodeID(args)
            box.pushEdges(args.L, try box.store.edgesForNode(id).map(\.id), store: h.ownerIndex)
            return 1
        }
    }

    /// Never raises for a Node (false once removed or when its store is closed).
    static let exists: LuaFunction = { L in
        luaGuarded(L) { args in
            let h = try nodeClass.check(args.L, 1)
            args.push(h.object?._withUnsafeGuaranteedRef { $0.store.nodeRef(utf8: h.key) != nil } ?? false)
            return 1
        }
    }

    static let table: LuaFunction = { L in
        luaGuarded(L) { args in
            LuaChanges.push(LuaStack(args.L), node: try liveNode(args))
            return 1
        }
    }

    /// `__tostring`: `Node a (50, 100, 120x50)`, or `Node a (removed)` when the node is not
    /// in the store (or the store is closed). Never raises.
    static let tostring: LuaFunction = { L in
        nodeClass.pushDescription(L!) { box, id in
            box.store.node(utf8: id).map { n in
                "\(formatNumber(n.position.x)), \(formatNumber(n.position.y)), \(n.size)"
            }
        }
    }
}
