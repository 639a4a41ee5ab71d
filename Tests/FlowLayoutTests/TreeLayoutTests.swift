import TestSupport
import FlowCore
import FlowLayout
import Testing

/// A random forest: each node's parent is an earlier node, or none (a root).
private func randomForest(seed: UInt64, nodes n: Int) -> LayoutGraph {
    var r = SplitMix64(seed: seed)
    var g = LayoutGraph()
    for _ in 0..<n { g.nodes.append(.init(width: r.uniform(20, 120), height: r.uniform(20, 60))) }
    // node ids permuted so that input order is not the tree order
    let order = r.shuffled(Array(0..<n))
    for i in 1..<n where !r.chance(5) {
        g.edges.append(.init(source: order[r.below(i)], target: order[i]))
    }
    return g
}

@Suite struct TreeLayoutTests {
    @Test(arguments: 0..<20)
    func tidyTreesKeepTheirPromises(seed: Int) throws {
        let g = randomForest(seed: UInt64(seed), nodes: 2 + seed * 7)
        let options = LayoutOptions(direction: LayoutDirection.allCases[seed % 4], nodeSpacing: 10, layerSpacing: 30)
        let r = try TreeLayout.layout(g, options: options)
        let frames = (0..<g.nodes.count).map { Rect(origin: r.positions[$0], size: Size(g.nodes[$0].width, g.nodes[$0].height)) }
        for i in 0..<frames.count {
            for j in (i + 1)..<frames.count {
                let a = frames[i], b = frames[j]
                let meet = a.origin.x < b.origin.x + b.size.width - 1e-6 && b.origin.x < a.origin.x + a.size.width - 1e-6
                    && a.origin.y < b.origin.y + b.size.height - 1e-6 && b.origin.y < a.origin.y + a.size.height - 1e-6
                #expect(!meet, "nodes \(i) and \(j) overlap")
            }
        }
        var children = Array(repeating: [Int](), count: g.nodes.count)
        for e in g.edges { children[e.source].append(e.target) }
        let horizontal = options.direction.isHorizontal
        func centre(_ v: Int) -> Double {
            horizontal ? frames[v].origin.y + frames[v].size.height / 2 : frames[v].origin.x + frames[v].size.width / 2
        }
        for v in 0..<g.nodes.count where !children[v].isEmpty {
            // a parent sits centred over its first and last child, children in input order
            let first = centre(children[v].first!), last = centre(children[v].last!)
            #expect(abs(centre(v) - (first + last) / 2) < 1e-6)
            for (a, b) in zip(children[v], children[v].dropFirst()) { #expect(centre(a) < centre(b)) }
        }
        #expect(try TreeLayout.layout(g, options: options).positions == r.positions)
    }

    @Test func aDeepChainDoesNotExhaustTheStack() throws {
        var g = LayoutGraph()
        for _ in 0..<100_000 { g.nodes.append(.init(width: 10, height: 10)) }
        for i in 1..<100_000 { g.edges.append(.init(source: i - 1, target: i)) }
        let r = try TreeLayout.layout(g, options: LayoutOptions())
        #expect(r.layers == 100_000)
        #expect(r.positions[99_999].x == r.positions[0].x)
    }

    @Test func graphsThatAreNotForestsAreNamed() {
        var g = LayoutGraph(nodes: Array(repeating: .init(width: 10, height: 10), count: 4))
        g.edges = [.init(source: 0, target: 1), .init(source: 1, target: 2), .init(source: 0, target: 2)]
        #expect(TreeLayout.forestViolation(g)?.edge == 2)
        g.edges = [.init(source: 0, target: 1), .init(source: 1, target: 0)]
        #expect(TreeLayout.forestViolation(g)?.edge == 1)
        g.edges = [.init(source: 3, target: 3)]
        #expect(TreeLayout.forestViolation(g)?.reason == "it is a self-loop")
        g.edges = [.init(source: 0, target: 1), .init(source: 0, target: 2), .init(source: 3, target: 0)]
        #expect(TreeLayout.forestViolation(g) == nil)
    }
}
