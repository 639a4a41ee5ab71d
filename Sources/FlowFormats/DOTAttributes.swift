/// An ordered attribute list (`key=value` in first-set order, a later value replacing an
/// earlier one) whose lookups and updates cost O(1), so a statement with many attributes
/// or a node mentioned many times stays linear.
struct DOTAttributes: Sequence {
    private(set) var pairs: [(String, String)] = []
    private var index: [String: Int] = [:]
    /// The keys whose value was an HTML string (`label=<…>`).
    private(set) var htmlKeys: Set<String> = []

    init() {}

    init(_ list: [(String, String)]) {
        for (k, v) in list { set(k, v) }
    }

    var isEmpty: Bool { pairs.isEmpty }
    var count: Int { pairs.count }

    subscript(key: String) -> String? {
        index[key].map { pairs[$0].1 }
    }

    /// Whether `key`'s value was written as an HTML string.
    func isHTML(_ key: String) -> Bool { !htmlKeys.isEmpty && htmlKeys.contains(key) }

    mutating func set(_ key: String, _ value: String, html: Bool = false) {
        if html { htmlKeys.insert(key) } else if !htmlKeys.isEmpty { htmlKeys.remove(key) }
        if let i = index[key] {
            pairs[i].1 = value
        } else {
            index[key] = pairs.count
            pairs.append((key, value))
        }
    }

    /// `other`'s values set over these, in `other`'s order: O(other.count).
    mutating func merge(_ other: DOTAttributes) {
        for (k, v) in other.pairs { set(k, v, html: other.isHTML(k)) }
    }

    func merging(_ other: DOTAttributes) -> DOTAttributes {
        guard !other.isEmpty else { return self }
        var out = self
        out.merge(other)
        return out
    }

    func makeIterator() -> IndexingIterator<[(String, String)]> { pairs.makeIterator() }
}
