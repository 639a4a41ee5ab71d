/// The tree edge with the least cut value for `NetworkSimplex`'s leaving edge, kept up to
/// date instead of searched for: a tournament tree over the places of the tree's edges
/// (each inner node holds the place of the least value below it, ties going to the lower
/// place), so a change costs a climb to the root and the least value, the first in place
/// order, is at the root. A pivot changes the cut values along one tree path only.
struct LeastCut {
    /// Leaves: the value at each place, then `Int.max` up to a power of two.
    private var value: [Int]
    /// `winner[node]` for inner nodes `1..<size`, the place of the least value below.
    private var winner: [Int]
    private let size: Int

    init(_ values: [Int]) {
        var size = 1
        while size < values.count { size *= 2 }
        self.size = size
        value = values + Array(repeating: Int.max, count: size - values.count)
        winner = Array(repeating: 0, count: size)
        for node in stride(from: size - 1, through: 1, by: -1) { winner[node] = pick(2 * node, 2 * node + 1) }
    }

    /// The place with the least value (the first such) and that value.
    var least: (place: Int, value: Int) {
        let place = size == 1 ? 0 : winner[1]
        return (place, value[place])
    }

    mutating func set(_ place: Int, _ newValue: Int) {
        value[place] = newValue
        var node = (size + place) / 2
        while node >= 1 {
            let old = winner[node]
            winner[node] = pick(2 * node, 2 * node + 1)
            // the nodes above see only this node's winner and its value: both unchanged
            if winner[node] == old && old != place { return }
            node /= 2
        }
    }

    /// The place of the lesser of two children (a child `>= size` is the leaf of a place).
    @inline(__always)
    private func pick(_ left: Int, _ right: Int) -> Int {
        let a = left >= size ? left - size : winner[left]
        let b = right >= size ? right - size : winner[right]
        return value[b] < value[a] ? b : a
    }
}
