// The connection workflow (store-semantics §4.8 with D9, D18): the interaction engine holds
// the draft while a connection is dragged out of a handle; the store validates the proposal
// and, without an `onConnect` handler, adds the edge.

extension FlowInteraction {
    /// Starts dragging a connection out of a handle (nil: the node centre, as a source).
    /// Selects the node exclusively; the draft's current point starts at the handle point.
    /// Throws while a draft exists, or for an unknown node or handle.
    public func beginConnection(nodeID: String, handleID: String?) throws(FlowError) {
        let op = "beginConnection"
        if connectionDraft != nil { throw .invalidState(op, "a connection is already in progress") }
        let store = store
        _ = try store.requireNode(nodeID, op)
        guard let info = store.handleInfo(nodeID: nodeID, handleID: handleID) else {
            throw .invalidHandle(op, "node '\(nodeID)' has no handle '\(handleID ?? "")'")
        }
        try store.selectNode(nodeID)
        connectionDraft = ConnectionDraft(
            sourceNodeID: nodeID, sourceHandleID: handleID, sourceHandleType: info.type,
            sourceHandlePosition: info.position, currentPoint: info.point)
        activeInteraction = .connecting(sourceNodeID: nodeID, sourceHandleID: handleID)
    }

    /// Moves the draft's end to the canvas point `p`; the nearest handle of the opposite
    /// type on another node within the connection radius becomes its target (or none).
    /// Returns the target. Throws without a draft.
    @discardableResult
    public func updateConnection(to p: Point) throws(FlowError) -> (nodeID: String, handleID: String)? {
        guard var draft = connectionDraft else {
            throw .invalidState("updateConnection", "no connection is in progress")
        }
        try store.requireFinite(p, "updateConnection", "point")
        let hit = store.findNearestHandle(
            at: p, excludingNodeID: draft.sourceNodeID, type: draft.sourceHandleType.opposite)
        draft.currentPoint = p
        draft.targetNodeID = hit?.nodeID
        draft.targetHandleID = hit?.handleID
        connectionDraft = draft
        return hit.map { ($0.nodeID, $0.handleID) }
    }

    /// Ends the draft. With an explicit target the proposal is built from it (self-loops
    /// included); otherwise from the draft's current target, and with none the connection
    /// is cancelled and false returned without callbacks. A proposal starting on a target
    /// handle is turned around. The validator (default: no self-loops) decides; an accepted
    /// proposal goes to `onConnect`, or, without a handler, the store adds the edge itself
    /// (D18). Returns whether the proposal was accepted. Throws without a draft.
    @discardableResult
    public func endConnection(targetNodeID: String? = nil, targetHandleID: String? = nil) throws(FlowError) -> Bool {
        let op = "endConnection"
        guard let draft = connectionDraft else { throw .invalidState(op, "no connection is in progress") }
        let store = store
        let target: (String, String?)
        if let t = targetNodeID {
            _ = try store.requireNode(t, op)
            if store.handleInfo(nodeID: t, handleID: targetHandleID) == nil {
                throw .invalidHandle(op, "node '\(t)' has no handle '\(targetHandleID ?? "")'")
            }
            target = (t, targetHandleID)
        } else if let t = draft.targetNodeID {
            target = (t, draft.targetHandleID)
        } else {
            endDraft()
            return false
        }
        let proposal: ConnectionProposal
        if draft.sourceHandleType == .source {
            proposal = ConnectionProposal(
                sourceNodeID: draft.sourceNodeID, sourceHandleID: draft.sourceHandleID,
                targetNodeID: target.0, targetHandleID: target.1)
        } else {
            proposal = ConnectionProposal(
                sourceNodeID: target.0, sourceHandleID: target.1,
                targetNodeID: draft.sourceNodeID, targetHandleID: draft.sourceHandleID)
        }
        endDraft()
        let valid = store.isStructurallyValid(proposal)
            && (store.connectionValidator?(proposal) ?? (proposal.sourceNodeID != proposal.targetNodeID))
        guard valid else {
            store.onConnectionRejected?(proposal)
            return false
        }
        if let onConnect = store.onConnect {
            onConnect(proposal)
        } else {
            try store.addEdge(
                FlowEdge(
                    id: store.nextEdgeID(), sourceNodeID: proposal.sourceNodeID,
                    sourceHandleID: proposal.sourceHandleID, targetNodeID: proposal.targetNodeID,
                    targetHandleID: proposal.targetHandleID,
                    pathType: store.defaultEdgePathType))
        }
        return true
    }

    /// Drops the draft without callbacks. Returns false when there was none.
    @discardableResult
    public func cancelConnection() -> Bool {
        guard connectionDraft != nil else { return false }
        endDraft()
        return true
    }

    private func endDraft() {
        connectionDraft = nil
        if case .connecting = activeInteraction { activeInteraction = nil }
    }
}
