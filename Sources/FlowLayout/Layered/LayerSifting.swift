/// Sifting over one layer (Matuszewski, Schönfeld and Molitor): each vertex in turn is
/// taken out and put back at the place where it crosses least with both neighbouring
/// layers, which stay as they are. Works on the keys `Ordering.gatherKeys` collects: for
/// vertex `v`, its segments' keys on the layer above are `keys[starts[2v]..<ends[2v]]` and
/// below `keys[starts[2v + 1]..<ends[2v + 1]]`, each sorted.
///
/// Placing `v` costs a pass over the rest of the layer. Most vertices have at most one
/// segment each way (dummies, single edges), so each place keeps its vertex's single keys
/// in a slot beside the layer, and the pass over the slots is straight-line arithmetic;
/// vertices with more segments on a side are added from the keys afterwards. A vertex
/// with several segments itself takes one such pass per segment.
struct LayerSifting {
    /// One place of the layer: the vertex's key above and below with a 1 when it has
    /// exactly one on that side (else 0), and a 1 when it has more than one on a side.
    private struct Slot {
        var up = 0, hasUp = 0, down = 0, hasDown = 0, several = 0
    }

    private let keys: UnsafeBufferPointer<Int>
    private let starts: UnsafeBufferPointer<Int>
    private let ends: UnsafeBufferPointer<Int>

    static func sift(
        _ layer: inout [Int], keys: UnsafeBufferPointer<Int>, starts: UnsafeBufferPointer<Int>,
        ends: UnsafeBufferPointer<Int>
    ) {
        LayerSifting(keys: keys, starts: starts, ends: ends).sift(&layer)
    }

    private init(keys: UnsafeBufferPointer<Int>, starts: UnsafeBufferPointer<Int>, ends: UnsafeBufferPointer<Int>) {
        self.keys = keys
        self.starts = starts
        self.ends = ends
    }

    private func slot(_ v: Int) -> Slot {
        var s = Slot()
        let up = ends[2 * v] - starts[2 * v], down = ends[2 * v + 1] - starts[2 * v + 1]
        if up == 1 { s.up = keys[starts[2 * v]]; s.hasUp = 1 }
        if down == 1 { s.down = keys[starts[2 * v + 1]]; s.hasDown = 1 }
        s.several = up > 1 || down > 1 ? 1 : 0
        return s
    }

    private func sift(_ layer: inout [Int]) {
        var slots = layer.map(slot)
        let severalCount = slots.reduce(0) { $0 + $1.several }
        var balance = Array(repeating: 0, count: layer.count)
        for v in layer {
            guard let from = layer.firstIndex(of: v) else { continue }
            // balance[j] is how many more crossings v has with layer[j] when left of it
            // than when right of it (balance[from], v against itself, is not used)
            balances(of: v, slots[from], layer: layer, slots: slots, severalCount: severalCount, into: &balance)
            var best = 0, bestAt = from, change = 0
            for j in stride(from: from - 1, through: 0, by: -1) {
                change += balance[j]
                if change < best { best = change; bestAt = j }
            }
            change = 0
            for j in (from + 1)..<max(from + 1, layer.count) {
                change -= balance[j]
                if change < best { best = change; bestAt = j }
            }
            // only the places between the old and the new one shift
            LayerSifting.move(&layer, from: from, to: bestAt)
            LayerSifting.move(&slots, from: from, to: bestAt)
        }
    }

    /// Moves the element at `from` to `to`, shifting those between by one.
    private static func move<T>(_ a: inout [T], from: Int, to: Int) {
        if from == to { return }
        let x = a[from]
        if to < from {
            for i in stride(from: from, to: to, by: -1) { a[i] = a[i - 1] }
        } else {
            for i in from..<to { a[i] = a[i + 1] }
        }
        a[to] = x
    }

    /// Each pair of keys `a` of v and `b` of w on the same side adds `+1` when `a > b` and
    /// `-1` when `a < b`.
    private func balances(
        of v: Int, _ own: Slot, layer: [Int], slots: [Slot], severalCount: Int, into balance: inout [Int]
    ) {
        if own.several == 1 {
            balancesBySegment(of: v, layer: layer, slots: slots, severalCount: severalCount, into: &balance)
            return
        }
        let a = own.up, c = own.down
        let useUp = own.hasUp, useDown = own.hasDown
        slots.withUnsafeBufferPointer { slots in
            balance.withUnsafeMutableBufferPointer { balance in
                for j in 0..<slots.count {
                    let s = slots[j]
                    balance[j] = useUp * s.hasUp * LayerSifting.sign(a - s.up)
                        + useDown * s.hasDown * LayerSifting.sign(c - s.down)
                }
            }
        }
        if severalCount == 0 { return }
        // the places whose vertex has more than one key on a side
        for j in 0..<slots.count where slots[j].several == 1 {
            let w = layer[j]
            var sum = 0
            if useUp == 1 && slots[j].hasUp == 0 {
                for k in starts[2 * w]..<ends[2 * w] { sum += LayerSifting.sign(a - keys[k]) }
            }
            if useDown == 1 && slots[j].hasDown == 0 {
                for k in starts[2 * w + 1]..<ends[2 * w + 1] { sum += LayerSifting.sign(c - keys[k]) }
            }
            balance[j] += sum
        }
    }

    /// `balances` for a vertex with more than one key on a side: one pass over the slots
    /// per key of v.
    private func balancesBySegment(
        of v: Int, layer: [Int], slots: [Slot], severalCount: Int, into balance: inout [Int]
    ) {
        let up = starts[2 * v]..<ends[2 * v], down = starts[2 * v + 1]..<ends[2 * v + 1]
        slots.withUnsafeBufferPointer { slots in
            balance.withUnsafeMutableBufferPointer { balance in
                for j in 0..<slots.count { balance[j] = 0 }
                for k in up {
                    let a = keys[k]
                    for j in 0..<slots.count { balance[j] += slots[j].hasUp * LayerSifting.sign(a - slots[j].up) }
                }
                for k in down {
                    let c = keys[k]
                    for j in 0..<slots.count { balance[j] += slots[j].hasDown * LayerSifting.sign(c - slots[j].down) }
                }
            }
        }
        if severalCount == 0 { return }
        for j in 0..<slots.count where slots[j].several == 1 {
            let w = layer[j]
            var sum = 0
            if slots[j].hasUp == 0 {
                for k in up { for i in starts[2 * w]..<ends[2 * w] { sum += LayerSifting.sign(keys[k] - keys[i]) } }
            }
            if slots[j].hasDown == 0 {
                for k in down { for i in starts[2 * w + 1]..<ends[2 * w + 1] { sum += LayerSifting.sign(keys[k] - keys[i]) } }
            }
            balance[j] += sum
        }
    }

    @inline(__always)
    private static func sign(_ x: Int) -> Int { (x > 0 ? 1 : 0) - (x < 0 ? 1 : 0) }
}
