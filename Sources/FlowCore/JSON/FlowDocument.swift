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

/// Shape checks for `FlowDocument` decoding. Paths are built only when an error is thrown.
private struct DocumentReader {
    let operation: String

    func error(_ path: String, _ message: String) -> FlowError {
        .invalidDocument(operation, path.isEmpty ? message : "\(path): \(message)")
    }

    private func missing(_ path: String, _ expected: String) -> FlowError {
        error(path, "missing (expected \(expected))")
    }

    // MARK: Values

    func object(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> JSONObject
    {
        guard let v else { throw missing(path(), "an object") }
        guard case .object(let o) = v else { throw error(path(), "expected an object") }
        return o
    }

    func array(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> [JSONValue]
    {
        guard let v else { throw missing(path(), "an array") }
        guard case .array(let a) = v else { throw error(path(), "expected an array") }
        return a
    }

    func string(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> String {
        guard let v else { throw missing(path(), "a string") }
        guard case .string(let s) = v else { throw error(path(), "expected a string") }
        return s
    }

    func number(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> Double {
        guard let v else { throw missing(path(), "a number") }
        guard case .number(let n) = v, n.isFinite else { throw error(path(), "expected a number") }
        return n
    }

    func pair(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> (
        Double, Double
    ) {
        guard let v else { throw missing(path(), "an array of 2 numbers") }
        guard case .array(let a) = v, a.count == 2, case .number(let x) = a[0],
            case .number(let y) = a[1],
            x.isFinite, y.isFinite
        else { throw error(path(), "expected an array of 2 numbers") }
        return (x, y)
    }

    /// nil when missing or null.
    func optionalString(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError)
        -> String?
    {
        switch v {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw error(path(), "expected a string or null")
        }
    }

    func bool(_ v: JSONValue?, default value: Bool, _ path: @autoclosure () -> String)
        throws(FlowError)
        -> Bool
    {
        switch v {
        case nil, .null?: return value
        case .bool(let b)?: return b
        default: throw error(path(), "expected true or false")
        }
    }

    func integer(_ v: JSONValue?, default value: Int, _ path: @autoclosure () -> String)
        throws(FlowError)
        -> Int
    {
        switch v {
        case nil, .null?: return value
        case .number(let n)? where n.magnitude <= 9_007_199_254_740_992:
            if let i = Int(exactly: n) { return i }
        default: break
        }
        throw error(path(), "expected an integer between -2^53 and 2^53")
    }

    /// A string enum; `defaultValue` nil makes it required.
    func enumValue<E: FlowEnum>(
        _ v: JSONValue?, _ type: E.Type, default defaultValue: E? = nil,
        _ path: @autoclosure () -> String
    ) throws(FlowError) -> E {
        func expected() -> String {
            "one of: " + E.allCases.map(\.rawValue).joined(separator: ", ")
        }
        switch v {
        case nil, .null?:
            if let defaultValue { return defaultValue }
            throw missing(path(), expected())
        case .string(let raw)?:
            if let value = E(rawValue: raw) { return value }
            do throws(FlowError) {
                return try E.parse(raw, in: operation)
            } catch {
                throw self.error(path(), error.message)
            }
        default:
            throw error(path(), "expected a string, \(expected())")
        }
    }

    /// An object with exactly one key naming an enum case, and that key's object payload.
    func singleCase(
        _ v: JSONValue, kind: String, cases: [String], _ path: @autoclosure () -> String
    ) throws(FlowError) -> (String, JSONObject) {
        let list = cases.joined(separator: ", ")
        guard case .object(let o) = v, o.count == 1, let name = o.keys.first else {
            throw error(path(), "expected an object with one key, one of: \(list)")
        }
        guard cases.contains(name) else {
            throw error(path(), "invalid \(kind) '\(name)' (expected one of: \(list))")
        }
        let payload = try object(o[name], "\(path()).\(name)")
        return (name, payload)
    }

    // MARK: Document parts

    // Fields are found in one pass over an object's keys, comparing lengths first. The
    // field names are ASCII without `K`, `;` or `` ` ``, the only ASCII characters with a
    // canonically equivalent non-ASCII spelling, so a key of another length never equals
    // them: this finds what `object[name]` would.

    func node<Data: FlowNodeData>(_ v: JSONValue, _ i: Int) throws(FlowError) -> FlowNode<Data> {
        let o = try object(v, "nodes[\(i)]")
        var id: JSONValue?
        var position: JSONValue?
        var size: JSONValue?
        var data: JSONValue?
        var parentID: JSONValue?
        var phase: JSONValue?
        var persistence: JSONValue?
        var isDraggable: JSONValue?
        var acceptsChildren: JSONValue?
        var zIndex: JSONValue?
        var handles: JSONValue?
        var autoSize: JSONValue?, classes: JSONValue?, shape: JSONValue?, style: JSONValue?
        for k in 0..<o.count {
            let key = o.keys[k]
            switch key.utf8.count {
            case 2: if key == "id" { id = o.value(at: k) }
            case 4:
                if key == "data" {
                    data = o.value(at: k)
                } else if key == "size" {
                    size = o.value(at: k)
                }
            case 5:
                if key == "phase" {
                    phase = o.value(at: k)
                } else if key == "shape" {
                    shape = o.value(at: k)
                } else if key == "style" {
                    style = o.value(at: k)
                }
            case 6: if key == "zIndex" { zIndex = o.value(at: k) }
            case 7:
                if key == "handles" {
                    handles = o.value(at: k)
                } else if key == "classes" {
                    classes = o.value(at: k)
                }
            case 8:
                if key == "position" {
                    position = o.value(at: k)
                } else if key == "parentID" {
                    parentID = o.value(at: k)
                } else if key == "autoSize" {
                    autoSize = o.value(at: k)
                }
            case 11:
                if key == "isDraggable" {
                    isDraggable = o.value(at: k)
                } else if key == "persistence" {
                    persistence = o.value(at: k)
                }
            case 15: if key == "acceptsChildren" { acceptsChildren = o.value(at: k) }
            default: break
            }
        }
        let path = { "nodes[\(i)]" }
        let decodedID = try string(id, "\(path()).id")
        let decodedPosition = try pair(position, "\(path()).position")
        let decodedSize = try pair(size, "\(path()).size")
        let decodedData: Data
        do throws(FlowError) {
            decodedData = try Data(jsonValue: data ?? .null)
        } catch {
            throw self.error("\(path()).data", error.message)
        }
        let decodedHandles: [HandleDeclaration]
        switch handles {
        case nil, .null?:
            decodedHandles = HandleDeclaration.defaults
        case let value?:
            let list = try array(value, "\(path()).handles")
            var decoded: [HandleDeclaration] = []
            decoded.reserveCapacity(list.count)
            for h in list.indices {
                decoded.append(try handle(list[h], "\(path()).handles[\(h)]"))
            }
            decodedHandles = decoded
        }
        let styles = StyleReader(operation: operation)
        let nodeSize = Size(decodedSize.0, decodedSize.1)
        return FlowNode(
            id: decodedID,
            position: Point(decodedPosition.0, decodedPosition.1),
            size: nodeSize,
            data: decodedData,
            parentID: try optionalString(parentID, "\(path()).parentID"),
            phase: try self.phase(phase, "\(path()).phase"),
            persistence: try enumValue(
                persistence, NodePersistence.self, default: .persistent, "\(path()).persistence"),
            isDraggable: try bool(isDraggable, default: true, "\(path()).isDraggable"),
            acceptsChildren: try bool(acceptsChildren, default: false, "\(path()).acceptsChildren"),
            zIndex: try integer(zIndex, default: 0, "\(path()).zIndex"),
            handles: decodedHandles,
            shape: try styles.shape(shape, "\(path()).shape"),
            classes: try styles.classes(classes, "\(path()).classes"),
            style: try styles.style(style, "\(path()).style").style,
            autoSize: try bool(autoSize, default: nodeSize == FlowNode<Data>.defaultSize, "\(path()).autoSize"))
    }

    func phase(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError)
        -> FlowNodePhase
    {
        guard let v, v != .null else { return .normal }
        let (name, payload) = try singleCase(v, kind: "phase", cases: ["normal", "draft"], path())
        guard name == "draft" else { return .normal }
        return .draft(
            try enumValue(payload["_0"], DraftPresentationState.self, "\(path()).draft._0"))
    }

    func handle(_ v: JSONValue, _ path: @autoclosure () -> String) throws(FlowError)
        -> HandleDeclaration
    {
        let o = try object(v, path())
        var id: JSONValue?
        var type: JSONValue?
        var position: JSONValue?
        var startArea: JSONValue?
        var targetArea: JSONValue?
        var offset: JSONValue?
        for k in 0..<o.count {
            let key = o.keys[k]
            switch key.utf8.count {
            case 2: if key == "id" { id = o.value(at: k) }
            case 6: if key == "offset" { offset = o.value(at: k) }
            case 4: if key == "type" { type = o.value(at: k) }
            case 8: if key == "position" { position = o.value(at: k) }
            case 19: if key == "connectionStartArea" { startArea = o.value(at: k) }
            case 20: if key == "connectionTargetArea" { targetArea = o.value(at: k) }
            default: break
            }
        }
        return HandleDeclaration(
            id: try string(id, "\(path()).id"),
            type: try enumValue(type, HandleType.self, "\(path()).type"),
            position: try enumValue(position, HandlePosition.self, "\(path()).position"),
            connectionStartArea: try hitArea(startArea, "\(path()).connectionStartArea"),
            connectionTargetArea: try hitArea(targetArea, "\(path()).connectionTargetArea"),
            offset: offset == nil ? 0 : try number(offset, "\(path()).offset"))
    }

    func hitArea(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError)
        -> HandleHitArea?
    {
        guard let v, v != .null else { return nil }
        let (name, payload) = try singleCase(
            v, kind: "hit area", cases: ["disabled", "point", "node", "nodeBorder"], path())
        switch name {
        case "point": return .point(radius: try number(payload["radius"], "\(path()).point.radius"))
        case "nodeBorder":
            return .nodeBorder(width: try number(payload["width"], "\(path()).nodeBorder.width"))
        case "node": return .node
        default: return .disabled
        }
    }

    func edge(_ v: JSONValue, _ i: Int) throws(FlowError) -> FlowEdge {
        let o = try object(v, "edges[\(i)]")
        var id: JSONValue?
        var source: JSONValue?
        var sourceHandle: JSONValue?
        var target: JSONValue?
        var targetHandle: JSONValue?
        var parentID: JSONValue?
        var pathType: JSONValue?
        var label: JSONValue?
        var points: JSONValue?
        var classes: JSONValue?, style: JSONValue?
        for k in 0..<o.count {
            let key = o.keys[k]
            switch key.utf8.count {
            case 2: if key == "id" { id = o.value(at: k) }
            case 5:
                if key == "label" {
                    label = o.value(at: k)
                } else if key == "style" {
                    style = o.value(at: k)
                }
            case 7: if key == "classes" { classes = o.value(at: k) }
            case 6: if key == "points" { points = o.value(at: k) }
            case 8:
                if key == "pathType" {
                    pathType = o.value(at: k)
                } else if key == "parentID" {
                    parentID = o.value(at: k)
                }
            case 12:
                if key == "sourceNodeID" {
                    source = o.value(at: k)
                } else if key == "targetNodeID" {
                    target = o.value(at: k)
                }
            case 14:
                if key == "sourceHandleID" {
                    sourceHandle = o.value(at: k)
                } else if key == "targetHandleID" {
                    targetHandle = o.value(at: k)
                }
            default: break
            }
        }
        return FlowEdge(
            id: try string(id, "edges[\(i)].id"),
            sourceNodeID: try string(source, "edges[\(i)].sourceNodeID"),
            sourceHandleID: try optionalString(sourceHandle, "edges[\(i)].sourceHandleID"),
            targetNodeID: try string(target, "edges[\(i)].targetNodeID"),
            targetHandleID: try optionalString(targetHandle, "edges[\(i)].targetHandleID"),
            parentID: try optionalString(parentID, "edges[\(i)].parentID"),
            pathType: try enumValue(
                pathType, EdgePathType.self, default: .bezier, "edges[\(i)].pathType"),
            label: try optionalString(label, "edges[\(i)].label"),
            points: try pointList(points, "edges[\(i)].points"),
            classes: try StyleReader(operation: operation).classes(classes, "edges[\(i)].classes"),
            style: try StyleReader(operation: operation).style(style, "edges[\(i)].style").style)
    }

    /// Bend points: `[[x, y], …]`; none when missing or null.
    func pointList(_ v: JSONValue?, _ path: @autoclosure () -> String) throws(FlowError) -> [Point] {
        guard let v, v != .null else { return [] }
        let list = try array(v, path())
        var points: [Point] = []
        points.reserveCapacity(list.count)
        for k in list.indices {
            let (x, y) = try pair(list[k], "\(path())[\(k)]")
            points.append(Point(x, y))
        }
        return points
    }
}

// MARK: - Fast path

/// Reads the usual form of a document straight from its bytes, without building a
/// `JSONValue` tree for the nodes and edges.
///
/// It gives up (throws) on anything unusual: invalid JSON, a wrong shape, `null`, an
/// escaped key, a hit area or phase with extra keys, data that `Data` rejects. `decode`
/// then reads the text the general way, which gives the same document or the precise
/// error. So this reader only has to be right when it succeeds, and there it agrees with
/// the general one: a repeated key takes its last value, unknown keys are skipped, and
/// keys are compared by their bytes (an escaped key gives up; a non-ASCII key never equals
/// a field name, see `DocumentReader`).
private struct FastDocumentReader<Data: FlowNodeData> {
    private var p: JSONParser

    /// Where a key's bytes are in the text.
    private struct Key {
        var start: Int
        var count: Int
    }

    init(_ parser: JSONParser) {
        p = parser
    }

    mutating func document() throws(JSONSyntaxError) -> FlowDocument<Data> {
        var nodes: [FlowNode<Data>]?
        var edges: [FlowEdge]?
        var viewport: Viewport?
        p.skipWhitespace()
        var more = try beginObject()
        while more {
            let key = try readKey()
            if matches(key, "nodes") {
                var list: [FlowNode<Data>] = []
                var element = try beginArray()
                while element {
                    list.append(try node())
                    element = try nextElement()
                }
                nodes = list
            } else if matches(key, "classes") || matches(key, "diagram") {
                throw giveUp()  // a style sheet, a diagram's look: the general reader reads them
            } else if matches(key, "edges") {
                var list: [FlowEdge] = []
                var element = try beginArray()
                while element {
                    list.append(try edge())
                    element = try nextElement()
                }
                edges = list
            } else if matches(key, "viewport") {
                viewport = try self.viewport()
            } else if matches(key, "version") {
                guard try number() == Double(FlowDocument<Data>.formatVersion) else {
                    throw giveUp()
                }
            } else {
                try skipValue()
            }
            more = try nextMember()
        }
        p.skipWhitespace()
        guard p.index == p.bytes.count, let nodes, let edges, let viewport else { throw giveUp() }
        return FlowDocument(nodes: nodes, edges: edges, viewport: viewport)
    }

    // MARK: Document parts

    private mutating func node() throws(JSONSyntaxError) -> FlowNode<Data> {
        var id: String?
        var position: (Double, Double)?
        var size: (Double, Double)?
        var data: JSONValue?
        var parentID: String?
        var phase = FlowNodePhase.normal
        var persistence = NodePersistence.persistent
        var isDraggable = true
        var acceptsChildren = false
        var zIndex = 0
        var handles = HandleDeclaration.defaults
        var more = try beginObject()
        while more {
            let key = try readKey()
            switch key.count {
            case 2 where matches(key, "id"): id = try string()
            case 4 where matches(key, "data"): data = try p.parseValue()
            case 4 where matches(key, "size"): size = try pair()
            case 5 where matches(key, "phase"): phase = try self.phase()
            case 6 where matches(key, "zIndex"): zIndex = try integer()
            case 7 where matches(key, "handles"): handles = try self.handles()
            case 8 where matches(key, "position"): position = try pair()
            case 8 where matches(key, "parentID"): parentID = try string()
            case 11 where matches(key, "isDraggable"): isDraggable = try bool()
            case 11 where matches(key, "persistence"):
                persistence = try enumValue(FastEnumNames.persistences)
            case 15 where matches(key, "acceptsChildren"): acceptsChildren = try bool()
            // shapes, styles and classes: the general reader reads them
            case 5 where matches(key, "shape") || matches(key, "style"): throw giveUp()
            case 7 where matches(key, "classes"): throw giveUp()
            case 8 where matches(key, "autoSize"): throw giveUp()
            default: try skipValue()
            }
            more = try nextMember()
        }
        guard let id, let position, let size else { throw giveUp() }
        let value: Data
        do throws(FlowError) {
            value = try Data(jsonValue: data ?? .null)
        } catch {
            throw giveUp()
        }
        return FlowNode(
            id: id, position: Point(position.0, position.1), size: Size(size.0, size.1),
            data: value,
            parentID: parentID, phase: phase, persistence: persistence, isDraggable: isDraggable,
            acceptsChildren: acceptsChildren, zIndex: zIndex, handles: handles,
            autoSize: size.0 == FlowNode<Data>.defaultSize.width && size.1 == FlowNode<Data>.defaultSize.height)
    }

    private mutating func handles() throws(JSONSyntaxError) -> [HandleDeclaration] {
        var list: [HandleDeclaration] = []
        var more = try beginArray()
        while more {
            list.append(try handle())
            more = try nextElement()
        }
        // Nodes with the default handles share one array.
        return list == HandleDeclaration.defaults ? HandleDeclaration.defaults : list
    }

    private mutating func handle() throws(JSONSyntaxError) -> HandleDeclaration {
        var id: String?
        var type: HandleType?
        var position: HandlePosition?
        var offset = 0.0
        var startArea: HandleHitArea?
        var targetArea: HandleHitArea?
        var more = try beginObject()
        while more {
            let key = try readKey()
            switch key.count {
            case 2 where matches(key, "id"): id = try string()
            case 6 where matches(key, "offset"): offset = try number()
            case 4 where matches(key, "type"): type = try enumValue(FastEnumNames.handleTypes)
            case 8 where matches(key, "position"):
                position = try enumValue(FastEnumNames.handlePositions)
            case 19 where matches(key, "connectionStartArea"): startArea = try hitArea()
            case 20 where matches(key, "connectionTargetArea"): targetArea = try hitArea()
            default: try skipValue()
            }
            more = try nextMember()
        }
        guard let id, let type, let position else { throw giveUp() }
        return HandleDeclaration(
            id: id, type: type, position: position, connectionStartArea: startArea,
            connectionTargetArea: targetArea, offset: offset)
    }

    /// `{"normal": {}}` or `{"draft": {"_0": state}}`, exactly.
    private mutating func phase() throws(JSONSyntaxError) -> FlowNodePhase {
        guard try beginObject() else { throw giveUp() }
        let key = try readKey()
        let phase: FlowNodePhase
        if matches(key, "normal") {
            try emptyObject()
            phase = .normal
        } else if matches(key, "draft") {
            guard try beginObject(), matches(try readKey(), "_0") else { throw giveUp() }
            phase = .draft(try enumValue(FastEnumNames.draftStates))
            guard try !nextMember() else { throw giveUp() }
        } else {
            throw giveUp()
        }
        guard try !nextMember() else { throw giveUp() }
        return phase
    }

    /// `{"disabled": {}}`, `{"point": {"radius": r}}`, `{"node": {}}` or
    /// `{"nodeBorder": {"width": w}}`, exactly.
    private mutating func hitArea() throws(JSONSyntaxError) -> HandleHitArea {
        guard try beginObject() else { throw giveUp() }
        let key = try readKey()
        let area: HandleHitArea
        if matches(key, "disabled") {
            try emptyObject()
            area = .disabled
        } else if matches(key, "point") {
            area = .point(radius: try onlyNumber("radius"))
        } else if matches(key, "node") {
            try emptyObject()
            area = .node
        } else if matches(key, "nodeBorder") {
            area = .nodeBorder(width: try onlyNumber("width"))
        } else {
            throw giveUp()
        }
        guard try !nextMember() else { throw giveUp() }
        return area
    }

    private mutating func edge() throws(JSONSyntaxError) -> FlowEdge {
        var id: String?
        var source: String?
        var sourceHandle: String?
        var target: String?
        var targetHandle: String?
        var parentID: String?
        var pathType = EdgePathType.bezier
        var label: String?
        var points: [Point] = []
        var more = try beginObject()
        while more {
            let key = try readKey()
            switch key.count {
            case 2 where matches(key, "id"): id = try string()
            case 5 where matches(key, "label"): label = try string()
            case 6 where matches(key, "points"): points = try pointList()
            case 8 where matches(key, "pathType"): pathType = try enumValue(FastEnumNames.pathTypes)
            case 8 where matches(key, "parentID"): parentID = try string()
            case 12 where matches(key, "sourceNodeID"): source = try string()
            case 12 where matches(key, "targetNodeID"): target = try string()
            case 14 where matches(key, "sourceHandleID"): sourceHandle = try string()
            case 14 where matches(key, "targetHandleID"): targetHandle = try string()
            // styles and classes: the general reader reads them
            case 5 where matches(key, "style"): throw giveUp()
            case 7 where matches(key, "classes"): throw giveUp()
            default: try skipValue()
            }
            more = try nextMember()
        }
        guard let id, let source, let target else { throw giveUp() }
        return FlowEdge(
            id: id, sourceNodeID: source, sourceHandleID: sourceHandle, targetNodeID: target,
            targetHandleID: targetHandle, parentID: parentID, pathType: pathType, label: label,
            points: points)
    }

    /// `[[x, y], …]`.
    private mutating func pointList() throws(JSONSyntaxError) -> [Point] {
        var points: [Point] = []
        var more = try beginArray()
        while more {
            let (x, y) = try pair()
            points.append(Point(x, y))
            more = try nextElement()
        }
        return points
    }

    private mutating func viewport() throws(JSONSyntaxError) -> Viewport {
        var offset: (Double, Double)?
        var zoom: Double?
        var more = try beginObject()
        while more {
            let key = try readKey()
            if matches(key, "offset") {
                offset = try pair()
            } else if matches(key, "zoom") {
                zoom = try number()
            } else {
                try skipValue()
            }
            more = try nextMember()
        }
        guard let offset, let zoom else { throw giveUp() }
        return Viewport(offset: Point(offset.0, offset.1), zoom: zoom)
    }

    // MARK: Values (each starts at its first byte and ends just after its last)

    private func giveUp() -> JSONSyntaxError { p.failure("not the usual document form") }

    private func at(_ c: UInt8) -> Bool { p.index < p.bytes.count && p.bytes[p.index] == c }

    private mutating func string() throws(JSONSyntaxError) -> String {
        guard at(ASCII.quote) else { throw giveUp() }
        return try p.parseString()
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        guard p.index < p.bytes.count else { throw giveUp() }
        let c = p.bytes[p.index]
        guard c == ASCII.minus || (c >= ASCII.zero && c <= ASCII.nine) else { throw giveUp() }
        return try p.parseNumber()
    }

    private mutating func integer() throws(JSONSyntaxError) -> Int {
        let n = try number()
        guard n.magnitude <= 9_007_199_254_740_992, let i = Int(exactly: n) else { throw giveUp() }
        return i
    }

    private mutating func bool() throws(JSONSyntaxError) -> Bool {
        if at(ASCII.t) {
            try p.literal("true")
            return true
        }
        if at(ASCII.f) {
            try p.literal("false")
            return false
        }
        throw giveUp()
    }

    /// A string that is one of `cases`, compared by bytes (no string is made).
    private mutating func enumValue<E>(_ cases: [(StaticString, E)]) throws(JSONSyntaxError) -> E {
        guard at(ASCII.quote), let base = p.bytes.baseAddress else { throw giveUp() }
        let start = p.index + 1
        let end = JSONParser.firstSpecialByte(in: p.bytes, from: start)
        for (name, value) in cases where name.utf8CodeUnitCount == end - start {
            if end < p.bytes.count, p.bytes[end] == ASCII.quote,
                JSONByteBuffer.equal(base + start, name.utf8Start, end - start)
            {
                p.index = end + 1
                return value
            }
        }
        throw giveUp()  // escaped, unknown or not a string: the general path decides
    }

    /// `[x, y]`.
    private mutating func pair() throws(JSONSyntaxError) -> (Double, Double) {
        guard try beginArray() else { throw giveUp() }
        let x = try number()
        guard try nextElement() else { throw giveUp() }
        let y = try number()
        guard try !nextElement() else { throw giveUp() }
        return (x, y)
    }

    /// `{}`.
    private mutating func emptyObject() throws(JSONSyntaxError) {
        guard try !beginObject() else { throw giveUp() }
    }

    /// `{"name": number}`.
    private mutating func onlyNumber(_ name: StaticString) throws(JSONSyntaxError) -> Double {
        guard try beginObject(), matches(try readKey(), name) else { throw giveUp() }
        let value = try number()
        guard try !nextMember() else { throw giveUp() }
        return value
    }

    private mutating func skipValue() throws(JSONSyntaxError) {
        _ = try p.parseValue()
    }

    // MARK: Structure

    /// Consumes `{`; true when a member follows, false when `}` closed the object.
    private mutating func beginObject() throws(JSONSyntaxError) -> Bool {
        try begin(ASCII.openBrace, closer: ASCII.closeBrace)
    }

    /// After a member: consumes `,` (true: another member follows) or `}` (false).
    private mutating func nextMember() throws(JSONSyntaxError) -> Bool {
        try next(closer: ASCII.closeBrace)
    }

    /// Consumes `[`; true when an element follows, false when `]` closed the array.
    private mutating func beginArray() throws(JSONSyntaxError) -> Bool {
        try begin(ASCII.openBracket, closer: ASCII.closeBracket)
    }

    /// Consumes `opener`; true when an item follows, false when `closer` ends the container.
    private mutating func begin(_ opener: UInt8, closer: UInt8) throws(JSONSyntaxError) -> Bool {
        guard at(opener) else { throw giveUp() }
        try p.enterContainer()
        p.index += 1
        p.skipWhitespace()
        if at(closer) {
            p.index += 1
            p.depth -= 1
            return false
        }
        return true
    }

    /// After an element: consumes `,` (true: another element follows) or `]` (false).
    private mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        try next(closer: ASCII.closeBracket)
    }

    private mutating func next(closer: UInt8) throws(JSONSyntaxError) -> Bool {
        p.skipWhitespace()
        if at(ASCII.comma) {
            p.index += 1
            p.skipWhitespace()
            return true
        }
        guard at(closer) else { throw giveUp() }
        p.index += 1
        p.depth -= 1
        return false
    }

    /// Reads `"key":` and leaves the index at the value.
    private mutating func readKey() throws(JSONSyntaxError) -> Key {
        guard at(ASCII.quote) else { throw giveUp() }
        let start = p.index + 1
        var end = JSONParser.firstSpecialByte(in: p.bytes, from: start)
        while end < p.bytes.count {
            let c = p.bytes[end]
            if c == ASCII.quote { break }
            if c == ASCII.backslash || c < 0x20 { throw giveUp() }
            end += 1
        }
        guard end < p.bytes.count else { throw giveUp() }
        p.index = end + 1
        p.skipWhitespace()
        guard at(ASCII.colon) else { throw giveUp() }
        p.index += 1
        p.skipWhitespace()
        return Key(start: start, count: end - start)
    }

    private func matches(_ key: Key, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount, let base = p.bytes.baseAddress else {
            return false
        }
        return JSONByteBuffer.equal(base + key.start, name.utf8Start, key.count)
    }
}

/// The raw values of the document's enums, for matching by bytes (a test checks them
/// against `allCases`).
enum FastEnumNames {
    static let persistences: [(StaticString, NodePersistence)] = [
        ("persistent", .persistent), ("transient", .transient),
    ]
    static let handleTypes: [(StaticString, HandleType)] = [
        ("source", .source), ("target", .target),
    ]
    static let handlePositions: [(StaticString, HandlePosition)] = [
        ("center", .center), ("top", .top), ("bottom", .bottom), ("left", .left), ("right", .right),
    ]
    static let draftStates: [(StaticString, DraftPresentationState)] = [
        ("neutral", .neutral), ("valid", .valid), ("invalid", .invalid),
    ]
    static let pathTypes: [(StaticString, EdgePathType)] = [
        ("bezier", .bezier), ("straight", .straight), ("smoothStep", .smoothStep),
        ("simpleBezier", .simpleBezier), ("orthogonal", .orthogonal),
    ]
}
