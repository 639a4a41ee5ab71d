extension FlowStore {
    /// Nodes whose parent is `parentID` (nil: root nodes), in store order.
    public func childNodes(of parentID: String?) throws(FlowError) -> [Node] {
        guard let p = parentID else { return nodeTable.elements.filter { $0.parentID == nil } }
        _ = try requireNode(p, "childNodes")
        return nodeOrder(childNodeIDs(of: p)).compactMap { nodeTable[$0] }
    }

    /// Edges whose parent is `parentID` (nil: edges without a parent), in store order.
    public func childEdges(of parentID: String?) throws(FlowError) -> [FlowEdge] {
        guard let p = parentID else { return edgeTable.elements.filter { $0.parentID == nil } }
        _ = try requireNode(p, "childEdges")
        return edgeOrder(childEdgeIDs(of: p)).compactMap { edgeTable[$0] }
    }

    /// Every transitive child of `id` (not `id` itself), in store order.
    public func descendantNodeIDs(of id: String) throws(FlowError) -> [String] {
        _ = try requireNode(id, "descendantNodeIDs")
        return nodeOrder(descendantIDs(of: id))
    }

    /// Descendants in no particular order; O(subtree).
    func descendantIDs(of id: String) -> [String] {
        var out: [String] = []
        var stack = childNodeIDs(of: id)
        var seen = Set<String>()
        while let c = stack.popLast() {
            guard seen.insert(c).inserted else { continue }
            out.append(c)
            stack.append(contentsOf: childNodeIDs(of: c))
        }
        return out
    }

    /// Re-parents a node (nil: to the root). Returns false when it already has that parent.
    /// Undo step "Set Parent"; event `replace`.
    @discardableResult
    public func setParent(_ id: String, to parentID: String?) throws(FlowError) -> Bool {
        try perform("Set Parent") { () throws(FlowError) -> Bool in
            var n = try requireNode(id, "setParent")
            if n.parentID == parentID { return false }
            if let p = parentID { try validateParent(p, for: id, "setParent") }
            n.parentID = parentID
            pReplaceNode(n, event: .replace)
            return true
        }
    }

    /// Re-parents an edge (nil: no parent). Returns false when unchanged. Undo step
    /// "Update Edge"; event `replace`.
    @discardableResult
    public func setEdgeParent(_ id: String, to parentID: String?) throws(FlowError) -> Bool {
        try perform("Update Edge") { () throws(FlowError) -> Bool in
            var e = try requireEdge(id, "setEdgeParent")
            if e.parentID == parentID { return false }
            e.parentID = parentID
            try validateEdge(e, "setEdgeParent")
            pReplaceEdge(e)
            return true
        }
    }

    /// Wraps the selected nodes in a new group node (store-semantics §4.3 with D13): the
    /// group's frame is the union of the top-level selected frames grown by `padding`; it
    /// is created under the selected nodes' common parent when they share one; contained
    /// edges (selected ones and those between two grouped nodes) are parented to it; the
    /// group becomes the only selection and is focused. Undo step "Group" restores the
    /// previous selection. Throws when nothing is selected or the id is taken.
    @discardableResult
    public func groupSelection(
        id: String? = nil, data: Data, padding: Double = 24, zIndex: Int? = nil
    ) throws(FlowError) -> Node {
        try perform("Group") { () throws(FlowError) -> Node in
            let op = "groupSelection"
            let selected = nodeOrder(marks.selectedNodes)
            let selectedSet = Set(selected)
            let roots = selected.filter { nid in
                var cursor = nodeTable[nid]?.parentID
                var seen = Set<String>()
                while let c = cursor, seen.insert(c).inserted {
                    if selectedSet.contains(c) { return false }
                    cursor = nodeTable[c]?.parentID
                }
                return true
            }
            guard !roots.isEmpty else { throw .invalidState(op, "no node is selected") }
            guard padding.isFinite else { throw .invalidValue(op, "padding must be a finite number") }
            let groupID = id ?? nextNodeID()
            if groupID.isEmpty { throw .invalidValue(op, "node id must not be empty") }
            if nodeTable.contains(groupID) { throw .duplicateNode(op, groupID) }
            let rootNodes = roots.compactMap { nodeTable[$0] }
            var bounds = rootNodes[0].frame
            for n in rootNodes.dropFirst() { bounds = bounds.union(n.frame) }
            let frame = bounds.insetBy(dx: -padding, dy: -padding)
            let parents = Set(rootNodes.map(\.parentID))
            let commonParent = parents.count == 1 ? parents.first! : nil  // invariant: count checked
            let z = zIndex ?? (rootNodes.map(\.zIndex).min()! - 1)  // invariant: roots not empty
            let group = Node(
                id: groupID, position: frame.origin, size: frame.size, data: data,
                parentID: commonParent, acceptsChildren: true, zIndex: z, handles: [])
            try validateFields(group, op)
            pInsertNode(group)
            for r in rootNodes where r.parentID != groupID {
                var n = r
                n.parentID = groupID
                pReplaceNode(n, event: .replace)
            }
            let rootSet = Set(roots)
            for e in edgeTable.elements
            where (marks.selectedEdges.contains(e.id)
                || (rootSet.contains(e.sourceNodeID) && rootSet.contains(e.targetNodeID)))
                && e.parentID != groupID
            {
                var e2 = e
                e2.parentID = groupID
                pReplaceEdge(e2)
            }
            selectOnly(node: groupID)
            focusedTarget = .node(groupID)
            return nodeTable[groupID]!  // invariant: inserted above
        }
    }

    /// Removes a node but keeps its children: they (and the edges parented to it) move to
    /// the node's own parent; edges touching the node are removed. Undo step "Ungroup".
    @discardableResult
    public func ungroupNode(_ id: String) throws(FlowError) -> Bool {
        try perform("Ungroup") { () throws(FlowError) -> Bool in
            let group = try requireNode(id, "ungroupNode")
            let newParent = group.parentID
            let touching = edgeOrder(edgeIDs(touching: id))
            let touchingSet = Set(touching)
            let parented = edgeOrder(childEdgeIDs(of: id)).filter { !touchingSet.contains($0) }
            let kids = nodeOrder(childNodeIDs(of: id))
            forgetReferences(nodes: [id], edges: touchingSet)
            pSelectNode(id, false, emit: false)
            for e in touching { pSelectEdge(e, false, emit: false) }
            for e in touching { pRemoveEdge(e) }
            pRemoveNode(id)
            for k in kids {
                guard var n = nodeTable[k] else { continue }
                n.parentID = newParent
                pReplaceNode(n, event: .replace)
            }
            for eid in parented {
                guard var e = edgeTable[eid] else { continue }
                e.parentID = newParent
                pReplaceEdge(e)
            }
            return true
        }
    }
}
