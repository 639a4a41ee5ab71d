import FlowCore

/// Layer assignment by the network simplex method (Gansner, Koutsofios, North and Vo, "A
/// Technique for Drawing Directed Graphs", 1993): ranks that keep every edge at least its
/// minimum length and make the weighted sum of edge lengths as small as possible, which
/// means few dummy nodes and short, compact drawings.
///
/// The graph must be acyclic and connected when edge directions are ignored. Parallel
/// edges are fine. Ranks start at 0. Deterministic: every choice goes by index order.
struct NetworkSimplex {
    struct Edge {
        var source: Int
        var target: Int
        var minLength: Int
        var weight: Int
    }

    private let n: Int
    private var edges: [Edge]
    /// The edges at each node, in compressed rows: those of `v` are
    /// `incidentEdges[incidentStart[v]..<incidentStart[v + 1]]`.
    private var incidentStart: [Int]
    private var incidentEdges: [Int]
    private(set) var rank: [Int]

    private var isTree: [Bool]
    private var cut: [Int]
    private var parentEdge: [Int]
    private var low: [Int]
    private var lim: [Int]
    /// The node numbered `l` in post-order (index 0 unused).
    private var nodeAtLim: [Int] = []
    /// The depth-first stack of `setRange`, kept to reuse its storage.
    private var rangeStack: [(node: Int, next: Int)] = []
    /// The tree's edges at each node: those of `v` are
    /// `treeEdges[incidentStart[v]..<incidentStart[v] + treeDegree[v]]` (in no order).
    private var treeEdges: [Int] = [], treeDegree: [Int] = []
    /// `setRange`'s copy of the post-order it renumbers, as it was before.
    private var oldOrder: [Int] = []
    /// The tree's edges, and each tree edge's place in that list.
    private var treeList: [Int] = []
    private var treeIndex: [Int]
    /// The cut values by place in `treeList`, for the leaving edge.
    private var leastCut = LeastCut([])
    /// The entering-edge search, with its own view of the edges.
    private let enteringSearch: EnteringEdge
    /// The pivots made, and their work: the nodes each one's entering-edge search, moved
    /// part and renumbered subtree hold (`WorkBudget`).
    private(set) var pivots = 0, work = 0

    init(nodeCount: Int, edges: [Edge]) {
        n = nodeCount
        self.edges = edges
        var degree = Array(repeating: 0, count: nodeCount + 1)
        for e in edges {
            degree[e.source + 1] += 1
            degree[e.target + 1] += 1
        }
        for v in 0..<nodeCount { degree[v + 1] += degree[v] }
        incidentStart = degree
        incidentEdges = Array(repeating: 0, count: 2 * edges.count)
        var fill = degree
        for (i, e) in edges.enumerated() {
            incidentEdges[fill[e.source]] = i
            fill[e.source] += 1
            incidentEdges[fill[e.target]] = i
            fill[e.target] += 1
        }
        rank = Array(repeating: 0, count: nodeCount)
        isTree = Array(repeating: false, count: edges.count)
        cut = Array(repeating: 0, count: edges.count)
        parentEdge = Array(repeating: -1, count: nodeCount)
        low = Array(repeating: 0, count: nodeCount)
        lim = Array(repeating: 0, count: nodeCount)
        treeIndex = Array(repeating: -1, count: edges.count)
        enteringSearch = EnteringEdge(nodeCount: nodeCount, edges: edges)
    }

    /// Computes the ranks; `maxIterations` bounds the pivots (the ranks are feasible, if not
    /// optimal, when it is reached).
    /// A graph in several unconnected pieces (edges that do not constrain ranking, rank
    /// sets joining parts) has each piece ranked on its own, each starting at 0, as dot does.
    static func ranks(nodeCount: Int, edges: [Edge], maxIterations: Int = 100_000) -> [Int] {
        var sets = DisjointSets(count: nodeCount)
        var pieces = nodeCount
        for e in edges where sets.union(e.source, e.target) { pieces -= 1 }
        guard pieces > 1 else {
            var ns = NetworkSimplex(nodeCount: nodeCount, edges: edges)
            ns.solve(maxIterations: maxIterations)
            return ns.rank
        }
        // each piece's nodes and edges by local index, in input order
        var piece = Array(repeating: -1, count: nodeCount), local = Array(repeating: 0, count: nodeCount)
        var members: [[Int]] = []
        for v in 0..<nodeCount {
            let r = sets.find(v)
            if piece[r] < 0 { piece[r] = members.count; members.append([]) }
            piece[v] = piece[r]
            local[v] = members[piece[v]].count
            members[piece[v]].append(v)
        }
        var pieceEdges = Array(repeating: [Edge](), count: members.count)
        for e in edges {
            pieceEdges[piece[e.source]].append(
                Edge(source: local[e.source], target: local[e.target], minLength: e.minLength, weight: e.weight))
        }
        var rank = Array(repeating: 0, count: nodeCount)
        for (p, vs) in members.enumerated() {
            var ns = NetworkSimplex(nodeCount: vs.count, edges: pieceEdges[p])
            ns.solve(maxIterations: maxIterations)
            for (i, v) in vs.enumerated() { rank[v] = ns.rank[i] }
        }
        return rank
    }

    /// The positions of `v`'s edges in `incidentEdges`.
    @inline(__always)
    private func incident(_ v: Int) -> Range<Int> { incidentStart[v]..<incidentStart[v + 1] }

    private func slack(_ e: Int) -> Int {
        rank[edges[e].target] - rank[edges[e].source] - edges[e].minLength
    }

    /// Improves ranks that already keep every edge at least its minimum length (the
    /// coordinates `PositionSimplex` starts from): they are settled, then pivoted at most
    /// `maxIterations` times, and no more once their work reaches `maxWork`.
    static func improve(ranks: [Int], edges: [Edge], maxIterations: Int, maxWork: Int = .max) -> [Int] {
        var ns = NetworkSimplex(nodeCount: ranks.count, edges: edges)
        ns.rank = ranks
        ns.solve(maxIterations: maxIterations, maxWork: maxWork, from: .given)
        return ns.rank
    }

    /// Where the ranks start: longest paths from the sinks, or ranks set beforehand.
    enum Start { case longestPath, given }

    mutating func solve(maxIterations: Int, maxWork: Int = .max, from start: Start = .longestPath) {
        guard n > 1 else { return }
        switch start {
        case .longestPath:
            initialRanks()
        case .given:
            settle(order: Array(0..<n))
        }
        feasibleTree()
        treeList = (0..<edges.count).filter { isTree[$0] }
        treeEdges = Array(repeating: 0, count: incidentEdges.count)
        treeDegree = Array(repeating: 0, count: n)
        for e in treeList { addTreeEdge(e) }
        for (i, e) in treeList.enumerated() { treeIndex[e] = i }
        nodeAtLim = Array(repeating: 0, count: n + 1)
        setRange(0, parent: -1, low: 1)
        computeCutValues()
        leastCut = LeastCut(treeList.map { cut[$0] })
        var probe = WorkLimitProbe(stride: 64)  // any feasible tree gives valid ranks
        while pivots < maxIterations, work < maxWork, !probe.shouldStop(), let leaving = leaveEdge() {
            guard let entering = enterEdge(leaving) else { break }
            update(leaving, entering)
            pivots += 1
        }
        let minimum = rank.min() ?? 0
        if minimum != 0 { for v in 0..<n { rank[v] -= minimum } }
    }

    /// Longest-path ranks pulled towards the sinks: a sink sits at 0, every other node as
    /// low as its out-edges allow. Feasible, and many edges are tight already.
    private mutating func initialRanks() {
        var outDegree = Array(repeating: 0, count: n)
        for e in edges { outDegree[e.source] += 1 }
        var queue: [Int] = []
        queue.reserveCapacity(n)
        for v in 0..<n where outDegree[v] == 0 { queue.append(v) }
        var settled = Array(repeating: false, count: n)
        var head = 0
        while head < queue.count {
            let v = queue[head]
            head += 1
            var r = Int.max
            for k in incident(v) where edges[incidentEdges[k]].source == v {
                let e = incidentEdges[k]
                r = min(r, rank[edges[e].target] - edges[e].minLength)
            }
            rank[v] = r == Int.max ? 0 : r
            settled[v] = true
            for k in incident(v) where edges[incidentEdges[k]].target == v {
                let e = incidentEdges[k]
                let u = edges[e].source
                outDegree[u] -= 1
                if outDegree[u] == 0 { queue.append(u) }
            }
        }
        precondition(settled.allSatisfy { $0 }, "network simplex needs an acyclic graph")  // invariant: cycles are broken first
        // `queue` is a reverse topological order (sinks first)
        settle(order: queue)
    }

    /// Moves single nodes to the end of their feasible range that shortens their edges
    /// more than it lengthens them (towards the heavier side), sweeping both ways until
    /// nothing moves or a few rounds pass. Every move lowers the objective, so network
    /// simplex starts closer to the optimum and needs far fewer pivots.
    private mutating func settle(order: [Int]) {
        for round in 0..<8 {
            var moved = false
            let sweep = round % 2 == 0 ? order.reversed() : order
            for v in sweep {
                var low = Int.min, high = Int.max, balance = 0
                for k in incident(v) {
                    let e = edges[incidentEdges[k]]
                    if e.target == v {
                        low = max(low, rank[e.source] + e.minLength)
                        balance += e.weight
                    } else {
                        high = min(high, rank[e.target] - e.minLength)
                        balance -= e.weight
                    }
                }
                // balance > 0: more weight comes in, so move up (towards the sources)
                let target = balance > 0 ? low : balance < 0 ? high : rank[v]
                if target != rank[v] && target != Int.min && target != Int.max {
                    rank[v] = target
                    moved = true
                }
            }
            if !moved { break }
        }
    }

    /// Grows a spanning tree of tight edges; while it does not span, moves the whole tree
    /// by the smallest slack of an edge leaving it (the first such in index order), which
    /// makes that edge tight, and grows again from the members (in the order they joined,
    /// last first) that now have a tight edge out of the tree.
    ///
    /// The edges leaving the tree wait in two heaps by slack, and the tree's move is kept
    /// as one `shift` added to its members' ranks at the end, so a step costs a few heap
    /// operations rather than a scan of every edge and member.
    private mutating func feasibleTree() {
        var inTree = Array(repeating: false, count: n)
        // place in the order of joining
        var joined = Array(repeating: 0, count: n)
        var members = 0
        // a member's rank is rank[v] + shift
        var shift = 0
        // edges from the tree out, with key slack + shift, and into it, key slack - shift
        var outward = SlackHeap(), inward = SlackHeap()
        var stack: [Int] = []
        func join(_ v: Int) {
            inTree[v] = true
            rank[v] -= shift
            joined[v] = members
            members += 1
        }
        func currentRank(_ v: Int) -> Int { inTree[v] ? rank[v] + shift : rank[v] }
        // depth-first along tight edges from `root`, a member; the edges found leaving the
        // tree are queued, except the root's own when it was a member before (queued then)
        func grow(from root: Int, queueRootEdges: Bool) {
            stack.append(root)
            while let v = stack.popLast() {
                for k in incident(v) {
                    let e = incidentEdges[k]
                    let edge = edges[e]
                    let w = edge.source == v ? edge.target : edge.source
                    if inTree[w] { continue }
                    let s = currentRank(edge.target) - currentRank(edge.source) - edge.minLength
                    if s == 0 {
                        join(w)
                        isTree[e] = true
                        stack.append(w)
                    } else if v != root || queueRootEdges {
                        if edge.source == v { outward.push(key: s + shift, edge: e) } else { inward.push(key: s - shift, edge: e) }
                    }
                }
            }
        }
        func dropStale(_ heap: inout SlackHeap) {
            while let top = heap.first, inTree[edges[top.edge].source] && inTree[edges[top.edge].target] {
                heap.removeFirst()
            }
        }
        join(0)
        grow(from: 0, queueRootEdges: true)
        var roots: [Int] = []
        while members < n {
            dropStale(&outward)
            dropStale(&inward)
            let out = outward.first.map { (slack: $0.key - shift, edge: $0.edge) }
            let into = inward.first.map { (slack: $0.key + shift, edge: $0.edge) }
            guard out != nil || into != nil else {
                preconditionFailure("network simplex needs a connected graph")  // invariant: one connected part at a time
            }
            let towardsOut = into == nil || (out != nil && (out!.slack, out!.edge) < (into!.slack, into!.edge))
            // move the tree so that the edge becomes tight: up to meet an edge out of it,
            // down for one into it
            shift += towardsOut ? out!.slack : -into!.slack
            // every edge that is tight now, through the member it leaves from
            roots.removeAll(keepingCapacity: true)
            for towards in [true, false] {
                while true {
                    if towards { dropStale(&outward) } else { dropStale(&inward) }
                    guard let top = towards ? outward.first : inward.first,
                        (towards ? top.key - shift : top.key + shift) == 0
                    else { break }
                    let edge = edges[top.edge]
                    roots.append(towards ? edge.source : edge.target)
                    if towards { outward.removeFirst() } else { inward.removeFirst() }
                }
            }
            roots.sort { joined[$0] > joined[$1] }
            var previous = -1
            for root in roots where root != previous {
                previous = root
                grow(from: root, queueRootEdges: false)
            }
        }
        for v in 0..<n { rank[v] += shift }
    }

    /// Numbers the subtree of `root` (whose edge towards the tree's root is `parent`) in
    /// post-order from `low`: `lim` is a node's number, `low` the smallest number in its
    /// subtree, so `v` is below `root` when `low[root] <= lim[v] <= lim[root]`. A subtree
    /// that hangs by the same edge as before is not walked again: its order inside is the
    /// same, so its numbers only move by where it now starts (nothing to do when that is
    /// where it started). That holds unless one of its nodes lies on a path that `update`
    /// changed, and `walkCuts` clears `low` along those paths. `root`'s subtree must hold
    /// the same nodes as before (or be numbered for the first time).
    private mutating func setRange(_ root: Int, parent: Int, low first: Int) {
        // Hot: runs over a subtree on every pivot. The arrays are read and written through
        // buffer pointers, which keeps reference counting out of the loop.
        let starts = incidentStart, treeEdges = self.treeEdges, treeDegree = self.treeDegree, edges = self.edges
        var stack = rangeStack
        rangeStack = []
        stack.removeAll(keepingCapacity: true)
        // the old post-order of the subtree, read when a subtree moves as a block
        var old = oldOrder
        oldOrder = []
        old.removeAll(keepingCapacity: true)
        if lim[root] >= first { old.append(contentsOf: nodeAtLim[first...lim[root]]) }
        old.withUnsafeBufferPointer { old in
            parentEdge.withUnsafeMutableBufferPointer { parentEdge in
                low.withUnsafeMutableBufferPointer { low in
                    lim.withUnsafeMutableBufferPointer { lim in
                        nodeAtLim.withUnsafeMutableBufferPointer { nodeAtLim in
                            var counter = first
                            parentEdge[root] = parent
                            low[root] = counter
                            stack.append((root, 0))
                            while let top = stack.last {
                                let v = top.node
                                if top.next == treeDegree[v] {
                                    lim[v] = counter
                                    nodeAtLim[counter] = v
                                    counter += 1
                                    stack.removeLast()
                                    continue
                                }
                                stack[stack.count - 1].next += 1
                                let e = treeEdges[starts[v] + top.next]
                                if e == parentEdge[v] { continue }
                                let w = edges[e].source == v ? edges[e].target : edges[e].source
                                if parentEdge[w] == e && low[w] >= 0 {
                                    // hangs by the same edge and unmarked: the subtree keeps its
                                    // order, shifted to start at `counter`
                                    let from = low[w], to = lim[w], d = counter - from
                                    if d != 0 {
                                        for l in from...to {
                                            let x = old[l &- first]
                                            low[x] &+= d
                                            lim[x] &+= d
                                            nodeAtLim[l &+ d] = x
                                        }
                                    }
                                    counter = to + d + 1
                                    continue
                                }
                                parentEdge[w] = e
                                low[w] = counter
                                stack.append((w, 0))
                            }
                        }
                    }
                }
            }
        }
        rangeStack = stack
        oldOrder = old
    }

    private mutating func computeCutValues() {
        for l in 1...n {
            let v = nodeAtLim[l]
            if parentEdge[v] >= 0 { cut[parentEdge[v]] = cutValue(child: v) }
        }
    }

    /// The cut value of the tree edge between `child` and its parent, from the cut values
    /// of the child's own tree edges below it.
    private func cutValue(child: Int) -> Int {
        let pe = parentEdge[child]
        let childIsSource = edges[pe].source == child
        var value = edges[pe].weight
        for k in incident(child) where incidentEdges[k] != pe {
            let e = incidentEdges[k]
            let isOut = edges[e].source == child
            let towardsHead = isOut == childIsSource
            let w = edges[e].weight
            value += towardsHead ? w : -w
            if isTree[e] {
                value += towardsHead ? -cut[e] : cut[e]
            }
        }
        return value
    }

    /// The tree edge with the most negative cut value (the first such in tree order). The
    /// least over all tree edges saves most of the pivots a partial search needs: 3,800
    /// instead of 15,000 on a 5,000-node graph.
    private func leaveEdge() -> Int? {
        let least = leastCut.least
        return least.value < 0 ? treeList[least.place] : nil
    }

    /// The non-tree edge with the least slack that reconnects the part below `leaving` to
    /// the rest, crossing the other way from `leaving` (`EnteringEdge`).
    private mutating func enterEdge(_ leaving: Int) -> Int? {
        let u = edges[leaving].source, v = edges[leaving].target
        // the lower end of the tree edge roots the part cut off
        let below = lim[u] < lim[v] ? u : v
        let part = lim[below] - low[below] + 1
        work += min(part, n - part)
        return enteringSearch.search(
            lo: low[below], hi: lim[below], outwards: below == v, lim: lim, nodeAtLim: nodeAtLim, rank: rank)
    }

    /// Replaces `leaving` by `entering` in the tree: the part below `leaving` moves so that
    /// `entering` is tight, cut values change along the tree path `entering` closes, and the
    /// subtree of that path's top is renumbered.
    private mutating func update(_ leaving: Int, _ entering: Int) {
        let delta = slack(entering)
        let u = edges[leaving].source, v = edges[leaving].target
        if delta > 0 {
            // the part below `leaving` holds the target of `entering` when it hangs below
            // the source of `leaving`, so it moves up; otherwise down
            if lim[u] < lim[v] { shiftSubtree(u, by: -delta) } else { shiftSubtree(v, by: delta) }
        }
        let value = cut[leaving]
        let top = walkCuts(from: edges[entering].source, to: edges[entering].target, value, true)
        let other = walkCuts(from: edges[entering].target, to: edges[entering].source, value, false)
        precondition(top == other, "network simplex: tree paths disagree")  // invariant: both walks meet at the cycle's top
        cut[entering] = -value
        cut[leaving] = 0
        isTree[leaving] = false
        isTree[entering] = true
        removeTreeEdge(leaving)
        addTreeEdge(entering)
        treeList[treeIndex[leaving]] = entering
        treeIndex[entering] = treeIndex[leaving]
        leastCut.set(treeIndex[entering], -value)
        work += lim[top] - low[top] + 1
        setRange(top, parent: parentEdge[top], low: low[top])
    }

    private mutating func addTreeEdge(_ e: Int) {
        for x in [edges[e].source, edges[e].target] {
            treeEdges[incidentStart[x] + treeDegree[x]] = e
            treeDegree[x] += 1
        }
    }

    private mutating func removeTreeEdge(_ e: Int) {
        for x in [edges[e].source, edges[e].target] {
            let first = incidentStart[x], last = first + treeDegree[x] - 1
            var j = first
            while treeEdges[j] != e { j += 1 }
            treeEdges[j] = treeEdges[last]
            treeDegree[x] -= 1
        }
    }

    /// Adds `delta` to the rank of every node of the subtree below `root`.
    private mutating func shiftSubtree(_ root: Int, by delta: Int) {
        work += lim[root] - low[root] + 1
        for l in low[root]...lim[root] { rank[nodeAtLim[l]] += delta }
    }

    /// Climbs from `v` until its subtree holds `w`, adding or subtracting `value` to the cut
    /// values of the edges passed; returns the node reached (the paths' meeting point).
    private mutating func walkCuts(from v: Int, to w: Int, _ value: Int, _ forward: Bool) -> Int {
        var v = v
        while !(low[v] <= lim[w] && lim[w] <= lim[v]) {
            let e = parentEdge[v]
            let d = edges[e].source == v ? forward : !forward
            cut[e] += d ? value : -value
            leastCut.set(treeIndex[e], cut[e])
            // v's subtree changes (it gains or loses the part below `leaving`): renumber it
            low[v] = -1
            v = lim[edges[e].source] > lim[edges[e].target] ? edges[e].source : edges[e].target
        }
        return v
    }
}
