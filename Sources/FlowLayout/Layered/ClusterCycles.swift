import FlowCore

/// Cycle breaking in a graph with clusters, level by level, as dot does it by laying out
/// each cluster on its own: an edge belongs to the innermost cluster holding both its ends
/// (the top level when none does), where it joins two "units", each a node of that
/// cluster or a cluster inside it. Each level's units and edges get the plain cycle
/// breaking (`edgesToReverse`, units in the order of their first node). A loop through
/// several groups is so broken on an edge between groups, and the edges inside a group
/// keep their direction: in `fit -> check -> tune -> fit` with `tune` and `fit` in one
/// group and `check` in another, the edge back into the group turns, not the group's own
/// `tune -> fit`, which would stretch the group over the whole loop.
///
/// Only edges on a cycle of the nodes (inside one strongly connected component) take part:
/// a graph whose groups point at each other both ways but whose nodes form no cycle (git
/// branches merged back) keeps every edge's direction.
///
/// The result is acyclic: edges between components keep the components' order, so a cycle
/// left would lie in one component, within some innermost cluster C holding all of it; if
/// it passed through two of C's units it would be a cycle among C's units, which the
/// level's own breaking removed; so it lies within one unit, a cluster inside C, against
/// the choice of C.
///
/// `cluster[v]` is the innermost cluster of node `v` (-1: none), `parent[c]` the cluster
/// holding cluster `c` (-1: none); `edges` are `(source, target)` pairs without self-loops.
func clusteredReversal(nodeCount: Int, edges: [(Int, Int)], cluster: [Int], parent: [Int]) -> [Bool] {
    var depth = Array(repeating: -1, count: parent.count)
    func depthOf(_ c: Int) -> Int {
        if c < 0 { return 0 }
        if depth[c] < 0 { depth[c] = depthOf(parent[c]) + 1 }
        return depth[c]
    }
    for c in parent.indices { _ = depthOf(c) }
    // a unit is a node (2v) or a cluster (2c + 1); each is ordered by its first node
    var firstNode = Array(repeating: Int.max, count: parent.count)
    for v in 0..<nodeCount {
        var c = cluster[v]
        while c >= 0, firstNode[c] == Int.max {
            firstNode[c] = v
            c = parent[c]
        }
    }
    func first(_ unit: Int) -> Int { unit % 2 == 0 ? unit / 2 : firstNode[unit / 2] }
    var component = Array(repeating: 0, count: nodeCount)
    for (k, members) in Digraph(vertexCount: nodeCount, edges: edges).stronglyConnectedComponents().enumerated() {
        for v in members { component[v] = k }
    }
    // the level (innermost common cluster) and the two units of every edge on a cycle
    var levels: [Int: [(edge: Int, from: Int, to: Int)]] = [:]
    for (i, (s, t)) in edges.enumerated() where component[s] == component[t] {
        var a = (cluster[s], 2 * s), b = (cluster[t], 2 * t)
        while a.0 != b.0 {
            if depthOf(a.0) >= depthOf(b.0) {
                a = (parent[a.0], 2 * a.0 + 1)
            } else {
                b = (parent[b.0], 2 * b.0 + 1)
            }
        }
        levels[a.0, default: []].append((i, a.1, b.1))
    }
    var reversed = Array(repeating: false, count: edges.count)
    for level in levels.keys.sorted() {
        let joins = levels[level]!
        let units = Set(joins.flatMap { [$0.from, $0.to] }).sorted { first($0) < first($1) }
        var index: [Int: Int] = [:]
        for (k, u) in units.enumerated() { index[u] = k }
        let turned = edgesToReverse(nodeCount: units.count, edges: joins.map { (index[$0.from]!, index[$0.to]!) })
        for (k, j) in joins.enumerated() { reversed[j.edge] = turned[k] }
    }
    return reversed
}
