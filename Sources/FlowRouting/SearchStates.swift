/// The states one route search has reached, and nothing else: from a state's
/// number to a slot holding its cost so far, its parent and whether it was expanded. The
/// search grid is never laid out, so a search costs what it visits, not the product of the
/// window's borders across and down (issue #43). Reused from search to search: a new
/// generation empties it without clearing.
struct SearchStates {
    /// Large grids: the slot of each state reached.
    private var sparse: [Int: Int32] = [:]
    /// Small grids keep their states in arrays indexed by state number (a dictionary costs
    /// about twice as much there); their own generation marks what this search reached.
    private static let denseLimit = 1 << 18
    private var dense = false
    private var denseStamps: [UInt32] = []
    private var denseSlots: [Int32] = []
    private var denseGeneration: UInt32 = 1
    /// The slots' values: bends and length so far, the parent state (-1: none), expanded.
    var bends: [Int32] = []
    var length: [Double] = []
    var parent: [Int] = []
    var closed: [Bool] = []

    /// The states reached in this search.
    var count: Int { bends.count }

    /// Empties the table for a new search over `states` state numbers.
    mutating func reset(states: Int) {
        dense = states <= Self.denseLimit
        if dense {
            if denseStamps.count < states {
                denseStamps = [UInt32](repeating: 0, count: max(states, min(2 * denseStamps.count, Self.denseLimit)))
                denseSlots = [Int32](repeating: 0, count: denseStamps.count)
                denseGeneration = 0
            }
            denseGeneration &+= 1
            if denseGeneration == 0 {
                for i in denseStamps.indices { denseStamps[i] = 0 }
                denseGeneration = 1
            }
        }
        sparse.removeAll(keepingCapacity: true)
        bends.removeAll(keepingCapacity: true)
        length.removeAll(keepingCapacity: true)
        parent.removeAll(keepingCapacity: true)
        closed.removeAll(keepingCapacity: true)
    }

    /// The slot of `state`; nil when the search has not reached it.
    @inline(__always)
    func slot(of state: Int) -> Int? {
        if dense { return denseStamps[state] == denseGeneration ? Int(denseSlots[state]) : nil }
        return sparse[state].map(Int.init)
    }

    /// Records that the search reached `state` with `b` bends and length `l` from `from`;
    /// false when it was expanded already or reached at no greater cost.
    @inline(__always)
    mutating func reach(_ state: Int, bends b: Int32, length l: Double, from: Int) -> Bool {
        let k: Int
        if let found = slot(of: state) {
            if closed[found] || bends[found] < b || (bends[found] == b && length[found] <= l) { return false }
            k = found
        } else {
            k = add(state)
        }
        bends[k] = b
        length[k] = l
        parent[k] = from
        return true
    }

    /// A new slot for `state` (not reached before), its values unset.
    mutating func add(_ state: Int) -> Int {
        let slot = count
        if dense {
            denseStamps[state] = denseGeneration
            denseSlots[state] = Int32(slot)
        } else {
            sparse[state] = Int32(slot)
        }
        bends.append(0)
        length.append(0)
        parent.append(-1)
        closed.append(false)
        return slot
    }
}
