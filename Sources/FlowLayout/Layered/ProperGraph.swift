/// A layered graph in which every edge joins neighbouring layers: the real nodes plus a
/// dummy vertex on every layer a long edge passes. Vertices `0..<realCount` are the
/// component's nodes; dummies follow. Sizes are along the layer (`breadth`) and across it
/// (`depth`).
struct ProperGraph {
    /// A piece of an edge between a vertex and one on the next layer down.
    struct Segment {
        var upper: Int
        var lower: Int
        /// Port offsets at either end, as fractions of the vertex's breadth (-0.5...0.5).
        var upperPort: Double
        var lowerPort: Double
        /// The input edge this piece belongs to.
        var edge: Int
    }

    var realCount: Int
    var layer: [Int]
    var breadth: [Double]
    var depth: [Double]
    var segments: [Segment] = []
    /// Segment indices by vertex: those going up to the previous layer and down to the next.
    var up: [[Int]]
    var down: [[Int]]
    /// For each input edge, its vertices from the upper end to the lower end.
    var chains: [[Int]]
    /// Which dummy carries the label of an edge (or -1).
    var labelVertex: [Int]
    var layerCount: Int
    /// Order keys of the real vertices (see `LayoutGraph.Node.orderKey`).
    var orderKey: [Double?] = []
    var orderTie: [Double] = []

    var count: Int { layer.count }
    func isDummy(_ v: Int) -> Bool { v >= realCount }

    /// Builds the graph from ranks. `edges` are already pointing downwards
    /// (`rank[source] < rank[target]`); `ports` give each edge's (source, target) offsets.
    init(
        ranks: [Int], breadth: [Double], depth: [Double],
        edges: [(source: Int, target: Int)], ports: [(Double, Double)],
        labels: [Size?]
    ) {
        realCount = ranks.count
        layer = ranks
        self.breadth = breadth
        self.depth = depth
        up = Array(repeating: [], count: ranks.count)
        down = Array(repeating: [], count: ranks.count)
        chains = []
        chains.reserveCapacity(edges.count)
        labelVertex = Array(repeating: -1, count: edges.count)
        layerCount = (ranks.max() ?? -1) + 1
        for (i, e) in edges.enumerated() {
            let top = ranks[e.source], bottom = ranks[e.target]
            // a flat edge (a rank constraint's) has no segment; it is drawn from end to end
            if top == bottom { chains.append([e.source, e.target]); continue }
            var chain = [e.source]
            let middle = (top + bottom) / 2
            for r in (top + 1)..<max(bottom, top + 1) {
                let d = layer.count
                layer.append(r)
                let label = r == middle ? labels[i] : nil
                self.breadth.append(label?.width ?? 0)
                self.depth.append(label?.height ?? 0)
                up.append([])
                down.append([])
                if label != nil { labelVertex[i] = d }
                chain.append(d)
            }
            chain.append(e.target)
            for k in 0..<(chain.count - 1) {
                let s = segments.count
                segments.append(Segment(
                    upper: chain[k], lower: chain[k + 1],
                    upperPort: k == 0 ? ports[i].0 : 0,
                    lowerPort: k == chain.count - 2 ? ports[i].1 : 0, edge: i))
                down[chain[k]].append(s)
                up[chain[k + 1]].append(s)
            }
            chains.append(chain)
        }
    }

    /// The vertices of each layer, in the order given by `position`.
    func layers(by position: [Int]) -> [[Int]] {
        var result = Array(repeating: [Int](), count: layerCount)
        for v in 0..<count { result[layer[v]].append(v) }
        for l in 0..<layerCount { result[l].sort { position[$0] < position[$1] } }
        return result
    }
}

import FlowCore
