/// A binary min-heap of edges by key, ties by edge index (so the least key with the lowest
/// index comes first, as a scan in index order would find it). `NetworkSimplex` keeps the
/// edges that leave its growing tree here, keyed by their slack.
struct SlackHeap {
    private var keys: [Int] = []
    private var edges: [Int] = []

    var isEmpty: Bool { keys.isEmpty }

    /// The least entry, if any.
    var first: (key: Int, edge: Int)? { keys.isEmpty ? nil : (keys[0], edges[0]) }

    @inline(__always)
    private func less(_ i: Int, _ j: Int) -> Bool {
        keys[i] != keys[j] ? keys[i] < keys[j] : edges[i] < edges[j]
    }

    private mutating func swapEntries(_ i: Int, _ j: Int) {
        keys.swapAt(i, j)
        edges.swapAt(i, j)
    }

    mutating func push(key: Int, edge: Int) {
        keys.append(key)
        edges.append(edge)
        var child = keys.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if !less(child, parent) { break }
            swapEntries(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        let last = keys.count - 1
        swapEntries(0, last)
        keys.removeLast()
        edges.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < keys.count && less(left, smallest) { smallest = left }
            if right < keys.count && less(right, smallest) { smallest = right }
            if smallest == parent { return }
            swapEntries(parent, smallest)
            parent = smallest
        }
    }
}
