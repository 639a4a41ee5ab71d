import TestSupport
import Testing
@testable import FlowCore

/// The graph queries against brute force (a reachability matrix) on seeded random graphs:
/// sparse and dense, with self-loops, parallel edges, isolated vertices and long chains.
@Suite("Graph queries against brute force") struct GraphQueryTests {
    /// A random graph: `n` vertices, `m` edges; `kind` mixes a DAG (edges forward only),
    /// a general graph and a long chain with a few extra edges.
    static func randomGraph(_ rng: inout SplitMix64) -> Digraph {
        let n = rng.below(12) + (rng.chance(10) ? 0 : 1)
        guard n > 0 else { return Digraph(vertexCount: 0, edges: []) }
        let m = rng.below(3 * n + 1)
        var edges: [(Int, Int)] = []
        switch rng.below(3) {
        case 0:  // DAG: forward edges of a random order (so no cycles)
            let order = rng.shuffled(Array(0..<n))
            for _ in 0..<m {
                let a = rng.below(n), b = rng.below(n)
                if a != b { edges.append((order[min(a, b)], order[max(a, b)])) }
            }
        case 1:
            for _ in 0..<m { edges.append((rng.below(n), rng.below(n))) }
        default:
            for v in 0..<(n - 1) { edges.append((v, v + 1)) }
            for _ in 0..<rng.below(3) { edges.append((rng.below(n), rng.below(n))) }
        }
        return Digraph(vertexCount: n, edges: rng.shuffled(edges))
    }

    /// `reach[u][v]`: a path of one or more edges from u to v (repeated relaxation).
    static func closure(_ g: Digraph) -> [[Bool]] {
        let n = g.vertexCount
        var reach = Array(repeating: Array(repeating: false, count: n), count: n)
        for j in 0..<g.edgeCount { reach[Int(g.edgeSources[j])][Int(g.edgeTargets[j])] = true }
        for k in 0..<n { for i in 0..<n where reach[i][k] { for j in 0..<n where reach[k][j] { reach[i][j] = true } } }
        return reach
    }

    /// Edge count of a shortest path (nil: none), by Floyd–Warshall.
    static func distances(_ g: Digraph) -> [[Int?]] {
        let n = g.vertexCount
        var d: [[Int?]] = Array(repeating: Array(repeating: nil, count: n), count: n)
        for v in 0..<n { d[v][v] = 0 }
        for j in 0..<g.edgeCount where g.edgeSources[j] != g.edgeTargets[j] {
            d[Int(g.edgeSources[j])][Int(g.edgeTargets[j])] = 1
        }
        for k in 0..<n {
            for i in 0..<n {
                for j in 0..<n {
                    if let a = d[i][k], let b = d[k][j], d[i][j].map({ a + b < $0 }) ?? true { d[i][j] = a + b }
                }
            }
        }
        return d
    }

    static func edgeSet(_ g: Digraph) -> [(Int, Int)] {
        (0..<g.edgeCount).map { (Int(g.edgeSources[$0]), Int(g.edgeTargets[$0])) }
    }

    @Test(arguments: 0..<400)
    func queriesMatchBruteForce(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 17)
        let g = Self.randomGraph(&rng)
        let n = g.vertexCount
        let reach = Self.closure(g)
        let dist = Self.distances(g)
        let edges = Self.edgeSet(g)

        for v in 0..<n {
            #expect(g.successors(of: v) == Set(edges.filter { $0.0 == v }.map(\.1)).sorted(), "seed \(seed) v \(v)")
            #expect(g.predecessors(of: v) == Set(edges.filter { $0.1 == v }.map(\.0)).sorted(), "seed \(seed) v \(v)")
            #expect(g.reachable(from: v) == (0..<n).filter { reach[v][$0] }, "seed \(seed) v \(v)")
            for w in 0..<n {
                let p = g.shortestPath(from: v, to: w)
                #expect(p?.count == dist[v][w], "seed \(seed) \(v)->\(w)")
                if let p {  // a real walk from v to w
                    var at = v
                    for e in p {
                        #expect(Int(g.edgeSources[e]) == at)
                        at = Int(g.edgeTargets[e])
                    }
                    #expect(at == w)
                }
            }
        }
        #expect(g.sources() == (0..<n).filter { v in !edges.contains { $0.1 == v } }, "seed \(seed)")
        #expect(g.sinks() == (0..<n).filter { v in !edges.contains { $0.0 == v } }, "seed \(seed)")

        // strongly connected: mutual reachability; listed ascending, by first vertex
        var strong: [[Int]] = []
        var placed = Set<Int>()
        for v in 0..<n where !placed.contains(v) {
            let c = (0..<n).filter { $0 == v || (reach[v][$0] && reach[$0][v]) }
            placed.formUnion(c)
            strong.append(c)
        }
        #expect(g.stronglyConnectedComponents() == strong, "seed \(seed)")
        #expect(g.cyclicComponents() == strong.filter { reach[$0[0]][$0[0]] }, "seed \(seed)")

        // weakly connected: reachability ignoring direction
        var undirected = Array(repeating: Array(repeating: false, count: n), count: n)
        for (a, b) in edges { undirected[a][b] = true; undirected[b][a] = true }
        for k in 0..<n { for i in 0..<n where undirected[i][k] { for j in 0..<n where undirected[k][j] { undirected[i][j] = true } } }
        var weak: [[Int]] = []
        placed = []
        for v in 0..<n where !placed.contains(v) {
            let c = (0..<n).filter { $0 == v || undirected[v][$0] }
            placed.formUnion(c)
            weak.append(c)
        }
        #expect(g.weaklyConnectedComponents() == weak, "seed \(seed)")

        // topological order: the smallest free vertex each time, or a real cycle
        var order: [Int] = []
        var done = Array(repeating: false, count: n)
        while let v = (0..<n).first(where: { v in !done[v] && !edges.contains { !done[$0.0] && $0.1 == v } }) {
            order.append(v)
            done[v] = true
        }
        switch g.topologicalOrder() {
        case .order(let o):
            #expect(order.count == n && o == order, "seed \(seed)")
        case .cycle(let c):
            #expect(order.count < n, "seed \(seed): a cycle reported in a DAG")
            #expect(!c.isEmpty && Set(c).count == c.count && c[0] == c.min(), "seed \(seed)")
            for (i, v) in c.enumerated() {
                let w = c[(i + 1) % c.count]
                #expect(edges.contains { $0 == (v, w) }, "seed \(seed): \(v) -> \(w) is no edge")
            }
        }
    }

    @Test func longChainNeedsNoRecursion() {
        let n = 200_000
        let g = Digraph(vertexCount: n, sources: (0..<Int32(n - 1)).map { $0 }, targets: (1..<Int32(n)).map { $0 })
        #expect(g.stronglyConnectedComponents().count == n)
        #expect(g.topologicalOrder() == .order(Array(0..<n)))
        #expect(g.reachable(from: 0).count == n - 1)
        #expect(g.shortestPath(from: 0, to: n - 1)?.count == n - 1)
        let ring = Digraph(vertexCount: n, sources: (0..<Int32(n)).map { $0 }, targets: (0..<Int32(n)).map { ($0 + 1) % Int32(n) })
        #expect(ring.cyclicComponents() == [Array(0..<n)])
        guard case .cycle(let c) = ring.topologicalOrder() else { Issue.record("no cycle"); return }
        #expect(c == Array(0..<n))
    }

    @Test(arguments: [1, 64, 65, 4096, 4097, 300_000])
    func smallIntQueueMatchesSortedSet(capacity: Int) {
        var rng = SplitMix64(seed: UInt64(capacity))
        var q = SmallIntMinQueue(capacity: capacity)
        var reference = Set<Int>()
        for _ in 0..<3000 {
            if rng.chance(60) {
                let v = rng.below(capacity)
                if reference.insert(v).inserted { q.insert(v) }
            } else {
                let expected = reference.min()
                #expect(q.popMin() == expected)
                if let e = expected { reference.remove(e) }
            }
        }
        while let e = reference.min() {
            #expect(q.popMin() == e)
            reference.remove(e)
        }
        #expect(q.popMin() == nil)
    }
}

/// The store's queries against the same brute force, through ids: the snapshot must map
/// store order to vertices whatever the slots are (removals and undo reuse them).
@Suite("Store graph queries") struct StoreGraphQueryTests {
    /// A store with random nodes and edges, some removed and re-added so that slots and
    /// store order differ.
    static func randomStore(_ rng: inout SplitMix64) throws -> Store {
        let s = Store()
        let n = rng.below(10) + 1
        for i in 0..<n { try s.addNode(node("v\(i)")) }
        for _ in 0..<rng.below(3 * n + 1) {
            try s.addEdge(edge(s.nextEdgeID(), "v\(rng.below(n))", "v\(rng.below(n))"))
        }
        for _ in 0..<rng.below(3) {
            let id = "v\(rng.below(n))"
            if s.node(id) != nil { try s.removeNode(id) }
            if rng.chance(50) { try s.undo() }
        }
        try s.addNode(node("late"))
        if let first = s.nodes.first { try s.addEdge(edge("late-edge", "late", first.id)) }
        return s
    }

    @Test(arguments: 0..<150)
    func storeQueriesMatchBruteForce(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        let s = try Self.randomStore(&rng)
        let ids = s.nodes.map(\.id)
        let index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        let edges = s.edges
        let g = Digraph(
            vertexCount: ids.count,
            edges: edges.map { (index[$0.sourceNodeID]!, index[$0.targetNodeID]!) })
        let reach = GraphQueryTests.closure(g)
        func names(_ vs: [Int]) -> [String] { vs.map { ids[$0] } }
        for (v, id) in ids.enumerated() {
            #expect(try s.successors(id) == names(Set(edges.filter { $0.sourceNodeID == id }.map { index[$0.targetNodeID]! }).sorted()))
            #expect(try s.predecessors(id) == names(Set(edges.filter { $0.targetNodeID == id }.map { index[$0.sourceNodeID]! }).sorted()))
            #expect(try s.reachable(id) == names((0..<ids.count).filter { reach[v][$0] }))
            let to = ids[rng.below(ids.count)]
            let p = try s.path(from: id, to: to)
            #expect((p != nil) == (id == to || reach[v][index[to]!]), "seed \(seed)")
            if let p {
                var at = id
                for e in p {
                    #expect(s.edge(e)?.sourceNodeID == at)
                    at = s.edge(e)!.targetNodeID
                }
                #expect(at == to)
            }
        }
        #expect(s.cycles() == g.cyclicComponents().map(names))
        #expect(s.components() == g.weaklyConnectedComponents().map(names))
        #expect(s.sourceNodeIDs() == names(g.sources()))
        #expect(s.sinkNodeIDs() == names(g.sinks()))
        switch g.topologicalOrder() {
        case .order(let o): #expect(try s.topologicalOrder() == names(o))
        case .cycle(let c):
            #expect(throws: FlowError.cycle("topologicalOrder", names(c))) { try s.topologicalOrder() }
        }
    }

    @Test func unknownIDsAndMessages() throws {
        let s = Store()
        try s.addNode(node("a"))
        try s.addNode(node("b"))
        try s.addEdge(edge("e1", "a", "b"))
        try s.addEdge(edge("e2", "b", "a"))
        #expect(throws: FlowError.unknownNode("successors", "x")) { try s.successors("x") }
        #expect(throws: FlowError.unknownNode("path", "x")) { try s.path(from: "a", to: "x") }
        #expect(throws: FlowError.unknownNode("reachable", "x")) { try s.reachable("x") }
        do {
            _ = try s.topologicalOrder()
            Issue.record("no error")
        } catch {
            #expect(error.description == "topologicalOrder: the diagram has a cycle: a -> b -> a")
            #expect(error.code == .cycle)
        }
        #expect(try s.path(from: "a", to: "a") == [])
        #expect(try s.path(from: "a", to: "b") == ["e1"])
    }
}
