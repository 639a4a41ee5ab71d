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
    /// For each input edge, the edge whose chain of dummies it shares (itself, unless built
    /// with `owners`): only the owner's chain has segments of its own.
    var chainOwner: [Int] = []
    /// Which dummy carries the label of an edge (or -1).
    var labelVertex: [Int]
    var layerCount: Int
    /// Order keys of the real vertices (see `LayoutGraph.Node.orderKey`).
    var orderKey: [Double?] = []
    var orderTie: [Double] = []
    /// Each input edge's weight (`LayoutGraph.Edge.weight`); empty: all 1.
    var edgeWeight: [Int] = []
    /// The free space flat edges (both ends on one layer) ask for between their ends, by the
    /// pair of ends (`flatGap(_:_:)`): a label's room along the layer (it is drawn beside
    /// the edge, between them, with `flatLabelMargin` each side), and a `minLength` above 1
    /// that many node spacings (`widenFlatGap`), as in dot.
    var flatGaps: [FlatPair: Double] = [:]
    /// The free space a flat edge's `minLength` above 1 asks for between its ends, by pair,
    /// whether or not they are neighbours (`flatSpans(_:)`): dot keeps them that far apart
    /// whatever lies between.
    var flatLengths: [FlatPair: Double] = [:]
    /// The depth (across the layer) of the deepest label of a flat edge, by pair of ends:
    /// between ends that are not neighbours the edge arcs over the layer and its label
    /// sits in the gap before it, which keeps room for it (`flatLabelRoom(_:)`).
    var flatLabelDepths: [FlatPair: Double] = [:]
    static let flatLabelMargin = 6.0
    struct FlatPair: Hashable {
        let a: Int, b: Int
        init(_ a: Int, _ b: Int) { (self.a, self.b) = (min(a, b), max(a, b)) }
    }

    var count: Int { layer.count }
    /// The chains of the edges that own theirs (each shared chain once).
    var ownedChains: [[Int]] {
        chainOwner.count == chains.count && chainOwner.enumerated().contains { $0.offset != $0.element }
            ? chains.indices.filter { chainOwner[$0] == $0 }.map { chains[$0] } : chains
    }
    func isDummy(_ v: Int) -> Bool { v >= realCount }
    /// The weight of input edge `e` (1 unless `edgeWeight` says otherwise).
    func weight(ofEdge e: Int) -> Int { edgeWeight.isEmpty ? 1 : edgeWeight[e] }
    /// The free space along their layer flat edges between `a` and `b` ask for, or nil.
    func flatGap(_ a: Int, _ b: Int) -> Double? {
        flatGaps.isEmpty ? nil : flatGaps[FlatPair(a, b)]
    }

    /// Takes the input edges' weights (`edgeWeight`) and the node spacings their `minLength`
    /// asks between the ends of flat ones (`flatGaps`, as in dot); `down` are the edges' ends.
    mutating func take(_ edges: [LayoutGraph.Edge], down: [(source: Int, target: Int)], nodeSpacing: Double) {
        if edges.contains(where: { $0.weight != 1 }) { edgeWeight = edges.map(\.weight) }
        for (i, e) in edges.enumerated() where e.minLength > 1 && layer[down[i].source] == layer[down[i].target] {
            let (a, b) = (down[i].source, down[i].target), gap = Double(e.minLength) * nodeSpacing
            widenFlatGap(a, b, to: gap)
            if a != b { flatLengths[FlatPair(a, b), default: 0] = max(flatLengths[FlatPair(a, b)] ?? 0, gap) }
        }
    }

    /// Makes the free space between `a` and `b`, on one layer, at least `gap`.
    mutating func widenFlatGap(_ a: Int, _ b: Int, to gap: Double) {
        guard a != b else { return }
        let pair = FlatPair(a, b)
        flatGaps[pair] = max(flatGaps[pair] ?? 0, gap)
    }

    /// Builds the graph from ranks. `edges` are already pointing downwards
    /// (`rank[source] < rank[target]`); `ports` give each edge's (source, target) offsets.
    /// `owners` (`sharedChains`) says, for each edge, the earlier edge whose chain it shares.
    init(
        ranks: [Int], breadth: [Double], depth: [Double],
        edges: [(source: Int, target: Int)], ports: [(Double, Double)],
        labels: [Size?], owners: [Int]? = nil
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
        chainOwner = owners ?? Array(edges.indices)
        for (i, e) in edges.enumerated() {
            if chainOwner[i] != i {
                chains.append(chains[chainOwner[i]])
                continue
            }
            let top = ranks[e.source], bottom = ranks[e.target]
            // a flat edge (a rank constraint's) has no segment; it is drawn from end to end
            if top == bottom {
                if let label = labels[i], e.source != e.target {
                    // between neighbours the label lies between the ends; past others, over
                    // them, between the ends along the layer: room that wide either way
                    let pair = FlatPair(e.source, e.target), gap = label.width + 2 * Self.flatLabelMargin
                    widenFlatGap(e.source, e.target, to: gap)
                    flatLengths[pair] = max(flatLengths[pair] ?? 0, gap)
                    flatLabelDepths[pair] = max(flatLabelDepths[pair] ?? 0, label.height)
                }
                chains.append([e.source, e.target])
                continue
            }
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

    /// The dummies every edge's chain needs (the layers it passes), all together and only
    /// the owners' (`sharedChains`). An edge that is not shared owns its chain.
    static func bendPoints(
        ranks: [Int], edges: [(source: Int, target: Int)], owners: [Int]? = nil
    ) -> (all: Int, owned: Int) {
        var all = 0, owned = 0
        for (i, e) in edges.enumerated() {
            let span = max(0, ranks[e.target] - ranks[e.source] - 1)
            all += span
            if owners.map({ $0[i] == i }) ?? true { owned += span }
        }
        return (all, owned)
    }

    /// For each edge, the first edge that joins the same two vertices at the same ports,
    /// where neither has a label: it shares that edge's chain (its own index when none).
    static func sharedChains(
        edges: [(source: Int, target: Int)], ports: [(Double, Double)], labels: [Size?]
    ) -> [Int] {
        struct Key: Hashable {
            var source: Int, target: Int
            var sourcePort: Double, targetPort: Double
        }
        var first: [Key: Int] = [:]
        var owners = Array(edges.indices)
        for (i, e) in edges.enumerated() where labels[i] == nil {
            let key = Key(source: e.source, target: e.target, sourcePort: ports[i].0, targetPort: ports[i].1)
            if let o = first[key] { owners[i] = o } else { first[key] = i }
        }
        return owners
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
