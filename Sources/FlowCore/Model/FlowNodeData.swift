/// The payload type a store is generic over. It must compare by value (so a call that
/// changes nothing is recognised, D19) and convert to and from JSON for documents.
public protocol FlowNodeData: Equatable {
    /// The JSON form written by `export`.
    func jsonValue() throws(FlowError) -> JSONValue
    /// Reads the JSON form; throws `invalidDocument` when it does not fit.
    init(jsonValue: JSONValue) throws(FlowError)
    /// The title shown in the node with id `nodeID` (the store sizes nodes to it, the
    /// renderer draws it). The default is the node's id.
    func title(nodeID: String) -> String
    /// Bytes the value holds, roughly (what a store's `MemoryBudget` counts). The default is
    /// its inline size.
    var estimatedBytes: Int { get }
    /// Whether the node keeps its position when the diagram is laid out (FlowLayout's
    /// `store.layout` leaves it where it is, as if named in its `pinned`). The default is
    /// false; JSON data says so with `pinned = true`.
    var isPinned: Bool { get }
}

extension FlowNodeData {
    public func title(nodeID: String) -> String { nodeID }
    public var isPinned: Bool { false }
}

extension JSONValue: FlowNodeData {
    public func jsonValue() -> JSONValue { self }
    public init(jsonValue: JSONValue) { self = jsonValue }

    /// `label`, else `title` (a string, or a number as `formatNumber` writes it), else the
    /// data itself when it is a string, else the node's id.
    public func title(nodeID: String) -> String {
        switch self {
        case .string(let s):
            return s
        case .object(let o):
            for key in ["label", "title"] {
                switch o[key] {
                case .string(let s)?: return s
                case .number(let n)?: return formatNumber(n)
                default: continue
                }
            }
            return nodeID
        default:
            return nodeID
        }
    }

    /// An object whose `pinned` is `true`.
    public var isPinned: Bool {
        if case .object(let o) = self, o["pinned"] == .bool(true) { return true }
        return false
    }
}

extension String: FlowNodeData {
    public func title(nodeID: String) -> String { self }
    public func jsonValue() -> JSONValue { .string(self) }
    public init(jsonValue: JSONValue) throws(FlowError) {
        guard case .string(let s) = jsonValue else {
            throw .invalidDocument("load", "node data must be a string")
        }
        self = s
    }
}

extension Double: FlowNodeData {
    public func title(nodeID: String) -> String { formatNumber(self) }
    public func jsonValue() -> JSONValue { .number(self) }
    public init(jsonValue: JSONValue) throws(FlowError) {
        guard case .number(let n) = jsonValue else {
            throw .invalidDocument("load", "node data must be a number")
        }
        self = n
    }
}

extension Optional: FlowNodeData where Wrapped: FlowNodeData {
    public func title(nodeID: String) -> String { self?.title(nodeID: nodeID) ?? nodeID }
    public var isPinned: Bool { self?.isPinned ?? false }
    public func jsonValue() throws(FlowError) -> JSONValue {
        switch self {
        case .none: return .null
        case .some(let w): return try w.jsonValue()
        }
    }
    public init(jsonValue: JSONValue) throws(FlowError) {
        if case .null = jsonValue { self = .none } else { self = .some(try Wrapped(jsonValue: jsonValue)) }
    }
}
