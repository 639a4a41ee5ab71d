// The selection context (store-semantics §13): what is selected and where it is drawn, for
// decorations and accessories.

/// The selected nodes and edges with their frames in canvas and screen coordinates.
public struct SelectionContext<Data: FlowNodeData>: Equatable {
    /// Where one selected item is.
    public struct Frame: Hashable, Sendable {
        public let id: String
        /// Canvas coordinates.
        public let canvas: Rect
        /// Screen coordinates (both corners mapped, normalised).
        public let screen: Rect
    }

    /// The selected nodes, in store order.
    public let nodes: [FlowNode<Data>]
    /// The selected edges, in store order.
    public let edges: [FlowEdge]
    public let selectedNodeIDs: [String]
    public let selectedEdgeIDs: [String]
    /// Frames of the selected nodes, in store order.
    public let nodeFrames: [Frame]
    /// Frames of the selected edges (their selection frames), in store order; edges whose
    /// handles cannot be resolved are left out.
    public let edgeFrames: [Frame]
    /// Union of all frames, nil when there are none.
    public let boundsInCanvas: Rect?
    public let boundsInScreen: Rect?
    public let viewport: Viewport
    public let canvasSize: Size

    /// Whether nothing is selected.
    public var isEmpty: Bool { selectedNodeIDs.isEmpty && selectedEdgeIDs.isEmpty }
}

extension FlowStore {
    /// The selection and its frames for a canvas of `canvasSize`, or nil when nothing is
    /// selected. A node's frame is its frame; an edge's is its path bounds united with both
    /// end points, grown by 1 (`EdgeGeometry.selectionFrame`).
    public func selectionContext(canvasSize: Size) throws(FlowError) -> SelectionContext<Data>? {
        try requireSize(canvasSize, "selectionContext")
        if marks.selectedNodes.isEmpty && marks.selectedEdges.isEmpty { return nil }
        let nodeIDs = selectedNodeIDs, edgeIDs = selectedEdgeIDs
        let nodes = nodeIDs.compactMap { nodeTable[$0] }
        let edges = edgeIDs.compactMap { edgeTable[$0] }
        let nodeFrames = nodes.map { frame($0.id, $0.frame) }
        let edgeFrames = edges.compactMap { e in edgeGeometry(of: e).map { frame(e.id, $0.selectionFrame) } }
        let all = nodeFrames + edgeFrames
        let bounds = all.dropFirst().reduce(all.first?.canvas) { $0?.union($1.canvas) }
        return SelectionContext(
            nodes: nodes, edges: edges, selectedNodeIDs: nodeIDs, selectedEdgeIDs: edgeIDs,
            nodeFrames: nodeFrames, edgeFrames: edgeFrames, boundsInCanvas: bounds,
            boundsInScreen: bounds.map(screenRect), viewport: viewport, canvasSize: canvasSize)
    }

    /// A canvas rectangle in screen coordinates (both corners mapped, normalised).
    public func screenRect(_ r: Rect) -> Rect {
        Rect(corner: canvasToScreen(Point(r.minX, r.minY)), corner: canvasToScreen(Point(r.maxX, r.maxY)))
    }

    private func frame(_ id: String, _ canvas: Rect) -> SelectionContext<Data>.Frame {
        SelectionContext<Data>.Frame(id: id, canvas: canvas, screen: screenRect(canvas))
    }
}
