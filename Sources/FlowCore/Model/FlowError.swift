/// The one error type of FlowCore. Every invalid call throws a `FlowError` and changes
/// nothing (D1). `description` is the text scripts see: `moveNode: no node with id 'x'`.
public struct FlowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable classification.
    public enum Code: String, Sendable, CaseIterable {
        case unknownNode, unknownEdge
        case duplicateNode, duplicateEdge
        case missingEndpoint, invalidHandle, invalidParent
        case invalidEnum, invalidValue, invalidState
        case invalidDocument, io
        case cycle
    }

    public var code: Code
    /// The public operation that failed, e.g. `"moveNode"`.
    public var operation: String
    /// What was wrong, naming the offending id or value.
    public var message: String

    public init(_ code: Code, operation: String, message: String) {
        self.code = code
        self.operation = operation
        self.message = message
    }

    public var description: String { operation.isEmpty ? message : "\(operation): \(message)" }

    /// The same error reported under another operation name.
    public func reported(as operation: String) -> FlowError {
        FlowError(code, operation: operation, message: message)
    }

    /// An id (or other text from the input) as an error message shows it: its first 40
    /// characters and "…" when it is longer.
    public static func shown(_ id: String) -> String {
        id.count > 40 ? String(id.prefix(40)) + "…" : id
    }

    // MARK: Constructors, one per kind of failure

    public static func unknownNode(_ op: String, _ id: String) -> FlowError {
        FlowError(.unknownNode, operation: op, message: "no node with id '\(id)'")
    }
    public static func unknownEdge(_ op: String, _ id: String) -> FlowError {
        FlowError(.unknownEdge, operation: op, message: "no edge with id '\(id)'")
    }
    public static func duplicateNode(_ op: String, _ id: String) -> FlowError {
        FlowError(.duplicateNode, operation: op, message: "node '\(id)' already exists")
    }
    public static func duplicateEdge(_ op: String, _ id: String) -> FlowError {
        FlowError(.duplicateEdge, operation: op, message: "edge '\(id)' already exists")
    }
    public static func missingEndpoint(_ op: String, _ end: String, _ id: String) -> FlowError {
        FlowError(.missingEndpoint, operation: op, message: "\(end) node '\(id)' does not exist")
    }
    public static func invalidHandle(_ op: String, _ message: String) -> FlowError {
        FlowError(.invalidHandle, operation: op, message: message)
    }
    public static func invalidParent(_ op: String, _ message: String) -> FlowError {
        FlowError(.invalidParent, operation: op, message: message)
    }
    public static func invalidEnum(
        operation op: String, kind: String, value: String, expected: [String]
    ) -> FlowError {
        FlowError(
            .invalidEnum, operation: op,
            message: "invalid \(kind) '\(value)' (expected one of: \(expected.joined(separator: ", ")))")
    }
    public static func invalidValue(_ op: String, _ message: String) -> FlowError {
        FlowError(.invalidValue, operation: op, message: message)
    }
    public static func invalidState(_ op: String, _ message: String) -> FlowError {
        FlowError(.invalidState, operation: op, message: message)
    }
    public static func invalidDocument(_ op: String, _ message: String) -> FlowError {
        FlowError(.invalidDocument, operation: op, message: message)
    }
    /// The graph has a cycle where none may be: `nodes` in edge order, the first one again
    /// at the end of the message (`a -> b -> a`).
    public static func cycle(_ op: String, _ nodes: [String]) -> FlowError {
        FlowError(.cycle, operation: op, message: "the diagram has a cycle: \((nodes + nodes.prefix(1)).joined(separator: " -> "))")
    }
}
