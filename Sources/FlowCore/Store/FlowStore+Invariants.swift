extension FlowStore {
    /// Checks every internal invariant and returns the problems found (empty when sound):
    /// lookups agree with the tables, no dangling edge or handle, no parent cycle, parents
    /// accept children, selection ⊆ existing ids, derived flags agree with the sets.
    public func checkInvariants() -> [String] {
        var problems: [String] = []
        if let p = nodeTable.checkInvariants() { problems.append("nodes: \(p)") }
        if let p = edgeTable.checkInvariants() { problems.append("edges: \(p)") }
        if let p = spatial.checkInvariants() { problems.append("spatial index: \(p)") }
        if spatial.count != nodeTable.count { problems.append("spatial index has \(spatial.count) frames for \(nodeTable.count) nodes") }
        if let p = edgeSpatial.checkInvariants() { problems.append("edge index: \(p)") }
        var childCount = 0
        nodeTable.forEach { n in
            if n.isSelected != selectedNodeSet.contains(n.id) { problems.append("node '\(n.id)' selection flag disagrees") }
            if n.isHovered != (hoveredNodeID == n.id) { problems.append("node '\(n.id)' hover flag disagrees") }
            if n.isDropTarget != (dropTargetNodeID == n.id) { problems.append("node '\(n.id)' drop flag disagrees") }
            if spatial.frames[n.id] != n.frame { problems.append("node '\(n.id)' frame not indexed") }
            if let p = n.parentID {
                childCount += 1
                guard let parent = nodeTable[p] else { problems.append("node '\(n.id)' has missing parent '\(p)'"); return }
                if !parent.acceptsChildren { problems.append("node '\(n.id)' has parent '\(p)' that does not accept children") }
                if !(childNodesByParent[p] ?? []).contains(n.id) { problems.append("child index misses '\(n.id)'") }
                var seen: Set<String> = [n.id]
                var c: String? = p
                while let cur = c {
                    if !seen.insert(cur).inserted { problems.append("parent cycle through '\(n.id)'"); break }
                    c = nodeTable[cur]?.parentID
                }
            }
        }
        if childNodesByParent.values.reduce(0, { $0 + $1.count }) != childCount {
            problems.append("child index has stale entries")
        }
        var adjacency = 0, edgeChildren = 0
        edgeTable.forEach { e in
            if e.isSelected != selectedEdgeSet.contains(e.id) { problems.append("edge '\(e.id)' selection flag disagrees") }
            if e.isDropTarget != (dropTargetEdgeID == e.id) { problems.append("edge '\(e.id)' drop flag disagrees") }
            do throws(FlowError) { try validateEdge(e, "check") } catch { problems.append("edge '\(e.id)': \(error.message)") }
            if !staleEdgeGeometry.contains(e.id) && edgeSpatial.frames[e.id] != edgeGeometry(of: e)?.bounds {
                problems.append("edge '\(e.id)' bounds not indexed (and not marked stale)")
            }
            adjacency += e.sourceNodeID == e.targetNodeID ? 1 : 2
            if !(edgesByNode[e.sourceNodeID] ?? []).contains(e.id) { problems.append("adjacency misses '\(e.id)'") }
            if let p = e.parentID {
                edgeChildren += 1
                if !(childEdgesByParent[p] ?? []).contains(e.id) { problems.append("edge child index misses '\(e.id)'") }
            }
        }
        if edgesByNode.values.reduce(0, { $0 + $1.count }) != adjacency { problems.append("adjacency has stale entries") }
        if childEdgesByParent.values.reduce(0, { $0 + $1.count }) != edgeChildren { problems.append("edge child index has stale entries") }
        for id in selectedNodeSet where nodeTable[id] == nil { problems.append("selected node '\(id)' does not exist") }
        for id in selectedEdgeSet where edgeTable[id] == nil { problems.append("selected edge '\(id)' does not exist") }
        for id in animatedEdgeSet where edgeTable[id] == nil { problems.append("animated edge '\(id)' does not exist") }
        if let h = hoveredNodeID, nodeTable[h] == nil { problems.append("hovered node '\(h)' does not exist") }
        if let d = dropTargetNodeID, nodeTable[d] == nil { problems.append("drop target node '\(d)' does not exist") }
        if let d = dropTargetEdgeID, edgeTable[d] == nil { problems.append("drop target edge '\(d)' does not exist") }
        switch focusedTarget {
        case .node(let id)? where nodeTable[id] == nil: problems.append("focused node '\(id)' does not exist")
        case .edge(let id)? where edgeTable[id] == nil: problems.append("focused edge '\(id)' does not exist")
        default: break
        }
        problems.append(contentsOf: interactionProblems())
        return problems
    }

    /// Runs `checkInvariants()` after mutations when `checksInvariants` is on (the default
    /// in debug builds); a violation is a bug in FlowCore and stops the process.
    func checkInvariantsInDebug() {
        guard checksInvariants else { return }
        let problems = checkInvariants()
        if !problems.isEmpty {
            fatalError("FlowStore invariant violated: \(problems.joined(separator: "; "))")  // invariant
        }
    }
}
