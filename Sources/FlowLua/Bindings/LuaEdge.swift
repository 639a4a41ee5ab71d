import CLua
import CLuaShims
import FlowCore

// An Edge handle (lua-api §3) is a userdata of `edgeClass`, like a Node handle: user value 1
// is the Store userdata, 2 the id.

/// The edge the handle at index 1 names, read now, or the error.
@inline(__always)
func liveEdge(_ args: LuaArgs) throws(LuaError) -> FlowEdge {
    let (h, box) = try edgeClass.checkOwned(args.L, 1)
    guard let e = box._withUnsafeGuaranteedRef({ $0.store.edge(utf8: h.key) }) else { throw edgeClass.gone(h) }
    return e
}

/// The store (retained: the method may run Lua code) and the edge the handle at index 1
/// names, or the error.
func liveEdgeBox(_ args: LuaArgs) throws(LuaError) -> (LuaStoreBox, FlowEdge, LuaHandle<LuaStoreBox>) {
    let (h, u) = try edgeClass.checkOwned(args.L, 1)
    let box = u.takeUnretainedValue()
    guard let e = box.store.edge(utf8: h.key) else { throw edgeClass.gone(h) }
    return (box, e, h)
}

enum LuaEdge {
    static func register(_ L: OpaquePointer) {
        var hints: [String: String] = [:]
        for f in ["sourceNodeID", "sourceHandleID", "targetNodeID", "targetHandleID", "pathType", "label", "points", "class", "style"] {
            hints[f] = "field '\(f)' is read-only (use edge:update)"
        }
        hints["parentID"] = "field 'parentID' is read-only (use store:setEdgeParent)"
        hints["isAnimated"] = "field 'isAnimated' is read-only (use store:setEdgeAnimated)"
        for f in ["id", "isSelected", "isDropTarget"] { hints[f] = "field '\(f)' is read-only" }
        edgeClass.register(L, methods: methods, getters: getters, readOnlyHints: hints, tostring: tostring)
    }

    static let getters: [LuaMethod] = [
        LuaMethod("id", id), LuaMethod("sourceNodeID", sourceNodeID),
        LuaMethod("sourceHandleID", sourceHandleID), LuaMethod("targetNodeID", targetNodeID),
        LuaMethod("targetHandleID", targetHandleID), LuaMethod("pathType", pathType),
        LuaMethod("label", label), LuaMethod("points", points), LuaMethod("parentID", parentID),
        LuaMethod("isSelected", isSelected),
        LuaMethod("isAnimated", isAnimated), LuaMethod("isDropTarget", isDropTarget),
        LuaMethod("class", classes), LuaMethod("style", style),
    ]

    /// `edge.class`: its classes, a list (empty for none).
    static let classes: LuaFunction = { L in
        luaGuarded(L) { a in
            LuaStyles.push(LuaStack(a.L), classes: try liveEdge(a).classes)
            return 1
        }
    }
    /// `edge.style`: the properties of its own style (an empty table for none).
    static let style: LuaFunction = { L in
        luaGuarded(L) { a in
            LuaStyles.push(LuaStack(a.L), style: try liveEdge(a).style)
            return 1
        }
    }

    static let methods: [LuaMethod] = [
        LuaMethod("update", update), LuaMethod("remove", remove), LuaMethod("geometry", geometry),
        LuaMethod("exists", exists), LuaMethod("table", table),
    ]

    static let id: LuaFunction = { L in
        luaGuarded(L) { a in
            let (h, box) = try edgeClass.checkOwned(a.L, 1)
            guard box._withUnsafeGuaranteedRef({ $0.store.edge(utf8: h.key) }) != nil else { throw edgeClass.gone(h) }
            lua_pushvalue(a.L, h.keyIndex)
            return 1
        }
    }
    static let sourceNodeID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).sourceNodeID); return 1 }
    }
    static let sourceHandleID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).sourceHandleID); return 1 }
    }
    static let targetNodeID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).targetNodeID); return 1 }
    }
    static let targetHandleID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).targetHandleID); return 1 }
    }
    static let pathType: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).pathType.rawValue); return 1 }
    }
    static let label: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).label); return 1 }
    }
    /// A fresh array of `{x=, y=}` tables on every read (`{}` without bend points).
    static let points: LuaFunction = { L in
        luaGuarded(L) { a in a.push(points: try liveEdge(a).points); return 1 }
    }
    static let parentID: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).parentID); return 1 }
    }
    static let isSelected: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).isSelected); return 1 }
    }
    static let isAnimated: LuaFunction = { L in
        luaGuarded(L) { a in
            let (box, e, _) = try liveEdgeBox(a)
            a.push(box.store.isEdgeAnimated(e.id))
            return 1
        }
    }
    static let isDropTarget: LuaFunction = { L in
        luaGuarded(L) { a in a.push(try liveEdge(a).isDropTarget); return 1 }
    }

    static let update: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, _, h) = try liveEdgeBox(args)
            args.push(try FlowStoreBinding.updateEdge(args, box, h.keyString, at: 2))
            return 1
        }
    }

    static let remove: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, _, h) = try liveEdgeBox(args)
            let id = h.keyString
            try box.run(args.L) { try box.store.removeEdge(id) }
            args.push(true)
            return 1
        }
    }

    static let geometry: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, _, h) = try liveEdgeBox(args)
            FlowStoreBinding.push(args, geometry: try box.store.edgeGeometry(h.keyString))
            return 1
        }
    }

    /// Never raises for an Edge (false once removed or when its store is closed).
    static let exists: LuaFunction = { L in
        luaGuarded(L) { args in
            let h = try edgeClass.check(args.L, 1)
            args.push(h.object?._withUnsafeGuaranteedRef { $0.store.edge(utf8: h.key) != nil } ?? false)
            return 1
        }
    }

    static let table: LuaFunction = { L in
        luaGuarded(L) { args in
            let (box, e, _) = try liveEdgeBox(args)
            LuaChanges.push(LuaStack(args.L), edge: e, animated: box.store.isEdgeAnimated(e.id))
            return 1
        }
    }

    /// `__tostring`: `Edge e1 (a.source -> b.target)`, or `Edge e1 (removed)` when the edge
    /// is not in the store (or the store is closed). Never raises.
    static let tostring: LuaFunction = { L in
        edgeClass.pushDescription(L!) { box, id in box.store.edge(utf8: id).map(EventLines.endpoints) }
    }
}
