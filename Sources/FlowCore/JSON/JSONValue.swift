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
///
/// Small objects are searched linearly (no hashing); objects with more than
/// `JSONObject.indexThreshold` keys also keep a key-to-position index.
public struct JSONObject: Hashable, Sendable, Sequence {
    public private(set) var keys: [String] = []
    /// The value of `keys[i]` is `values[i]`.
    private var values: [JSONValue] = []
    /// Position of every key; only kept above `indexThreshold` keys.
    private var index: [String: Int]?

    /// Above this many keys an object keeps a hash index of its keys.
    static let indexThreshold = 12

    public init() {}

    /// Builds from pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, JSONValue)]) {
        reserveCapacity(pairs.count)
        for (k, v) in pairs { self[k] = v }
    }

    /// An object from keys known to be unique (as Swift strings compare) and their values
    /// (as many as keys).
    init(uniqueKeys: [String], values: [JSONValue]) {
        keys = uniqueKeys
        self.values = values
        if keys.count > Self.indexThreshold { rebuildIndex() }
    }

    /// An empty object with room for `minimumCapacity` keys.
    public init(minimumCapacity: Int) {
        reserveCapacity(minimumCapacity)
    }

    /// Makes room for `minimumCapacity` keys without changing the contents.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        keys.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key` in `keys`.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// The value at a position of `keys` (`0..<count`, checked by the caller).
    func value(at position: Int) -> JSONValue { values[position] }  // invariant: position < count

    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = position(of: key) else { return nil }
            return values[i]
        }
        set {
            if let newValue {
                if let i = position(of: key) {
                    values[i] = newValue
                } else {
                    keys.append(key)
                    values.append(newValue)
                    if index != nil {
                        index?[key] = keys.count - 1
                    } else if keys.count > Self.indexThreshold {
                        rebuildIndex()
                    }
                }
            } else if let i = position(of: key) {
                keys.remove(at: i)
                values.remove(at: i)
                rebuildIndex()
            }
        }
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.indexThreshold else {
            index = nil
            return
        }
        var positions = [String: Int](minimumCapacity: keys.count)
        for (i, k) in keys.enumerated() { positions[k] = i }
        index = positions
    }

    public func makeIterator() -> AnyIterator<(key: String, value: JSONValue)> {
        var i = 0
        return AnyIterator {
            guard i < keys.count else { return nil }
            defer { i += 1 }
            return (keys[i], values[i])
        }
    }

    /// The pairs with keys sorted by their UTF-8 bytes.
    public var sortedPairs: [(key: String, value: JSONValue)] {
        keys.indices
            .sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
            .map { (keys[$0], values[$0]) }
    }

    /// The pairs in key order.
    var pairs: [(key: String, value: JSONValue)] {
        keys.indices.map { (keys[$0], values[$0]) }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.keys == b.keys && a.values == b.values
    }
    public func hash(into h: inout Hasher) {
        h.combine(keys)
        for v in values { h.combine(v) }
    }
}
