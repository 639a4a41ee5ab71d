extension FlowStore {
    /// Applies change batches (a journal, or a workspace's history) as one undo step named
    /// "Replay": all of them or, when one action does not fit the store, none (the error
    /// names the batch, the action and what was wrong). Added nodes and edges take their
    /// recorded places in the store order.
    public func replay(_ batches: [FlowBatch<Data>]) throws(FlowError) {
        let op = "replay"
        guard log.depth == 0 else { throw .invalidState(op, "cannot replay inside an operation or transaction") }
        try perform("Replay") { () throws(FlowError) in
            var context = ReplayContext()
            for (b, batch) in batches.enumerated() {
                for (a, action) in batch.actions.enumerated() {
                    do throws(FlowError) {
                        try apply(action, &context)
                    } catch {
                        throw FlowError(
                            error.code, operation: op,
                            message: "batch \(b + 1), action \(a + 1) (\(action.op)): \(error.message)")
                    }
                }
            }
            // items added at recorded places behind compacted tombstones were appended out
            // of order (OrderedTable): put them in place once
            settleOrder()
            try checkReplayed(context)
        }
    }

    /// What a replay touched, for the checks at its end.
    struct ReplayContext {
        var nodes: [String] = []
        var liveNodeSeqs: Set<Int>?
        var liveEdgeSeqs: Set<Int>?
    }

    private func apply(_ action: FlowAction<Data>, _ c: inout ReplayContext) throws(FlowError) {
        let op = "replay"
        switch action {
        case .addNode(let n, let seq):
            if n.id.isEmpty { throw .invalidValue(op, "node id must not be empty") }
            if nodeTable.contains(n.id) { throw .duplicateNode(op, n.id) }
            try validateFields(n, op)
            try requireFreeSeq(seq, nodes: true, &c)
            pInsertNode(withoutNodeFlags(n), seq: seq)
            c.nodes.append(n.id)
        case .updateNode(let n):
            guard nodeTable.contains(n.id) else { throw .unknownNode(op, n.id) }
            try validateFields(n, op)
            pReplaceNode(n, event: .replace)
            c.nodes.append(n.id)
        case .moveNode(let id, let p):
            guard let slot = nodeTable.slot(of: id) else { throw .unknownNode(op, id) }
            try requireFinite(p, op, "position")
            pMoveNode(slot, to: p, emit: true)
        case .removeNode(let id):
            guard let seq = nodeTable.seq(of: id) else { throw .unknownNode(op, id) }
            pRemoveNode(id)
            c.liveNodeSeqs?.remove(seq)
        case .addEdge(let e, let seq):
            if e.id.isEmpty { throw .invalidValue(op, "edge id must not be empty") }
            if edgeTable.contains(e.id) { throw .duplicateEdge(op, e.id) }
            if e.look != nil { try validateLook(e, op) }
            try Self.validatePoints(e.points, op, edge: e.id)
            try requireFreeSeq(seq, nodes: false, &c)
            pInsertEdge(e, seq: seq)
        case .updateEdge(let e):
            guard edgeTable.contains(e.id) else { throw .unknownEdge(op, e.id) }
            if e.look != nil { try validateLook(e, op) }
            try Self.validatePoints(e.points, op, edge: e.id)
            pReplaceEdge(e)
        case .removeEdge(let id):
            guard let seq = edgeTable.seq(of: id) else { throw .unknownEdge(op, id) }
            pRemoveEdge(id)
            c.liveEdgeSeqs?.remove(seq)
        case .setClasses(let sheet):
            for name in sheet.keys.sorted() {
                try FlowClass.validateName(name, op, "classes")
                try sheet[name]!.style.validate(op, "classes.\(name)")  // invariant: a key
            }
            if sheet != classStyles { pSetClassStyles(sheet) }
        case .load(let doc):
            settleOrder()  // the loops below walk the store order
            for e in edges { pRemoveEdge(e.id) }
            for n in nodes.reversed() { pRemoveNode(n.id) }
            c.liveNodeSeqs = []
            c.liveEdgeSeqs = []
            for (i, n) in doc.nodes.enumerated() { try apply(.addNode(n, seq: i), &c) }
            for (i, e) in doc.edges.enumerated() { try apply(.addEdge(e, seq: i), &c) }
            if doc.classes != classStyles { try apply(.setClasses(doc.classes), &c) }
            viewport = doc.viewport
            diagramLook = doc.look
        }
    }

    /// A recorded sequence number must not be one a live node (or edge) has.
    private func requireFreeSeq(_ seq: Int, nodes: Bool, _ c: inout ReplayContext) throws(FlowError) {
        guard seq >= 0 else { throw .invalidValue("replay", "seq must not be negative (got \(seq))") }
        if seq >= (nodes ? nodeTable.nextSeq : edgeTable.nextSeq) {
            if nodes { c.liveNodeSeqs?.insert(seq) } else { c.liveEdgeSeqs?.insert(seq) }
            return
        }
        if nodes {
            if c.liveNodeSeqs == nil { c.liveNodeSeqs = Set(self.nodes.compactMap { nodeTable.seq(of: $0.id) }) }
            guard c.liveNodeSeqs!.insert(seq).inserted else { throw .invalidValue("replay", "seq \(seq) is taken") }  // invariant: set above
        } else {
            if c.liveEdgeSeqs == nil { c.liveEdgeSeqs = Set(edges.compactMap { edgeTable.seq(of: $0.id) }) }
            guard c.liveEdgeSeqs!.insert(seq).inserted else { throw .invalidValue("replay", "seq \(seq) is taken") }  // invariant: set above
        }
    }

    /// The store after the actions must be one a store can hold: no edge or child naming a
    /// missing node, valid parents, edges on declared handles.
    private func checkReplayed(_ c: ReplayContext) throws(FlowError) {
        let op = "replay"
        if let (id, links) = parkedLinks.min(by: { $0.key < $1.key }) {
            let what = links.edges.isEmpty ? "children" : "edges"
            throw FlowError(.missingEndpoint, operation: op, message: "node '\(id)' does not exist but has \(what)")
        }
        for id in c.nodes {
            guard let n = nodeTable[id] else { continue }
            if let p = n.parentID { try validateParent(p, for: id, op) }
            try validateStillValid(n, op)
        }
    }
}
