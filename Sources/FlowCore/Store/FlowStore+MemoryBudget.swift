/// Memory that several stores, and whatever else a host counts, share: the Lua sandbox's
/// memory cap, which counts the nodes and edges of its stores with the Lua state's own
/// memory. A store with a budget (`FlowStore.memoryBudget`) takes what its nodes and edges
/// hold (an estimate, `FlowStore.heldBytes(of:)`) when a call commits and gives it back
/// when they go; a call that would take more than is left is rolled back and fails.
public protocol MemoryBudget: AnyObject {
    /// Takes `bytes` more and returns true, or returns false and takes nothing when that
    /// would pass the limit; a negative `bytes` gives back (always true).
    func take(_ bytes: Int) -> Bool
    /// The limit, for the error message.
    var limit: Int { get }
}

extension FlowNodeData {
    public var estimatedBytes: Int { MemoryLayout<Self>.stride }
}

extension JSONValue {
    /// Bytes the value holds, roughly: its strings' bytes plus a few words per value.
    public var estimatedBytes: Int {
        switch self {
        case .null, .bool, .number: return 16
        case .string(let s): return 16 + s.utf8.count
        case .array(let a): return a.reduce(32) { $0 + $1.estimatedBytes }
        case .object(let o): return o.reduce(48) { $0 + 24 + $1.key.utf8.count + $1.value.estimatedBytes }
        }
    }
}

extension FlowStore {
    /// Bytes a node holds, roughly: its id, data, classes and handles.
    static func heldBytes(of n: Node) -> Int {
        256 + n.id.utf8.count + n.data.estimatedBytes + n.classes.reduce(0) { $0 + 16 + $1.utf8.count }
            + n.handles.count * 64
    }

    /// Bytes an edge holds, roughly: its ids, label, classes and points.
    static func heldBytes(of e: FlowEdge) -> Int {
        256 + e.id.utf8.count + e.sourceNodeID.utf8.count + e.targetNodeID.utf8.count + (e.label?.utf8.count ?? 0)
            + e.classes.reduce(0) { $0 + 16 + $1.utf8.count } + e.points.count * 16
    }

    /// What the nodes and edges the committing journal touched hold now, less what they
    /// held before it.
    func journalHeldBytes() -> Int {
        var nodesBefore: [String: Int] = [:], edgesBefore: [String: Int] = [:]
        for entry in log.journal {
            switch entry {
            case .insertNode(let id, _): if nodesBefore[id] == nil { nodesBefore[id] = 0 }
            case .removeNode(let n, _): if nodesBefore[n.id] == nil { nodesBefore[n.id] = Self.heldBytes(of: n) }
            case .replaceNode(let old, _): if nodesBefore[old.id] == nil { nodesBefore[old.id] = Self.heldBytes(of: old) }
            case .insertEdge(let id, _): if edgesBefore[id] == nil { edgesBefore[id] = 0 }
            case .removeEdge(let e, _): if edgesBefore[e.id] == nil { edgesBefore[e.id] = Self.heldBytes(of: e) }
            case .replaceEdge(let old, _): if edgesBefore[old.id] == nil { edgesBefore[old.id] = Self.heldBytes(of: old) }
            default: continue
            }
        }
        var delta = 0
        for (id, before) in nodesBefore { delta += (nodeTable[id].map(Self.heldBytes(of:)) ?? 0) - before }
        for (id, before) in edgesBefore { delta += (edgeTable[id].map(Self.heldBytes(of:)) ?? 0) - before }
        return delta
    }

    /// Takes `delta` bytes from the budget (if any), dropping the history first when that
    /// is what it takes; the error to fail with when the budget is spent.
    func takeFromBudget(_ delta: Int) -> FlowError? {
        guard let budget = memoryBudget, delta != 0 else { return nil }
        guard budget.take(delta) || (historyBytes > 0 && { clearHistory(); return budget.take(delta) }()) else {
            return FlowError(
                .invalidState, operation: "",
                message: "the nodes and edges would pass the memory limit of \(budget.limit) bytes; nothing was changed")
        }
        budgetBytes += delta
        return nil
    }

    /// Takes from the budget what the old versions of the committing journal hold (the
    /// history keeps them; a replaced node whose data did not change shares it). The history
    /// keeps at most a quarter of the budget's limit: past that, or when the budget cannot
    /// give it, the history is dropped first (what it took is given back); false: the step
    /// is not kept either. What the history took is given back only when it is cleared, so a
    /// redo log that a new step drops still counts until then.
    func keepsInHistory() -> Bool {
        var bytes = 0
        for entry in log.journal {
            switch entry {
            case .removeNode(let n, _): bytes += Self.heldBytes(of: n)
            case .replaceNode(let old, let new): bytes += old.data == new.data ? 256 : Self.heldBytes(of: old)
            case .removeEdge(let e, _): bytes += Self.heldBytes(of: e)
            case .replaceEdge(let old, let new):
                bytes += old.points == new.points && old.label == new.label ? 256 : Self.heldBytes(of: old)
            default: bytes += 64
            }
        }
        if let budget = memoryBudget, budget.limit > 0, historyBytes + bytes > budget.limit / 4 { clearHistory() }
        guard takeFromBudget(bytes) == nil else { return false }
        historyBytes += bytes
        return true
    }

    /// What `nodes` and `edges` hold together.
    static func heldBytes(_ nodes: [Node], _ edges: [FlowEdge]) -> Int {
        nodes.reduce(0) { $0 + heldBytes(of: $1) } + edges.reduce(0) { $0 + heldBytes(of: $1) }
    }
}
