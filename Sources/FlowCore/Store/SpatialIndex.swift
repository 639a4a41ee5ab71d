/// An incremental index of frames by slot (a node's or an edge's slot in its table): a
/// uniform grid for point and rectangle queries, and a tree of bounds for the union of all
/// frames. The frames themselves are kept by the owner (in its table's records), which
/// passes the old frame when one changes.
///
/// - point query: O(frames in one cell)
/// - rectangle query: O(cells covered + frames returned); falls back to a scan when the
///   rectangle covers more cells than there are occupied cells
/// - bounds: O(1)
/// - insert/move/remove: O(cells a frame covers) for the grid, O(log n) at worst for the
///   bounds (a change stops climbing the tree where it stops changing the union below); a
///   move that stays in the same cells does not touch the grid
struct SpatialIndex {
    static let cellSize = 128.0
    /// Frames covering more cells than this are kept in `large` and checked on every query.
    static let maxCellsPerFrame = 64

    private var cells = CellMap()
    private var large: Set<Int32> = []
    /// By slot: whether the slot is indexed.
    private var members: [Bool] = []
    private(set) var count = 0
    private var boundsTree = BoundsTree()

    /// Whether `bounds()` is needed.
    private let tracksBounds: Bool

    init(tracksBounds: Bool = true) { self.tracksBounds = tracksBounds }

    /// The cell coordinate of `v`: ⌊v / cellSize⌋, clamped to the `Int32` range (NaN: 0).
    /// Written out so that it compiles to a truncation instead of a call to `floor`.
    @inline(__always)
    static func cell(_ v: Double) -> Int32 {
        let t = v * (1 / cellSize)
        guard t > -2_147_483_648 && t < 2_147_483_647 else { return t.isNaN ? 0 : (t < 0 ? .min : .max) }
        let i = Int32(t)
        return Double(i) > t ? i - 1 : i
    }

    /// The cells a frame covers.
    private struct CellRange: Equatable {
        var x0: Int32, x1: Int32, y0: Int32, y1: Int32
    }

    /// The cells a frame covers, or nil when it is too large for the grid.
    @inline(__always)
    private static func cellRange(_ r: Rect) -> CellRange? {
        let x0 = cell(r.minX), x1 = cell(r.maxX), y0 = cell(r.minY), y1 = cell(r.maxY)
        let w = Int(x1) - Int(x0) + 1, h = Int(y1) - Int(y0) + 1
        if w <= 0 || h <= 0 || w > maxCellsPerFrame || h > maxCellsPerFrame || w * h > maxCellsPerFrame {
            return nil
        }
        return CellRange(x0: x0, x1: x1, y0: y0, y1: y1)
    }

    /// Whether `slot` is indexed.
    @inline(__always)
    func contains(_ slot: Int32) -> Bool {
        let i = Int(slot)
        return i >= 0 && i < members.count && members[i]
    }

    /// Indexes `slot` with `frame` (it must not be indexed).
    mutating func insert(_ slot: Int32, _ frame: Rect) {
        let i = Int(slot)
        if i >= members.count { members.append(contentsOf: repeatElement(false, count: i + 1 - members.count)) }
        members[i] = true
        count += 1
        addToGrid(slot, frame)
        if tracksBounds { boundsTree.set(slot, frame) }
    }

    /// Removes `slot`, indexed with `frame`.
    mutating func remove(_ slot: Int32, _ frame: Rect) {
        guard contains(slot) else { return }
        members[Int(slot)] = false
        count -= 1
        removeFromGrid(slot, frame)
        if tracksBounds { boundsTree.clear(slot) }
    }

    /// Moves `slot` from frame `old` (as indexed) to `new`.
    mutating func move(_ slot: Int32, from old: Rect, to new: Rect) {
        if old == new { return }
        let oldRange = Self.cellRange(old), newRange = Self.cellRange(new)
        if oldRange == nil || oldRange != newRange {
            removeFromGrid(slot, old)
            addToGrid(slot, new)
        }
        if tracksBounds { boundsTree.set(slot, new) }
    }

    private mutating func addToGrid(_ slot: Int32, _ frame: Rect) {
        if let c = Self.cellRange(frame) {
            for x in c.x0...c.x1 { for y in c.y0...c.y1 { cells.add(slot, x: x, y: y) } }
        } else {
            large.insert(slot)
        }
    }

    private mutating func removeFromGrid(_ slot: Int32, _ frame: Rect) {
        if let c = Self.cellRange(frame) {
            for x in c.x0...c.x1 { for y in c.y0...c.y1 { cells.remove(slot, x: x, y: y) } }
        } else {
            large.remove(slot)
        }
    }

    mutating func removeAll() {
        self = SpatialIndex(tracksBounds: tracksBounds)
    }

    /// Slots of frames that may contain `p` (a superset; callers test exactly).
    func candidates(at p: Point) -> [Int32] {
        var out = cells.list(x: Self.cell(p.x), y: Self.cell(p.y))
        if !large.isEmpty { out.append(contentsOf: large) }
        return out
    }

    /// Visits the slots of frames that may contain `p` (a superset; callers test exactly).
    @inline(__always)
    func forEachCandidate(at p: Point, _ body: (Int32) -> Void) {
        cells.forEach(x: Self.cell(p.x), y: Self.cell(p.y), body)
        for s in large { body(s) }
    }

    /// Slots of frames that may intersect `r` (a superset without duplicates).
    func candidates(in r: Rect) -> [Int32] {
        let x0 = Self.cell(r.minX), x1 = Self.cell(r.maxX), y0 = Self.cell(r.minY), y1 = Self.cell(r.maxY)
        let w = Double(x1) - Double(x0) + 1, h = Double(y1) - Double(y0) + 1
        if w * h > Double(max(cells.count, 16)) {
            var out: [Int32] = []
            out.reserveCapacity(count)
            for (i, m) in members.enumerated() where m { out.append(Int32(i)) }
            return out
        }
        if x0 == x1 && y0 == y1 {
            // One cell lists a slot once, and `large` holds no slot of a cell: no duplicates.
            var out = cells.list(x: x0, y: y0)
            if !large.isEmpty { out.append(contentsOf: large) }
            return out
        }
        var seen = Set<Int32>()
        var out: [Int32] = []
        for x in x0...x1 {
            for y in y0...y1 {
                cells.forEach(x: x, y: y) { s in if seen.insert(s).inserted { out.append(s) } }
            }
        }
        for s in large where seen.insert(s).inserted { out.append(s) }
        return out
    }

    /// Visits the slots of frames that may intersect `r` (a superset, as `candidates(in:)`,
    /// but a frame covering several cells of `r` is visited once per cell): for queries
    /// that pick one best candidate, without the array and the set.
    @inline(__always)
    func forEachCandidate(in r: Rect, _ body: (Int32) -> Void) {
        let x0 = Self.cell(r.minX), x1 = Self.cell(r.maxX), y0 = Self.cell(r.minY), y1 = Self.cell(r.maxY)
        let w = Double(x1) - Double(x0) + 1, h = Double(y1) - Double(y0) + 1
        if w * h > Double(max(cells.count, 16)) {
            for (i, m) in members.enumerated() where m { body(Int32(i)) }
            return
        }
        for x in x0...x1 {
            for y in y0...y1 { cells.forEach(x: x, y: y, body) }
        }
        for s in large { body(s) }
    }

    /// The union of all frames, or nil when empty.
    func bounds() -> Rect? {
        if count == 0 || !tracksBounds { return nil }
        return boundsTree.union
    }

    /// Checks the grid and the bounds against the frames the owner says are indexed.
    func checkInvariants(_ frames: [(slot: Int32, frame: Rect)]) -> String? {
        var seen: [Int32: Int] = [:]
        cells.forEachList { list in for s in list { seen[s, default: 0] += 1 } }
        if frames.count != count { return "count is \(count) for \(frames.count) frames" }
        var lo = Point(.infinity, .infinity), hi = Point(-.infinity, -.infinity)
        for (s, f) in frames {
            if !contains(s) { return "slot \(s) is not a member" }
            lo = Point(min(lo.x, f.minX), min(lo.y, f.minY))
            hi = Point(max(hi.x, f.maxX), max(hi.y, f.maxY))
            if let c = Self.cellRange(f) {
                if seen[s] != Int(c.x1 - c.x0 + 1) * Int(c.y1 - c.y0 + 1) { return "slot \(s) is in the wrong grid cells" }
                if large.contains(s) { return "slot \(s) is both in cells and large" }
            } else if !large.contains(s) {
                return "large slot \(s) is not listed"
            }
        }
        if members.filter({ $0 }).count != count { return "members and count disagree" }
        if seen.keys.contains(where: { !contains($0) }) { return "grid lists a removed slot" }
        if large.contains(where: { !contains($0) }) { return "large lists a removed slot" }
        if let p = cells.checkInvariants() { return p }
        if tracksBounds, count > 0 {
            let u = Rect(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)
            if boundsTree.union != u { return "bounds \(String(describing: boundsTree.union)) differ from the union \(u)" }
        }
        return nil
    }
}

/// Grid cell → the slots listed in it: an open-addressing hash table keyed by the packed
/// cell coordinates (linear probing, backward-shift deletion, load at most 1/2). Empty
/// cells are dropped.
struct CellMap {
    private struct Bucket {
        var key: UInt64
        var list: [Int32]
        var isUsed: Bool
    }

    private var buckets: [Bucket] = []
    private var mask = 0
    /// 64 - log2(capacity): the home bucket is the top bits of the key's product.
    private var shift: UInt64 = 63
    /// The number of non-empty cells.
    private(set) var count = 0

    @inline(__always)
    private static func key(_ x: Int32, _ y: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: x)) << 32 | UInt64(UInt32(bitPattern: y))
    }

    /// Fibonacci hashing: the top bits of the product depend on every bit of the key, so
    /// neighbouring cells spread over the table.
    @inline(__always)
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    private func find(_ key: UInt64) -> Int? {
        guard count > 0 else { return nil }
        var i = home(key) & mask
        while buckets[i].isUsed {
            if buckets[i].key == key { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    /// The slots of a cell.
    func list(x: Int32, y: Int32) -> [Int32] {
        guard let i = find(Self.key(x, y)) else { return [] }
        return buckets[i].list
    }

    @inline(__always)
    func forEach(x: Int32, y: Int32, _ body: (Int32) -> Void) {
        guard let i = find(Self.key(x, y)) else { return }
        for s in buckets[i].list { body(s) }
    }

    func forEachList(_ body: ([Int32]) -> Void) {
        for b in buckets where b.isUsed { body(b.list) }
    }

    mutating func add(_ slot: Int32, x: Int32, y: Int32) {
        let key = Self.key(x, y)
        if let i = find(key) {
            buckets[i].list.append(slot)
            return
        }
        if (count + 1) * 2 > buckets.count { grow() }
        var i = home(key) & mask
        while buckets[i].isUsed { i = (i + 1) & mask }
        buckets[i] = Bucket(key: key, list: [slot], isUsed: true)
        count += 1
    }

    mutating func remove(_ slot: Int32, x: Int32, y: Int32) {
        guard var i = find(Self.key(x, y)), let k = buckets[i].list.lastIndex(of: slot) else { return }
        buckets[i].list.swapAt(k, buckets[i].list.count - 1)
        buckets[i].list.removeLast()
        guard buckets[i].list.isEmpty else { return }
        count -= 1
        // Backward-shift deletion.
        var j = i
        while true {
            j = (j + 1) & mask
            if !buckets[j].isUsed { break }
            let h = home(buckets[j].key) & mask
            let staysPut = i <= j ? (h > i && h <= j) : (h > i || h <= j)
            if !staysPut {
                buckets.swapAt(i, j)
                i = j
            }
        }
        buckets[i] = Bucket(key: 0, list: [], isUsed: false)
    }

    private mutating func grow() {
        let old = buckets
        let capacity = max(16, buckets.count * 2)
        buckets = [Bucket](repeating: Bucket(key: 0, list: [], isUsed: false), count: capacity)
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        for b in old where b.isUsed {
            var i = home(b.key) & mask
            while buckets[i].isUsed { i = (i + 1) & mask }
            buckets[i] = b
        }
    }

    func checkInvariants() -> String? {
        var used = 0
        for (i, b) in buckets.enumerated() where b.isUsed {
            used += 1
            if b.list.isEmpty { return "grid keeps an empty cell" }
            var k = home(b.key) & mask
            while k != i {
                if !buckets[k].isUsed { return "grid cell cut off from its home bucket" }
                k = (k + 1) & mask
            }
        }
        return used == count ? nil : "grid counts \(count) cells for \(used)"
    }
}

/// The union of frames by slot, kept in a complete binary tree whose leaves are the slots'
/// frames and whose inner nodes are the unions of their children (free slots are empty
/// leaves). A change climbs from its leaf only while it changes the union below.
struct BoundsTree {
    /// minX, minY, maxX, maxY; an empty box is (+inf, +inf, -inf, -inf).
    private struct Box: Equatable {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        static let empty = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

        @inline(__always)
        static func join(_ a: Box, _ b: Box) -> Box {
            Box(minX: Swift.min(a.minX, b.minX), minY: Swift.min(a.minY, b.minY),
                maxX: Swift.max(a.maxX, b.maxX), maxY: Swift.max(a.maxY, b.maxY))
        }
    }

    /// Node 1 is the root; node k has children 2k and 2k+1; leaves are [leafBase, 2 leafBase).
    private var nodes: [Box] = [.empty, .empty]
    private var leafBase = 1

    /// The union of every frame set, or nil when there is none.
    var union: Rect? {
        let b = nodes[1]
        guard b.minX <= b.maxX else { return nil }
        return Rect(b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY)
    }

    @inline(__always)
    mutating func set(_ slot: Int32, _ frame: Rect) {
        if Int(slot) >= leafBase { grow(to: Int(slot) + 1) }
        update(Int(slot), Box(minX: frame.minX, minY: frame.minY, maxX: frame.maxX, maxY: frame.maxY))
    }

    mutating func clear(_ slot: Int32) {
        guard Int(slot) < leafBase else { return }
        update(Int(slot), .empty)
    }

    @inline(__always)
    private mutating func update(_ slot: Int, _ box: Box) {
        nodes.withUnsafeMutableBufferPointer { t in
            var k = leafBase + slot
            t[k] = box
            while k > 1 {
                let parent = k >> 1
                let joined = Box.join(t[k], t[k ^ 1])
                if t[parent] == joined { return }
                t[parent] = joined
                k = parent
            }
        }
    }

    private mutating func grow(to n: Int) {
        var base = leafBase
        while base < n { base *= 2 }
        var t = [Box](repeating: .empty, count: 2 * base)
        for i in 0..<leafBase { t[base + i] = nodes[leafBase + i] }
        var k = base - 1
        while k >= 1 {
            t[k] = Box.join(t[2 * k], t[2 * k + 1])
            k -= 1
        }
        nodes = t
        leafBase = base
    }
}
