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
    private var incident: [[Int]]
    private(set) var rank: [Int]

    private var isTree: [Bool]
    private var treeAdjacent: [[Int]]
    private var cut: [Int]
    private var parentEdge: [Int]
    private var low: [Int]
    private var lim: [Int]
    /// The node numbered `l` in post-order (index 0 unused).
    private var nodeAtLim: [Int] = []
    /// The tree's edges, and each tree edge's place in that list.
    private var treeList: [Int] = []
    private var treeIndex: [Int]

    init(nodeCount: Int, edges: [Edge]) {
        n = nodeCount
        self.edges = edges
        incident = Array(repeating: [], count: nodeCount)
        for (i, e) in edges.enumerated() {
            incident[e.source].append(i)
            incident[e.target].append(i)
        }
        rank = Array(repeating: 0, count: nodeCount)
        isTree = Array(repeating: false, count: edges.count)
        treeAdjacent = Array(repeating: [], count: nodeCount)
        cut = Array(repeating: 0, count: edges.count)
        parentEdge = Array(repeating: -1, count: nodeCount)
        low = Array(repeating: 0, count: nodeCount)
        lim = Array(repeating: 0, count: nodeCount)
        treeIndex = Array(repeating: -1, count: edges.count)
    }

    /// Computes the ranks; `maxIterations` bounds the pivots (the ranks are feasible, if not
    /// optimal, when it is reached).
    static func ranks(nodeCount: Int, edges: [Edge], maxIterations: Int = 100_000) -> [Int] {
        var ns = NetworkSimplex(nodeCount: nodeCount, edges: edges)
        ns.solve(maxIterations: maxIterations)
        return ns.rank
    }

    private func slack(_ e: Int) -> Int {
        rank[edges[e].target] - rank[edges[e].source] - edges[e].minLength
    }

    mutating func solve(maxIterations: Int) {
        guard n > 1 else { return }
        initialRanks()
        feasibleTree()
        treeList = (0..<edges.count).filter { isTree[$0] }
        for (i, e) in treeList.enumerated() { treeIndex[e] = i }
        nodeAtLim = Array(repeating: 0, count: n + 1)
        setRange(0, parent: -1, low: 1)
        computeCutValues()
        var iterations = 0
        var searchStart = 0
        while iterations < maxIterations, let leaving = leaveEdge(from: &searchStart) {
            guard let entering = enterEdge(leaving) else { break }
            update(leaving, entering)
            iterations += 1
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
            for e in incident[v] where edges[e].source == v {
                r = min(r, rank[edges[e].target] - edges[e].minLength)
            }
            rank[v] = r == Int.max ? 0 : r
            settled[v] = true
            for e in incident[v] where edges[e].target == v {
                let u = edges[e].source
                outDegree[u] -= 1
                if outDegree[u] == 0 { queue.append(u) }
            }
        }
        precondition(settled.allSatisfy { $0 }, "network simplex needs an acyclic graph")
    }

    /// Grows a spanning tree of tight edges; while it does not span, moves the whole tree
    /// by the smallest slack of an edge leaving it, which makes that edge tight.
    private mutating func feasibleTree() {
        var inTree = Array(repeating: false, count: n)
        inTree[0] = true
        var members = [0]
        var stack: [Int] = []
        func grow(_ from: [Int]) -> [Int] {
            var added: [Int] = []
            stack.append(contentsOf: from)
            while let v = stack.popLast() {
                for e in incident[v] {
                    let w = edges[e].source == v ? edges[e].target : edges[e].source
                    if !inTree[w] && slack(e) == 0 {
                        inTree[w] = true
                        isTree[e] = true
                        treeAdjacent[v].append(e)
                        treeAdjacent[w].append(e)
                        added.append(w)
                        stack.append(w)
                    }
                }
            }
            return added
        }
        members += grow(members)
        while members.count < n {
            var best = -1, bestSlack = Int.max
            for (e, edge) in edges.enumerated() where inTree[edge.source] != inTree[edge.target] {
                let s = slack(e)
                if s < bestSlack {
                    bestSlack = s
                    best = e
                }
            }
            precondition(best >= 0, "network simplex needs a connected graph")
            let delta = inTree[edges[best].target] ? -bestSlack : bestSlack
            for v in members { rank[v] += delta }
            members += grow(members)
        }
    }

    /// Numbers the subtree of `root` (whose edge towards the tree's root is `parent`) in
    /// post-order from `low`: `lim` is a node's number, `low` the smallest number in its
    /// subtree, so `v` is below `root` when `low[root] <= lim[v] <= lim[root]`.
    private mutating func setRange(_ root: Int, parent: Int, low first: Int) {
        var counter = first
        parentEdge[root] = parent
        low[root] = counter
        var stack: [(node: Int, next: Int)] = [(root, 0)]
        while let top = stack.last {
            let v = top.node
            if top.next == treeAdjacent[v].count {
                lim[v] = counter
                nodeAtLim[counter] = v
                counter += 1
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let e = treeAdjacent[v][top.next]
            if e == parentEdge[v] { continue }
            let w = edges[e].source == v ? edges[e].target : edges[e].source
            parentEdge[w] = e
            low[w] = counter
            stack.append((w, 0))
        }
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
        for e in incident[child] where e != pe {
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

    /// A tree edge with a negative cut value: of the first few found from where the last
    /// search stopped, the most negative.
    private func leaveEdge(from start: inout Int) -> Int? {
        let m = treeList.count
        guard m > 0 else { return nil }
        var best = -1, found = 0
        var k = 0
        while k < m {
            let i = (start + k) % m
            let e = treeList[i]
            if cut[e] < 0 {
                if best < 0 || cut[e] < cut[best] { best = e }
                found += 1
                if found >= 30 {
                    start = (i + 1) % m
                    return best
                }
            }
            k += 1
        }
        if best >= 0 { start = (treeIndex[best] + 1) % m }
        return best >= 0 ? best : nil
    }

    private func isDescendant(_ v: Int, of root: Int) -> Bool {
        low[root] <= lim[v] && lim[v] <= lim[root]
    }

    /// The non-tree edge with the least slack that reconnects the part below `leaving` to
    /// the rest, crossing in the direction that `leaving` did.
    private func enterEdge(_ leaving: Int) -> Int? {
        let u = edges[leaving].source, v = edges[leaving].target
        // the lower end of the tree edge roots the part cut off
        let below = lim[u] < lim[v] ? u : v
        let outwards = below == v
        var best = -1, bestSlack = Int.max
        for l in low[below]...lim[below] {
            let x = nodeAtLim[l]
            for e in incident[x] where !isTree[e] {
                let edge = edges[e]
                let inside = outwards ? edge.source : edge.target
                let other = outwards ? edge.target : edge.source
                if inside == x && !isDescendant(other, of: below) {
                    let s = slack(e)
                    if s < bestSlack || (s == bestSlack && e < best) {
                        bestSlack = s
                        best = e
                    }
                }
            }
        }
        return best >= 0 ? best : nil
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
        precondition(top == other, "network simplex: tree paths disagree")
        cut[entering] = -value
        cut[leaving] = 0
        isTree[leaving] = false
        isTree[entering] = true
        for end in [u, v] { treeAdjacent[end].removeAll { $0 == leaving } }
        treeAdjacent[edges[entering].source].append(entering)
        treeAdjacent[edges[entering].target].append(entering)
        treeList[treeIndex[leaving]] = entering
        treeIndex[entering] = treeIndex[leaving]
        setRange(top, parent: parentEdge[top], low: low[top])
    }

    /// Adds `delta` to the rank of every node of the subtree below `root`.
    private mutating func shiftSubtree(_ root: Int, by delta: Int) {
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
            v = lim[edges[e].source] > lim[edges[e].target] ? edges[e].source : edges[e].target
        }
        return v
    }
}
