/// A JSON value whose objects keep their keys in insertion order. Node data in scripts is
/// a `JSONValue`; documents are written and read through it.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object with ordered keys. Equality compares keys in order.
public struct JSONObject: Hashable, Sendable, Sequence {
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    public init() {}

    /// Builds from pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, JSONValue)]) {
        for (k, v) in pairs { self[k] = v }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public func makeIterator() -> AnyIterator<(key: String, value: JSONValue)> {
        var i = 0
        return AnyIterator {
            guard i < keys.count else { return nil }
            defer { i += 1 }
            return (keys[i], values[keys[i]]!)  // invariant: keys and values agree
        }
    }

    /// The pairs with keys sorted by their UTF-8 bytes.
    public var sortedPairs: [(key: String, value: JSONValue)] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, values[$0]!) }  // invariant
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.keys == b.keys && a.values == b.values
    }
    public func hash(into h: inout Hasher) {
        h.combine(keys)
        for k in keys { h.combine(values[k]) }
    }
}
