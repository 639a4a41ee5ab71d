/// An incremental index of node frames: a uniform hash grid for point and rectangle
/// queries, and four lazily cleaned heaps for the bounds of all frames.
///
/// - point query: O(nodes in one cell)
/// - rectangle query: O(cells covered + nodes returned); falls back to a scan when the
///   rectangle covers more cells than there are nodes
/// - bounds: O(1) amortised (stale heap tops are dropped on the way)
/// - insert/update/remove: O(cells a frame covers + log n)
struct SpatialIndex {
    static let cellSize = 128.0
    /// Frames covering more cells than this are kept in `large` and checked on every query.
    static let maxCellsPerFrame = 64

    private var cells: [CellKey: [String]] = [:]
    private var large: Set<String> = []
    private(set) var frames: [String: Rect] = [:]
    private var versions: [String: Int] = [:]
    private var minXHeap = Heap(isBefore: <)
    private var minYHeap = Heap(isBefore: <)
    private var maxXHeap = Heap(isBefore: >)
    private var maxYHeap = Heap(isBefore: >)

    /// Whether `bounds()` is needed (it costs four heap entries per frame).
    private let tracksBounds: Bool

    init(tracksBounds: Bool = true) { self.tracksBounds = tracksBounds }

    struct CellKey: Hashable {
        var x: Int
        var y: Int
    }

    var count: Int { frames.count }

    private static func cell(_ v: Double) -> Int {
        let c = (v / cellSize).rounded(.down)
        if c.isNaN { return 0 }
        return Int(max(min(c, 1e15), -1e15))
    }

    /// The cell range a frame covers, or nil when it is too large for the grid.
    private static func cellRange(_ r: Rect) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        let x0 = cell(r.minX), x1 = cell(r.maxX), y0 = cell(r.minY), y1 = cell(r.maxY)
        let w = x1 &- x0 &+ 1, h = y1 &- y0 &+ 1
        if w <= 0 || h <= 0 || w > maxCellsPerFrame || h > maxCellsPerFrame || w * h > maxCellsPerFrame {
            return nil
        }
        return (x0...x1, y0...y1)
    }

    mutating func insert(_ id: String, _ frame: Rect) {
        frames[id] = frame
        if let (xs, ys) = Self.cellRange(frame) {
            for x in xs { for y in ys { cells[CellKey(x: x, y: y), default: []].append(id) } }
        } else {
            large.insert(id)
        }
        pushBounds(id, frame)
    }

    /// Records the frame's sides in the bounds heaps under a new version of `id`.
    private mutating func pushBounds(_ id: String, _ frame: Rect) {
        guard tracksBounds else { return }
        let v = (versions[id] ?? 0) &+ 1
        versions[id] = v
        minXHeap.push(frame.minX, id, v)
        minYHeap.push(frame.minY, id, v)
        maxXHeap.push(frame.maxX, id, v)
        maxYHeap.push(frame.maxY, id, v)
        compactHeapsIfNeeded()
    }

    mutating func remove(_ id: String) {
        guard let frame = frames.removeValue(forKey: id) else { return }
        if let (xs, ys) = Self.cellRange(frame) {
            for x in xs { for y in ys { removeFromCell(CellKey(x: x, y: y), id) } }
        } else {
            large.remove(id)
        }
        if tracksBounds { versions[id] = (versions[id] ?? 0) &+ 1 }
    }

    /// Removes `id` from one cell, mutating the cell's array in place (no copy).
    private mutating func removeFromCell(_ key: CellKey, _ id: String) {
        guard let i = cells[key]?.lastIndex(of: id) else { return }
        let last = cells[key]!.count - 1  // invariant: the cell exists (index found)
        if i != last { cells[key]!.swapAt(i, last) }
        cells[key]!.removeLast()
        if cells[key]!.isEmpty { cells[key] = nil }
    }

    mutating func update(_ id: String, _ frame: Rect) {
        guard let old = frames[id] else { return insert(id, frame) }
        if old == frame { return }
        let oldRange = Self.cellRange(old), newRange = Self.cellRange(frame)
        if let o = oldRange, let n = newRange, o.0 == n.0, o.1 == n.1 {
            // Same cells: only the frame and the bounds heaps change.
            frames[id] = frame
            pushBounds(id, frame)
            return
        }
        remove(id)
        insert(id, frame)
    }

    mutating func removeAll() {
        self = SpatialIndex(tracksBounds: tracksBounds)
    }

    /// Ids of frames that may contain `p` (a superset; callers test exactly).
    func candidates(at p: Point) -> [String] {
        var out = cells[CellKey(x: Self.cell(p.x), y: Self.cell(p.y))] ?? []
        out.append(contentsOf: large)
        return out
    }

    /// Ids of frames that may intersect `r` (a superset without duplicates).
    func candidates(in r: Rect) -> [String] {
        let x0 = Self.cell(r.minX), x1 = Self.cell(r.maxX), y0 = Self.cell(r.minY), y1 = Self.cell(r.maxY)
        let w = Double(x1) - Double(x0) + 1, h = Double(y1) - Double(y0) + 1
        if w * h > Double(max(cells.count, 16)) {
            return Array(frames.keys)
        }
        if x0 == x1 && y0 == y1 {
            // One cell lists an id once, and `large` holds no id of a cell: no duplicates.
            var out = cells[CellKey(x: x0, y: y0)] ?? []
            if !large.isEmpty { out.append(contentsOf: large) }
            return out
        }
        var seen = Set<String>()
        var out: [String] = []
        for x in x0...x1 {
            for y in y0...y1 {
                if let list = cells[CellKey(x: x, y: y)] {
                    for id in list where seen.insert(id).inserted { out.append(id) }
                }
            }
        }
        for id in large where seen.insert(id).inserted { out.append(id) }
        return out
    }

    /// The union of all frames, or nil when empty.
    mutating func bounds() -> Rect? {
        if frames.isEmpty || !tracksBounds { return nil }
        guard let x0 = minXHeap.top(versions), let y0 = minYHeap.top(versions),
            let x1 = maxXHeap.top(versions), let y1 = maxYHeap.top(versions)
        else { return nil }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }

    private mutating func compactHeapsIfNeeded() {
        let limit = 2 * frames.count + 64
        if minXHeap.count > limit {
            minXHeap.rebuild(versions)
            minYHeap.rebuild(versions)
            maxXHeap.rebuild(versions)
            maxYHeap.rebuild(versions)
            versions = versions.filter { frames[$0.key] != nil }
        }
    }

    /// Checks the grid against the frames.
    func checkInvariants() -> String? {
        var seen: [String: Int] = [:]
        for (_, list) in cells { for id in list { seen[id, default: 0] += 1 } }
        for (id, f) in frames {
            if let (xs, ys) = Self.cellRange(f) {
                if seen[id] != xs.count * ys.count { return "node '\(id)' is in the wrong grid cells" }
            } else if !large.contains(id) {
                return "large node '\(id)' is not listed"
            }
        }
        if seen.keys.contains(where: { frames[$0] == nil }) { return "grid lists a removed node" }
        return nil
    }
}

/// A binary heap of (value, id, version) with lazy deletion of stale entries.
struct Heap {
    private var items: [(value: Double, id: String, version: Int)] = []
    let isBefore: (Double, Double) -> Bool

    init(isBefore: @escaping (Double, Double) -> Bool) { self.isBefore = isBefore }

    var count: Int { items.count }

    mutating func push(_ value: Double, _ id: String, _ version: Int) {
        items.append((value, id, version))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if isBefore(items[i].value, items[parent].value) {
                items.swapAt(i, parent)
                i = parent
            } else {
                break
            }
        }
    }

    /// The best live value, dropping stale tops.
    mutating func top(_ versions: [String: Int]) -> Double? {
        while let first = items.first {
            if versions[first.id] == first.version { return first.value }
            popTop()
        }
        return nil
    }

    private mutating func popTop() {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < items.count && isBefore(items[l].value, items[best].value) { best = l }
            if r < items.count && isBefore(items[r].value, items[best].value) { best = r }
            if best == i { return }
            items.swapAt(i, best)
            i = best
        }
    }

    /// Drops every stale entry and re-heapifies.
    mutating func rebuild(_ versions: [String: Int]) {
        items.removeAll { versions[$0.id] != $0.version }
        var i = items.count / 2
        while i > 0 { i -= 1; siftDown(i) }
    }
}
