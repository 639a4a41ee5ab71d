import FlowCore

/// A tidy tree (Walker's algorithm in the linear-time form of Buchheim, Jünger and Leipert,
/// 2002): parents centred over their children, subtrees as close as the spacing allows,
/// identical subtrees drawn identically, levels aligned. Each tree of a forest is laid out
/// on its own and the trees are set side by side. Iterative throughout, so a deep tree
/// cannot exhaust the stack.
public enum TreeLayout {
    /// Why a graph is not a forest: the first edge, in input order, that gives a node a
    /// second parent, closes a cycle, or is a self-loop.
    public struct NotAForest: Error, Sendable {
        public var edge: Int
        public var reason: String
    }

    /// The first edge that keeps `graph` from being a forest, if any.
    public static func forestViolation(_ graph: LayoutGraph) -> NotAForest? {
        let n = graph.nodes.count
        var hasParent = Array(repeating: false, count: n)
        var trees = DisjointSets(count: n)
        for (i, e) in graph.edges.enumerated() {
            if e.source == e.target { return NotAForest(edge: i, reason: "it is a self-loop") }
            if hasParent[e.target] { return NotAForest(edge: i, reason: "it gives its target a second parent") }
            if !trees.union(e.source, e.target) { return NotAForest(edge: i, reason: "it closes a cycle") }
            hasParent[e.target] = true
        }
        return nil
    }

    public static func layout(_ graph: LayoutGraph, options: LayoutOptions) throws(NotAForest) -> LayoutResult {
        if let v = forestViolation(graph) { throw v }
        let n = graph.nodes.count
        var result = LayoutResult(nodeCount: n, edgeCount: graph.edges.count)
        guard n > 0 else { return result }
        let horizontal = options.direction.isHorizontal
        let breadth = graph.nodes.map { horizontal ? $0.height : $0.width }
        let depth = graph.nodes.map { horizontal ? $0.width : $0.height }
        var children = Array(repeating: [Int](), count: n)
        var parent = Array(repeating: -1, count: n)
        for e in graph.edges {
            children[e.source].append(e.target)
            parent[e.target] = e.source
        }
        var walker = Walker(children: children, parent: parent, breadth: breadth, spacing: options.nodeSpacing)
        var x = Array(repeating: 0.0, count: n)
        var level = Array(repeating: 0, count: n)
        var offset = 0.0
        var levels = 0
        for root in 0..<n where parent[root] < 0 {
            let order = walker.layout(root)
            var lo = Double.infinity, hi = -Double.infinity
            for v in order {
                lo = min(lo, walker.x[v] - breadth[v] / 2)
                hi = max(hi, walker.x[v] + breadth[v] / 2)
            }
            for v in order {
                x[v] = walker.x[v] - lo + offset
                level[v] = parent[v] < 0 ? 0 : level[parent[v]] + 1
                levels = max(levels, level[v] + 1)
            }
            offset += hi - lo + options.componentSpacing
        }
        // levels stacked with their deepest node; nodes centred in their level
        var levelDepth = Array(repeating: 0.0, count: levels)
        for v in 0..<n { levelDepth[level[v]] = max(levelDepth[level[v]], depth[v]) }
        var levelTop = Array(repeating: 0.0, count: levels)
        for l in 1..<max(1, levels) { levelTop[l] = levelTop[l - 1] + levelDepth[l - 1] + options.layerSpacing }
        var centres = Array(repeating: Point(0, 0), count: n)
        for v in 0..<n { centres[v] = Point(x[v], levelTop[level[v]] + levelDepth[level[v]] / 2) }
        result.layers = levels
        LayeredLayout.finish(&result, graph: graph, centres: centres, direction: options.direction)
        return result
    }
}

/// The state of Walker's algorithm over one tree.
private struct Walker {
    let children: [[Int]]
    let parent: [Int]
    let breadth: [Double]
    let spacing: Double

    var prelim: [Double], mod: [Double], shift: [Double], change: [Double]
    var thread: [Int], ancestor: [Int]
    /// Index of each node among its siblings.
    var number: [Int]
    /// Final centre along the level.
    var x: [Double]

    init(children: [[Int]], parent: [Int], breadth: [Double], spacing: Double) {
        let n = children.count
        self.children = children
        self.parent = parent
        self.breadth = breadth
        self.spacing = spacing
        prelim = Array(repeating: 0, count: n)
        mod = Array(repeating: 0, count: n)
        shift = Array(repeating: 0, count: n)
        change = Array(repeating: 0, count: n)
        thread = Array(repeating: -1, count: n)
        ancestor = Array(0..<n)
        number = Array(repeating: 0, count: n)
        for c in children { for (i, w) in c.enumerated() { number[w] = i } }
        x = Array(repeating: 0, count: n)
    }

    private func distance(_ a: Int, _ b: Int) -> Double { (breadth[a] + breadth[b]) / 2 + spacing }

    private func leftSibling(_ v: Int) -> Int? {
        let p = parent[v]
        return p >= 0 && number[v] > 0 ? children[p][number[v] - 1] : nil
    }

    private func nextLeft(_ v: Int) -> Int { children[v].first ?? thread[v] }
    private func nextRight(_ v: Int) -> Int { children[v].last ?? thread[v] }

    /// Lays out the tree of `root`; returns its nodes in pre-order.
    mutating func layout(_ root: Int) -> [Int] {
        // post-order: each node after its children
        var post: [Int] = []
        var stack: [(Int, Int)] = [(root, 0)]
        while let (v, i) = stack.last {
            if i < children[v].count {
                stack[stack.count - 1].1 += 1
                stack.append((children[v][i], 0))
            } else {
                post.append(v)
                stack.removeLast()
            }
        }
        var defaultAncestor = Array(repeating: -1, count: children.count)
        for v in post {
            firstWalk(v)
            let p = parent[v]
            if p >= 0 && v != root {
                if defaultAncestor[p] < 0 { defaultAncestor[p] = children[p][0] }
                defaultAncestor[p] = apportion(v, defaultAncestor[p])
            }
        }
        // pre-order: x = prelim + the sum of the ancestors' mods
        var pre: [Int] = []
        var todo: [(Int, Double)] = [(root, 0)]
        while let (v, m) = todo.popLast() {
            x[v] = prelim[v] + m
            pre.append(v)
            for w in children[v].reversed() { todo.append((w, m + mod[v])) }
        }
        return pre
    }

    /// Places `v` relative to its left sibling, or over its children (already walked).
    private mutating func firstWalk(_ v: Int) {
        let left = leftSibling(v)
        if children[v].isEmpty {
            prelim[v] = left.map { prelim[$0] + distance($0, v) } ?? 0
            return
        }
        executeShifts(v)
        let midpoint = (prelim[children[v].first!] + prelim[children[v].last!]) / 2
        if let w = left {
            prelim[v] = prelim[w] + distance(w, v)
            mod[v] = prelim[v] - midpoint
        } else {
            prelim[v] = midpoint
        }
    }

    /// Pushes the subtree of `v` right until its left contour clears the right contour of
    /// its left siblings' subtrees, spreading the shift over the siblings between.
    private mutating func apportion(_ v: Int, _ defaultAncestor: Int) -> Int {
        guard let w = leftSibling(v) else { return defaultAncestor }
        var result = defaultAncestor
        var vip = v, vop = v, vim = w, vom = children[parent[v]][0]
        var sip = mod[vip], sop = mod[vop], sim = mod[vim], som = mod[vom]
        while nextRight(vim) >= 0 && nextLeft(vip) >= 0 {
            vim = nextRight(vim)
            vip = nextLeft(vip)
            vom = nextLeft(vom)
            vop = nextRight(vop)
            ancestor[vop] = v
            let s = (prelim[vim] + sim) - (prelim[vip] + sip) + distance(vim, vip)
            if s > 0 {
                let a = parent[ancestor[vim]] == parent[v] ? ancestor[vim] : result
                moveSubtree(a, v, s)
                sip += s
                sop += s
            }
            sim += mod[vim]
            sip += mod[vip]
            som += mod[vom]
            sop += mod[vop]
        }
        if nextRight(vim) >= 0 && nextRight(vop) < 0 {
            thread[vop] = nextRight(vim)
            mod[vop] += sim - sop
        }
        if nextLeft(vip) >= 0 && nextLeft(vom) < 0 {
            thread[vom] = nextLeft(vip)
            mod[vom] += sip - som
            result = v
        }
        return result
    }

    private mutating func moveSubtree(_ wm: Int, _ wp: Int, _ s: Double) {
        let subtrees = Double(number[wp] - number[wm])
        change[wp] -= s / subtrees
        shift[wp] += s
        change[wm] += s / subtrees
        prelim[wp] += s
        mod[wp] += s
    }

    private mutating func executeShifts(_ v: Int) {
        var s = 0.0, c = 0.0
        for w in children[v].reversed() {
            prelim[w] += s
            mod[w] += s
            c += change[w]
            s += shift[w] + c
        }
    }
}
