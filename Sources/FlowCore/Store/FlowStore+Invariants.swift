extension FlowStore {
    /// Checks every internal invariant and returns the problems found (empty when sound):
    /// lookups agree with the tables, no dangling edge or handle, no parent cycle, parents
    /// accept children, selection ⊆ existing ids, derived flags agree with the sets.
    public func checkInvariants() -> [String] {
        var problems: [String] = []
        if let p = nodeTable.checkInvariants() { problems.append("nodes: \(p)") }
        if let p = edgeTable.checkInvariants() { problems.append("edges: \(p)") }
        var nodeFrames: [(slot: Int32, frame: Rect)] = []
        nodeTable.forEachSlot { s in if spatial.contains(s) { nodeFrames.append((s, nodeTable.extra(s).indexedFrame)) } }
        if let p = spatial.checkInvariants(nodeFrames) { problems.append("spatial index: \(p)") }
        var edgeBounds: [(slot: Int32, frame: Rect)] = []
        edgeTable.forEachSlot { s in if let b = edgeTable.extra(s).indexedBounds { edgeBounds.append((s, b)) } }
        if let p = edgeSpatial.checkInvariants(edgeBounds) { problems.append("edge index: \(p)") }
        if !parkedLinks.isEmpty { problems.append("links parked for missing nodes: \(parkedLinks.keys.sorted())") }
        let dirty = Set(dirtyNodes), stale = Set(staleEdges)
        // The links every node and edge should have, rebuilt from the tables.
        var expected = [NodeLinks](repeating: NodeLinks(), count: nodeTable.slotCapacity)
        nodeTable.forEachSlot { s in
            let n = nodeTable[slot: s]
            let extra = nodeTable.extra(s)
            if n.isSelected != marks.selectedNodes.contains(n.id) { problems.append("node '\(n.id)' selection flag disagrees") }
            if n.isHovered != (hoveredNodeID == n.id) { problems.append("node '\(n.id)' hover flag disagrees") }
            if n.isDropTarget != (dropTargetNodeID == n.id) { problems.append("node '\(n.id)' drop flag disagrees") }
            let isDirty = nodeTable.flags(s) & NodeFlags.dirty != 0
            if isDirty && !dirty.contains(s) { problems.append("node '\(n.id)' is dirty but not listed") }
            if !isDirty && (!spatial.contains(s) || extra.indexedFrame != n.frame) {
                problems.append("node '\(n.id)' frame not indexed (and not dirty)")
            }
            if (nodeTable.flags(s) & NodeFlags.hasChildren != 0) != !extra.links.children.isEmpty {
                problems.append("node '\(n.id)' has-children flag disagrees")
            }
            if let p = n.parentID {
                guard let ps = nodeTable.slot(of: p) else { problems.append("node '\(n.id)' has missing parent '\(p)'"); return }
                expected[Int(ps)].children.append(s)
                if !nodeTable[slot: ps].acceptsChildren { problems.append("node '\(n.id)' has parent '\(p)' that does not accept children") }
            }
        }
        problems.append(contentsOf: parentCycleProblems())
        // An edge's indexed bounds may lag only when it is stale or one of its nodes is dirty.
        func nodeIsDirty(_ id: String) -> Bool { nodeTable.slot(of: id).map { nodeTable.flags($0) & NodeFlags.dirty != 0 } ?? false }
        var bent = 0, orthogonal = 0
        edgeTable.forEachSlot { s in
            let e = edgeTable[slot: s]
            let extra = edgeTable.extra(s)
            if !e.points.isEmpty { bent += 1 }
            if e.pathType == .orthogonal { orthogonal += 1 }
            if e.isSelected != marks.selectedEdges.contains(e.id) { problems.append("edge '\(e.id)' selection flag disagrees") }
            if e.isDropTarget != (dropTargetEdgeID == e.id) { problems.append("edge '\(e.id)' drop flag disagrees") }
            do throws(FlowError) { try validateEdge(e, "check") } catch { problems.append("edge '\(e.id)': \(error.message)") }
            if extra.isStale && !stale.contains(s) { problems.append("edge '\(e.id)' is stale but not listed") }
            if !extra.isStale && !nodeIsDirty(e.sourceNodeID) && !nodeIsDirty(e.targetNodeID)
                && extra.indexedBounds != edgeGeometry(of: e)?.bounds
            {
                problems.append("edge '\(e.id)' bounds not indexed (and not marked stale)")
            }
            if let a = nodeTable.slot(of: e.sourceNodeID) { expected[Int(a)].edges.append(s) }
            if e.targetNodeID != e.sourceNodeID, let b = nodeTable.slot(of: e.targetNodeID) { expected[Int(b)].edges.append(s) }
            if let p = e.parentID, let ps = nodeTable.slot(of: p) { expected[Int(ps)].childEdges.append(s) }
        }
        if bent != bentEdgeCount { problems.append("\(bent) edges have bend points, counted \(bentEdgeCount)") }
        if orthogonal != orthogonalEdgeCount {
            problems.append("\(orthogonal) edges are orthogonal, counted \(orthogonalEdgeCount)")
        }
        for i in 0..<nodeTable.slotCapacity {
            let s = Int32(i)
            let links = nodeTable.element(at: s) == nil ? NodeLinks() : nodeTable.extra(s).links
            let e = expected[i]
            if links.edges.sorted() != e.edges.sorted() || links.children.sorted() != e.children.sorted()
                || links.childEdges.sorted() != e.childEdges.sorted()
            {
                let name = nodeTable.element(at: s).map { "node '\($0.id)'" } ?? "free slot \(i)"
                problems.append("links of \(name) disagree with the tables")
            }
        }
        for id in marks.selectedNodes where nodeTable[id] == nil { problems.append("selected node '\(id)' does not exist") }
        for id in marks.selectedEdges where edgeTable[id] == nil { problems.append("selected edge '\(id)' does not exist") }
        for id in marks.animatedEdges where edgeTable[id] == nil { problems.append("animated edge '\(id)' does not exist") }
        if let h = hoveredNodeID, nodeTable[h] == nil { problems.append("hovered node '\(h)' does not exist") }
        if let d = dropTargetNodeID, nodeTable[d] == nil { problems.append("drop target node '\(d)' does not exist") }
        if let d = dropTargetEdgeID, edgeTable[d] == nil { problems.append("drop target edge '\(d)' does not exist") }
        switch focusedTarget {
        case .node(let id)? where nodeTable[id] == nil: problems.append("focused node '\(id)' does not exist")
        case .edge(let id)? where edgeTable[id] == nil: problems.append("focused edge '\(id)' does not exist")
        default: break
        }
        problems.append(contentsOf: interaction.interactionProblems())
        return problems
    }

    /// "parent cycle through 'x'" for every node whose walk up the parent links revisits a
    /// node. Each node is walked once (a walk stops at a node already settled), so a deep
    /// hierarchy costs linear time, not depth × nodes.
    private func parentCycleProblems() -> [String] {
        // 0: not walked, 1: on the current walk, 2: reaches a root, 3: reaches a cycle
        var state = [UInt8](repeating: 0, count: nodeTable.slotCapacity)
        var problems: [String] = []
        var path: [Int32] = []
        nodeTable.forEachSlot { start in
            var cur: Int32? = start
            path.removeAll(keepingCapacity: true)
            var outcome: UInt8 = 2
            while let s = cur {
                switch state[Int(s)] {
                case 0:
                    state[Int(s)] = 1
                    path.append(s)
                    cur = nodeTable[slot: s].parentID.flatMap { nodeTable.slot(of: $0) }
                case 1: outcome = 3; cur = nil
                case let settled: outcome = settled; cur = nil
                }
            }
            for s in path { state[Int(s)] = outcome }
        }
        nodeTable.forEachSlot { s in
            if state[Int(s)] == 3 { problems.append("parent cycle through '\(nodeTable[slot: s].id)'") }
        }
        return problems
    }

    /// Runs `checkInvariants()` after mutations when `checksInvariants` is on (the default
    /// in debug builds); a violation is a bug in FlowCore and stops the process.
    @inline(__always)
    func checkInvariantsInDebug() {
        if checksInvariants { checkInvariantsOrStop() }
    }

    @inline(never)
    private func checkInvariantsOrStop() {
        let problems = checkInvariants()
        if !problems.isEmpty {
            fatalError("FlowStore invariant violated: \(problems.joined(separator: "; "))")  // invariant
        }
    }
}
