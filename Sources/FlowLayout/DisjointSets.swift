/// Disjoint sets of `0..<count` (union–find with path halving): which nodes end up in one
/// part, one merged vertex, one tree. A set's representative is its smallest member.
struct DisjointSets {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    /// The representative of `v`'s set.
    mutating func find(_ v: Int) -> Int {
        var v = v
        while parent[v] != v {
            parent[v] = parent[parent[v]]
            v = parent[v]
        }
        return v
    }

    /// Joins the sets of `a` and `b`; false when they were one already.
    @discardableResult
    mutating func union(_ a: Int, _ b: Int) -> Bool {
        let x = find(a), y = find(b)
        guard x != y else { return false }
        parent[max(x, y)] = min(x, y)
        return true
    }
}
