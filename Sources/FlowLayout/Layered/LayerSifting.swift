/// Sifting over one layer (Matuszewski, Schönfeld and Molitor): each vertex in turn is
/// taken out and put back at the place where it crosses least with both neighbouring
/// layers, which stay as they are. Works on the keys `Ordering.gatherKeys` collects: for
/// vertex `v`, its segments' keys on the layer above are `keys[starts[2v]..<ends[2v]]` and
/// below `keys[starts[2v + 1]..<ends[2v + 1]]` (in any order: only pairs of keys count).
///
/// Placing `v` costs a pass over the rest of the layer per key of `v`. Most vertices have
/// at most one segment each way (dummies, single edges), so each place keeps its vertex's
/// single key on each side in flat arrays beside the layer, and a pass is straight-line
/// comparisons over them (which the compiler vectorises); the keys of vertices with more
/// segments on a side are copied into rows of their own, and a pass over those follows.
struct LayerSifting {
    /// The vertices (dummies included) from which a graph's vertices are sifted within
    /// `window` places of where they are (`Ordering.siftingWindow`).
    static let windowedFrom = 20_000
    static let window = 50
    /// The places a vertex's keys are weighed at for one unit of work (`WorkBudget`): a
    /// pass over a layer is a run of straight-line comparisons, about this many times
    /// cheaper a place than a sweep is a vertex.
    static let placesPerUnit = 8
    private let keys: UnsafeBufferPointer<Int>
    private let starts: UnsafeBufferPointer<Int>
    private let ends: UnsafeBufferPointer<Int>

    /// The layer as given.
    private let vertices: [Int]
    /// The vertices by place, as indices into `vertices`.
    private var order: [Int32]
    /// Where each vertex (by index into `vertices`) is now.
    private var placeOf: [Int]
    /// Each place's single key on a side, stored twice: as a bound that a key exceeds
    /// (`Int32.max` when the vertex has no single key there) and one that a key undercuts
    /// (`Int32.min`), so a vertex without such a key counts 0 in a pass.
    private var upExceeded: [Int32] = [], upUndercut: [Int32] = []
    private var downExceeded: [Int32] = [], downUndercut: [Int32] = []
    /// The keys on each side of the vertices with more than one key there.
    private var upSeveral = SeveralKeys(), downSeveral = SeveralKeys()

    /// With a `window`, each vertex stays within that many places of where it is: a pass
    /// then costs the window, not the layer's width, per key.
    static func sift(
        _ layer: inout [Int], keys: UnsafeBufferPointer<Int>, starts: UnsafeBufferPointer<Int>,
        ends: UnsafeBufferPointer<Int>, window: Int? = nil
    ) {
        var sifting = LayerSifting(layer, keys: keys, starts: starts, ends: ends)
        sifting.sift(window: window ?? layer.count)
        layer = sifting.order.map { layer[Int($0)] }
    }

    private init(
        _ layer: [Int], keys: UnsafeBufferPointer<Int>, starts: UnsafeBufferPointer<Int>,
        ends: UnsafeBufferPointer<Int>
    ) {
        self.keys = keys
        self.starts = starts
        self.ends = ends
        vertices = layer
        order = (0..<layer.count).map { Int32($0) }
        placeOf = Array(0..<layer.count)
        for (i, v) in layer.enumerated() {
            let up = ends[2 * v] - starts[2 * v], down = ends[2 * v + 1] - starts[2 * v + 1]
            let upKey = Int32(up == 1 ? keys[starts[2 * v]] : 0)
            let downKey = Int32(down == 1 ? keys[starts[2 * v + 1]] : 0)
            upExceeded.append(up == 1 ? upKey : .max)
            upUndercut.append(up == 1 ? upKey : .min)
            downExceeded.append(down == 1 ? downKey : .max)
            downUndercut.append(down == 1 ? downKey : .min)
            if up > 1 { upSeveral.add(i, keys[starts[2 * v]..<ends[2 * v]]) }
            if down > 1 { downSeveral.add(i, keys[starts[2 * v + 1]..<ends[2 * v + 1]]) }
        }
    }

    private mutating func sift(window: Int) {
        let count = vertices.count
        var balance = [Int32](repeating: 0, count: count)
        for i in 0..<count {
            let v = vertices[i], from = placeOf[i]
            let lo = max(0, from - window), hi = min(count, from + window + 1)
            // balance[j] is how many more crossings v has with the vertex at j when left of
            // it than when right of it (balance[from], v against itself, is not used)
            balances(of: v, into: &balance, lo..<hi)
            var best = 0, bestAt = from, change = 0
            for j in stride(from: from - 1, through: lo, by: -1) {
                change += Int(balance[j])
                if change < best { best = change; bestAt = j }
            }
            change = 0
            for j in (from + 1)..<max(from + 1, hi) {
                change -= Int(balance[j])
                if change < best { best = change; bestAt = j }
            }
            move(from: from, to: bestAt)
        }
    }

    /// Moves the vertex at place `from` to `to`; only the places between shift.
    private mutating func move(from: Int, to: Int) {
        if from == to { return }
        LayerSifting.move(&order, from: from, to: to)
        LayerSifting.move(&upExceeded, from: from, to: to)
        LayerSifting.move(&upUndercut, from: from, to: to)
        LayerSifting.move(&downExceeded, from: from, to: to)
        LayerSifting.move(&downUndercut, from: from, to: to)
        for p in min(from, to)...max(from, to) { placeOf[Int(order[p])] = p }
    }

    /// Moves the element at `from` to `to`, shifting those between by one.
    private static func move<T>(_ a: inout [T], from: Int, to: Int) {
        let x = a[from]
        if to < from {
            for i in stride(from: from, to: to, by: -1) { a[i] = a[i - 1] }
        } else {
            for i in from..<to { a[i] = a[i + 1] }
        }
        a[to] = x
    }

    /// Each pair of keys `a` of v and `b` of the vertex at a place, on the same side, adds
    /// `+1` to that place when `a > b` and `-1` when `a < b`: one pass over the places'
    /// single keys per key of v, then the vertices with several keys on a side.
    /// Only the places in `range` get their balance.
    private func balances(of v: Int, into balance: inout [Int32], _ range: Range<Int>) {
        let up = starts[2 * v]..<ends[2 * v], down = starts[2 * v + 1]..<ends[2 * v + 1]
        balance.withUnsafeMutableBufferPointer { whole in
            let balance = UnsafeMutableBufferPointer(rebasing: whole[range])
            balance.update(repeating: 0)
            upExceeded.withUnsafeBufferPointer { exceeded in
                upUndercut.withUnsafeBufferPointer { undercut in
                    let (e, u) = (UnsafeBufferPointer(rebasing: exceeded[range]), UnsafeBufferPointer(rebasing: undercut[range]))
                    for k in up { LayerSifting.add(Int32(keys[k]), e, u, to: balance) }
                }
            }
            downExceeded.withUnsafeBufferPointer { exceeded in
                downUndercut.withUnsafeBufferPointer { undercut in
                    let (e, u) = (UnsafeBufferPointer(rebasing: exceeded[range]), UnsafeBufferPointer(rebasing: undercut[range]))
                    for k in down { LayerSifting.add(Int32(keys[k]), e, u, to: balance) }
                }
            }
            for k in up { upSeveral.addSigns(of: keys[k], to: whole, placeOf: placeOf, range) }
            for k in down { downSeveral.addSigns(of: keys[k], to: whole, placeOf: placeOf, range) }
        }
    }

    /// The pass for one key `a`: +1 where it exceeds the place's single key, -1 where it
    /// undercuts it. Wrapping arithmetic and no branches, so the loop vectorises.
    @inline(__always)
    private static func add(
        _ a: Int32, _ exceeded: UnsafeBufferPointer<Int32>, _ undercut: UnsafeBufferPointer<Int32>,
        to balance: UnsafeMutableBufferPointer<Int32>
    ) {
        for j in 0..<balance.count {
            balance[j] = balance[j] &+ (a > exceeded[j] ? 1 : 0) &- (a < undercut[j] ? 1 : 0)
        }
    }

    /// The keys on one side of the vertices with more than one key there, a row each.
    private struct SeveralKeys {
        /// The rows' keys one after another.
        private var keys: [Int] = []
        /// Where each row ends (it starts where the one before ends).
        private var rowEnd: [Int] = []
        /// Each row's vertex, by index into the layer as given.
        private var owner: [Int] = []

        mutating func add(_ vertex: Int, _ rowKeys: Slice<UnsafeBufferPointer<Int>>) {
            keys.append(contentsOf: rowKeys)
            rowEnd.append(keys.count)
            owner.append(vertex)
        }

        /// Adds to the balance at each row's place the sum of `sign(a - b)` over its keys `b`.
        /// Rows whose place lies outside `range` are skipped.
        func addSigns(of a: Int, to balance: UnsafeMutableBufferPointer<Int32>, placeOf: [Int], _ range: Range<Int>) {
            for r in 0..<owner.count {
                let place = placeOf[owner[r]]
                if !range.contains(place) { continue }
                var sum = 0
                for t in (r == 0 ? 0 : rowEnd[r - 1])..<rowEnd[r] { sum = sum &+ SeveralKeys.sign(a &- keys[t]) }
                balance[place] &+= Int32(sum)
            }
        }

        /// -1, 0 or 1 (the form of a difference's sign that compiles without branches).
        @inline(__always)
        private static func sign(_ x: Int) -> Int { (x > 0 ? 1 : 0) &- (x < 0 ? 1 : 0) }
    }
}
