// The lists of nodes and edges whose indexes catch up at the next query (`dirtyNodes`,
// `staleEdges`) get an entry for each item added. An item removed before that query leaves
// its entry behind, so add/remove cycles without queries would grow the lists by four
// bytes an insertion for good. They are pruned once they hold more than twice the slots in
// use: amortised O(1) per entry, and the lists stay within the store's size.

extension FlowStore {
    /// Appends `slot` to `dirtyNodes`, pruning the list first when it has outgrown the store.
    @inline(__always)
    func appendDirty(_ slot: Int32) {
        if dirtyNodes.count > 2 * nodeTable.slotCapacity + 64 { pruneDirtyNodes() }
        dirtyNodes.append(slot)
    }

    /// Appends `edge` to `staleEdges`, pruning the list first when it has outgrown the store.
    @inline(__always)
    func appendStale(_ edge: Int32) {
        if staleEdges.count > 2 * edgeTable.slotCapacity + 64 { pruneStaleEdges() }
        staleEdges.append(edge)
    }

    /// Keeps each live dirty node once (the flag is cleared while it is taken, so a repeat
    /// is skipped, and set again after).
    private func pruneDirtyNodes() {
        var kept: [Int32] = []
        for s in dirtyNodes where nodeTable.isOccupied(s) && nodeTable.flags(s) & NodeFlags.dirty != 0 {
            nodeTable.setFlags(s, NodeFlags.dirty, false)
            kept.append(s)
        }
        for s in kept { nodeTable.setFlags(s, NodeFlags.dirty, true) }
        dirtyNodes = kept
    }

    /// Keeps each live stale edge once, as `pruneDirtyNodes` does.
    private func pruneStaleEdges() {
        var kept: [Int32] = []
        for e in staleEdges where edgeTable.isOccupied(e) && edgeTable.extra(e).isStale {
            edgeTable.modifyExtra(e) { $0.isStale = false }
            kept.append(e)
        }
        for e in kept { edgeTable.modifyExtra(e) { $0.isStale = true } }
        staleEdges = kept
    }
}
