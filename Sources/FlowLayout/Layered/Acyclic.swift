/// Cycle breaking: which edges to draw against the layer direction so that the rest form
/// an acyclic graph.
///
/// First a depth-first search from every node in input order, each node's out-edges in
/// input order; an edge into a node still on the search's stack closes a cycle and is
/// reversed. On graphs with few cycles this keeps the input's flow, but on a graph full of
/// them the search's long paths make the layering deep: the edges then span hundreds of
/// layers and the long-edge dummies blow up (a random graph of 1,000 nodes with three
/// out-edges each: half a million). So when the search reversed edges and the edges span
/// more than `spanLimit` layers on average (longest-path layers, a cheap estimate of what
/// network simplex makes of them), the greedy order of Eades, Lin and Smyth is tried too and
/// kept when its edges span fewer layers. Deterministic, linear in nodes plus edges.
///
/// `edges` are `(source, target)` pairs over `0..<nodeCount`, without self-loops.
func edgesToReverse(nodeCount: Int, edges: [(Int, Int)]) -> [Bool] {
    let searched = depthFirstReversal(nodeCount: nodeCount, edges: edges)
    guard searched.contains(true) else { return searched }
    let searchedSpan = longestPathSpan(nodeCount: nodeCount, edges: edges, reversed: searched)
    guard searchedSpan > spanLimit * edges.count else { return searched }
    let greedy = greedyReversal(nodeCount: nodeCount, edges: edges)
    return longestPathSpan(nodeCount: nodeCount, edges: edges, reversed: greedy) < searchedSpan ? greedy : searched
}

/// The average layers an edge may span, after the depth-first cycle breaking, before the
/// greedy order is tried.
let spanLimit = 8

func depthFirstReversal(nodeCount: Int, edges: [(Int, Int)]) -> [Bool] {
    var out = Array(repeating: [Int](), count: nodeCount)
    for (i, e) in edges.enumerated() { out[e.0].append(i) }
    var reversed = Array(repeating: false, count: edges.count)
    // 0 unvisited, 1 on the stack, 2 finished
    var state = Array(repeating: UInt8(0), count: nodeCount)
    var stack: [(node: Int, next: Int)] = []
    for root in 0..<nodeCount where state[root] == 0 {
        state[root] = 1
        stack.append((root, 0))
        while let top = stack.last {
            let adjacent = out[top.node]
            if top.next == adjacent.count {
                state[top.node] = 2
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let e = adjacent[top.next]
            let w = edges[e].1
            switch state[w] {
            case 0:
                state[w] = 1
                stack.append((w, 0))
            case 1:
                reversed[e] = true
            default:
                break
            }
        }
    }
    return reversed
}

/// The layers all edges span together when each node goes one layer below its lowest
/// predecessor (edges turned where `reversed` says; they must then form no cycle).
func longestPathSpan(nodeCount: Int, edges: [(Int, Int)], reversed: [Bool]) -> Int {
    guard let rank = longestPathRanks(nodeCount: nodeCount, edges: edges, reversed: reversed) else { return .max }
    var span = 0
    for e in edges { span += abs(rank[e.1] - rank[e.0]) }
    return span
}

/// Each node's layer one below its lowest predecessor, with edges turned where `reversed`
/// says; nil when they still form a cycle.
func longestPathRanks(nodeCount: Int, edges: [(Int, Int)], reversed: [Bool]) -> [Int]? {
    let turned = edges.enumerated().map { i, e in
        let (s, t) = reversed[i] ? (e.1, e.0) : e
        return NetworkSimplex.Edge(source: s, target: t, minLength: 1, weight: 0)
    }
    return longestPaths(turned, count: nodeCount)
}

/// Longest paths from the sources over `edges` (Kahn's order), each edge at least its
/// `minLength` long: the rank of each of `count` vertices, at least its rank in `start` (0
/// without); nil when the edges hold a cycle.
func longestPaths(_ edges: [NetworkSimplex.Edge], count: Int, start: [Int]? = nil) -> [Int]? {
    var outgoing = Array(repeating: [Int](), count: count)
    var indegree = Array(repeating: 0, count: count)
    for (i, e) in edges.enumerated() {
        outgoing[e.source].append(i)
        indegree[e.target] += 1
    }
    var rank = start ?? Array(repeating: 0, count: count)
    var ready = (0..<count).filter { indegree[$0] == 0 }
    var done = 0
    while let v = ready.popLast() {
        done += 1
        for i in outgoing[v] {
            let e = edges[i]
            rank[e.target] = max(rank[e.target], rank[v] + e.minLength)
            indegree[e.target] -= 1
            if indegree[e.target] == 0 { ready.append(e.target) }
        }
    }
    return done == count ? rank : nil
}

/// Eades–Lin–Smyth: sinks go to the end of the order and sources to its start as they
/// appear; otherwise the node with the most out-edges over in-edges goes to the start (of
/// equals, the one that got there first). Edges pointing back in the order are reversed.
func greedyReversal(nodeCount: Int, edges: [(Int, Int)]) -> [Bool] {
    var out = Array(repeating: [Int](), count: nodeCount)
    var into = Array(repeating: [Int](), count: nodeCount)
    var outDegree = Array(repeating: 0, count: nodeCount)
    var inDegree = Array(repeating: 0, count: nodeCount)
    for (s, t) in edges {
        out[s].append(t)
        into[t].append(s)
        outDegree[s] += 1
        inDegree[t] += 1
    }
    let maxDegree = max(1, (0..<nodeCount).map { outDegree[$0] + inDegree[$0] }.max() ?? 1)
    // nodes by out-degree minus in-degree, first come first served (taking the latest
    // instead follows paths and makes the order deep again); entries go stale when a degree
    // changes and are skipped when taken
    var buckets = Array(repeating: [Int](), count: 2 * maxDegree + 1)
    var taken = Array(repeating: 0, count: 2 * maxDegree + 1)
    var top = 0
    var sinks: [Int] = [], sources: [Int] = []
    func file(_ v: Int) {
        if outDegree[v] == 0 {
            sinks.append(v)
        } else if inDegree[v] == 0 {
            sources.append(v)
        } else {
            let b = outDegree[v] - inDegree[v] + maxDegree
            buckets[b].append(v)
            top = max(top, b)
        }
    }
    for v in 0..<nodeCount { file(v) }
    var placed = Array(repeating: false, count: nodeCount)
    var position = Array(repeating: 0, count: nodeCount)
    var front = 0, back = nodeCount - 1
    func place(_ v: Int, atFront: Bool) {
        placed[v] = true
        if atFront { position[v] = front; front += 1 } else { position[v] = back; back -= 1 }
        for w in out[v] where !placed[w] {
            inDegree[w] -= 1
            file(w)
        }
        for u in into[v] where !placed[u] {
            outDegree[u] -= 1
            file(u)
        }
    }
    var left = nodeCount
    while left > 0 {
        if let v = sinks.popLast() {
            if !placed[v] { place(v, atFront: false); left -= 1 }
        } else if let v = sources.popLast() {
            if !placed[v] { place(v, atFront: true); left -= 1 }
        } else {
            while top > 0 && taken[top] == buckets[top].count { top -= 1 }
            guard taken[top] < buckets[top].count else { break }
            let v = buckets[top][taken[top]]
            taken[top] += 1
            if !placed[v] && outDegree[v] - inDegree[v] + maxDegree == top {
                place(v, atFront: true); left -= 1
            }
        }
    }
    return edges.map { position[$0.0] > position[$0.1] }
}
