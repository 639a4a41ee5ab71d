extension FlowStore {
    /// The id `addNode` would generate: the smallest `"n<k>"` (k ≥ 1) not in use.
    @_specialize(exported: true, where Data == JSONValue)
    public func nextNodeID() -> String {
        nodeIDs.next { nodeTable.contains($0) || $0.isEmpty }
    }

    /// Adds a node at the end of the store order. Throws when the id is taken, the parent is
    /// invalid, or a field is invalid. Undo step "Add"; event `add`.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func addNode(_ node: Node) throws(FlowError) -> Node {
        try add(node)
        return withFlags(node)
    }

    /// `addNode(_:)` without handing the node back: the node is moved into the store, not
    /// copied (for callers that do not need it back, like the Lua binding). Returns the
    /// node's slot (see `nodeSlot(_:)`).
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func add(_ node: consuming Node) throws(FlowError) -> Int32 {
        let key = try checkNew(&node, "addNode")
        // Everything is checked: the insertion cannot fail. A quiet call (nobody listens,
        // nothing nested) opens no operation: its one entry goes straight to the history.
        let marks = isQuietTopLevel ? nil : beginChecked("Add")
        let (id, seq, slot) = insertNode(consume node, seq: nil, key: key, emit: true)
        try endInsert("Add", .insertNode(id, seq: seq), marks)
        return slot
    }

    /// Removes a node, its descendants and every edge touching them or parented to them.
    /// Undo step "Remove" restores all of it, including order and selection.
    @_specialize(exported: true, where Data == JSONValue)
    public func removeNode(_ id: String) throws(FlowError) {
        try perform("Remove") { () throws(FlowError) in
            _ = try requireNode(id, "removeNode")
            removeNodes(withRoots: [id], alsoEdges: [])
        }
    }

    /// Moves a node to `position` (snapped when snapping is on); its descendants move by the
    /// same actual delta and are not snapped themselves (D7). Returns false when nothing
    /// moved. Undo step "Move"; `position` events in store order.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func moveNode(_ id: String, to position: Point) throws(FlowError) -> Bool {
        guard let slot = nodeTable.lookup(id) else { throw .unknownNode("moveNode", id) }
        return try moveNode(slot: slot, id, to: position)
    }

    /// `moveNode(_:to:)` for the node `ref` names (see `nodeRef(_:)`); throws `unknownNode`
    /// when it is no longer in the store.
    @discardableResult
    @_specialize(exported: true, where Data == JSONValue)
    public func moveNode(_ ref: NodeRef, to position: Point) throws(FlowError) -> Bool {
        guard nodeTable.isLive(ref.ref) else { throw .unknownNode("moveNode", ref.id) }
        return try moveNode(slot: ref.ref.slot, ref.id, to: position)
    }

    /// `moveNode(_:to:)` for the node whose id has these UTF-8 bytes (for bindings that hold
    /// ids as bytes, like Lua: no `String` is made); nil, and nothing done, when no node has
    /// that id.
    @inline(__always)
    @_specialize(exported: true, where Data == JSONValue)
    package func moveNode(utf8 id: UnsafeRawBufferPointer, to position: Point) throws(FlowError) -> Bool? {
        guard let slot = nodeTable.lookup(utf8: id) else { return nil }
        try requireFinite(position, "moveNode", "position")
        if isQuietTopLevel && nodeTable.flags(slot) & NodeFlags.hasChildren == 0 && bentEdgeCount == 0 {
            return quietMove(slot, to: position)
        }
        return try moveNode(slot: slot, nodeTable.id(slot: slot), to: position)
    }

    /// A move with nothing to deliver, nothing nested, no children and no bend points to
    /// carry (a self-loop's): its undo step is the one entry `performChecked` would record,
    /// written straight to the history.
    @inline(__always)
    func quietMove(_ slot: Int32, to position: Point) -> Bool {
        guard let (from, key) = writePosition(slot, snapping.snapped(position)) else { return false }
        recordStep(
            "Move", key.isInline ? .moveNode(key, from: from) : .moveNodeByID(nodeTable.id(slot: slot), from: from))
        return true
    }

    @inline(__always)
    func moveNode(slot: Int32, _ id: String, to position: Point) throws(FlowError) -> Bool {
        try requireFinite(position, "moveNode", "position")
        if isQuietTopLevel && nodeTable.flags(slot) & NodeFlags.hasChildren == 0 && bentEdgeCount == 0 {
            return quietMove(slot, to: position)
        }
        // Everything is checked: the move cannot fail.
        return try performChecked("Move") { () -> Bool in
            interaction.cancelNodeAnimations(of: id)
            let target = snapping.snapped(position)
            let delta = target - nodeTable[slot: slot].position
            if delta == .zero { return false }
            if nodeTable.flags(slot) & NodeFlags.hasChildren == 0 {
                pMoveNode(slot, to: target, emit: true)
                return true
            }
            for nid in nodeOrder([id] + descendantIDs(of: id)) {
                guard let s = nodeTable.slot(of: nid) else { continue }
                let p = nid == id ? target : nodeTable[slot: s].position + delta
                pMoveNode(s, to: p, emit: true)
            }
            return true
        }
    }

    /// Applies `transform` to a copy of the node and stores the result after validating it
    /// (the id cannot change; the parent must be valid, D7; handles used by edges must stay).
    /// Returns false when nothing changed. Undo step "Update"; event `replace`.
    @discardableResult
    public func updateNode(
        _ id: String, _ transform: (inout Node) throws(FlowError) -> Void
    ) throws(FlowError) -> Bool {
        try perform("Update") { () throws(FlowError) -> Bool in
            let op = "updateNode"
            let old = try requireNode(id, op)
            var new = old
            try transform(&new)
            if new.sameContent(as: old) { return false }
            try validateFields(new, op)
            new = sizedForUpdate(new, from: old)
            if new.sameContent(as: old) { return false }
            if new.parentID != old.parentID, let p = new.parentID { try validateParent(p, for: id, op) }
            try validateStillValid(new, op)
            pReplaceNode(new, event: .replace)
            return true
        }
    }

    /// Resizes a node. Returns false when the size is unchanged. Undo step "Resize"; event
    /// `dimensions`.
    @discardableResult
    public func updateNodeSize(_ id: String, to size: Size) throws(FlowError) -> Bool {
        try perform("Resize") { () throws(FlowError) -> Bool in
            var n = try requireNode(id, "updateNodeSize")
            try requireSize(size, "updateNodeSize")
            if n.size == size { return false }
            n.size = size
            n.autoSize = false
            pReplaceNode(n, event: .dimensions)
            return true
        }
    }

    // MARK: Shared by removal, deletion and loading

    /// Removes `roots`, their descendants, `alsoEdges`, and every edge touching or parented
    /// to a removed node. Events: node removes, then edge removes, each in store order.
    func removeNodes(withRoots roots: [String], alsoEdges: [String]) {
        // Gathered as slots, which the links already hold: ordering them by sequence number
        // and dropping repeats needs no id hashing and no sets.
        var nodes: [Int32] = []
        for r in roots {
            guard let s = nodeTable.lookup(r) else { continue }
            nodes.append(s)
            var k = nodes.count - 1
            while k < nodes.count {  // the subtree, breadth first (the hierarchy has no cycles)
                nodes.append(contentsOf: nodeTable.extra(nodes[k]).links.children)
                k += 1
            }
        }
        Self.orderUnique(&nodes) { nodeTable.seq(slot: $0) }
        var edges: [Int32] = []
        for e in alsoEdges { if let s = edgeTable.lookup(e) { edges.append(s) } }
        for n in nodes {
            let links = nodeTable.extra(n).links
            edges.append(contentsOf: links.edges)
            edges.append(contentsOf: links.childEdges)
        }
        Self.orderUnique(&edges) { edgeTable.seq(slot: $0) }
        let nodeIDs = nodes.map { nodeTable.id(slot: $0) }, edgeIDs = edges.map { edgeTable.id(slot: $0) }
        if holdsReferences { forgetReferences(nodes: Set(nodeIDs), edges: Set(edgeIDs)) }
        for e in edgeIDs { pSelectEdge(e, false, emit: false) }
        for n in nodeIDs { pSelectNode(n, false, emit: false) }
        for e in edgeIDs { pRemoveEdge(e) }
        for n in nodeIDs { pRemoveNode(n) }
    }

    /// Sorts live slots of one table by their sequence numbers and drops repeats (a slot has
    /// one sequence number, so repeats end up next to each other).
    private static func orderUnique(_ slots: inout [Int32], _ seq: (Int32) -> Int) {
        guard slots.count > 1 else { return }
        slots.sort { seq($0) < seq($1) }
        var k = 1
        for i in 1..<slots.count where slots[i] != slots[k - 1] {
            slots[k] = slots[i]
            k += 1
        }
        slots.removeSubrange(k...)
    }

    /// Whether any non-document state can name a node or an edge: what `forgetReferences`
    /// clears. False in the common case, where removals skip building its sets.
    var holdsReferences: Bool {
        focusedTarget != nil || hoveredNodeID != nil || dropTargetNodeID != nil || dropTargetEdgeID != nil
            || !marks.animatedEdges.isEmpty || interaction.holdsReferences
    }

    /// Clears every non-document reference to nodes or edges that are going away (D11).
    /// Keep `holdsReferences` in step with what this reads.
    func forgetReferences(nodes: Set<String>, edges: Set<String>) {
        if let f = focusedTarget {
            switch f {
            case .node(let id) where nodes.contains(id): focusedTarget = nil
            case .edge(let id) where edges.contains(id): focusedTarget = nil
            default: break
            }
        }
        if let h = hoveredNodeID, nodes.contains(h) { setHover(nil) }
        if let d = dropTargetNodeID, nodes.contains(d) { setDropNode(nil) }
        if let d = dropTargetEdgeID, edges.contains(d) { setDropEdge(nil) }
        marks.animatedEdges.subtract(edges)
        interaction.forgetInteractionReferences(nodes: nodes, edges: edges)
        interaction.cancelNodeAnimations(nodes)
    }

    // MARK: Validation

    /// Checks a point of a call: finite, and no coordinate beyond `FlowLimits.coordinate`.
    @inline(__always)
    func requireFinite(_ p: Point, _ op: String, _ what: String) throws(FlowError) {
        if !(p.x.magnitude <= FlowLimits.coordinate && p.y.magnitude <= FlowLimits.coordinate) {
            throw Self.notFinite(op, what, p)
        }
    }

    @inline(never)
    private static func notFinite(_ op: String, _ what: String, _ p: Point) -> FlowError {
        guard p.x.isFinite && p.y.isFinite else { return .invalidValue(op, "\(what) must be finite numbers") }
        return .invalidValue(op, "\(what) must be numbers from -1e15 to 1e15 (got \(p))")
    }

    func requireSize(_ s: Size, _ op: String) throws(FlowError) {
        guard s.width.isFinite, s.height.isFinite, s.width >= 0, s.height >= 0 else {
            throw .invalidValue(op, "size must be finite and not negative (got \(s))")
        }
        guard s.width <= FlowLimits.coordinate, s.height <= FlowLimits.coordinate else {
            throw .invalidValue(op, "size must be at most 1e15 (got \(s))")
        }
    }

    /// Checks the fields of a node on their own.
    func validateFields(_ n: Node, _ op: String) throws(FlowError) {
        try requireFinite(n.position, op, "position")
        try requireSize(n.size, op)
        if !(-FlowLimits.zIndex...FlowLimits.zIndex).contains(n.zIndex) {
            throw .invalidValue(op, "zIndex must be an integer from -2^53 to 2^53 (got \(n.zIndex))")
        }
        if n.look != nil { try validateLook(n, op) }
        if HandleDeclaration.isSharedDefault(n.handles) { return }
        let handles = n.handles
        for (k, h) in handles.enumerated() {
            if h.id.isEmpty { throw .invalidHandle(op, "node '\(n.id)' has a handle with an empty id") }
            // Nodes have a few handles: comparing pairs is cheaper than hashing them.
            for j in 0..<k where handles[j].id == h.id {
                throw .invalidHandle(op, "node '\(n.id)' declares handle '\(h.id)' twice")
            }
            try Self.validateArea(h.connectionStartArea, h, op)
            try Self.validateArea(h.connectionTargetArea, h, op)
            if !(h.offset.isFinite && abs(h.offset) <= 0.5) {
                throw .invalidHandle(op, "handle '\(h.id)': offset must be between -0.5 and 0.5")
            }
        }
    }

    private static func validateArea(_ area: HandleHitArea?, _ h: HandleDeclaration, _ op: String) throws(FlowError) {
        switch area {
        case .point(let r)? where !(r.isFinite && r >= 0):
            throw .invalidHandle(op, "handle '\(h.id)': point radius must be finite and not negative")
        case .nodeBorder(let w)? where !(w.isFinite && w >= 0):
            throw .invalidHandle(op, "handle '\(h.id)': nodeBorder width must be finite and not negative")
        default: break
        }
    }

    /// The parent rule (store-semantics §4.3): exists, is not the node, accepts children,
    /// and walking up from it never reaches the node.
    func validateParent(_ parentID: String, for nodeID: String, _ op: String) throws(FlowError) {
        if parentID == nodeID { throw .invalidParent(op, "node '\(nodeID)' cannot be its own parent") }
        guard let parent = nodeTable[parentID] else {
            throw .invalidParent(op, "parent node '\(parentID)' does not exist")
        }
        if !parent.acceptsChildren {
            throw .invalidParent(op, "node '\(parentID)' does not accept children")
        }
        // Walking up can reach the node only through a node whose parent it is. A node not in
        // the store is nobody's parent unless its child links are parked (it left within the
        // operation): a new node needs no walk, so adding a child costs O(1), not O(depth).
        if !nodeTable.contains(nodeID) && parkedLinks[nodeID]?.children.isEmpty ?? true { return }
        var seen: Set<String> = [parentID]
        var cursor = parent.parentID
        while let c = cursor {
            if c == nodeID {
                throw .invalidParent(op, "making '\(parentID)' the parent of '\(nodeID)' would create a cycle")
            }
            if !seen.insert(c).inserted { break }
            ancestorSteps += 1
            cursor = nodeTable[c]?.parentID
        }
    }

    /// Checks that a replaced node keeps every edge and child valid.
    func validateStillValid(_ n: Node, _ op: String) throws(FlowError) {
        if !n.acceptsChildren {
            if let first = nodeOrder(childNodeIDs(of: n.id)).first {
                throw .invalidParent(op, "node '\(n.id)' has child node '\(first)'; acceptsChildren must stay true")
            }
            if let first = edgeOrder(childEdgeIDs(of: n.id)).first {
                throw .invalidParent(op, "node '\(n.id)' has child edge '\(first)'; acceptsChildren must stay true")
            }
        }
        for eid in edgeOrder(edgeIDs(touching: n.id)) {
            guard let e = edgeTable[eid] else { continue }
            if e.sourceNodeID == n.id, let h = e.sourceHandleID, !HandleDeclaration.accepts(h, as: .source, in: n.handles) {
                throw .invalidHandle(op, "edge '\(eid)' uses source handle '\(h)' of node '\(n.id)'")
            }
            if e.targetNodeID == n.id, let h = e.targetHandleID, !HandleDeclaration.accepts(h, as: .target, in: n.handles) {
                throw .invalidHandle(op, "edge '\(eid)' uses target handle '\(h)' of node '\(n.id)'")
            }
        }
    }
}
