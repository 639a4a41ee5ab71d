import FlowCore

/// What a change batch touches, to tell whether a batch made against an older version
/// still applies after the batches others committed since (docs/collaboration.md,
/// "Rebase"). Two batches conflict when they change the same node or edge, both replace
/// the style sheet, either loads a whole document, or one refers (an edge's end, a
/// node's parent) to a node the other removes.
public struct BatchFootprint {
    var nodes: Set<String> = []
    var edges: Set<String> = []
    var removedNodes: Set<String> = []
    /// Node id -> what refers to it ("edge 'e1'", "node 'c'").
    var references: [String: String] = [:]
    var classes = false
    var load = false

    public init(_ batch: FlowBatch<JSONValue>) {
        for a in batch.actions {
            switch a {
            case .addNode(let n, _), .updateNode(let n):
                nodes.insert(n.id)
                if let p = n.parentID { references[p] = "node '\(n.id)'" }
            case .moveNode(let id, _):
                nodes.insert(id)
            case .removeNode(let id):
                nodes.insert(id)
                removedNodes.insert(id)
            case .addEdge(let e, _), .updateEdge(let e):
                edges.insert(e.id)
                for id in [e.sourceNodeID, e.targetNodeID] + (e.parentID.map { [$0] } ?? []) {
                    references[id] = "edge '\(e.id)'"
                }
            case .removeEdge(let id):
                edges.insert(id)
            case .setClasses:
                classes = true
            case .load:
                load = true
            }
        }
    }

    /// Why `self` (the batch being written) cannot follow `other` (batch `number`, named
    /// `name`, of another session), or nil when it still applies.
    public func conflict(with other: BatchFootprint, number: Int, name: String, of who: String = "another session") -> String? {
        let them = "batch \(number) ('\(name)') of \(who)"
        if other.load { return "\(them) replaced the whole diagram" }
        if load { return "it replaces the whole diagram, which \(them) changed" }
        if classes && other.classes { return "\(them) also changed the style sheet" }
        if let id = nodes.intersection(other.nodes).min() { return "\(them) also changed node '\(id)'" }
        if let id = edges.intersection(other.edges).min() { return "\(them) also changed edge '\(id)'" }
        if let id = Set(references.keys).intersection(other.removedNodes).min() {
            return "\(references[id]!) refers to node '\(id)', which \(them) removed"  // invariant: a key
        }
        if let id = Set(other.references.keys).intersection(removedNodes).min() {
            return "it removes node '\(id)', to which \(them) made \(other.references[id]!) refer"  // invariant: a key
        }
        return nil
    }

    /// Whether the two touch a common node or edge (a batch kept while offline that builds
    /// on one that could not be written cannot be written either).
    public func overlaps(_ other: BatchFootprint) -> Bool {
        !nodes.isDisjoint(with: other.nodes) || !edges.isDisjoint(with: other.edges)
            || !Set(references.keys).isDisjoint(with: other.nodes) || load || other.load
    }
}

extension FlowBatch where Data == JSONValue {
    /// The order numbers of the nodes and edges the batch adds.
    public var addedSeqs: (nodes: [Int], edges: [Int]) {
        var n: [Int] = [], e: [Int] = []
        for a in actions {
            if case .addNode(_, let s) = a { n.append(s) }
            if case .addEdge(_, let s) = a { e.append(s) }
        }
        return (n, e)
    }

    /// The batch with its added nodes' order numbers moved by `nodes` and its edges' by
    /// `edges` (a rebase after others added at the same places).
    public func shiftingSeqs(nodes: Int, edges: Int) -> FlowBatch {
        FlowBatch(
            name: name,
            actions: actions.map { a in
                switch a {
                case .addNode(let n, let s): return .addNode(n, seq: s + nodes)
                case .addEdge(let e, let s): return .addEdge(e, seq: s + edges)
                default: return a
                }
            })
    }
}
