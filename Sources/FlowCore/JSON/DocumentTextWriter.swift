/// Writes a document's JSON text item by item (what `FlowDocument.encoded()` returns), so
/// that a store can be exported straight from its tables, without first copying its nodes
/// and edges into a `FlowDocument`. Call `edge` for every edge, then `beginNodes`, `node`
/// for every node, and `finish`; the items' indices in error messages count the calls.
struct DocumentTextWriter<Data: FlowNodeData> {
    /// The text is written in pieces of about this many bytes, each appended to `out`: a
    /// small buffer stays in cache and the whole text is allocated only once.
    private static var pieceSize: Int { 1 << 16 }

    private var out = ""
    private var w = JSONWriter(pretty: true, sortedKeys: false)
    private var edges = 0
    private var nodes = 0

    /// Starts the document: its classes (sorted by name) and the edges array.
    init(classes: [String: FlowClass], look: DiagramLook = DiagramLook(), nodeCount: Int, edgeCount: Int) throws(FlowError) {
        // Generous: growing would copy the text and touch twice the memory.
        out.reserveCapacity(4096 + nodeCount * 1024 + edgeCount * 384)
        w.reserveCapacity(2 * Self.pieceSize)
        w.beginObject()
        // The document's own keys are written in sorted order; `sortedKeys: false` keeps the
        // key order of node data objects.
        if !classes.isEmpty {
            for name in classes.keys.sorted() where classes[name]!.style.hasNonFiniteNumber {  // invariant: a key
                throw FlowDocument<Data>.nonFinite("classes.\(name)")
            }
            w.rawKey("classes")
            w.value(FlowClass.jsonValue(classes))
        }
        if !look.isEmpty {
            if let s = look.fontSize, !s.isFinite { throw FlowDocument<Data>.nonFinite("diagram.fontSize") }
            if let s = look.nodeSpacing, !s.isFinite { throw FlowDocument<Data>.nonFinite("diagram.nodeSpacing") }
            if let s = look.layerSpacing, !s.isFinite { throw FlowDocument<Data>.nonFinite("diagram.layerSpacing") }
            w.rawKey("diagram")
            w.value(look.jsonValue)
        }
        w.rawKey("edges")
        w.beginArray(multiline: true)
    }

    /// The next edge, with `parentID` in place of its own.
    mutating func edge(_ e: FlowEdge, parentID: String?) throws(FlowError) {
        try FlowDocument<Data>.write(e, index: edges, parentID: parentID, to: &w)
        edges += 1
        if w.byteCount >= Self.pieceSize { try drain() }
    }

    /// Appends the buffer to the text; stops the writing (throws) past the current
    /// `WorkLimit`, looked at once a piece.
    private mutating func drain() throws(FlowError) {
        w.drain(into: &out)
        try WorkLimit.check("export")
    }

    /// Ends the edges and starts the nodes.
    mutating func beginNodes() {
        w.endArray()
        w.rawKey("nodes")
        w.beginArray(multiline: true)
    }

    /// The next node, with `parentID` in place of its own.
    mutating func node(_ n: FlowNode<Data>, parentID: String?) throws(FlowError) {
        try FlowDocument<Data>.write(n, index: nodes, parentID: parentID, to: &w)
        nodes += 1
        if w.byteCount >= Self.pieceSize { try drain() }
    }

    /// Ends the nodes, writes the version and the viewport, and returns the text.
    mutating func finish(viewport: Viewport) throws(FlowError) -> String {
        w.endArray()
        w.rawKey("version")
        w.number(FlowDocument<Data>.formatVersion)
        w.rawKey("viewport")
        w.beginObject()
        w.rawKey("offset")
        try FlowDocument<Data>.writePair(viewport.offset.x, viewport.offset.y, to: &w, "viewport.offset")
        w.rawKey("zoom")
        try FlowDocument<Data>.writeNumber(viewport.zoom, to: &w, "viewport.zoom")
        w.endObject()
        w.endObject()
        w.appendNewline()
        w.drain(into: &out)
        return out
    }
}
