/// One primitive change, recorded so that it can be undone exactly. Entries that carry a
/// whole node or edge are boxed (`indirect`), so the common ones (moves, inserts,
/// selection) stay small in the journal and the undo history.
enum JournalEntry<Data: FlowNodeData> {
    case insertNode(String, seq: Int)
    indirect case removeNode(FlowNode<Data>, seq: Int)
    indirect case replaceNode(old: FlowNode<Data>, new: FlowNode<Data>)
    /// A node's position changed from `from` (nothing else changed; the inverse moves it
    /// back to `from`, whatever the position is then). The node is named by its inline id
    /// key (an id of up to 15 bytes: two words, nothing to retain), or by its id.
    case moveNode(IDKey, from: Point)
    case moveNodeByID(String, from: Point)
    case insertEdge(String, seq: Int)
    indirect case removeEdge(FlowEdge, seq: Int)
    indirect case replaceEdge(old: FlowEdge, new: FlowEdge)
    case selectNode(String, Bool)
    case selectEdge(String, Bool)
    /// The style sheet was replaced; `old` is the sheet before.
    indirect case setClassStyles(old: [String: FlowClass])

    /// Whether the entry changes document content (selection alone does not).
    var isDocumentChange: Bool {
        switch self {
        case .selectNode, .selectEdge: return false
        default: return true
        }
    }
}

/// How a node replacement is reported.
enum NodeEvent {
    case none, position, dimensions, replace
}

/// Non-document state restored when an operation or transaction is rolled back.
struct AuxState {
    var viewport: Viewport
    var focusedTarget: FlowFocusTarget?
    var hoveredNodeID: String?
    var dropTargetNodeID: String?
    var dropTargetEdgeID: String?
    var animatedEdges: Set<String>
    var interaction: InteractionSnapshot
}
