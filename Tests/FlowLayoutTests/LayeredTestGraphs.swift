@testable import FlowLayout
import TestSupport

/// Random layered graphs for the layout's tests: `layers` layers of `width` vertices, each
/// vertex below the first with a parent on the layer above and one more edge from `reach`
/// layers up or fewer (a long edge, with dummies, when more than one).
enum LayeredTestGraphs {
    /// The edges, vertex `l * width + i` being the `i`th of layer `l`, drawn from `r`.
    static func edges(layers: Int, width: Int, reach: Int, _ r: inout TestSupport.SplitMix64) -> [(source: Int, target: Int)] {
        var edges: [(source: Int, target: Int)] = []
        for l in 1..<layers {
            for i in 0..<width {
                let v = l * width + i
                edges.append((source: (l - 1) * width + Int(r.next() % UInt64(width)), target: v))
                let up = 1 + Int(r.next() % UInt64(min(reach, l)))
                edges.append((source: (l - up) * width + Int(r.next() % UInt64(width)), target: v))
            }
        }
        return edges
    }

    /// The proper graph of those edges, every vertex a 72 x 36 box on its layer.
    static func proper(layers: Int, width: Int, edges: [(source: Int, target: Int)]) -> ProperGraph {
        let n = layers * width
        return ProperGraph(
            ranks: (0..<n).map { $0 / width }, breadth: Array(repeating: 72, count: n),
            depth: Array(repeating: 36, count: n), edges: edges,
            ports: Array(repeating: (0, 0), count: edges.count), labels: Array(repeating: nil, count: edges.count))
    }
}
