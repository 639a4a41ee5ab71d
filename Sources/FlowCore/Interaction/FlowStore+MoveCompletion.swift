// Completing moves and resizes made elsewhere (store-semantics §4.6, §4.7 with D6, D7):
// store operations that record, as one undo step, what a host moved or resized without a
// record. Node drag sessions are the interaction engine's (FlowInteraction+Drag.swift).

extension FlowStore {
    // MARK: Completing moves and resizes made elsewhere

    /// Records one undo step "Move" from the given start positions to the current ones
    /// (for moves that were not recorded, e.g. drag updates of a drag that is not ended).
    /// Undo restores the starts exactly (no re-snapping, D6). No events. Returns whether a
    /// step was recorded. Throws for unknown ids or non-finite points.
    @discardableResult
    public func completeMoveNodes(from starts: [String: Point]) throws(FlowError) -> Bool {
        try perform("Move") { () throws(FlowError) -> Bool in
            let op = "completeMoveNodes"
            for (id, p) in starts.sorted(by: { $0.key < $1.key }) {
                _ = try requireNode(id, op)
                try requireFinite(p, op, "start position")
            }
            let changes = moveChanges(from: starts)
            journalNetChange(changes)
            return !changes.isEmpty
        }
    }

    /// Records one undo step "Resize" from the given start frames to the current ones. No
    /// events; undo and redo emit `replace`/`position`/`dimensions` for what they restore.
    /// Returns whether a step was recorded.
    @discardableResult
    public func completeResizeNodes(from starts: [String: Rect]) throws(FlowError) -> Bool {
        try perform("Resize") { () throws(FlowError) -> Bool in
            let op = "completeResizeNodes"
            for (id, r) in starts.sorted(by: { $0.key < $1.key }) {
                _ = try requireNode(id, op)
                try requireFinite(r.origin, op, "start frame")
                try requireSize(r.size, op)
            }
            var changes: [(start: Node, final: Node, event: NodeEvent)] = []
            for id in nodeOrder(starts.keys) {
                guard let current = nodeTable[id], let r = starts[id], r != current.frame else { continue }
                var start = current
                start.position = r.origin
                start.size = r.size
                changes.append((start, current, .none))
            }
            journalNetChange(changes)
            return !changes.isEmpty
        }
    }
}
