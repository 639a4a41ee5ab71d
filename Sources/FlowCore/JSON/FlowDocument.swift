/// A diagram as a document: nodes, edges and viewport (store-semantics §1.6).
///
/// `encoded()` writes the JSON text (sorted keys, pretty printed, `"version": 1`, final
/// newline); `decode` reads it back. Decoding is strict about the shape and returns exactly
/// what the text says: it does not repair duplicates, dangling edges or parent cycles (the
/// store's `load` does that and reports it).
public struct FlowDocument<Data: FlowNodeData> {
    public var nodes: [FlowNode<Data>]
    public var edges: [FlowEdge]
    public var viewport: Viewport
    /// The style sheet (`FlowStore.classStyles`); written as `"classes"` when not empty.
    public var classes: [String: FlowClass]
    /// The diagram's title and page colour; written as `"diagram"` when not empty.
    public var look: DiagramLook

    /// The document format version written by `encoded()` and accepted by `decode`.
    public static var formatVersion: Int { 1 }

    public init(
        nodes: [FlowNode<Data>] = [], edges: [FlowEdge] = [], viewport: Viewport = Viewport(),
        classes: [String: FlowClass] = [:], look: DiagramLook = DiagramLook()
    ) {
        self.nodes = nodes
        self.edges = edges
        self.viewport = viewport
        self.classes = classes
        self.look = look
    }
}

extension FlowDocument: Equatable {}

// MARK: - Encoding

extension FlowDocument {
    /// The document as JSON text, keys sorted by their UTF-8 bytes, pretty printed, ending
    /// in a newline. The flags `isSelected`, `isHovered` and `isDropTarget` are not written
    /// (D4); optional fields are omitted when nil. Node data is written as
    /// `data.jsonValue()` returns it, its objects in their own key order (not sorted), so
    /// that the document reads back equal.
    ///
    /// Throws `invalidValue` (operation `export`) for a position, size, bend point, viewport
    /// or hit-area number that is not finite, or a `zIndex` beyond ±2^53, since the text would not read
    /// back; errors thrown by `jsonValue()` are passed on with the node's path.
    @_specialize(where Data == JSONValue)
    public func encoded() throws(FlowError) -> String {
        var text = try DocumentTextWriter<Data>(classes: classes, look: look, nodeCount: nodes.count, edgeCount: edges.count)
        for e in edges { try text.edge(e, parentID: e.parentID) }
        text.beginNodes()
        for n in nodes { try text.node(n, parentID: n.parentID) }
        return try text.finish(viewport: viewport)
    }

    // Nodes and edges are written as literal fragments of the layout the writer would
    // produce (tests compare the two): a node or edge object sits at depth 3 (members
    // indented by 6 spaces), a handle at depth 5 (10 spaces).

    /// Node `i` of the document, with `parentID` in place of its own.
    static func write(_ node: FlowNode<Data>, index i: Int, parentID: String?, to w: inout JSONWriter)
        throws(FlowError)
    {
        guard node.position.x.isFinite, node.position.y.isFinite else {
            throw nonFinite("nodes[\(i)].position")
        }
        guard node.size.width.isFinite, node.size.height.isFinite else {
            throw nonFinite("nodes[\(i)].size")
        }
        guard node.zIndex.magnitude <= maximumExactInteger else {
            throw .invalidValue(
                "export",
                "nodes[\(i)].zIndex: \(node.zIndex) is beyond ±2^53 and cannot be written exactly")
        }
        let data: JSONValue
        do throws(FlowError) {
            data = try node.data.jsonValue()
        } catch {
            throw FlowError(
                error.code, operation: error.operation,
                message: "nodes[\(i)].data: \(error.message)")
        }
        w.beginObject()
        w.fragment(
            node.acceptsChildren ? "\n      \"acceptsChildren\": true" : "\n      \"acceptsChildren\": false")
        // Written only when it is not what a reader infers: sized to the title exactly
        // when the size is the default one.
        if node.autoSize != (node.size == FlowNode<Data>.defaultSize) {
            w.fragment(node.autoSize ? ",\n      \"autoSize\": true" : ",\n      \"autoSize\": false")
        }
        let look = node.look
        if let look, !look.classes.isEmpty {
            w.fragment(",\n      \"classes\": ")
            w.fragment(value: .array(look.classes.map { .string($0) }))
        }
        w.fragment(",\n      \"data\": ")
        w.fragment(value: data)
        if node.handles.isEmpty {
            w.fragment(",\n      \"handles\": [],")
        } else {
            w.fragment(",\n      \"handles\": [")
            for h in node.handles.indices {
                w.fragment(h == 0 ? "\n        {" : ",\n        {")
                try write(node.handles[h], to: &w, "nodes[\(i)].handles[\(h)]")
                w.fragment("\n        }")
            }
            w.fragment("\n      ],")
        }
        w.fragment("\n      \"id\": ")
        w.fragment(quoting: node.id)
        w.fragment(
            node.isDraggable ? ",\n      \"isDraggable\": true" : ",\n      \"isDraggable\": false")
        if let parentID {
            w.fragment(",\n      \"parentID\": ")
            w.fragment(quoting: parentID)
        }
        w.fragment(",\n      \"persistence\": ")
        w.fragment(quoting: node.persistence.rawValue)
        switch node.phase {
        case .normal:
            w.fragment(",\n      \"phase\": {\n        \"normal\": {}\n      }")
        case .draft(let state):
            w.fragment(",\n      \"phase\": {\n        \"draft\": {\n          \"_0\": ")
            w.fragment(quoting: state.rawValue)
            w.fragment("\n        }\n      }")
        }
        w.fragment(",\n      \"position\": [")
        w.fragment(number: node.position.x)
        w.fragment(", ")
        w.fragment(number: node.position.y)
        w.fragment("]")
        if let shape = look?.shape {
            w.fragment(",\n      \"shape\": ")
            w.fragment(quoting: shape.rawValue)
        }
        w.fragment(",\n      \"size\": [")
        w.fragment(number: node.size.width)
        w.fragment(", ")
        w.fragment(number: node.size.height)
        w.fragment("]")
        if let look, !look.style.isEmpty {
            guard !look.style.hasNonFiniteNumber else { throw nonFinite("nodes[\(i)].style") }
            w.fragment(",\n      \"style\": ")
            w.fragment(value: look.style.jsonValue())
        }
        w.fragment(",\n      \"zIndex\": ")
        w.fragment(integer: node.zIndex)
        w.endObject()
    }

    /// The members of a handle object (its braces are written by the caller).
    private static func write(
        _ handle: HandleDeclaration, to w: inout JSONWriter, _ path: @autoclosure () -> String
    ) throws(FlowError) {
        if let area = handle.connectionStartArea {
            w.fragment("\n          \"connectionStartArea\": ")
            try write(area, to: &w, "\(path()).connectionStartArea")
            w.fragment(",")
        }
        if let area = handle.connectionTargetArea {
            w.fragment("\n          \"connectionTargetArea\": ")
            try write(area, to: &w, "\(path()).connectionTargetArea")
            w.fragment(",")
        }
        w.fragment("\n          \"id\": ")
        w.fragment(quoting: handle.id)
        if handle.offset != 0 {
            w.fragment(",\n          \"offset\": ")
            w.fragment(number: handle.offset)
        }
        w.fragment(",\n          \"position\": ")
        w.fragment(quoting: handle.position.rawValue)
        w.fragment(",\n          \"type\": ")
        w.fragment(quoting: handle.type.rawValue)
    }

    /// A hit area as the value of a handle member.
    private static func write(
        _ area: HandleHitArea, to w: inout JSONWriter, _ path: @autoclosure () -> String
    ) throws(FlowError) {
        switch area {
        case .disabled:
            w.fragment("{\n            \"disabled\": {}\n          }")
        case .point(let radius):
            guard radius.isFinite else { throw nonFinite("\(path()).point.radius") }
            w.fragment("{\n            \"point\": {\n              \"radius\": ")
            w.fragment(number: radius)
            w.fragment("\n            }\n          }")
        case .node:
            w.fragment("{\n            \"node\": {}\n          }")
        case .nodeBorder(let width):
            guard width.isFinite else { throw nonFinite("\(path()).nodeBorder.width") }
            w.fragment("{\n            \"nodeBorder\": {\n              \"width\": ")
            w.fragment(number: width)
            w.fragment("\n            }\n          }")
        }
    }

    /// Edge `i` of the document, with `parentID` in place of its own; its bend points, when
    /// it has some, as `"points": [[x, y], …]`.
    static func write(_ edge: FlowEdge, index i: Int, parentID: String?, to w: inout JSONWriter)
        throws(FlowError)
    {
        w.beginObject()
        let look = edge.look
        if let look, !look.classes.isEmpty {
            w.fragment("\n      \"classes\": ")
            w.fragment(value: .array(look.classes.map { .string($0) }))
            w.fragment(",")
        }
        w.fragment("\n      \"id\": ")
        w.fragment(quoting: edge.id)
        if let label = edge.label {
            w.fragment(",\n      \"label\": ")
            w.fragment(quoting: label)
        }
        if let parentID {
            w.fragment(",\n      \"parentID\": ")
            w.fragment(quoting: parentID)
        }
        w.fragment(",\n      \"pathType\": ")
        w.fragment(quoting: edge.pathType.rawValue)
        if !edge.points.isEmpty {
            w.fragment(",\n      \"points\": [")
            for (k, p) in edge.points.enumerated() {
                guard p.x.isFinite, p.y.isFinite else { throw nonFinite("edges[\(i)].points[\(k)]") }
                w.fragment(k == 0 ? "\n        [" : ",\n        [")
                w.fragment(number: p.x)
                w.fragment(", ")
                w.fragment(number: p.y)
                w.fragment("]")
            }
            w.fragment("\n      ]")
        }
        if let handle = edge.sourceHandleID {
            w.fragment(",\n      \"sourceHandleID\": ")
            w.fragment(quoting: handle)
        }
        w.fragment(",\n      \"sourceNodeID\": ")
        w.fragment(quoting: edge.sourceNodeID)
        if let look, !look.style.isEmpty {
            guard !look.style.hasNonFiniteNumber else { throw nonFinite("edges[\(i)].style") }
            w.fragment(",\n      \"style\": ")
            w.fragment(value: look.style.jsonValue())
        }
        if let handle = edge.targetHandleID {
            w.fragment(",\n      \"targetHandleID\": ")
            w.fragment(quoting: handle)
        }
        w.fragment(",\n      \"targetNodeID\": ")
        w.fragment(quoting: edge.targetNodeID)
        w.endObject()
    }

    static func writePair(
        _ a: Double, _ b: Double, to w: inout JSONWriter, _ path: @autoclosure () -> String
    ) throws(FlowError) {
        guard a.isFinite && b.isFinite else { throw nonFinite(path()) }
        w.beginArray()
        w.number(a)
        w.number(b)
        w.endArray()
    }

    static func writeNumber(
        _ v: Double, to w: inout JSONWriter, _ path: @autoclosure () -> String
    ) throws(FlowError) {
        guard v.isFinite else { throw nonFinite(path()) }
        w.number(v)
    }

    static func nonFinite(_ path: String) -> FlowError {
        .invalidValue("export", "\(path): a number is not finite and cannot be written as JSON")
    }
}

/// 2^53: integers up to this magnitude read back exactly from JSON numbers.
private let maximumExactInteger: UInt = 9_007_199_254_740_992

// MARK: - Decoding

extension FlowDocument {
    /// Reads a document from JSON text.
    ///
    /// Invalid JSON or a wrong shape throws `invalidDocument` under `operation`, naming the
    /// place: `load: nodes[3].position: expected an array of 2 numbers`. Required: an object
    /// with `nodes` and `edges` (arrays) and `viewport` (`offset` as 2 numbers, `zoom`);
    /// `version`, when present, must be 1. A node needs `id`, `position` and `size`, an edge
    /// `id`, `sourceNodeID` and `targetNodeID`; every other field takes its default when
    /// missing or `null` (a missing `data` reads as `Data(jsonValue: .null)`). Unknown keys,
    /// including the `isSelected`/`isHovered`/`isDropTarget` flags, are ignored. A leading
    /// byte order mark is skipped.
    @_specialize(where Data == JSONValue)
    public static func decode(_ text: String, operation: String = "load") throws(FlowError)
        -> FlowDocument
    {
        // a byte order mark before the document is skipped (RFC 8259 lets a reader ignore it)
        var text = text
        if text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) { text.unicodeScalars.removeFirst() }
        if let document = decodeUsualForm(text) { return document }
        let json = try JSONValue.parse(text, operation: operation)
        return try FlowDocument(json: json, operation: operation)
    }

    /// The fast path of `decode`: the document, or nil when the text is not in the usual
    /// form (see `FastDocumentReader`).
    static func decodeUsualForm(_ text: String) -> FlowDocument? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = FastDocumentReader<Data>(JSONParser(bytes))
            do throws(JSONSyntaxError) {
                return try reader.document()
            } catch {
                return nil
            }
        }
    }

    /// Reads a document from an already parsed JSON value, as `decode` does.
    @_specialize(where Data == JSONValue)
    public init(json: JSONValue, operation: String = "load") throws(FlowError) {
        let r = DocumentReader(operation: operation)
        guard case .object(let top) = json else {
            throw r.error("", "expected an object at the top level")
        }
        if let version = top["version"], version != .null {
            guard case .number(let n) = version, n == Double(Self.formatVersion) else {
                let found = version.serialized(pretty: false)
                throw r.error(
                    "version",
                    "unsupported document version \(found) (expected \(Self.formatVersion))")
            }
        }
        let nodeValues = try r.array(top["nodes"], "nodes")
        let edgeValues = try r.array(top["edges"], "edges")
        let viewportObject = try r.object(top["viewport"], "viewport")
        let offset = try r.pair(viewportObject["offset"], "viewport.offset")
        let zoom = try r.number(viewportObject["zoom"], "viewport.zoom")

        var nodes: [FlowNode<Data>] = []
        nodes.reserveCapacity(nodeValues.count)
        for i in nodeValues.indices {
            nodes.append(try r.node(nodeValues[i], i))
        }
        var edges: [FlowEdge] = []
        edges.reserveCapacity(edgeValues.count)
        for i in edgeValues.indices {
            edges.append(try r.edge(edgeValues[i], i))
        }
        self.init(
            nodes: nodes, edges: edges,
            viewport: Viewport(offset: Point(offset.0, offset.1), zoom: zoom),
            classes: try StyleReader(operation: operation).sheet(top["classes"], "classes"),
            look: try DiagramLook(json: top["diagram"], operation: operation))
    }
}
