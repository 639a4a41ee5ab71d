/// How an edge takes part in the layered layout's layering (DOT's edge `minlen`,
/// `constraint` and `weight`): the edge spans at least `minLength` layers (0: its ends may
/// share a layer), and with `constraint` false it does not take part in layering at all (it
/// is drawn, but does not hold its target below its source). `weight` says how much
/// keeping it short (in layers) and straight (across them) counts against the other edges;
/// 0: not at all, though it still holds its target `minLength` layers below its source.
/// Part of the document's `"diagram"` object (`DiagramLook.edgeRanks`), written as
/// `{"edge": "e1", "minlen": 0, "constraint": false, "weight": 5}` with the defaults (1,
/// true, 1) left out; a layout may add more (`LayoutRequest.edgeRanks`).
public struct EdgeRank: Hashable, Sendable {
    public var edge: String
    /// At least 0 and at most `maximumMinLength`; 1 by default.
    public var minLength: Int
    public var constraint: Bool
    /// At least 0 and at most `maximumWeight`; 1 by default.
    public var weight: Int

    /// The longest span an edge may ask for.
    public static let maximumMinLength = 1000
    /// The largest weight an edge may have.
    public static let maximumWeight = 10_000

    public init(_ edge: String, minLength: Int = 1, constraint: Bool = true, weight: Int = 1) {
        self.edge = edge
        self.minLength = minLength
        self.constraint = constraint
        self.weight = weight
    }

    /// Whether every part is the default (an edge without a rank of its own).
    public var isDefault: Bool { minLength == 1 && constraint && weight == 1 }

    /// As a document writes it.
    public var jsonValue: JSONValue {
        var o: [(String, JSONValue)] = []
        if !constraint { o.append(("constraint", .bool(false))) }
        o.append(("edge", .string(edge)))
        if minLength != 1 { o.append(("minlen", .number(Double(minLength)))) }
        if weight != 1 { o.append(("weight", .number(Double(weight)))) }
        return .object(JSONObject(o))
    }

    /// Reads `jsonValue`'s form at `path` (for error messages).
    public init(json v: JSONValue, operation: String, path: String) throws(FlowError) {
        func fail(_ message: String) -> FlowError { .invalidDocument(operation, "\(path): \(message)") }
        guard case .object(let o) = v else { throw fail("expected an object") }
        guard case .string(let id)? = o["edge"] else { throw fail("edge: expected an edge id (a string)") }
        var minLength = 1
        if let x = o["minlen"], x != .null {
            guard case .number(let n) = x, n == n.rounded(), n >= 0, n <= Double(EdgeRank.maximumMinLength) else {
                throw fail("minlen: expected an integer from 0 to \(EdgeRank.maximumMinLength)")
            }
            minLength = Int(n)
        }
        var constraint = true
        if let x = o["constraint"], x != .null {
            guard case .bool(let b) = x else { throw fail("constraint: expected a boolean") }
            constraint = b
        }
        var weight = 1
        if let x = o["weight"], x != .null {
            guard case .number(let n) = x, n == n.rounded(), n >= 0, n <= Double(EdgeRank.maximumWeight) else {
                throw fail("weight: expected an integer from 0 to \(EdgeRank.maximumWeight)")
            }
            weight = Int(n)
        }
        self.init(id, minLength: minLength, constraint: constraint, weight: weight)
    }
}
