/// The payload type a store is generic over. It must compare by value (so a call that
/// changes nothing is recognised, D19) and convert to and from JSON for documents.
public protocol FlowNodeData: Equatable {
    /// The JSON form written by `export`.
    func jsonValue() throws(FlowError) -> JSONValue
    /// Reads the JSON form; throws `invalidDocument` when it does not fit.
    init(jsonValue: JSONValue) throws(FlowError)
}

extension JSONValue: FlowNodeData {
    public func jsonValue() -> JSONValue { self }
    public init(jsonValue: JSONValue) { self = jsonValue }
}

extension String: FlowNodeData {
    public func jsonValue() -> JSONValue { .string(self) }
    public init(jsonValue: JSONValue) throws(FlowError) {
        guard case .string(let s) = jsonValue else {
            throw .invalidDocument("load", "node data must be a string")
        }
        self = s
    }
}

extension Double: FlowNodeData {
    public func jsonValue() -> JSONValue { .number(self) }
    public init(jsonValue: JSONValue) throws(FlowError) {
        guard case .number(let n) = jsonValue else {
            throw .invalidDocument("load", "node data must be a number")
        }
        self = n
    }
}

extension Optional: FlowNodeData where Wrapped: FlowNodeData {
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
