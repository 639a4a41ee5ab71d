/// A hash table from grid cells to small integers (open addressing, linear probing,
/// deletion by shifting back): the cell maps of `ObstacleGrid` and `RectIndex`, without
/// the cost of `Hasher`.
struct CellTable {
    private static let empty = Int64.min
    private var keys: [Int64] = [Int64](repeating: CellTable.empty, count: 16)
    private var values: [Int32] = [Int32](repeating: 0, count: 16)
    private(set) var count = 0

    /// The key of cell (x, y): both coordinates clamped to 32 bits.
    @inline(__always)
    static func key(_ x: Int64, _ y: Int64) -> Int64 {
        let cx = Int64(Int32(clamping: x)), cy = Int64(Int32(clamping: y))
        return (cx << 32) | (cy & 0xFFFF_FFFF)
    }

    @inline(__always)
    private func home(_ k: Int64) -> Int {
        var h = UInt64(bitPattern: k) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return Int(h & UInt64(keys.count - 1))
    }

    func find(_ k: Int64) -> Int32? {
        var i = home(k)
        let mask = keys.count - 1
        while true {
            let key = keys[i]
            if key == k { return values[i] }
            if key == Self.empty { return nil }
            i = (i + 1) & mask
        }
    }

    mutating func set(_ k: Int64, _ v: Int32) {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        var i = home(k)
        let mask = keys.count - 1
        while keys[i] != Self.empty && keys[i] != k { i = (i + 1) & mask }
        if keys[i] == Self.empty { count += 1 }
        keys[i] = k
        values[i] = v
    }

    mutating func remove(_ k: Int64) {
        var i = home(k)
        let mask = keys.count - 1
        while keys[i] != k {
            if keys[i] == Self.empty { return }
            i = (i + 1) & mask
        }
        keys[i] = Self.empty
        count -= 1
        // Shift back the entries after the hole that probed past it.
        var j = (i + 1) & mask
        while keys[j] != Self.empty {
            let h = home(keys[j])
            let between = i <= j ? (h > i && h <= j) : (h > i || h <= j)
            if !between {
                keys[i] = keys[j]
                values[i] = values[j]
                keys[j] = Self.empty
                i = j
            }
            j = (j + 1) & mask
        }
    }

    /// Visits every entry.
    func forEach(_ body: (Int64, Int32) -> Void) {
        for i in keys.indices where keys[i] != Self.empty { body(keys[i], values[i]) }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [Int64](repeating: Self.empty, count: oldKeys.count * 2)
        values = [Int32](repeating: 0, count: oldKeys.count * 2)
        count = 0
        for i in oldKeys.indices where oldKeys[i] != Self.empty { set(oldKeys[i], oldValues[i]) }
    }
}

/// Lists of values by grid cell, on a `CellTable`.
struct CellLists<Value: Equatable> {
    private var table = CellTable()
    private var lists: [[Value]] = []
    private var free: [Int32] = []

    var isEmpty: Bool { table.count == 0 }
    var cellCount: Int { table.count }

    mutating func append(_ v: Value, x: Int64, y: Int64) {
        let k = CellTable.key(x, y)
        if let i = table.find(k) {
            lists[Int(i)].append(v)
            return
        }
        let i: Int32
        if let f = free.popLast() {
            i = f
            lists[Int(i)] = [v]
        } else {
            i = Int32(lists.count)
            lists.append([v])
        }
        table.set(k, i)
    }

    /// Removes one occurrence of `v` from the list of the cell; returns whether it was there.
    @discardableResult
    mutating func remove(_ v: Value, x: Int64, y: Int64) -> Bool {
        let k = CellTable.key(x, y)
        guard let i = table.find(k), let at = lists[Int(i)].firstIndex(of: v) else { return false }
        lists[Int(i)].swapAt(at, lists[Int(i)].count - 1)
        lists[Int(i)].removeLast()
        if lists[Int(i)].isEmpty {
            table.remove(k)
            free.append(i)
        }
        return true
    }

    /// Visits the values in the cell.
    @inline(__always)
    func forEach(x: Int64, y: Int64, _ body: (Value) -> Void) {
        guard let i = table.find(CellTable.key(x, y)) else { return }
        for v in lists[Int(i)] { body(v) }
    }

    /// Visits every cell's key and values.
    func forEachCell(_ body: (Int64, [Value]) -> Void) {
        table.forEach { k, i in body(k, lists[Int(i)]) }
    }
}
