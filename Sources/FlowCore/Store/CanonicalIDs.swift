// D24: one spelling per id. Ids are equal when they are canonically equivalent, and the
// store keeps each in its canonical composed form (Unicode NFC): the ids of nodes and
// edges, edge endpoints and handle ids, parents, the selection, focus, hover and drop
// targets. Whatever spelling a caller uses, everything the store hands out, events and
// documents included, spells an id one way.

/// `id` in NFC: itself when it is ASCII (no work beyond a scan of its bytes). The Lua
/// binding spells the ids its handles keep with it.
@inline(__always)
package func canonicalID(_ id: String) -> String {
    // the bytes in one buffer (a short id's are copied out of the string): a plain loop
    // rather than the string's byte iterator, which decodes its storage for every byte
    if id.utf8.withContiguousStorageIfAvailable({ bytes in !bytes.contains { $0 >= 0x80 } }) == true { return id }
    return canonicalIDSlow(id)
}

@inline(never)
private func canonicalIDSlow(_ id: String) -> String {
    for b in id.utf8 where b >= 0x80 { return String(decoding: id._nfcCodeUnits, as: UTF8.self) }
    return id
}

@inline(__always)
func canonicalID(_ id: String?) -> String? {
    id.map { canonicalID($0) }
}

extension FlowNode {
    /// The node with its parent and handle ids in NFC (its own id is, from `init`).
    mutating func canonicalizeIDs() {
        parentID = canonicalID(parentID)
        if !HandleDeclaration.isSharedDefault(handles) {
            for i in handles.indices { handles[i].id = canonicalID(handles[i].id) }
        }
    }
}

extension FlowEdge {
    /// The edge with its endpoints, handle ids and parent in NFC (its own id is, from `init`).
    mutating func canonicalizeIDs() {
        sourceNodeID = canonicalID(sourceNodeID)
        targetNodeID = canonicalID(targetNodeID)
        sourceHandleID = canonicalID(sourceHandleID)
        targetHandleID = canonicalID(targetHandleID)
        parentID = canonicalID(parentID)
    }
}

extension FlowFocusTarget {
    /// The target with its id in NFC.
    var canonical: FlowFocusTarget {
        switch self {
        case .node(let id): return .node(canonicalID(id))
        case .edge(let id): return .edge(canonicalID(id))
        }
    }
}
