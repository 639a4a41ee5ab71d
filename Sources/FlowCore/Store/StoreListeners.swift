/// Who receives a store's changes: the callbacks a host sets and the observers it adds.
/// Owned by `FlowStore` (`listeners`). The store queues change batches in its operation log
/// only while someone listens (`recordsNodeEvents`), and hands them over when a top-level
/// operation ends (`FlowStore.deliverEvents()`).
struct StoreListeners<Data: FlowNodeData> {
    typealias NodeObserver = ([NodeChange<Data>], [String: FlowNode<Data>]) -> Void
    typealias EdgeObserver = ([EdgeChange], [String: FlowEdge]) -> Void

    var onNodesChange: (([NodeChange<Data>]) -> Void)?
    var onEdgesChange: (([EdgeChange]) -> Void)?
    var onConnect: ((ConnectionProposal) -> Void)?
    var connectionValidator: ((ConnectionProposal) -> Bool)?
    var onConnectionRejected: ((ConnectionProposal) -> Void)?
    var onNodeSlotFreed: ((Int32) -> Void)?
    var onEdgeSlotFreed: ((Int32) -> Void)?
    private(set) var observers: [(id: Int, nodes: NodeObserver, edges: EdgeObserver)] = []
    /// Observers that receive a call's node and edge batches together.
    private(set) var batchObservers: [(id: Int, body: ([NodeChange<Data>], [EdgeChange]) -> Void)] = []
    /// Whether an observer wants the values before replacements: then the log keeps them
    /// (`OperationLog.replacedNodes`).
    private(set) var wantPrevious = false
    private var nextObserverID = 1

    /// Whether node changes are queued for delivery: only while someone listens.
    @inline(__always)
    var recordsNodeEvents: Bool { onNodesChange != nil || !observers.isEmpty || !batchObservers.isEmpty }

    /// Whether edge changes are queued for delivery.
    @inline(__always)
    var recordsEdgeEvents: Bool { onEdgesChange != nil || !observers.isEmpty || !batchObservers.isEmpty }

    /// Adds an observer of node and edge batches; returns its token.
    mutating func add(nodes: @escaping NodeObserver, edges: @escaping EdgeObserver, wantsPrevious: Bool) -> Int {
        defer { nextObserverID += 1 }
        observers.append((nextObserverID, nodes, edges))
        if wantsPrevious { wantPrevious = true }
        return nextObserverID
    }

    /// Adds an observer of both batches of a delivery together; returns its token.
    mutating func addBatch(_ body: @escaping ([NodeChange<Data>], [EdgeChange]) -> Void) -> Int {
        defer { nextObserverID += 1 }
        batchObservers.append((nextObserverID, body))
        return nextObserverID
    }

    /// Removes the observer with `token`.
    mutating func remove(_ token: Int) {
        observers.removeAll { $0.id == token }
        batchObservers.removeAll { $0.id == token }
    }
}
