import CLua
import CLuaShims
import FlowCore

/// A live Node handle (lua-api §2): a store and an id. Every field is read from the store
/// at access time; the userdata keeps the Store userdata alive (user value 1).
final class LuaNodeRef: CustomStringConvertible {
    let box: LuaStoreBox
    let id: String

    init(_ box: LuaStoreBox, _ id: String) {
        self.box = box
        self.id = id
    }

    var description: String {
        guard !box.isClosed, let n = box.store.node(id) else { return "Node \(id) (removed)" }
        return "Node \(id) (\(formatNumber(n.position.x)), \(formatNumber(n.position.y)), \(n.size))"
    }
}

/// The node the handle at index 1 names, or the error for a closed store / removed node.
@inline(__always)
func liveNode(_ ref: LuaNodeRef) throws(LuaError) -> LuaFlowNode {
    if ref.box.isClosed { throw .message("attempt to use a closed Store") }
    guard let n = ref.box.store.node(ref.id) else { throw .message("node '\(ref.id)' no longer exists") }
    return n
}

@inline(__always)
func liveNodeSelf(_ args: LuaArgs) throws(LuaError) -> (LuaNodeRef, LuaFlowNode) {
    let ref = try args.object(1, nodeClass)
    return (ref, try liveNode(ref))
}

enum LuaNode {
    static func register(_ L: OpaquePointer) {
        var hints: [String: String] = [:]
        for f in ["x", "y", "position"] { hints[f] = "field '\(f)' is read-only (use node:move)" }
        for f in ["width", "height", "size"] { hints[f] = "field '\(f)' is read-only (use node:resize)" }
        for f in ["data", "parentID", "isDraggable", "zIndex", "acceptsChildren", "handles"] {
            hints[f] = "field '\(f)' is read-only (use node:update)"
        }
        for f in ["id", "isSelected", "isHovered", "isDropTarget", "frame"] { hints[f] = "field '\(f)' is read-only" }
        nodeClass.register(L, getters: getters, readOnlyHints: hints)
        addMethods(L, registry: "flow.Node", methods)
    }

    static let getters: [LuaMethod] = [
        LuaMethod("id", id), LuaMethod("x", x), LuaMethod("y", y), LuaMethod("position", position),
        LuaMethod("width", width), LuaMethod("height", height), LuaMethod("size", size),
        LuaMethod("data", data), LuaMethod("parentID", parentID), LuaMethod("isDraggable", isDraggable),
        LuaMethod("zIndex", zIndex), LuaMethod("acceptsChildren", acceptsChildren),
        LuaMethod("handles", handles), LuaMethod("isSelected", isSelected),
        LuaMethod("isHovered", isHovered), LuaMethod("isDropTarget", isDropTarget), LuaMethod("frame", frame),
    ]

    static let methods: [LuaMethod] = [
        LuaMethod("move", move), LuaMethod("update", update), LuaMethod("resize", resize),
        LuaMethod("remove", remove), LuaMethod("edges", edges), LuaMethod("exists", exists),
        LuaMethod("table", table),
    ]

    // MARK: Fields

    static let id: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).0.id); return 1 }
    }
    static let x: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.position.x); return 1 }
    }
    static let y: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.position.y); return 1 }
    }
    static let position: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.position); return 1 }
    }
    static let width: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.size.width); return 1 }
    }
    static let height: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.size.height); return 1 }
    }
    static let size: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.size); return 1 }
    }
    static let data: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.data); return 1 }
    }
    static let parentID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.parentID); return 1 }
    }
    static let isDraggable: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.isDraggable); return 1 }
    }
    static let zIndex: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.zIndex); return 1 }
    }
    static let acceptsChildren: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.acceptsChildren); return 1 }
    }
    static let handles: LuaFunction = { L in
        luaGuarded(L) { a in
            LuaChanges.push(LuaStack(a.L), handles: try liveNodeSelf(a).1.handles)
            return 1
        }
    }
    static let isSelected: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.isSelected); return 1 }
    }
    static let isHovered: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.isHovered); return 1 }
    }
    static let isDropTarget: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.isDropTarget); return 1 }
    }
    static let frame: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveNodeSelf(a).1.frame); return 1 }
    }

    // MARK: Methods

    @inline(__always)
    static func selfRef(_ args: LuaArgs) throws -> LuaNodeRef {
        let ref = try fastSelf(args, nodeClass)
        _ = try liveNode(ref)
        return ref
    }

    static let move: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            args.push(try FlowStoreBinding.moveNode(args, ref.box, ref.id, at: 2))
            return 1
        }
    }

    static let update: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            args.push(try FlowStoreBinding.updateNode(args, ref.box, ref.id, at: 2))
            return 1
        }
    }

    static let resize: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            args.push(try FlowStoreBinding.resizeNode(args, ref.box, ref.id, at: 2))
            return 1
        }
    }

    static let remove: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            try FlowStoreBinding.removeNode(args, ref.box, ref.id)
            args.push(true)
            return 1
        }
    }

    static let edges: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            ref.box.pushEdges(args.L, try ref.box.store.edgesForNode(ref.id).map(\.id))
            return 1
        }
    }

    /// Never raises for a Node (false once removed or when its store is closed).
    static let exists: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try fastSelf(args, nodeClass)
            args.push(!ref.box.isClosed && ref.box.store.node(ref.id) != nil)
            return 1
        }
    }

    static let table: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try fastSelf(args, nodeClass)
            LuaChanges.push(LuaStack(args.L), node: try liveNode(ref))
            return 1
        }
    }
}
