// External drags (store-semantics §10): the interaction engine follows a drag from outside
// the canvas and sets the store's hover and drop-target flags from what it is over.

/// What an external drag is over.
public enum DropTarget: Hashable, Sendable {
    case node(String)
    case edge(String)
    case canvas
}

/// Where an external drag is, in canvas coordinates, and what it is over.
public struct DropEvent: Hashable, Sendable {
    public var canvasPoint: Point
    public var target: DropTarget
}

extension FlowInteraction {
    /// What a drop at the screen point `p` would land on: the node under it, else the edge,
    /// else the canvas.
    public func dropEvent(at p: Point) -> DropEvent {
        let store = store
        let c = store.screenToCanvas(p)
        if let n = store.hitTestNode(at: c) { return DropEvent(canvasPoint: c, target: .node(n.id)) }
        if let e = store.hitTestEdge(at: c) { return DropEvent(canvasPoint: c, target: .edge(e.id)) }
        return DropEvent(canvasPoint: c, target: .canvas)
    }

    /// An external drag moved to the screen point `p`: the node under it is hovered, and
    /// when `accept` returns true the node (or, with no node, the edge) under it becomes the
    /// drop target, else there is none. Returns what `accept` returned.
    @discardableResult
    public func dragOver(at p: Point, accept: (DropEvent) -> Bool) throws(FlowError) -> Bool {
        let store = store
        try store.requireFinite(p, "dragOver", "point")
        let event = dropEvent(at: p)
        var nodeID: String?, edgeID: String?
        switch event.target {
        case .node(let id): nodeID = id
        case .edge(let id): edgeID = id
        case .canvas: break
        }
        store.setHover(nodeID)
        let accepted = accept(event)
        // The handler may have changed the store; only keep targets that still exist.
        store.setDropNode(accepted ? nodeID.flatMap { store.node($0) != nil ? $0 : nil } : nil)
        store.setDropEdge(accepted ? edgeID.flatMap { store.edge($0) != nil ? $0 : nil } : nil)
        return accepted
    }

    /// The drag was released at the screen point `p`: both drop targets are cleared (hover
    /// is kept) and `perform` decides the result.
    @discardableResult
    public func drop(at p: Point, perform: (DropEvent) -> Bool) throws(FlowError) -> Bool {
        let store = store
        try store.requireFinite(p, "drop", "point")
        let event = dropEvent(at: p)
        store.setDropNode(nil)
        store.setDropEdge(nil)
        return perform(event)
    }

    /// The drag left the canvas: hover and both drop targets are cleared, then `exited` runs.
    public func dragExit(_ exited: () -> Void) {
        let store = store
        store.setHover(nil)
        store.setDropNode(nil)
        store.setDropEdge(nil)
        exited()
    }
}
