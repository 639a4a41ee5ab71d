import CLua
import CLuaShims
import FlowCore

/// Plain Lua tables for nodes, edges and change events (lua-api §2, §3, §11). They are
/// built only when a callback wants them.
enum LuaChanges {
    // MARK: Snapshots

    /// `node:table()`: the flat shape `addNode` accepts, plus the flags.
    static func push(_ s: LuaStack, node n: LuaFlowNode) {
        let L = s.L
        lua_createtable(L, 0, 14)
        s.push(n.id); s.setField("id")
        s.push(n.position.x); s.setField("x")
        s.push(n.position.y); s.setField("y")
        s.push(n.size.width); s.setField("width")
        s.push(n.size.height); s.setField("height")
        if n.data != .null { s.push(n.data); s.setField("data") }
        if let p = n.parentID { s.push(p); s.setField("parentID") }
        s.push(n.isDraggable); s.setField("isDraggable")
        s.push(Int(n.zIndex)); s.setField("zIndex")
        s.push(n.acceptsChildren); s.setField("acceptsChildren")
        push(s, handles: n.handles); s.setField("handles")
        if n.hasLook {
            if let v = n.shape { s.push(v.rawValue); s.setField("shape") }
            if !n.classes.isEmpty { LuaStyles.push(s, classes: n.classes); s.setField("class") }
            if !n.style.isEmpty { LuaStyles.push(s, style: n.style); s.setField("style") }
        }
        s.push(n.isSelected); s.setField("isSelected")
        s.push(n.isHovered); s.setField("isHovered")
        s.push(n.isDropTarget); s.setField("isDropTarget")
    }

    static func push(_ s: LuaStack, handles: [HandleDeclaration]) {
        lua_createtable(s.L, Int32(clamping: handles.count), 0)
        for (i, h) in handles.enumerated() {
            lua_createtable(s.L, 0, 5)
            s.push(h.id); s.setField("id")
            s.push(h.type.rawValue); s.setField("type")
            s.push(h.position.rawValue); s.setField("position")
            if h.offset != 0 { s.push(h.offset); s.setField("offset") }
            if let a = h.connectionStartArea { push(s, area: a); s.setField("connectionStartArea") }
            if let a = h.connectionTargetArea { push(s, area: a); s.setField("connectionTargetArea") }
            lua_rawseti(s.L, -2, lua_Integer(i + 1))
        }
    }

    static func push(_ s: LuaStack, area: HandleHitArea) {
        lua_createtable(s.L, 0, 2)
        switch area {
        case .disabled: s.push("disabled"); s.setField("kind")
        case .node: s.push("node"); s.setField("kind")
        case .point(let r):
            s.push("point"); s.setField("kind")
            s.push(r); s.setField("radius")
        case .nodeBorder(let w):
            s.push("nodeBorder"); s.setField("kind")
            s.push(w); s.setField("width")
        }
    }

    /// `edge:table()`: the shape `addEdge` accepts, plus the flags.
    static func push(_ s: LuaStack, edge e: FlowEdge, animated: Bool) {
        lua_createtable(s.L, 0, 12)
        s.push(e.id); s.setField("id")
        s.push(e.sourceNodeID); s.setField("sourceNodeID")
        if let h = e.sourceHandleID { s.push(h); s.setField("sourceHandleID") }
        s.push(e.targetNodeID); s.setField("targetNodeID")
        if let h = e.targetHandleID { s.push(h); s.setField("targetHandleID") }
        s.push(e.pathType.rawValue); s.setField("pathType")
        if let l = e.label { s.push(l); s.setField("label") }
        if let p = e.parentID { s.push(p); s.setField("parentID") }
        if !e.points.isEmpty { s.push(points: e.points); s.setField("points") }
        if e.hasLook {
            if !e.classes.isEmpty { LuaStyles.push(s, classes: e.classes); s.setField("class") }
            if !e.style.isEmpty { LuaStyles.push(s, style: e.style); s.setField("style") }
        }
        s.push(e.isSelected); s.setField("isSelected")
        s.push(animated); s.setField("isAnimated")
        s.push(e.isDropTarget); s.setField("isDropTarget")
    }

    // MARK: Change batches

    static func push(_ s: LuaStack, nodeChanges: [NodeChange<JSONValue>]) {
        let L = s.L
        lua_createtable(L, Int32(clamping: nodeChanges.count), 0)
        for (i, c) in nodeChanges.enumerated() {
            lua_createtable(L, 0, 3)
            switch c {
            case .add(let n):
                s.push("add"); s.setField("type")
                s.push(n.id); s.setField("id")
                push(s, node: n); s.setField("node")
            case .remove(let id):
                s.push("remove"); s.setField("type")
                s.push(id); s.setField("id")
            case .position(let id, let p):
                s.push("position"); s.setField("type")
                s.push(id); s.setField("id")
                s.push(p); s.setField("position")
            case .select(let id, let selected):
                s.push("select"); s.setField("type")
                s.push(id); s.setField("id")
                s.push(selected); s.setField("selected")
            case .dimensions(let id, let size):
                s.push("dimensions"); s.setField("type")
                s.push(id); s.setField("id")
                s.push(size); s.setField("size")
            case .replace(let n):
                s.push("replace"); s.setField("type")
                s.push(n.id); s.setField("id")
                push(s, node: n); s.setField("node")
            }
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    static func push(_ s: LuaStack, edgeChanges: [EdgeChange], store: LuaFlowStore) {
        let L = s.L
        lua_createtable(L, Int32(clamping: edgeChanges.count), 0)
        for (i, c) in edgeChanges.enumerated() {
            lua_createtable(L, 0, 3)
            switch c {
            case .add(let e):
                s.push("add"); s.setField("type")
                s.push(e.id); s.setField("id")
                push(s, edge: e, animated: store.isEdgeAnimated(e.id)); s.setField("edge")
            case .remove(let id):
                s.push("remove"); s.setField("type")
                s.push(id); s.setField("id")
            case .select(let id, let selected):
                s.push("select"); s.setField("type")
                s.push(id); s.setField("id")
                s.push(selected); s.setField("selected")
            case .replace(let e):
                s.push("replace"); s.setField("type")
                s.push(e.id); s.setField("id")
                push(s, edge: e, animated: store.isEdgeAnimated(e.id)); s.setField("edge")
            }
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }
}
