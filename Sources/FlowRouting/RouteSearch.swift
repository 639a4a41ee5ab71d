import FlowCore

// The route of one edge: a shortest path with the fewest bends through the free space of
// a window, in the grid of the window's interesting coordinates (the borders of the
// obstacles in it, grown by the margin, and the ports). Costs are (bends, length) compared
// lexicographically; the search is A* with a lower bound of the bends still needed (exact
// in free space, two more where the one route it counts on is blocked) and the Manhattan
// distance. The grid is implicit: the search keeps only the
// states it reaches (`SearchStates`) and asks `BlockedRuns` about each run it tries, so its
// cost follows what it visits, not the product of the borders across and down. See
// docs/routing.md, "The method".

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
    var states = SearchStates()
    var blocked = BlockedRuns()
    var heap: [HeapEntry] = []
    var xs: [Double] = []
    var ys: [Double] = []
    var boxes: [Rect] = []
    /// Work done so far: the grid lines and states of every search, and the searches (for
    /// tests).
    var cellsSearched = 0
    var searches = 0
}

/// An entry of the search's open list: a state and its estimated cost. Entries of states
/// already expanded are skipped when they come up (the bound is consistent, so a state is
/// expanded first with its best cost).
struct HeapEntry {
    var fBends: Int32
    var state: Int
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
        let nx = xs.count
        scratch.searches += 1
        scratch.blocked.build(scratch.boxes, window: window, xs: xs, ys: ys)
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
            let cell = s >> 2
            cornersReversed.append(Point(xs[cell % nx], ys[cell / nx]))
            s = scratch.states.parent[scratch.states.slot(of: s)!]
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

    /// A* over the grid states (cell, heading), numbered `(j * nx + i) << 2 | heading`
    /// (the order breaks ties). Returns the goal state.
    private func astar(
        xs: [Double], ys: [Double], start: (Int, Int, Int), target: (Int, Int), arrival: Int,
        scratch: SearchScratch
    ) -> Int? {
        let nx = xs.count, ny = ys.count
        var heap = Heap(storage: [])
        var table = SearchStates()
        swap(&heap.storage, &scratch.heap)
        swap(&table, &scratch.states)
        let blocked = scratch.blocked
        defer {
            scratch.cellsSearched += nx + ny + table.count
            heap.storage.removeAll(keepingCapacity: true)
            swap(&heap.storage, &scratch.heap)
            swap(&table, &scratch.states)
        }
        table.reset(states: nx * ny * 4)
        // Pushing a state: into the table when it is new or reached more cheaply, then onto
        // the open list with its estimate (written out twice to keep `table` and `heap`
        // local, without the dynamic exclusivity checks a capturing function costs).
        let s0 = ((start.1 * nx + start.0) << 2) | start.2
        if table.reach(s0, bends: 0, length: 0, from: -1) {
            heap.push(Self.entry(s0, 0, 0, xs: xs, ys: ys, nx: nx, target: target, arrival: arrival, blocked: blocked))
        }
        let goalCell = target.1 * nx + target.0
        while let e = heap.pop() {
            let k = table.slot(of: e.state)!
            if table.closed[k] { continue }
            table.closed[k] = true
            let cell = e.state >> 2, d = e.state & 3
            if cell == goalCell { return e.state }
            let i = cell % nx, j = cell / nx
            let back = Heading.opposite(d)
            let b0 = table.bends[k], l0 = table.length[k]
            for nd in 0..<4 where nd != back {
                let ni = i + Heading.dx[nd], nj = j + Heading.dy[nd]
                guard ni >= 0, ni < nx, nj >= 0, nj < ny else { continue }
                let isBlocked: Bool
                switch nd {
                case 0: isBlocked = blocked.horizontal(i, j, xs: xs, ys: ys)
                case 2: isBlocked = blocked.horizontal(ni, j, xs: xs, ys: ys)
                case 1: isBlocked = blocked.vertical(i, j, xs: xs, ys: ys)
                default: isBlocked = blocked.vertical(i, nj, xs: xs, ys: ys)
                }
                if isBlocked { continue }
                let step = abs(xs[ni] - xs[i]) + abs(ys[nj] - ys[j])
                let ns = ((nj * nx + ni) << 2) | nd, nb = b0 + (nd == d ? 0 : 1), nl = l0 + step
                if table.reach(ns, bends: nb, length: nl, from: e.state) {
                    heap.push(Self.entry(ns, nb, nl, xs: xs, ys: ys, nx: nx, target: target, arrival: arrival, blocked: blocked))
                }
            }
        }
        return nil
    }

    /// The open-list entry of state `s` reached with `b` bends and length `l`.
    @inline(__always)
    static func entry(
        _ s: Int, _ b: Int32, _ l: Double, xs: [Double], ys: [Double], nx: Int, target: (Int, Int), arrival: Int,
        blocked: BlockedRuns
    ) -> HeapEntry {
        let cell = s >> 2, d = s & 3
        let i = cell % nx, j = cell / nx
        let hl = abs(xs[target.0] - xs[i]) + abs(ys[target.1] - ys[j])
        let hb = bendBound(i, j, d, target: target, arrival: arrival, xs: xs, ys: ys, blocked: blocked)
        return HeapEntry(fBends: b + hb, state: s, fLength: l + hl, hLength: hl)
    }

    /// The lower bound of the bends from grid point (`i`, `j`) heading `d` to `target`,
    /// arriving heading `a`, among the obstacles: the free-space bound, two more where that
    /// bound allows one route only (0: straight on to the target; 1: straight on to the
    /// corner in line with the target, then straight to it) and an obstacle blocks it. The
    /// turns from one heading to another are odd or even by the headings alone, so the next
    /// route has two more; and the bound stays consistent (a move along a clear route keeps
    /// it clear, one onto a blocked route came from a blocked one). Without it the search
    /// went down every run that the free-space bound took for a way to the target, over
    /// scattered nodes about every run of the window (issue #43).
    @inline(__always)
    static func bendBound(
        _ i: Int, _ j: Int, _ d: Int, target: (Int, Int), arrival a: Int, xs: [Double], ys: [Double],
        blocked: BlockedRuns
    ) -> Int32 {
        let (ti, tj) = target
        let free = bendBound(xs[i], ys[j], d, xs[ti], ys[tj], a)
        guard free <= 1 else { return free }
        let clear: Bool
        if d == 0 || d == 2 {
            // along row j to column ti (the target itself when the bound is 0), then down or up it
            clear = !blocked.horizontal(from: i, to: ti, j, xs: xs, ys: ys)
                && (free == 0 || !blocked.vertical(ti, from: j, to: tj, xs: xs, ys: ys))
        } else {
            clear = !blocked.vertical(i, from: j, to: tj, xs: xs, ys: ys)
                && (free == 0 || !blocked.horizontal(from: i, to: ti, tj, xs: xs, ys: ys))
        }
        return clear ? free : free + 2
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
