/// A string-backed enum whose values come from scripts and documents. Parsing goes through
/// one place so every error lists the valid values.
public protocol FlowEnum: RawRepresentable, CaseIterable where RawValue == String {
    /// Name used in error messages, e.g. "path type".
    static var valueName: String { get }
}

extension FlowEnum {
    /// Parses `raw`, or throws `invalidEnum` naming `operation` and listing the valid values.
    public static func parse(_ raw: String, in operation: String) throws(FlowError) -> Self {
        if let v = Self(rawValue: raw) { return v }
        throw FlowError.invalidEnum(
            operation: operation, kind: valueName, value: raw,
            expected: allCases.map(\.rawValue))
    }
}

extension HandleType { public static var valueName: String { "handle type" } }
extension HandlePosition { public static var valueName: String { "handle position" } }

/// How an edge path is drawn (store-semantics §8). `orthogonal` edges are routed around
/// the nodes by the store's `edgeRouter` (docs/routing.md).
public enum EdgePathType: String, Sendable, CaseIterable, FlowEnum {
    case bezier, straight, smoothStep, simpleBezier, orthogonal
    public static var valueName: String { "path type" }
}

/// Where an accessory sits relative to its anchor (store-semantics §12).
public enum AccessoryPlacement: String, Sendable, CaseIterable, FlowEnum {
    case top, bottom, leading, trailing
    public static var valueName: String { "placement" }
}

/// Background pattern of the canvas.
public enum BackgroundPattern: String, Sendable, CaseIterable, FlowEnum {
    case none, grid, dot
    public static var valueName: String { "background pattern" }
}

/// Whether a node is written by `export`.
public enum NodePersistence: String, Sendable, CaseIterable, FlowEnum {
    case persistent, transient
    public static var valueName: String { "persistence" }
}

/// Presentation of a draft node.
public enum DraftPresentationState: String, Sendable, CaseIterable, FlowEnum {
    case neutral, valid, invalid
    public static var valueName: String { "draft state" }
}

/// The phase of a node: normal, or a draft with a presentation state.
public enum FlowNodePhase: Hashable, Sendable {
    case normal
    case draft(DraftPresentationState)
}
