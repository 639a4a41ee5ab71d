/// A rank constraint of the layered layout (DOT's `rank` on a subgraph): nodes that share a
/// layer (`same`), or that go on the first layer (`min`; `source`: alone there) or the last
/// (`max`; `sink`: alone there). Part of the document's `"diagram"` object (`DiagramLook.ranks`),
/// written as `{"rank": "same", "nodes": ["a", "b"]}`; a layout may add more
/// (`LayoutRequest.ranks`).
public struct RankSet: Hashable, Sendable {
    public enum Kind: String, Sendable, CaseIterable, FlowEnum {
        case same, min, max, source, sink
        public static var valueName: String { "rank" }
    }

    public var kind: Kind
    /// Node ids, in the order given.
    public var nodes: [String]

    public init(_ kind: Kind, _ nodes: [String]) {
        self.kind = kind
        self.nodes = nodes
    }

    /// As a document writes it.
    public var jsonValue: JSONValue {
        .object(JSONObject([("nodes", .array(nodes.map { .string($0) })), ("rank", .string(kind.rawValue))]))
    }

    /// Reads `jsonValue`'s form at `path` (for error messages).
    public init(json v: JSONValue, operation: String, path: String) throws(FlowError) {
        func fail(_ message: String) -> FlowError { .invalidDocument(operation, "\(path): \(message)") }
        guard case .object(let o) = v else { throw fail("expected an object") }
        guard case .string(let k)? = o["rank"] else { throw fail("rank: expected a string") }
        guard let kind = Kind(rawValue: k) else {
            throw fail("rank: expected one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), found '\(k)'")
        }
        guard case .array(let list)? = o["nodes"] else { throw fail("nodes: expected an array of node ids") }
        var ids: [String] = []
        for (i, x) in list.enumerated() {
            guard case .string(let s) = x else { throw fail("nodes[\(i)]: expected a node id (a string)") }
            ids.append(s)
        }
        self.init(kind, ids)
    }
}
