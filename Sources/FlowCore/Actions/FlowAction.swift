/// One change to a diagram's document, as a value: what a committed change batch did,
/// stated forwards. A batch (`FlowBatch`) holds the actions of one public call, or of one
/// transaction, undo or redo; applying its actions in order to the document before it
/// gives the document after it (`FlowStore.replay`).
///
/// Added nodes and edges carry their sequence number (their place in the store order), so
/// a replay puts them where they were, also when an undo restored them in the middle.
/// Selection, hover and the viewport are not document changes and have no action.
public enum FlowAction<Data: FlowNodeData>: Equatable {
    case addNode(FlowNode<Data>, seq: Int)
    /// The node's new value (same id); its place in the order is kept.
    case updateNode(FlowNode<Data>)
    /// Only the node's position changed.
    case moveNode(String, to: Point)
    case removeNode(String)
    case addEdge(FlowEdge, seq: Int)
    case updateEdge(FlowEdge)
    case removeEdge(String)
    /// The style sheet was replaced.
    case setClasses([String: FlowClass])
    /// The whole document was replaced (`FlowStore.load`).
    case load(FlowDocument<Data>)

    /// The action's name as written in its JSON form (`"op"`).
    public var op: String {
        switch self {
        case .addNode: return "addNode"
        case .updateNode: return "updateNode"
        case .moveNode: return "moveNode"
        case .removeNode: return "removeNode"
        case .addEdge: return "addEdge"
        case .updateEdge: return "updateEdge"
        case .removeEdge: return "removeEdge"
        case .setClasses: return "setClasses"
        case .load: return "load"
        }
    }
}

/// The actions of one committed change batch, named as its undo step is ("Add", "Move",
/// "Undo Move", a transaction's name).
public struct FlowBatch<Data: FlowNodeData>: Equatable {
    public var name: String
    public var actions: [FlowAction<Data>]

    public init(name: String, actions: [FlowAction<Data>]) {
        self.name = name
        self.actions = actions
    }

    /// A short description: the name and how many nodes and edges were added, changed
    /// and removed ("Add: +1 node").
    public var summary: String {
        var parts: [String] = []
        func count(_ n: Int, _ sign: String, _ what: String) {
            if n > 0 { parts.append("\(sign)\(n) \(what)\(n == 1 ? "" : "s")") }
        }
        var c = [Int](repeating: 0, count: 7)
        for a in actions {
            switch a {
            case .addNode: c[0] += 1
            case .updateNode, .moveNode: c[1] += 1
            case .removeNode: c[2] += 1
            case .addEdge: c[3] += 1
            case .updateEdge: c[4] += 1
            case .removeEdge: c[5] += 1
            case .setClasses, .load: c[6] += 1
            }
        }
        count(c[0], "+", "node"); count(c[1], "~", "node"); count(c[2], "-", "node")
        count(c[3], "+", "edge"); count(c[4], "~", "edge"); count(c[5], "-", "edge")
        for a in actions {
            if case .setClasses = a { parts.append("styles") }
            if case .load(let d) = a { parts.append("load \(d.nodes.count) nodes, \(d.edges.count) edges") }
        }
        return parts.isEmpty ? name : "\(name): \(parts.joined(separator: ", "))"
    }
}

/// Receives the change batches of a store (`FlowStore.actionRecorder`): keeps them as the
/// store's journal when `keepsJournal`, and hands each to `sink` (a workspace writing it
/// to disk) as the batch commits. A sink that returns an error refuses the batch: the
/// store rolls the call back and the call throws that error.
public final class FlowActionRecorder<Data: FlowNodeData> {
    public var keepsJournal: Bool
    public private(set) var journal: [FlowBatch<Data>] = []
    public var sink: ((FlowBatch<Data>) -> FlowError?)?

    public init(keepsJournal: Bool = true, sink: ((FlowBatch<Data>) -> FlowError?)? = nil) {
        self.keepsJournal = keepsJournal
        self.sink = sink
    }

    /// Offers a batch; nil when it was accepted.
    func deliver(_ batch: FlowBatch<Data>) -> FlowError? {
        if let sink, let error = sink(batch) { return error }
        if keepsJournal { journal.append(batch) }
        return nil
    }

    /// Forgets the journal (a load starts a new one).
    public func clearJournal() {
        journal.removeAll()
    }
}
