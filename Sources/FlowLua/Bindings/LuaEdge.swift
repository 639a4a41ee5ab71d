import CLua
import CLuaShims
import FlowCore

/// A live Edge handle (lua-api §3), like `LuaNodeRef`.
final class LuaEdgeRef: CustomStringConvertible {
    let box: LuaStoreBox
    let id: String

    init(_ box: LuaStoreBox, _ id: String) {
        self.box = box
        self.id = id
    }

    var description: String {
        guard !box.isClosed, let e = box.store.edge(id) else { return "Edge \(id) (removed)" }
        return "Edge \(id) (\(EventLines.endpoints(e)))"
    }
}

@inline(__always)
func liveEdge(_ ref: LuaEdgeRef) throws(LuaError) -> FlowEdge {
    if ref.box.isClosed { throw .message("attempt to use a closed Store") }
    guard let e = ref.box.store.edge(ref.id) else { throw .message("edge '\(ref.id)' no longer exists") }
    return e
}

@inline(__always)
func liveEdgeSelf(_ args: LuaArgs) throws(LuaError) -> (LuaEdgeRef, FlowEdge) {
    let ref = try args.object(1, edgeClass)
    return (ref, try liveEdge(ref))
}

enum LuaEdge {
    static func register(_ L: OpaquePointer) {
        var hints: [String: String] = [:]
        for f in ["sourceNodeID", "sourceHandleID", "targetNodeID", "targetHandleID", "pathType", "label"] {
            hints[f] = "field '\(f)' is read-only (use edge:update)"
        }
        hints["parentID"] = "field 'parentID' is read-only (use store:setEdgeParent)"
        hints["isAnimated"] = "field 'isAnimated' is read-only (use store:setEdgeAnimated)"
        for f in ["id", "isSelected", "isDropTarget"] { hints[f] = "field '\(f)' is read-only" }
        edgeClass.register(L, getters: getters, readOnlyHints: hints)
        addMethods(L, registry: "flow.Edge", methods)
    }

    static let getters: [LuaMethod] = [
        LuaMethod("id", id), LuaMethod("sourceNodeID", sourceNodeID),
        LuaMethod("sourceHandleID", sourceHandleID), LuaMethod("targetNodeID", targetNodeID),
        LuaMethod("targetHandleID", targetHandleID), LuaMethod("pathType", pathType),
        LuaMethod("label", label), LuaMethod("parentID", parentID), LuaMethod("isSelected", isSelected),
        LuaMethod("isAnimated", isAnimated), LuaMethod("isDropTarget", isDropTarget),
    ]

    static let methods: [LuaMethod] = [
        LuaMethod("update", update), LuaMethod("remove", remove), LuaMethod("geometry", geometry),
        LuaMethod("exists", exists), LuaMethod("table", table),
    ]

    static let id: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).0.id); return 1 }
    }
    static let sourceNodeID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.sourceNodeID); return 1 }
    }
    static let sourceHandleID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.sourceHandleID); return 1 }
    }
    static let targetNodeID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.targetNodeID); return 1 }
    }
    static let targetHandleID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.targetHandleID); return 1 }
    }
    static let pathType: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.pathType.rawValue); return 1 }
    }
    static let label: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.label); return 1 }
    }
    static let parentID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.parentID); return 1 }
    }
    static let isSelected: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.isSelected); return 1 }
    }
    static let isAnimated: LuaFunction = { L in
        luaGuarded(L) { a in
            let (ref, e) = try liveEdgeSelf(a)
            a.push(ref.box.store.isEdgeAnimated(e.id))
            return 1
        }
    }
    static let isDropTarget: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdgeSelf(a).1.isDropTarget); return 1 }
    }

    @inline(__always)
    static func selfRef(_ args: LuaArgs) throws -> LuaEdgeRef {
        let ref = try fastSelf(args, edgeClass)
        _ = try liveEdge(ref)
        return ref
    }

    static let update: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            args.push(try FlowStoreBinding.updateEdge(args, ref.box, ref.id, at: 2))
            return 1
        }
    }

    static let remove: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            try ref.box.run(args.L) { try ref.box.store.removeEdge(ref.id) }
            args.push(true)
            return 1
        }
    }

    static let geometry: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try selfRef(args)
            FlowStoreBinding.push(args, geometry: try ref.box.store.edgeGeometry(ref.id))
            return 1
        }
    }

    static let exists: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try fastSelf(args, edgeClass)
            args.push(!ref.box.isClosed && ref.box.store.edge(ref.id) != nil)
            return 1
        }
    }

    static let table: LuaFunction = { L in
        luaGuarded(L) { args in
            let ref = try fastSelf(args, edgeClass)
            let e = try liveEdge(ref)
            LuaChanges.push(LuaStack(args.L), edge: e, animated: ref.box.store.isEdgeAnimated(e.id))
            return 1
        }
    }
}
