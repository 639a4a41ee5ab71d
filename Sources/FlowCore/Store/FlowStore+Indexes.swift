// The indexes kept in step with the document: the links between nodes and edges by slot, and
// the spatial indexes of node frames and edge path bounds (updated lazily).

extension FlowStore {
    // MARK: Links

    /// Runs `body` on the links of node `id`. While the node is not in the store (in the
    /// middle of an operation that removes a parent before its children, or of the
    /// rollback of one), its links are parked under its id and taken back on insertion.
    @inline(__always)
    func withLinks(ofNode id: String, _ body: (inout NodeLinks) -> Void) {
        if let s = nodeTable.lookup(id) {
            let has = nodeTable.modifyExtra(s) { e -> Bool in
                body(&e.links)
                return !e.links.children.isEmpty
            }
            nodeTable.setFlags(s, NodeFlags.hasChildren, has)
        } else {
            var links = parkedLinks[id] ?? NodeLinks()
            body(&links)
            parkedLinks[id] = links.isEmpty ? nil : links
        }
    }

    // MARK: Index upkeep

    /// Notes that the frame of node `slot` changed: the spatial index and the node's edges
    /// catch up at the next query (`refreshNodeIndex()`).
    @inline(__always)
    func markDirty(_ slot: Int32) {
        if nodeTable.flags(slot) & NodeFlags.dirty != 0 { return }
        nodeTable.setFlags(slot, NodeFlags.dirty, true)
        dirtyNodes.append(slot)
    }

    /// Flags the edges of node `slot` whose path bounds may have changed.
    func markEdgesStale(ofNode slot: Int32) {
        for e in nodeTable.extra(slot).links.edges { markStale(edge: e) }
    }

    /// Flags an edge whose path bounds may have changed (or were never indexed).
    @inline(__always)
    func markStale(edge e: Int32) {
        let was = edgeTable.modifyExtra(e) { x -> Bool in
            defer { x.isStale = true }
            return x.isStale
        }
        if !was { appendStale(e) }
    }

    /// Brings the spatial index up to date with the nodes added or changed since the last
    /// call, and marks their edges stale. Every query of `spatial` calls it first.
    func refreshNodeIndex() {
        guard !dirtyNodes.isEmpty else { return }
        for s in dirtyNodes where nodeTable.isOccupied(s) && nodeTable.flags(s) & NodeFlags.dirty != 0 {
            let frame = nodeTable[slot: s].frame
            nodeTable.setFlags(s, NodeFlags.dirty, false)
            let old = nodeTable.modifyExtra(s) { e -> Rect in
                defer { e.indexedFrame = frame }
                return e.indexedFrame
            }
            if !spatial.contains(s) {
                spatial.insert(s, frame)  // added since
            } else if old != frame {
                spatial.move(s, from: old, to: frame)
            }
            // Even when the node is back at its indexed frame: an edge added while the node
            // was elsewhere was indexed with that other frame.
            markEdgesStale(ofNode: s)
        }
        dirtyNodes.removeAll(keepingCapacity: true)
    }


    // MARK: Links of edges

    @inline(__always)
    func indexEdge(_ slot: Int32, source: String, target: String, parent: String?) {
        withLinks(ofNode: source) { $0.edges.append(slot) }
        if target != source { withLinks(ofNode: target) { $0.edges.append(slot) } }
        if let p = parent { withLinks(ofNode: p) { $0.childEdges.append(slot) } }
    }

    func unindexEdge(_ e: FlowEdge, _ slot: Int32) {
        withLinks(ofNode: e.sourceNodeID) { NodeLinks.remove(slot, from: &$0.edges) }
        if e.targetNodeID != e.sourceNodeID { withLinks(ofNode: e.targetNodeID) { NodeLinks.remove(slot, from: &$0.edges) } }
        if let p = e.parentID { withLinks(ofNode: p) { NodeLinks.remove(slot, from: &$0.childEdges) } }
    }
}
