// The JSON form of actions and batches: what a workspace stores and what the Lua binding
// turns into tables. Nodes and edges are written exactly as in a document.

extension FlowDocument {
    /// A node as the document writes it (one object, pretty printed).
    public static func nodeText(_ node: FlowNode<Data>) throws(FlowError) -> String {
        var w = JSONWriter(pretty: true, sortedKeys: false)
        try write(node, index: 0, parentID: node.parentID, to: &w)
        return w.text
    }

    /// An edge as the document writes it.
    public static func edgeText(_ edge: FlowEdge) throws(FlowError) -> String {
        var w = JSONWriter(pretty: true, sortedKeys: false)
        try write(edge, index: 0, parentID: edge.parentID, to: &w)
        return w.text
    }

    /// A style sheet as the document writes it (`"classes"`).
    public static func classesJSON(_ sheet: [String: FlowClass]) -> JSONValue {
        FlowClass.jsonValue(sheet)
    }

    /// Reads a style sheet written by `classesJSON`.
    public static func classes(json: JSONValue, operation: String) throws(FlowError) -> [String: FlowClass] {
        try StyleReader(operation: operation).sheet(json, "classes")
    }

    /// Reads one node or edge object through the document reader; errors name `what`
    /// instead of the document path.
    fileprivate static func part(_ key: String, _ v: JSONValue, _ operation: String, _ what: String) throws(FlowError) -> FlowDocument {
        let viewport = JSONValue.object(JSONObject([("offset", .array([.number(0), .number(0)])), ("zoom", .number(1))]))
        var top: [(String, JSONValue)] = [("nodes", .array([])), ("edges", .array([])), ("viewport", viewport)]
        top[key == "nodes" ? 0 : 1].1 = .array([v])
        do throws(FlowError) {
            return try FlowDocument(json: .object(JSONObject(top)), operation: operation)
        } catch {
            let prefix = "\(key)[0]"
            let m = error.message
            let message = m.hasPrefix(prefix) ? what + m.dropFirst(prefix.count) : m
            throw FlowError(error.code, operation: operation, message: message)
        }
    }
}

extension FlowAction {
    /// The action as a JSON object: `{"op": "moveNode", "id": "a", "position": [x, y]}`,
    /// `{"op": "addNode", "node": {…}, "seq": 3}`, `{"op": "removeEdge", "id": "e1"}`,
    /// `{"op": "setClasses", "classes": {…}}`, `{"op": "load", "document": {…}}`.
    public func jsonValue() throws(FlowError) -> JSONValue {
        var o: [(String, JSONValue)] = [("op", .string(op))]
        switch self {
        case .addNode(let n, let seq):
            o.append(("node", try Self.parsed(FlowDocument<Data>.nodeText(n))))
            o.append(("seq", .number(Double(seq))))
        case .updateNode(let n):
            o.append(("node", try Self.parsed(FlowDocument<Data>.nodeText(n))))
        case .moveNode(let id, let p):
            o.append(("id", .string(id)))
            o.append(("position", .array([.number(p.x), .number(p.y)])))
        case .removeNode(let id), .removeEdge(let id):
            o.append(("id", .string(id)))
        case .addEdge(let e, let seq):
            o.append(("edge", try Self.parsed(FlowDocument<Data>.edgeText(e))))
            o.append(("seq", .number(Double(seq))))
        case .updateEdge(let e):
            o.append(("edge", try Self.parsed(FlowDocument<Data>.edgeText(e))))
        case .setClasses(let sheet):
            o.append(("classes", FlowClass.jsonValue(sheet)))
        case .load(let d):
            o.append(("document", try Self.parsed(d.encoded())))
        }
        return .object(JSONObject(o))
    }

    /// `jsonValue()` as compact text, written directly (nodes and edges as the document
    /// writes them): what a workspace stores per batch, without building the value.
    public func jsonText() throws(FlowError) -> String {
        func quoted(_ s: String) -> String { JSONValue.string(s).serialized(pretty: false) }
        let head = "{\"op\":\"\(op)\""
        switch self {
        case .addNode(let n, let seq): return head + ",\"node\":" + (try FlowDocument<Data>.nodeText(n)) + ",\"seq\":\(seq)}"
        case .updateNode(let n): return head + ",\"node\":" + (try FlowDocument<Data>.nodeText(n)) + "}"
        case .moveNode(let id, let p):
            guard p.x.isFinite, p.y.isFinite else { return try jsonValue().serialized(pretty: false) }
            return head + ",\"id\":" + quoted(id) + ",\"position\":[" + JSONWriter.formatNumber(p.x) + ","
                + JSONWriter.formatNumber(p.y) + "]}"
        case .removeNode(let id), .removeEdge(let id): return head + ",\"id\":" + quoted(id) + "}"
        case .addEdge(let e, let seq): return head + ",\"edge\":" + (try FlowDocument<Data>.edgeText(e)) + ",\"seq\":\(seq)}"
        case .updateEdge(let e): return head + ",\"edge\":" + (try FlowDocument<Data>.edgeText(e)) + "}"
        case .setClasses, .load: return try jsonValue().serialized(pretty: false)
        }
    }

    private static func parsed(_ text: String) throws(FlowError) -> JSONValue {
        try JSONValue.parse(text, operation: "journal")
    }

    /// Reads an action from its JSON form; errors are reported for `operation` and name
    /// the field (`action.node.position`).
    public init(json: JSONValue, operation: String, path: String = "action") throws(FlowError) {
        func fail(_ message: String) -> FlowError { .invalidValue(operation, "\(path): \(message)") }
        guard case .object(let o) = json else { throw fail("expected a table") }
        guard case .string(let op)? = o["op"] else { throw fail("field 'op' missing (expected an action name)") }
        func string(_ key: String) throws(FlowError) -> String {
            guard case .string(let s)? = o[key] else { throw fail("field '\(key)': string expected") }
            return s
        }
        func seq() throws(FlowError) -> Int {
            guard case .number(let n)? = o["seq"], n >= 0, n < 1e15, n == n.rounded() else {
                throw fail("field 'seq': non-negative integer expected")
            }
            return Int(n)
        }
        func value(_ key: String) throws(FlowError) -> JSONValue {
            guard let v = o[key] else { throw fail("field '\(key)' missing") }
            return v
        }
        let what = "\(path).\(op == "addNode" || op == "updateNode" ? "node" : "edge")"
        switch op {
        case "addNode":
            self = .addNode(try FlowDocument<Data>.part("nodes", value("node"), operation, what).nodes[0], seq: try seq())
        case "updateNode":
            self = .updateNode(try FlowDocument<Data>.part("nodes", value("node"), operation, what).nodes[0])
        case "moveNode":
            guard case .array(let a)? = o["position"], a.count == 2, case .number(let x) = a[0], case .number(let y) = a[1] else {
                throw fail("field 'position': [x, y] expected")
            }
            self = .moveNode(try string("id"), to: Point(x, y))
        case "removeNode": self = .removeNode(try string("id"))
        case "addEdge":
            self = .addEdge(try FlowDocument<Data>.part("edges", value("edge"), operation, what).edges[0], seq: try seq())
        case "updateEdge":
            self = .updateEdge(try FlowDocument<Data>.part("edges", value("edge"), operation, what).edges[0])
        case "removeEdge": self = .removeEdge(try string("id"))
        case "setClasses":
            self = .setClasses(try StyleReader(operation: operation).sheet(value("classes"), "\(path).classes"))
        case "load":
            self = .load(try FlowDocument<Data>(json: value("document"), operation: operation))
        default:
            throw fail("unknown op '\(op)' (expected one of: addNode, updateNode, moveNode, removeNode, addEdge, updateEdge, removeEdge, setClasses, load)")
        }
    }
}

extension FlowBatch {
    /// `{"name": "Move", "actions": [...]}`.
    public func jsonValue() throws(FlowError) -> JSONValue {
        var list: [JSONValue] = []
        list.reserveCapacity(actions.count)
        for a in actions { list.append(try a.jsonValue()) }
        return .object(JSONObject([("name", .string(name)), ("actions", .array(list))]))
    }

    /// `jsonValue()` as compact text (see `FlowAction.jsonText`).
    public func jsonText() throws(FlowError) -> String {
        var out = "{\"name\":" + JSONValue.string(name).serialized(pretty: false) + ",\"actions\":["
        for (i, a) in actions.enumerated() {
            if i > 0 { out += "," }
            out += try a.jsonText()
        }
        return out + "]}"
    }

    public init(json: JSONValue, operation: String, path: String = "batch") throws(FlowError) {
        guard case .object(let o) = json else { throw .invalidValue(operation, "\(path): expected a table") }
        guard case .string(let name)? = o["name"] else { throw .invalidValue(operation, "\(path): field 'name': string expected") }
        guard case .array(let list)? = o["actions"] else { throw .invalidValue(operation, "\(path): field 'actions': array expected") }
        var actions: [FlowAction<Data>] = []
        for (i, v) in list.enumerated() { actions.append(try FlowAction(json: v, operation: operation, path: "\(path).actions[\(i + 1)]")) }
        self.init(name: name, actions: actions)
    }
}
