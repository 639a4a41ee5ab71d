import FlowCore

// The route of one edge: a shortest path with the fewest bends through the free space of
// a window, in the grid of the window's interesting coordinates (the borders of the
// obstacles in it, grown by the margin, and the ports). Costs are (bends, length) compared
// lexicographically; the search is A* with an exact lower bound of the bends still needed
// in free space and the Manhattan distance. See docs/routing.md, "The method".

/// The four directions of travel, as indices: right, down, left, up.
enum Heading {
    static let dx: [Int] = [1, 0, -1, 0]
    static let dy: [Int] = [0, 1, 0, -1]

    /// The heading of a side: the direction pointing out of the node.
    static func of(_ side: HandlePosition) -> Int {
        switch side {
        case .right: return 0
        case .bottom: return 1
        case .left: return 2
        case .top, .center: return 3
        }
    }

    @inline(__always) static func opposite(_ d: Int) -> Int { (d + 2) & 3 }
}

/// A route found by the search.
struct FoundRoute {
    /// The route from the source attach point to the target attach point: every corner,
    /// consecutive points on one horizontal or vertical line.
    var points: [Point]
    /// The margin kept from the nodes (the tier that found it).
    var margin: Double
}

/// Scratch memory of the searches, reused from one search to the next.
final class SearchScratch {
    var stamp: [UInt32] = []
    var closed: [UInt32] = []
    var generation: UInt32 = 0
    var bends: [Int32] = []
    var length: [Double] = []
    var parent: [Int32] = []
    var heap: [HeapEntry] = []
    var hBlocked: [UInt8] = []
    var vBlocked: [UInt8] = []
    var xs: [Double] = []
    var ys: [Double] = []
    var boxes: [Rect] = []
    /// Work done so far: the grid cells of every search, and the searches (for tests).
    var cellsSearched = 0
    var searches = 0

    /// Makes room for `states` search states and starts a new generation.
    func prepare(states: Int, cells: Int) {
        if stamp.count < states {
            let n = max(states, stamp.count * 2)
            stamp = [UInt32](repeating: 0, count: n)
            closed = [UInt32](repeating: 0, count: n)
            bends = [Int32](repeating: 0, count: n)
            length = [Double](repeating: 0, count: n)
            parent = [Int32](repeating: -1, count: n)
            generation = 0
        }
        generation &+= 1
        if generation == 0 {
            for i in stamp.indices {
                stamp[i] = 0
                closed[i] = 0
            }
            generation = 1
        }
        if hBlocked.count < cells {
            hBlocked = [UInt8](repeating: 0, count: max(cells, hBlocked.count * 2))
            vBlocked = [UInt8](repeating: 0, count: hBlocked.count)
        }
        hBlocked.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: cells) }
        vBlocked.withUnsafeMutableBufferPointer { $0.baseAddress!.update(repeating: 0, count: cells) }
        heap.removeAll(keepingCapacity: true)
    }
}

/// An entry of the search's open list: a state and its estimated cost. Entries of states
/// already expanded are skipped when they come up (the bound is consistent, so a state is
/// expanded first with its best cost).
struct HeapEntry {
    var fBends: Int32
    var state: Int32
    var fLength: Double
    var hLength: Double

    @inline(__always)
    static func < (a: HeapEntry, b: HeapEntry) -> Bool {
        if a.fBends != b.fBends { return a.fBends < b.fBends }
        if a.fLength != b.fLength { return a.fLength < b.fLength }
        if a.hLength != b.hLength { return a.hLength < b.hLength }
        return a.state < b.state
    }
}

/// The search for one edge in one window with one margin.
struct RouteSearch {
    let edge: RoutingEdge
    let margin: Double
    let window: Rect

    /// Whether a node frame is left out of the obstacles of this edge: it holds one of the
    /// end nodes' frames and is not that frame itself (a group around an end).
    static func isAround(_ f: Rect, _ edge: RoutingEdge) -> Bool {
        func holds(_ inner: Rect) -> Bool {
            f != inner && f.minX <= inner.minX && f.maxX >= inner.maxX && f.minY <= inner.minY && f.maxY >= inner.maxY
        }
        return holds(edge.source.frame) || holds(edge.target.frame)
    }

    /// Whether the open interior of `r` contains `p`.
    @inline(__always)
    static func interior(_ r: Rect, contains p: Point) -> Bool {
        p.x > r.minX && p.x < r.maxX && p.y > r.minY && p.y < r.maxY
    }

    /// The obstacles of this search: the node frames around the window grown by the margin
    /// (ends included, groups around an end left out). Nil when a port lies inside one,
    /// except that with no margin such a node is left out instead (it overlaps the end).
    func obstacles(in grid: ObstacleGrid, into boxes: inout [Rect]) -> Bool {
        boxes.removeAll(keepingCapacity: true)
        let m = margin
        let ps = port(edge.source), pt = port(edge.target)
        var ok = true
        grid.forEach(intersecting: window.insetBy(dx: -m, dy: -m)) { f in
            guard ok, !Self.isAround(f, edge) else { return }
            let grown = f.insetBy(dx: -m, dy: -m)
            if Self.interior(grown, contains: ps) || Self.interior(grown, contains: pt) {
                if m > 0 { ok = false }
                return
            }
            boxes.append(grown)
        }
        return ok
    }

    /// Where the search starts or ends for `end`: the attach point moved out by the margin.
    @inline(__always)
    func port(_ end: RoutingEnd) -> Point {
        end.point + end.side.direction * margin
    }

    /// Runs the search; nil when no route exists in the window.
    func run(in grid: ObstacleGrid, scratch: SearchScratch) -> [Point]? {
        guard obstacles(in: grid, into: &scratch.boxes) else { return nil }
        let ps = port(edge.source), pt = port(edge.target)
        func inWindow(_ p: Point) -> Bool {
            p.x >= window.minX && p.x <= window.maxX && p.y >= window.minY && p.y <= window.maxY
        }
        guard inWindow(ps), inWindow(pt) else { return nil }
        // Interesting coordinates.
        var xs = scratch.xs, ys = scratch.ys
        xs.removeAll(keepingCapacity: true)
        ys.removeAll(keepingCapacity: true)
        xs.append(contentsOf: [window.minX, window.maxX, ps.x, pt.x])
        ys.append(contentsOf: [window.minY, window.maxY, ps.y, pt.y])
        for b in scratch.boxes {
            xs.append(min(max(b.minX, window.minX), window.maxX))
            xs.append(min(max(b.maxX, window.minX), window.maxX))
            ys.append(min(max(b.minY, window.minY), window.maxY))
            ys.append(min(max(b.maxY, window.minY), window.maxY))
        }
        Self.sortUnique(&xs)
        Self.sortUnique(&ys)
        defer {
            scratch.xs = xs
            scratch.ys = ys
        }
        let nx = xs.count, ny = ys.count
        let cells = nx * ny
        scratch.cellsSearched += cells
        scratch.searches += 1
        scratch.prepare(states: cells * 4, cells: cells)
        // Blocked grid segments: hBlocked[j*nx+i] is the run from column i to i+1 on row j,
        // vBlocked[j*nx+i] the run from row j to j+1 on column i.
        scratch.hBlocked.withUnsafeMutableBufferPointer { h in
            scratch.vBlocked.withUnsafeMutableBufferPointer { v in
                for b in scratch.boxes {
                    // Indices of the box's borders; one past the grid where the box reaches
                    // beyond the window, so that runs along the window's border inside it
                    // are blocked too.
                    let x0 = b.minX < window.minX ? -1 : Self.index(of: b.minX, in: xs)
                    let x1 = b.maxX > window.maxX ? nx : Self.index(of: b.maxX, in: xs)
                    let y0 = b.minY < window.minY ? -1 : Self.index(of: b.minY, in: ys)
                    let y1 = b.maxY > window.maxY ? ny : Self.index(of: b.maxY, in: ys)
                    guard x0 < x1, y0 < y1 else { continue }
                    // Horizontal runs on the rows strictly inside, between its columns.
                    let hr = max(y0 + 1, 0)..<min(y1, ny), hc = max(x0, 0)..<min(x1, nx - 1)
                    if !hr.isEmpty && !hc.isEmpty {
                        for j in hr {
                            let row = j * nx
                            for i in hc { h[row + i] = 1 }
                        }
                    }
                    // Vertical runs on the columns strictly inside, between its rows.
                    let vc = max(x0 + 1, 0)..<min(x1, nx), vr = max(y0, 0)..<min(y1, ny - 1)
                    if !vc.isEmpty && !vr.isEmpty {
                        for j in vr {
                            let row = j * nx
                            for i in vc { v[row + i] = 1 }
                        }
                    }
                }
            }
        }
        let si = Self.index(of: ps.x, in: xs), sj = Self.index(of: ps.y, in: ys)
        let ti = Self.index(of: pt.x, in: xs), tj = Self.index(of: pt.y, in: ys)
        let startHeading = Heading.of(edge.source.side)
        let arrival = Heading.opposite(Heading.of(edge.target.side))
        guard let goal = astar(
            xs: xs, ys: ys, start: (si, sj, startHeading), target: (ti, tj), arrival: arrival, scratch: scratch)
        else { return nil }
        // The path back from the goal, as grid points.
        var cornersReversed: [Point] = []
        var s = goal
        while s >= 0 {
            let cell = Int(s) >> 2
            cornersReversed.append(Point(xs[cell % nx], ys[cell / nx]))
            s = scratch.parent[Int(s)]
        }
        var route = [edge.source.point]
        route.append(contentsOf: cornersReversed.reversed())
        route.append(edge.target.point)
        return Self.corners(of: route)
    }

    /// The lower bound of the bends from `p` heading `d` to `t`, arriving heading `a`, in
    /// free space (exact there).
    @inline(__always)
    static func bendBound(_ px: Double, _ py: Double, _ d: Int, _ tx: Double, _ ty: Double, _ a: Int) -> Int32 {
        let vx = tx - px, vy = ty - py
        let along = vx * Double(Heading.dx[d]) + vy * Double(Heading.dy[d])
        let across = vx * Double(Heading.dy[d]) - vy * Double(Heading.dx[d])
        if d == a {
            if across == 0 && along >= 0 { return 0 }
            return along > 0 ? 2 : 4
        }
        if d == Heading.opposite(a) {
            if vx == 0 && vy == 0 { return 2 }
            return across == 0 ? 4 : 2
        }
        // Perpendicular: one corner, where the line ahead meets the line into t, when that
        // corner is ahead and t lies ahead of it on the arrival heading.
        let cx = along * Double(Heading.dx[d]), cy = along * Double(Heading.dy[d])
        let rest = (vx - cx) * Double(Heading.dx[a]) + (vy - cy) * Double(Heading.dy[a])
        return along >= 0 && rest >= 0 ? 1 : 3
    }

    /// A* over the grid states (cell, heading). Returns the goal state.
    private func astar(
        xs: [Double], ys: [Double], start: (Int, Int, Int), target: (Int, Int), arrival: Int,
        scratch: SearchScratch
    ) -> Int32? {
        let nx = xs.count, ny = ys.count
        let tx = xs[target.0], ty = ys[target.1]
        let gen = scratch.generation
        return scratch.stamp.withUnsafeMutableBufferPointer { stamp in
            scratch.closed.withUnsafeMutableBufferPointer { closed in
                scratch.bends.withUnsafeMutableBufferPointer { gB in
                    scratch.length.withUnsafeMutableBufferPointer { gL in
                        scratch.parent.withUnsafeMutableBufferPointer { parent in
                            scratch.hBlocked.withUnsafeBufferPointer { hB in
                                scratch.vBlocked.withUnsafeBufferPointer { vB in
                                    var heap = Heap(storage: [])
                                    swap(&heap.storage, &scratch.heap)
                                    defer {
                                        heap.storage.removeAll(keepingCapacity: true)
                                        swap(&heap.storage, &scratch.heap)
                                    }
                                    @inline(__always)
                                    func push(_ s: Int32, _ b: Int32, _ l: Double, _ from: Int32) {
                                        let si = Int(s)
                                        if closed[si] == gen { return }
                                        if stamp[si] == gen && (gB[si] < b || (gB[si] == b && gL[si] <= l)) { return }
                                        stamp[si] = gen
                                        gB[si] = b
                                        gL[si] = l
                                        parent[si] = from
                                        let cell = si >> 2, d = si & 3
                                        let x = xs[cell % nx], y = ys[cell / nx]
                                        let hb = Self.bendBound(x, y, d, tx, ty, arrival)
                                        let hl = abs(tx - x) + abs(ty - y)
                                        heap.push(HeapEntry(fBends: b + hb, state: s, fLength: l + hl, hLength: hl))
                                    }
                                    let s0 = Int32(((start.1 * nx + start.0) << 2) | start.2)
                                    push(s0, 0, 0, -1)
                                    let goalCell = target.1 * nx + target.0
                                    while let e = heap.pop() {
                                        let si = Int(e.state)
                                        if closed[si] == gen { continue }
                                        closed[si] = gen
                                        let cell = si >> 2, d = si & 3
                                        if cell == goalCell { return e.state }
                                        let i = cell % nx, j = cell / nx
                                        let back = Heading.opposite(d)
                                        let b0 = gB[si], l0 = gL[si]
                                        for nd in 0..<4 where nd != back {
                                            let ni = i + Heading.dx[nd], nj = j + Heading.dy[nd]
                                            guard ni >= 0, ni < nx, nj >= 0, nj < ny else { continue }
                                            let blocked: Bool
                                            switch nd {
                                            case 0: blocked = hB[j * nx + i] != 0
                                            case 2: blocked = hB[j * nx + ni] != 0
                                            case 1: blocked = vB[j * nx + i] != 0
                                            default: blocked = vB[nj * nx + i] != 0
                                            }
                                            if blocked { continue }
                                            let step = abs(xs[ni] - xs[i]) + abs(ys[nj] - ys[j])
                                            let ns = Int32(((nj * nx + ni) << 2) | nd)
                                            push(ns, b0 + (nd == d ? 0 : 1), l0 + step, e.state)
                                        }
                                    }
                                    return nil
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `route` without the points where it does not turn (repeats and points in line with
    /// both neighbours); the ends are kept.
    static func corners(of route: [Point]) -> [Point] {
        var out: [Point] = [route[0]]
        for i in 1..<route.count {
            let p = route[i]
            if p == out[out.count - 1] { continue }
            if out.count >= 2 {
                let a = out[out.count - 2], b = out[out.count - 1]
                if (a.x == b.x && b.x == p.x) || (a.y == b.y && b.y == p.y) { out.removeLast() }
            }
            out.append(p)
        }
        if out.count == 1 { out.append(out[0]) }
        return out
    }

    static func sortUnique(_ v: inout [Double]) {
        v.sort()
        var k = 0
        for i in v.indices where k == 0 || v[i] != v[k - 1] {
            v[k] = v[i]
            k += 1
        }
        v.removeSubrange(k...)
    }

    /// The index of `value` in the sorted `v` (present by construction).
    @inline(__always)
    static func index(of value: Double, in v: [Double]) -> Int {
        var lo = 0, hi = v.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if v[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// A binary min-heap of search entries.
struct Heap {
    var storage: [HeapEntry]

    mutating func push(_ e: HeapEntry) {
        storage.append(e)
        var i = storage.count - 1
        while i > 0 {
            let p = (i - 1) >> 1
            if !(storage[i] < storage[p]) { break }
            storage.swapAt(i, p)
            i = p
        }
    }

    mutating func pop() -> HeapEntry? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        let top = storage[0]
        storage[0] = last
        var i = 0
        let n = storage.count
        while true {
            let l = 2 * i + 1
            if l >= n { break }
            var c = l
            if l + 1 < n && storage[l + 1] < storage[l] { c = l + 1 }
            if !(storage[c] < storage[i]) { break }
            storage.swapAt(i, c)
            i = c
        }
        return top
    }
}
