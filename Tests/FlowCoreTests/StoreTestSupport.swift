@testable import FlowCore

typealias Store = FlowStore<JSONValue>

/// Records every delivered batch as text lines, one batch per element.
final class EventLog {
    var batches: [String] = []

    init(_ store: Store) {
        store.onNodesChange = { [unowned self] changes in
            batches.append("N[" + changes.map(Self.describe).joined(separator: ", ") + "]")
        }
        store.onEdgesChange = { [unowned self] changes in
            batches.append("E[" + changes.map(Self.describe).joined(separator: ", ") + "]")
        }
    }

    static func describe(_ c: NodeChange<JSONValue>) -> String {
        switch c {
        case .add(let n): return "add(\(n.id))"
        case .remove(let id): return "remove(\(id))"
        case .position(let id, let p): return "position(\(id) \(p))"
        case .select(let id, let s): return "select(\(id),\(s))"
        case .dimensions(let id, let s): return "dimensions(\(id) \(s))"
        case .replace(let n): return "replace(\(n.id))"
        }
    }

    static func describe(_ c: EdgeChange) -> String {
        switch c {
        case .add(let e): return "add(\(e.id))"
        case .remove(let id): return "remove(\(id))"
        case .select(let id, let s): return "select(\(id),\(s))"
        case .replace(let e): return "replace(\(e.id))"
        }
    }

    /// Returns the batches recorded since the last call.
    func take() -> [String] {
        defer { batches = [] }
        return batches
    }
}

func node(
    _ id: String, _ x: Double = 0, _ y: Double = 0, _ w: Double = 150, _ h: Double = 60,
    parent: String? = nil, container: Bool = false, z: Int = 0,
    handles: [HandleDeclaration] = HandleDeclaration.defaults
) -> FlowNode<JSONValue> {
    FlowNode(
        id: id, position: Point(x, y), size: Size(w, h), data: .string(id), parentID: parent,
        acceptsChildren: container, zIndex: z, handles: handles)
}

func edge(_ id: String, _ s: String, _ t: String, parent: String? = nil) -> FlowEdge {
    FlowEdge(id: id, sourceNodeID: s, targetNodeID: t, parentID: parent)
}

/// A comparable picture of everything undo must restore.
struct StoreState: Equatable {
    var nodes: [FlowNode<JSONValue>]
    var edges: [FlowEdge]
    var selectedNodes: [String]
    var selectedEdges: [String]

    init(_ s: Store) {
        nodes = s.nodes
        edges = s.edges
        selectedNodes = s.selectedNodeIDs
        selectedEdges = s.selectedEdgeIDs
    }
}
