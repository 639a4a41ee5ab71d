extension FlowStore {
    /// The edges with `id` as source or target, in store order (a self-loop once).
    public func edgesForNode(_ id: String) throws(FlowError) -> [FlowEdge] {
        _ = try requireNode(id, "edgesForNode")
        return edgeOrder(edgeIDs(touching: id)).compactMap { edgeTable[$0] }
    }

    /// The union of all node frames, `(0, 0, 0, 0)` when there are none. O(1) amortised.
    @_specialize(exported: true, where Data == JSONValue)
    public func nodeBounds() -> Rect {
        refreshNodeIndex()
        return spatial.bounds() ?? .zero
    }

    /// The canvas point, side and type of a handle; nil handle id means the node centre
    /// (type source). Nil when the node or handle does not exist.
    public func handleInfo(
        nodeID: String, handleID: String?
    ) -> (point: Point, position: HandlePosition, type: HandleType)? {
        guard let n = nodeTable[nodeID] else { return nil }
        guard let hid = handleID else { return (HandlePosition.center.point(in: n.frame), .center, .source) }
        guard let h = n.handle(hid) else { return nil }
        return (handlePoint(h, of: n), h.position, h.type)
    }
}

/// A node's id together with its place in the store. Calls made through a `NodeRef` skip
/// the look-up of the id. A reference stays valid while the node stays in the store; once
/// the node is removed it is stale for good, even if undo brings a node with the same id
/// back (ask `nodeRef(_:)` again then).
public struct NodeRef: Hashable, Sendable {
    /// The node's id, as the store keeps it.
    public let id: String
    let ref: TableRef

    /// The node's slot (see `FlowStore.nodeSlot(_:)`).
    public var slot: Int32 { ref.slot }
}

extension FlowStore {
    /// A reference to node `id`, or nil when there is none.
    @_specialize(exported: true, where Data == JSONValue)
    public func nodeRef(_ id: String) -> NodeRef? {
        nodeTable.ref(of: id).map { NodeRef(id: id, ref: $0) }
    }

    /// A reference to the node whose id has these UTF-8 bytes, or nil when there is none.
    /// Looks the bytes up directly (for bindings that hold ids as bytes, like Lua).
    @inline(__always)
    @_specialize(exported: true, where Data == JSONValue)
    package func nodeRef(utf8 bytes: UnsafeRawBufferPointer) -> NodeRef? {
        guard let s = nodeTable.lookup(utf8: bytes) else { return nil }
        return NodeRef(id: nodeTable.id(slot: s), ref: nodeTable.ref(slot: s))
    }

    /// The slot of node `id`, or nil when there is none. A slot is a small integer that no
    /// other node in the store has, kept from the node's insertion to its removal; a freed
    /// slot goes to a later node. Slots are dense: they run from 0 to about the largest
    /// number of nodes the store held at once. For hosts that keep data per node in an
    /// array: `add(_:)` returns the new node's slot and `onNodeSlotFreed` reports freed ones.
    /// A read-only look-up, so callbacks the store runs may call it.
    @inline(__always)
    public func nodeSlot(_ id: String) -> Int32? { nodeTable.slot(of: id) }

    /// `nodeSlot(_:)` for the id with these UTF-8 bytes (for bindings that hold ids as bytes).
    @inline(__always)
    @_specialize(exported: true, where Data == JSONValue)
    package func nodeSlot(utf8 bytes: UnsafeRawBufferPointer) -> Int32? { nodeTable.slot(utf8: bytes) }

    /// The slot of edge `id`, or nil when there is none: as `nodeSlot(_:)`, among the
    /// store's edges (`add(_:)` of an edge returns the new edge's slot, `onEdgeSlotFreed`
    /// reports freed ones).
    @inline(__always)
    public func edgeSlot(_ id: String) -> Int32? { edgeTable.slot(of: id) }

    /// `edgeSlot(_:)` for the id with these UTF-8 bytes (for bindings that hold ids as bytes).
    @inline(__always)
    @_specialize(exported: true, where Data == JSONValue)
    package func edgeSlot(utf8 bytes: UnsafeRawBufferPointer) -> Int32? { edgeTable.slot(utf8: bytes) }

    /// The node whose id has these UTF-8 bytes, or nil (for bindings that hold ids as bytes).
    @inline(__always)
    @_specialize(exported: true, where Data == JSONValue)
    package func node(utf8 id: UnsafeRawBufferPointer) -> Node? {
        guard let s = nodeTable.lookup(utf8: id) else { return nil }
        return nodeTable[slot: s]
    }

    /// The edge whose id has these UTF-8 bytes, or nil (for bindings that hold ids as bytes).
    @inline(__always)
    @_specialize(exported: true, where Data == JSONValue)
    package func edge(utf8 id: UnsafeRawBufferPointer) -> FlowEdge? {
        guard let s = edgeTable.lookup(utf8: id) else { return nil }
        return edgeTable[slot: s]
    }

    /// Whether the node `ref` names is still in the store.
    @inline(__always)
    public func isValid(_ ref: NodeRef) -> Bool { nodeTable.isLive(ref.ref) }

    /// The node `ref` names, or nil when it is no longer in the store.
    @inline(__always)
    public func node(_ ref: NodeRef) -> Node? {
        nodeTable.isLive(ref.ref) ? nodeTable[slot: ref.ref.slot] : nil
    }
}
