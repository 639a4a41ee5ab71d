import FlowCore
import TestSupport
import Testing

@testable import FlowLayout

/// Issue #43: the layered layout of a dense graph stays bounded (`LayoutLimits`). Every
/// edge of a graph where each node points to every other needs a bend point on each layer
/// it passes, which made millions of them: `{a1 ... a100} -> {a1 ... a100}` took 55 s and
/// 356 MB, with 440 nodes 9.8 GB past 300 s, and none of it counted against a budget.
@Suite(.timeLimit(.minutes(2))) struct LayoutLimitTests {
    /// Every node to every node, itself included, as DOT's `{a1 ... aN} -> {a1 ... aN}` makes.
    static func complete(_ n: Int, copies: Int = 1) -> LayoutGraph {
        var edges: [LayoutGraph.Edge] = []
        for s in 0..<n {
            for t in 0..<n {
                for _ in 0..<copies { edges.append(LayoutGraph.Edge(source: s, target: t)) }
            }
        }
        return LayoutGraph(nodes: Array(repeating: LayoutGraph.Node(width: 72, height: 36), count: n), edges: edges)
    }

    /// A budget that counts what is taken and what was taken at most.
    final class Budget: MemoryBudget {
        let limit: Int
        var used = 0, peak = 0
        init(_ limit: Int) { self.limit = limit }
        func take(_ bytes: Int) -> Bool {
            if bytes > 0 && used + bytes > limit { return false }
            used += bytes
            peak = max(peak, used)
            return true
        }
    }

    @Test func aGraphPastTheBendPointLimitFailsNamingItQuickly() {
        let graph = Self.complete(440)
        let m = thrownMessage { _ = try LayeredLayout.layout(graph, options: LayoutOptions(), limits: LayoutLimits()) }
        #expect(m.hasPrefix("layout: the graph needs "), "\(m)")
        #expect(m.hasSuffix(" bend points (the layers its edges cross); the limit is 1,000,000"), "\(m)")
        let small = thrownMessage {
            _ = try LayeredLayout.layout(Self.complete(12), options: LayoutOptions(), limits: LayoutLimits(bendPoints: 100))
        }
        #expect(small == "layout: the graph needs 440 bend points (the layers its edges cross); the limit is 100", "\(small)")
    }

    @Test func theStoreLayoutKeepsToTheRequestsLimit() throws {
        let store = FlowStore<JSONValue>()
        for i in 0..<12 { _ = try store.addNode(FlowNode(id: "n\(i)", position: Point(0, 0), data: .null)) }
        for s in 0..<12 {
            for t in 0..<12 where s != t {
                _ = try store.addEdge(FlowEdge(id: "e\(s)-\(t)", sourceNodeID: "n\(s)", targetNodeID: "n\(t)"))
            }
        }
        let before = store.nodes
        var request = LayoutRequest()
        request.maximumBendPoints = 100
        #expect(throws: FlowError.self) { try store.layout(request) }
        #expect(store.nodes == before)
        try store.layout()
        #expect(store.nodes != before)
    }

    @Test func theLayoutsMemoryCountsAgainstABudget() throws {
        let graph = Self.complete(60)
        let small = Budget(16 << 20)
        let m = thrownMessage { _ = try LayeredLayout.layout(graph, options: LayoutOptions(), limits: LayoutLimits(memory: small)) }
        #expect(m.hasPrefix("layout: the graph needs "), "\(m)")
        #expect(m.hasSuffix("bytes; that passes the memory limit of 16,777,216 bytes"), "\(m)")
        #expect(small.used == 0 && small.peak == 0)
        let large = Budget(1 << 30)
        let r = try LayeredLayout.layout(Self.complete(20), options: LayoutOptions(), limits: LayoutLimits(memory: large))
        #expect(large.peak > 0 && large.used == 0)  // taken while it ran, given back after
        #expect(r.positions.count == 20)
    }

    @Test func parallelEdgesOfALargeGraphShareTheirBendPoints() throws {
        // 60 copies of each edge between 12 nodes over 12 layers: 26,400 bend points
        let graph = Self.complete(12, copies: 60)
        let r = try LayeredLayout.layout(graph, options: LayoutOptions(), limits: LayoutLimits())
        #expect(r.layers == 12)
        for (e, edge) in graph.edges.enumerated() where e % 60 != 0 && edge.source != edge.target {
            #expect(r.edgePoints[e] == r.edgePoints[e - e % 60])
        }
        // below the sharing bound every edge keeps its own chain
        let few = Self.complete(12, copies: 2)
        let f = try LayeredLayout.layout(few, options: LayoutOptions(), limits: LayoutLimits())
        let apart = stride(from: 0, to: few.edges.count, by: 2).filter { !f.edgePoints[$0].isEmpty && f.edgePoints[$0] != f.edgePoints[$0 + 1] }
        #expect(apart.count > 50)
    }

    @Test func aDenseLayoutIsDeterministic() throws {
        let graph = Self.complete(12, copies: 60)
        let a = try LayeredLayout.layout(graph, options: LayoutOptions(), limits: LayoutLimits())
        let b = try LayeredLayout.layout(graph, options: LayoutOptions(), limits: LayoutLimits())
        #expect(a.positions == b.positions)
        #expect(a.edgePoints == b.edgePoints)
    }

    @Test func aDenseLayoutEndsAtTheWorkLimit() {
        let graph = Self.complete(100)
        let start = ContinuousClock.now
        let m = thrownMessage {
            try WorkLimit.$current.withValue(WorkLimit(seconds: 1)) {
                _ = try LayeredLayout.layout(graph, options: LayoutOptions(), limits: LayoutLimits())
            }
        }
        #expect(m == "no error" || m == WorkLimit.stoppedError("layout").description, "\(m)")
        #expect(ContinuousClock.now - start < .seconds(10))
    }
}
