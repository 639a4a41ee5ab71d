import FlowCore

/// Crossing reduction: the order of the vertices within each layer.
///
/// A run starts from an initial order and alternates layer-by-layer sweeps, down and up,
/// that sort each layer by the barycentre of its neighbours on the layer just placed, with
/// sifting passes: each vertex of a layer in turn is taken out and put back at the place
/// where it crosses least with both neighbouring layers (Matuszewski, Schönfeld and
/// Molitor's sifting, one layer at a time). The order with the fewest crossings seen in any
/// run is kept; then each long edge is moved as a whole (`ChainSifting`: over whole layers
/// where they are narrow enough, within a window of places on large graphs) and sifting
/// polishes again; last, small graphs get iterated sifting (`IteratedSifting.swift`). All
/// but the kicks stop when the search's work budget is spent (`WorkBudget`), keeping the
/// best order found. Every tie goes by the current position and every start order and kick
/// is derived from the input order, so the result depends on the input alone.
struct Ordering {
    /// Sweeps in a row without a real improvement (0.5 %) before a run stops.
    static let patience = 8
    /// Most sifting passes that polish a run's best order.
    static let siftingPasses = 6
    let graph: ProperGraph
    /// Vertices of each layer, left to right.
    private(set) var layers: [[Int]]
    /// Position of each vertex within its layer.
    private(set) var position: [Int]

    // Adjacency in flat arrays: the neighbours of v above are upNeighbour[upStart[v]..<upStart[v+1]],
    // with the side code (0, 1, 2) of the segment's end at that neighbour.
    private var upStart: [Int] = [], upNeighbour: [Int] = [], upSide: [Int] = []
    private var downStart: [Int] = [], downNeighbour: [Int] = [], downSide: [Int] = []
    /// The side code at v itself of each segment in v's down list.
    private var downOwnSide: [Int] = []
    /// Scratch for counting crossings.
    private var countKeys: [Int] = [], countTree: [Int] = []

    /// Layers whose every vertex has an order key: they keep that order (a group's border).
    private(set) var frozen: [Bool] = []
    /// The work crossing reduction may do (`WorkBudget`; unlimited unless a search sets it).
    private(set) var budget = WorkBudget.unlimited
    /// Each layer's units of work: its vertices and their segment ends.
    private var layerUnits: [Int] = []

    // Each vertex's neighbour keys (unsorted), in places of their own: those towards the
    // layer above at keyBuffer[keyStart[2v]..<keyEnd[2v]], below at index 2v + 1. Each
    // segment's key at its lower end sits at its index in `upNeighbour`, the one at its
    // upper end after all those, at `above` plus its index in `downNeighbour`.
    private var keyStart: [Int] = [], keyEnd: [Int] = []
    private var keyBuffer: [Int] = []
    /// For each segment by its index in `upNeighbour`, its index in `downNeighbour`, and the
    /// other way round: where the key at its other end is.
    private var upPartner: [Int] = [], downPartner: [Int] = []

    init(graph: ProperGraph) {
        self.graph = graph
        position = Array(repeating: 0, count: graph.count)
        layers = Array(repeating: [], count: graph.layerCount)
        func side(_ port: Double) -> Int { port < 0 ? 0 : port > 0 ? 2 : 1 }
        var upSlot = Array(repeating: 0, count: graph.segments.count), downSlot = upSlot
        for v in 0..<graph.count {
            upStart.append(upNeighbour.count)
            for s in graph.up[v] {
                upSlot[s] = upNeighbour.count
                upNeighbour.append(graph.segments[s].upper)
                upSide.append(side(graph.segments[s].upperPort))
            }
            downStart.append(downNeighbour.count)
            for s in graph.down[v] {
                downSlot[s] = downNeighbour.count
                downNeighbour.append(graph.segments[s].lower)
                downSide.append(side(graph.segments[s].lowerPort))
                downOwnSide.append(side(graph.segments[s].upperPort))
            }
        }
        upStart.append(upNeighbour.count)
        downStart.append(downNeighbour.count)
        upPartner = Array(repeating: 0, count: upNeighbour.count)
        downPartner = Array(repeating: 0, count: downNeighbour.count)
        for s in 0..<graph.segments.count {
            upPartner[upSlot[s]] = downSlot[s]
            downPartner[downSlot[s]] = upSlot[s]
        }
        let above = upNeighbour.count
        for v in 0..<graph.count {
            keyStart.append(upStart[v])
            keyStart.append(above + downStart[v])
            keyEnd.append(upStart[v + 1])
            keyEnd.append(above + downStart[v + 1])
        }
        keyBuffer = Array(repeating: 0, count: above + downNeighbour.count)
        layerUnits = Array(repeating: 0, count: graph.layerCount)
        for v in 0..<graph.count { layerUnits[graph.layer[v]] += 1 + upStart[v + 1] - upStart[v] + downStart[v + 1] - downStart[v] }
        layers = depthFirstOrder()
        frozen = layers.map { layer in
            !layer.isEmpty && layer.allSatisfy { $0 < graph.realCount && graph.orderKey.count > $0 && graph.orderKey[$0] != nil }
        }
        applyFrozen()
        setPositions()
    }

    /// Puts the frozen layers in the order of their keys (ties by tie key, then vertex).
    private mutating func applyFrozen() {
        let g = graph
        for l in 0..<layers.count where frozen[l] {
            layers[l].sort { (g.orderKey[$0]!, g.orderTie[$0], $0) < (g.orderKey[$1]!, g.orderTie[$1], $1) }
        }
    }

    private mutating func setPositions() {
        for layer in layers { for (i, v) in layer.enumerated() { position[v] = i } }
    }

    /// Depth-first from every vertex in input order along the edges downwards: each vertex
    /// goes to the end of its layer when first reached, so edges out of one node start out
    /// next to each other.
    private func depthFirstOrder() -> [[Int]] {
        var result = Array(repeating: [Int](), count: graph.layerCount)
        var seen = Array(repeating: false, count: graph.count)
        var stack: [Int] = []
        func visit(_ root: Int) {
            stack.append(root)
            seen[root] = true
            while let v = stack.popLast() {
                result[graph.layer[v]].append(v)
                for i in stride(from: downStart[v + 1] - 1, through: downStart[v], by: -1) {
                    let w = downNeighbour[i]
                    if !seen[w] {
                        seen[w] = true
                        stack.append(w)
                    }
                }
            }
        }
        for root in 0..<graph.realCount where !seen[root] && upStart[root] == upStart[root + 1] { visit(root) }
        for root in 0..<graph.count where !seen[root] { visit(root) }
        return result
    }

    // MARK: Counting

    /// Crossings between layer `l` and `l + 1` (Barth, Jünger and Mutzel's accumulator
    /// counting): the segments' lower keys in the order of their upper keys (ties by lower
    /// key), then the inversions among them. Walking layer `l` left to right gives that
    /// order with only each vertex's few segments to sort.
    mutating func countCrossings(below l: Int) -> Int {
        // Hot: the arrays are read through locals (no reloads through self)
        let position = self.position, downStart = self.downStart, downNeighbour = self.downNeighbour
        let downSide = self.downSide, downOwnSide = self.downOwnSide
        var keys = countKeys
        countKeys = []
        keys.removeAll(keepingCapacity: true)
        for v in layers[l] {
            let first = keys.count
            for k in downStart[v]..<downStart[v + 1] {
                // by the side at v first, then by the lower end's key
                keys.append(downOwnSide[k] << 40 | (position[downNeighbour[k]] &* 3 &+ downSide[k]))
            }
            if keys.count - first > 1 { keys.withUnsafeMutableBufferPointer { Ordering.insertionSort($0, first..<$0.count) } }
            for i in first..<keys.count { keys[i] &= (1 << 40) - 1 }
        }
        countKeys = keys
        if keys.count < 2 { return 0 }
        return Ordering.inversions(keys, bound: layers[l + 1].count * 3, tree: &countTree)
    }

    /// Pairs `i < j` with `values[i] > values[j]`, with a Fenwick tree over `0..<bound`.
    static func inversions(_ values: [Int], bound: Int, tree: inout [Int]) -> Int {
        tree.removeAll(keepingCapacity: true)
        tree.append(contentsOf: repeatElement(0, count: bound + 1))
        var count = 0, inserted = 0
        tree.withUnsafeMutableBufferPointer { tree in
            for v in values {
                var i = v + 1, atMost = 0
                while i > 0 { atMost += tree[i]; i -= i & -i }
                count += inserted - atMost
                i = v + 1
                while i <= bound { tree[i] += 1; i += i & -i }
                inserted += 1
            }
        }
        return count
    }

    mutating func totalCrossings() -> Int {
        budget.charge(WorkBudget.units(graph))
        var total = 0
        for l in 0..<max(0, layers.count - 1) { total += countCrossings(below: l) }
        return total
    }

    // MARK: Runs

    /// Whether crossing reduction stops: its budget is spent, or the current `WorkLimit`.
    var stopping: Bool { budget.isSpent || WorkLimit.shouldStop }

    /// Runs from `search.starts` initial orders (the depth-first order, its mirror when
    /// every start is taken all the way, then seeded shuffles) and keeps the best order
    /// found. With `search.everyStartWhole`, every start gets the whole treatment (sweeps
    /// with transposition, then sifting); otherwise the starts only get barycentre sweeps,
    /// which are cheap, and the best of them the whole treatment. Long edges are moved as
    /// a whole next, then iterated sifting takes what `search` gives it.
    mutating func minimizeCrossings(_ search: CrossingSearch, sweeps: Int) {
        let whole = search.everyStartWhole
        guard layers.count > 1 else { return }
        budget = search.budget(WorkBudget.units(graph))
        let first = layers
        var best = layers, bestCrossings = Int.max
        var random = SplitMix64(seed: 0x5EED_F10E)
        for run in 0..<max(1, search.starts) {
            switch run {
            case 0: layers = first
            // barycentre sweeps alone take a mirrored order to the mirrored result, with
            // as many crossings: only a whole run (transposition scans left to right)
            // can gain from the mirror
            case 1 where whole: layers = first.map { $0.reversed() }
            default: layers = first.map { random.shuffled($0) }
            }
            applyFrozen()
            setPositions()
            let c = improve(sweeps: sweeps, quick: !whole)
            if c < bestCrossings {
                bestCrossings = c
                best = layers
            }
            // another start only while the starts have used less than a tenth of the
            // budget: on the largest graphs it goes to polishing the first one instead
            if bestCrossings == 0 || stopping || budget.used > budget.limit / 10 { break }
        }
        layers = best
        setPositions()
        // past the budget: the best order so far (past the work limit the call that asked
        // fails anyway)
        if stopping { return }
        if !whole && bestCrossings > 0 { _ = improve(sweeps: sweeps, quick: false) }
        if ChainSifting.work(graph, layers) <= ChainSifting.workBound {
            siftChains()
        } else if graph.count > ChainSifting.windowedFrom {
            siftChains(window: ChainSifting.window, passes: ChainSifting.windowedPasses)
        }
        for (i, run) in search.kicks.enumerated() where !WorkLimit.shouldStop {
            iterateSifting(run, seed: 0x5EED_C1C5 &+ UInt64(i))
        }
    }

    /// Puts layer `l` in `order` (the same vertices).
    mutating func setLayer(_ l: Int, _ order: [Int]) {
        layers[l] = order
        for (i, v) in order.enumerated() { position[v] = i }
    }

    /// Moves each long edge as a whole (`ChainSifting`, each dummy within `window` places
    /// of where it is, if given), then polishes by at most `passes` sifting passes; again
    /// while that removes crossings, at most `ChainSifting.rounds` times. An order that
    /// ends with no fewer crossings is undone.
    private mutating func siftChains(window: Int? = nil, passes: Int = Ordering.siftingPasses) {
        var crossings = totalCrossings()
        for _ in 0..<ChainSifting.rounds where crossings > 0 && !stopping {
            let before = layers
            var moved = false
            for chain in graph.ownedChains where chain.count > 3 && !stopping {
                budget.charge(ChainSifting.work(chain, graph: graph, layers: layers, window: window))
                if ChainSifting.place(chain, graph: graph, layers: &layers, position: &position, window: window) { moved = true }
            }
            if !moved { return }
            let c = improve(sweeps: 0, quick: false, passes: passes)
            if c >= crossings {
                layers = before
                setPositions()
                return
            }
            crossings = c
        }
    }

    /// Barycentre sweeps with sifting until `sweeps` rounds or four without improvement;
    /// leaves the best order of the run in `layers` and returns its crossings.
    /// Barycentre sweeps with transposition (none when `quick`) until `sweeps` rounds or
    /// `patience` without improvement, then sifting passes (none when `quick`); leaves the
    /// best order of the run in `layers` and returns its crossings.
    private mutating func improve(sweeps: Int, quick: Bool, passes: Int = Ordering.siftingPasses) -> Int {
        var best = layers, bestCrossings = totalCrossings()
        var fails = 0
        for i in 0..<sweeps where bestCrossings > 0 && !stopping {
            let downwards = i % 2 == 0
            let ties = i % 4 < 2
            if downwards {
                for l in 1..<layers.count { sortLayer(l, above: true, ties: ties) }
            } else {
                for l in stride(from: layers.count - 2, through: 0, by: -1) { sortLayer(l, above: false, ties: ties) }
            }
            if !quick { transposeAll(ties: !ties) }
            let c = totalCrossings()
            if c <= bestCrossings {
                if Double(c) < 0.995 * Double(bestCrossings) { fails = 0 } else { fails += 1 }
                bestCrossings = c
                best = layers
                if fails >= Ordering.patience { break }
            } else {
                fails += 1
                if fails >= Ordering.patience { break }
            }
        }
        layers = best
        setPositions()
        if quick { return bestCrossings }
        // polish: sifting passes while they help
        var pass = 0
        var settled = Array(repeating: false, count: layers.count)
        while bestCrossings > 0 && pass < passes && !stopping {
            siftAll(downwards: pass % 2 == 0, settled: &settled)
            let c = totalCrossings()
            if c >= bestCrossings { break }
            bestCrossings = c
            best = layers
            pass += 1
        }
        layers = best
        setPositions()
        return bestCrossings
    }

    /// Sorts layer `l` by the barycentres of each vertex's neighbours on the layer above (or
    /// below); a vertex without such neighbours keeps its place.
    private mutating func sortLayer(_ l: Int, above: Bool, ties: Bool) {
        if frozen[l] { return }
        budget.charge(layerUnits[l])
        let layer = layers[l]
        var movable: [(v: Int, key: Double)] = []
        movable.reserveCapacity(layer.count)
        var fixed = Array(repeating: false, count: layer.count)
        for (i, v) in layer.enumerated() {
            let (start, end) = above ? (upStart[v], upStart[v + 1]) : (downStart[v], downStart[v + 1])
            if start == end {
                fixed[i] = true
                continue
            }
            var sum = 0
            for k in start..<end {
                sum += above ? position[upNeighbour[k]] * 3 + upSide[k] : position[downNeighbour[k]] * 3 + downSide[k]
            }
            movable.append((v, Double(sum) / Double(end - start)))
        }
        // equal keys keep their order (the sort is stable), or take the reverse with `ties`
        if ties { movable.reverse() }
        movable.sort { $0.key < $1.key }
        var next = 0
        var result = layer
        for i in 0..<layer.count where !fixed[i] {
            result[i] = movable[next].v
            next += 1
        }
        layers[l] = result
        for (i, v) in result.enumerated() { position[v] = i }
    }

    // MARK: Transposition

    /// Swaps neighbours within every layer while that lowers the crossings with both
    /// neighbouring layers; with `ties`, also when it keeps them equal (which lets an order
    /// walk across a plateau). Repeats while anything improved, a bounded number of times.
    /// Every layer's keys are gathered once; a swap then moves the keys at the swapped
    /// vertices' neighbours, so they stay up to date.
    private mutating func transposeAll(ties: Bool, maxPasses: Int = 12) {
        for l in 0..<layers.count { gatherKeys(l) }
        var dirty = Array(repeating: true, count: layers.count)
        budget.charge(WorkBudget.units(graph))
        for _ in 0..<maxPasses where !stopping {
            var improved = false
            for l in 0..<layers.count where dirty[l] && !frozen[l] {
                dirty[l] = false
                guard layers[l].count > 1 else { continue }
                budget.charge(layerUnits[l])
                var layer = layers[l]
                if transpose(&layer, ties: ties) {
                    improved = true
                    dirty[l] = true
                    if l > 0 { dirty[l - 1] = true }
                    if l + 1 < layers.count { dirty[l + 1] = true }
                }
                layers[l] = layer
                for (i, v) in layer.enumerated() { position[v] = i }
            }
            if !improved { break }
        }
    }

    // MARK: Sifting

    /// One sifting pass over every layer in sweep order, skipping the layers marked settled:
    /// their last sifting moved nothing and neither they nor their neighbours have changed
    /// since, so it would move nothing again. Updates the marks.
    private mutating func siftAll(downwards: Bool, settled: inout [Bool]) {
        let order = downwards ? Array(0..<layers.count) : Array((0..<layers.count).reversed())
        var probe = WorkLimitProbe(stride: 16)
        for l in order where layers[l].count > 1 && !frozen[l] && !settled[l] {
            if probe.shouldStop() || budget.isSpent { return }
            let before = layers[l]
            sift(l)
            if layers[l] == before {
                settled[l] = true
            } else {
                if l > 0 { settled[l - 1] = false }
                if l + 1 < layers.count { settled[l + 1] = false }
            }
        }
    }

    /// Gathers the keys of every vertex of layer `l` towards both neighbouring layers, each
    /// segment's in its place (see `keyBuffer`), unsorted. The neighbouring layers do not
    /// change while `l` is sifted, so the keys hold for the whole pass.
    private mutating func gatherKeys(_ l: Int) {
        // Hot: the arrays are read through locals (no reloads through self), and the keys
        // are written by index
        let layer = layers[l], position = self.position, above = upNeighbour.count
        let upStart = self.upStart, upNeighbour = self.upNeighbour, upSide = self.upSide
        let downStart = self.downStart, downNeighbour = self.downNeighbour, downSide = self.downSide
        var keys = keyBuffer
        keyBuffer = []
        keys.withUnsafeMutableBufferPointer { keys in
            for v in layer {
                for k in upStart[v]..<upStart[v + 1] { keys[k] = position[upNeighbour[k]] &* 3 &+ upSide[k] }
                for k in downStart[v]..<downStart[v + 1] {
                    keys[above + k] = position[downNeighbour[k]] &* 3 &+ downSide[k]
                }
            }
        }
        keyBuffer = keys
    }

    @inline(__always)
    private static func insertionSort(_ keys: UnsafeMutableBufferPointer<Int>, _ range: Range<Int>) {
        if range.count < 2 { return }
        for i in (range.lowerBound + 1)..<range.upperBound {
            let x = keys[i]
            var j = i
            while j > range.lowerBound && keys[j - 1] > x {
                keys[j] = keys[j - 1]
                j -= 1
            }
            keys[j] = x
        }
    }

    /// One pass of swaps of neighbours over `layer`, with the keys gathered; returns whether
    /// a swap lowered the crossings. A swap moves one vertex a place right and the other a
    /// place left, so the keys at their neighbours' ends of their segments move by 3.
    private mutating func transpose(_ layer: inout [Int], ties: Bool) -> Bool {
        var improved = false
        let upStart = self.upStart, downStart = self.downStart, above = upNeighbour.count
        let upPartner = self.upPartner, downPartner = self.downPartner
        func move(_ v: Int, by d: Int, _ keys: UnsafeMutableBufferPointer<Int>) {
            for k in upStart[v]..<upStart[v + 1] { keys[above + upPartner[k]] &+= d }
            for k in downStart[v]..<downStart[v + 1] { keys[downPartner[k]] &+= d }
        }
        keyBuffer.withUnsafeMutableBufferPointer { keys in
            keyStart.withUnsafeBufferPointer { starts in
                keyEnd.withUnsafeBufferPointer { ends in
                    for i in 0..<(layer.count - 1) {
                        let v = layer[i], w = layer[i + 1]
                        let c = Ordering.pairCrossings(v, w, keys: UnsafeBufferPointer(keys), starts: starts, ends: ends)
                        if c.vw == 0 { continue }
                        if c.wv < c.vw || (ties && c.wv == c.vw) {
                            layer.swapAt(i, i + 1)
                            move(v, by: 3, keys)
                            move(w, by: -3, keys)
                            if c.wv < c.vw { improved = true }
                        }
                    }
                }
            }
        }
        return improved
    }

    @inline(__always)
    static func pairCrossings(
        _ v: Int, _ w: Int, keys: UnsafeBufferPointer<Int>, starts: UnsafeBufferPointer<Int>,
        ends: UnsafeBufferPointer<Int>
    ) -> (vw: Int, wv: Int) {
        var vw = 0, wv = 0
        for side in 0..<2 {
            let a0 = starts[2 * v + side], a1 = ends[2 * v + side]
            let b0 = starts[2 * w + side], b1 = ends[2 * w + side]
            if a0 == a1 || b0 == b1 { continue }
            if a1 - a0 == 1 && b1 - b0 == 1 {
                // one segment each, the common case (dummies, single edges)
                let x = keys[a0], y = keys[b0]
                if x > y { vw += 1 } else if x < y { wv += 1 }
                continue
            }
            // v left of w crosses where a key of v exceeds one of w; the other way round
            // where it is smaller. Few pairs: each compared, without branches.
            if (a1 - a0) * (b1 - b0) <= 64 {
                for i in a0..<a1 {
                    let x = keys[i]
                    for j in b0..<b1 {
                        vw = vw &+ Ordering.less(keys[j], x)
                        wv = wv &+ Ordering.less(x, keys[j])
                    }
                }
                continue
            }
            // many pairs: a merge over both sorted
            let first = keys[a0..<a1].sorted(), second = keys[b0..<b1].sorted()
            var j = 0, jj = 0
            for x in first {
                while j < second.count && second[j] < x { j += 1 }
                while jj < second.count && second[jj] <= x { jj += 1 }
                vw += j
                wv += second.count - jj
            }
        }
        return (vw, wv)
    }

    /// 1 when `x < y`, else 0, from the sign bit of `x - y` (keys are small: no overflow),
    /// which compiles without a branch.
    @inline(__always)
    private static func less(_ x: Int, _ y: Int) -> Int { Int(bitPattern: UInt(bitPattern: x &- y) >> 63) }

    /// How far a vertex may move in one sifting (nil: anywhere in its layer): on large
    /// graphs (`LayerSifting.windowedFrom`), whose layers are hundreds wide, a window keeps a
    /// pass linear in the vertices instead of growing with their product with the widths.
    var siftingWindow: Int? { graph.count > LayerSifting.windowedFrom ? LayerSifting.window : nil }

    /// Moves each vertex of layer `l`, in turn, to the place where it crosses least.
    mutating func sift(_ l: Int) {
        // each vertex weighs every place of its window against its segments
        budget.charge(layerUnits[l] * min(layers[l].count, 2 * (siftingWindow ?? layers[l].count) + 1) / LayerSifting.placesPerUnit)
        gatherKeys(l)
        var layer = layers[l]
        keyBuffer.withUnsafeBufferPointer { keys in
            keyStart.withUnsafeBufferPointer { starts in
                keyEnd.withUnsafeBufferPointer { ends in
                    LayerSifting.sift(&layer, keys: keys, starts: starts, ends: ends, window: siftingWindow)
                }
            }
        }
        layers[l] = layer
        for (i, v) in layer.enumerated() { position[v] = i }
    }
}

/// A small seeded generator (SplitMix64) for the shuffled start orders.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func shuffled(_ a: [Int]) -> [Int] {
        var a = a
        if a.count < 2 { return a }
        for i in stride(from: a.count - 1, to: 0, by: -1) {
            let j = Int(next() % UInt64(i + 1))
            a.swapAt(i, j)
        }
        return a
    }
}
