extension FlowStore {
    /// The actions of the journal being committed: per node and edge it touched, its net
    /// change (added, updated, moved or removed); removals first, then additions in store
    /// order, then updates.
    func currentBatch(_ name: String) -> FlowBatch<Data> {
        var nodeOrder: [String] = [], nodeExisted: [String: Bool] = [:], nodeMovedOnly: [String: Bool] = [:]
        var edgeOrder: [String] = [], edgeExisted: [String: Bool] = [:]
        var styles = false
        func touchNode(_ id: String, existed: Bool, move: Bool) {
            if nodeExisted[id] == nil {
                nodeOrder.append(id)
                nodeExisted[id] = existed
                nodeMovedOnly[id] = move
            } else if !move {
                nodeMovedOnly[id] = false
            }
        }
        func touchEdge(_ id: String, existed: Bool) {
            if edgeExisted[id] == nil {
                edgeOrder.append(id)
                edgeExisted[id] = existed
            }
        }
        for entry in log.journal {
            switch entry {
            case .insertNode(let id, _): touchNode(id, existed: false, move: false)
            case .removeNode(let n, _): touchNode(n.id, existed: true, move: false)
            case .replaceNode(_, let new): touchNode(new.id, existed: true, move: false)
            case .moveNode(let key, _):
                if let s = nodeTable.lookup(inline: key) { touchNode(nodeTable.id(slot: s), existed: true, move: true) }
            case .moveNodeByID(let id, _): touchNode(id, existed: true, move: true)
            case .insertEdge(let id, _): touchEdge(id, existed: false)
            case .removeEdge(let e, _): touchEdge(e.id, existed: true)
            case .replaceEdge(_, let new): touchEdge(new.id, existed: true)
            case .selectNode, .selectEdge: break
            case .setClassStyles: styles = true
            }
        }
        var removals: [FlowAction<Data>] = [], additions: [(Int, FlowAction<Data>)] = [], updates: [FlowAction<Data>] = []
        for id in edgeOrder {
            let existed = edgeExisted[id]!  // invariant: touched
            if let slot = edgeTable.slot(of: id) {
                let e = withoutEdgeFlags(edgeTable[slot: slot])
                if existed {
                    updates.append(.updateEdge(e))
                } else {
                    additions.append((edgeTable.seq(slot: slot), .addEdge(e, seq: edgeTable.seq(slot: slot))))
                }
            } else if existed {
                removals.append(.removeEdge(id))
            }
        }
        var nodeAdditions: [(Int, FlowAction<Data>)] = []
        for id in nodeOrder {
            let existed = nodeExisted[id]!  // invariant: touched
            if let slot = nodeTable.slot(of: id) {
                let n = withoutNodeFlags(nodeTable[slot: slot])
                if !existed {
                    nodeAdditions.append((nodeTable.seq(slot: slot), .addNode(n, seq: nodeTable.seq(slot: slot))))
                } else if nodeMovedOnly[id]! {  // invariant: touched
                    updates.insert(.moveNode(id, to: n.position), at: 0)
                } else {
                    updates.insert(.updateNode(n), at: 0)
                }
            } else if existed {
                removals.append(.removeNode(id))
            }
        }
        var actions = removals
        actions += nodeAdditions.sorted { $0.0 < $1.0 }.map(\.1)
        actions += additions.sorted { $0.0 < $1.0 }.map(\.1)
        actions += updates
        if styles { actions.append(.setClasses(classStyles)) }
        return FlowBatch(name: name, actions: actions)
    }

    func withoutNodeFlags(_ n: Node) -> Node {
        var n = n
        n.isSelected = false
        n.isHovered = false
        n.isDropTarget = false
        return n
    }

    func withoutEdgeFlags(_ e: FlowEdge) -> FlowEdge {
        var e = e
        e.isSelected = false
        e.isDropTarget = false
        return e
    }

    /// Hands the committing journal to the recorder. When the recorder refuses it, the
    /// journal is rolled back, the call's events dropped, and the error kept for the call
    /// to throw (`takeWriteFailure`).
    func recordBatch(_ recorder: FlowActionRecorder<Data>, _ name: String) {
        guard log.journal.contains(where: { $0.isDocumentChange }) else { return }
        let batch = currentBatch(name)
        guard !batch.actions.isEmpty, let error = recorder.deliver(batch) else { return }
        refuseCommit(error)
    }

    /// Undoes the committing journal and drops the call's events; the call throws `error`
    /// (`takeWriteFailure`). Nodes whose moves were told as they happened (a drag that
    /// ends here) get a `position` event where they are back.
    func refuseCommit(_ error: FlowError) {
        let told = log.toldMoves
        rollback(to: 0)
        log.dropPending()
        if !told.isEmpty && recordsNodeEvents {
            var seen = Set<String>()
            for (_, id) in told where seen.insert(id).inserted {
                if let n = nodeTable[id] { log.pendingNodeChanges.append(.position(id, n.position)) }
            }
        }
        writeFailure = error
    }

    /// The error of a commit that was refused (by the recorder or the limits), once. A call
    /// throws it itself when its error type can carry it; one whose body throws another
    /// type (`transaction`, `atomically` with a host's error type) leaves it here for the
    /// host to throw after the call (the Lua binding does, after every bound call, so it is
    /// inlinable: one load and a nil test there).
    @inlinable
    public func takeWriteFailure() -> FlowError? {
        guard let e = writeFailure else { return nil }
        writeFailure = nil
        return e
    }
}

extension FlowStore {
    /// The sequence number of node `id`: its place in the store order, as an added
    /// node's action records it (`FlowAction.addNode`). Nil when there is no such node.
    public func sequenceNumber(ofNode id: String) -> Int? { nodeTable.seq(of: id) }

    /// The sequence number of edge `id`.
    public func sequenceNumber(ofEdge id: String) -> Int? { edgeTable.seq(of: id) }
}
