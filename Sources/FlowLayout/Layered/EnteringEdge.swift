/// The entering-edge search of `NetworkSimplex`: the non-tree edge with the least slack
/// (ties by edge index) that reconnects the two parts a leaving tree edge splits the tree
/// into, crossing the other way from it. Each node's edges are kept split by direction,
/// with the node at the other end, so the search reads only the edges that leave a node
/// the wanted way and tells by the other end's number whether they cross.
///
/// Only non-tree edges can cross: every other tree edge joins two nodes of one part, and
/// the leaving edge crosses the wrong way. So no edge needs to be checked for being in
/// the tree.
struct EnteringEdge {
    /// Rows of node `v`: its out-edges at `start[v]..<middle[v]`, its in-edges at
    /// `middle[v]..<start[v + 1]`, in edge order.
    private let start: [Int], middle: [Int]
    private let edge: [Int], other: [Int]
    private let minLength: [Int]

    init(nodeCount: Int, edges: [NetworkSimplex.Edge]) {
        var outDegree = Array(repeating: 0, count: nodeCount), inDegree = outDegree
        for e in edges {
            outDegree[e.source] += 1
            inDegree[e.target] += 1
        }
        var start = Array(repeating: 0, count: nodeCount + 1), middle = Array(repeating: 0, count: nodeCount)
        for v in 0..<nodeCount {
            middle[v] = start[v] + outDegree[v]
            start[v + 1] = middle[v] + inDegree[v]
        }
        var edge = Array(repeating: 0, count: 2 * edges.count), other = edge
        var nextOut = Array(start.dropLast()), nextIn = middle
        for (i, e) in edges.enumerated() {
            edge[nextOut[e.source]] = i
            other[nextOut[e.source]] = e.target
            nextOut[e.source] += 1
            edge[nextIn[e.target]] = i
            other[nextIn[e.target]] = e.source
            nextIn[e.target] += 1
        }
        self.start = start
        self.middle = middle
        self.edge = edge
        self.other = other
        minLength = edges.map(\.minLength)
    }

    /// The entering edge for the part numbered `lo...hi` (the subtree below the leaving
    /// edge; `nodeAtLim[l]` is the node numbered `l`, of `1...n`): with `outwards`, from
    /// inside it to outside, else the other way. The smaller of the two parts is searched.
    func search(
        lo: Int, hi: Int, outwards: Bool, lim: [Int], nodeAtLim: [Int], rank: [Int]
    ) -> Int? {
        let n = nodeAtLim.count - 1
        let searchInside = 2 * (hi - lo + 1) <= n
        // the edges wanted leave the searched node when they go from the searched part out
        let leaving = outwards == searchInside
        let start = self.start, middle = self.middle, edge = self.edge, other = self.other
        let minLength = self.minLength
        var best = -1, bestSlack = Int.max
        // `lo <= l && l <= hi` in one comparison
        let width = UInt(bitPattern: hi &- lo)
        func consider(_ x: Int) {
            let rows = leaving ? start[x]..<middle[x] : middle[x]..<start[x + 1]
            for k in rows {
                let y = other[k]
                if (UInt(bitPattern: lim[y] &- lo) <= width) == searchInside { continue }
                let e = edge[k]
                let s = (leaving ? rank[y] - rank[x] : rank[x] - rank[y]) - minLength[e]
                if s < bestSlack || (s == bestSlack && e < best) {
                    bestSlack = s
                    best = e
                }
            }
        }
        if searchInside {
            for l in lo...hi { consider(nodeAtLim[l]) }
        } else {
            for l in 1..<lo { consider(nodeAtLim[l]) }
            if hi < n { for l in (hi + 1)...n { consider(nodeAtLim[l]) } }
        }
        return best >= 0 ? best : nil
    }
}
