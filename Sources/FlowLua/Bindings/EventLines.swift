import FlowCore

/// The event lines flowrepl prints (lua-api §13; the format is in docs/events.md): one line
/// per change, starting with the kind of change and the id.
enum EventLines {
    /// `a.source -> b.target`, or `a -> b` without handle ids.
    static func endpoints(_ e: FlowEdge) -> String {
        let s = e.sourceHandleID.map { "\(e.sourceNodeID).\($0)" } ?? e.sourceNodeID
        let t = e.targetHandleID.map { "\(e.targetNodeID).\($0)" } ?? e.targetNodeID
        return "\(s) -> \(t)"
    }

    /// A string value, quoted with Lua's escapes for `"`, `\` and control characters.
    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7f { out += "\\\(u.value)" } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    static func optional(_ s: String?) -> String { s.map(quote) ?? "nil" }

    static func json(_ v: JSONValue) -> String {
        v == .null ? "nil" : v.serialized(pretty: false, sortedKeys: true)
    }

    /// Bend points as `[(x, y), …]` (`[]` for none).
    static func points(_ ps: [Point]) -> String {
        "[" + ps.map(\.description).joined(separator: ", ") + "]"
    }

    static func handles(_ hs: [HandleDeclaration]) -> String {
        "[" + hs.map { "\($0.id):\($0.type.rawValue):\($0.position.rawValue)" }.joined(separator: ", ") + "]"
    }

    /// `key value` pairs for the fields that differ between two versions of a node.
    static func nodeDiff(_ old: LuaFlowNode?, _ n: LuaFlowNode) -> String {
        var parts: [String] = []
        if old?.position != n.position { parts.append("position \(n.position)") }
        if old?.size != n.size { parts.append("size \(n.size)") }
        if old?.data != n.data { parts.append("data \(json(n.data))") }
        if old?.isDraggable != n.isDraggable { parts.append("isDraggable \(n.isDraggable)") }
        if old?.zIndex != n.zIndex { parts.append("zIndex \(n.zIndex)") }
        if old?.parentID != n.parentID { parts.append("parentID \(optional(n.parentID))") }
        if old?.acceptsChildren != n.acceptsChildren { parts.append("acceptsChildren \(n.acceptsChildren)") }
        if old?.handles != n.handles { parts.append("handles \(handles(n.handles))") }
        if let o = old, o.autoSize != n.autoSize { parts.append("autoSize \(n.autoSize)") }
        if n.hasLook || old?.hasLook == true {
            parts += LuaStyles.diff(
                shape: n.shape, classes: n.classes, style: n.style, old: old.map { ($0.shape, $0.classes, $0.style) })
        }
        return parts.joined(separator: " ")
    }

    static func edgeDiff(_ old: FlowEdge?, _ e: FlowEdge) -> String {
        var parts: [String] = []
        if old?.sourceNodeID != e.sourceNodeID { parts.append("sourceNodeID \(quote(e.sourceNodeID))") }
        if old?.sourceHandleID != e.sourceHandleID { parts.append("sourceHandleID \(optional(e.sourceHandleID))") }
        if old?.targetNodeID != e.targetNodeID { parts.append("targetNodeID \(quote(e.targetNodeID))") }
        if old?.targetHandleID != e.targetHandleID { parts.append("targetHandleID \(optional(e.targetHandleID))") }
        if old?.pathType != e.pathType { parts.append("pathType \(quote(e.pathType.rawValue))") }
        if old?.label != e.label { parts.append("label \(optional(e.label))") }
        if old?.parentID != e.parentID { parts.append("parentID \(optional(e.parentID))") }
        if (old?.points ?? []) != e.points { parts.append("points \(points(e.points))") }
        if e.hasLook || old?.hasLook == true {
            parts += LuaStyles.diff(shape: nil, classes: e.classes, style: e.style, old: old.map { (nil, $0.classes, $0.style) })
        }
        return parts.joined(separator: " ")
    }

    static func line(_ head: String, _ rest: String) -> String { rest.isEmpty ? head : "\(head) \(rest)" }

    static func printNodeChanges(
        _ changes: [NodeChange<JSONValue>], previous: [String: LuaFlowNode], to context: LuaContext
    ) {
        var previous = previous
        for c in changes {
            switch c {
            case .add(let n):
                var extra = ""
                if let p = n.parentID { extra = " parentID \(quote(p))" }
                if n.hasLook {
                    extra += LuaStyles.diff(shape: n.shape, classes: n.classes, style: n.style, old: nil).map { " " + $0 }.joined()
                }
                context.emitEvent("node+ \(n.id) \(n.position) \(n.size)\(extra)")
            case .remove(let id):
                context.emitEvent("node- \(id)")
            case .position(let id, let p):
                if var o = previous[id] {
                    o.position = p
                    previous[id] = o
                }
                context.emitEvent("node~ \(id) position \(p)")
            case .dimensions(let id, let s):
                if var o = previous[id] {
                    o.size = s
                    previous[id] = o
                }
                context.emitEvent("node~ \(id) size \(s)")
            case .select(let id, let selected):
                context.emitEvent("node* \(id) \(selected ? "selected" : "deselected")")
            case .replace(let n):
                let diff = nodeDiff(previous[n.id], n)
                previous[n.id] = n
                context.emitEvent(line("node~ \(n.id)", diff))
            }
        }
    }

    static func printEdgeChanges(
        _ changes: [EdgeChange], previous: [String: FlowEdge], to context: LuaContext
    ) {
        var previous = previous
        for c in changes {
            switch c {
            case .add(let e):
                var extra = ""
                if let l = e.label { extra += " label \(quote(l))" }
                if let p = e.parentID { extra += " parentID \(quote(p))" }
                if !e.points.isEmpty { extra += " points \(points(e.points))" }
                if e.hasLook {
                    extra += LuaStyles.diff(shape: nil, classes: e.classes, style: e.style, old: nil).map { " " + $0 }.joined()
                }
                context.emitEvent("edge+ \(e.id) \(endpoints(e))\(extra)")
            case .remove(let id):
                context.emitEvent("edge- \(id)")
            case .select(let id, let selected):
                context.emitEvent("edge* \(id) \(selected ? "selected" : "deselected")")
            case .replace(let e):
                let diff = edgeDiff(previous[e.id], e)
                previous[e.id] = e
                context.emitEvent(line("edge~ \(e.id)", diff))
            }
        }
    }
}
