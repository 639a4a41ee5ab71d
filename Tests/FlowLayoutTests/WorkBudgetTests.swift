@testable import FlowLayout
import TestSupport
import Testing

/// The work budgets of crossing reduction and the position simplex (`WorkBudget`): counted
/// in units of work, never in time, so a layout cut short by its budget is the same on
/// every run and every machine.
@Suite struct WorkBudgetTests {
    /// `layers` layers of `width` vertices, each with an edge from the layer above and one
    /// from up to four layers above (long edges, with dummies).
    private func graph(layers: Int, width: Int, seed: UInt64) -> ProperGraph {
        var r = TestSupport.SplitMix64(seed: seed)
        let edges = LayeredTestGraphs.edges(layers: layers, width: width, reach: 4, &r)
        return LayeredTestGraphs.proper(layers: layers, width: width, edges: edges)
    }

    /// Linear up to the knee, the fourth root beyond, with no step at the knee; the floor.
    @Test func theBudgetGrowsLinearlyThenAsTheFourthRoot() {
        func limit(_ units: Int, floor: Int = 0) -> Int {
            WorkBudget.scaled(units, perUnit: 10, knee: 10_000, floor: floor).limit
        }
        #expect(limit(1_000) == 10_000)
        #expect(limit(10_000) == 100_000)
        #expect(limit(10_001) == 100_002)
        #expect(limit(160_000) == 200_000)  // 16^¼ = 2
        #expect(limit(2_560_000) == 400_000)
        #expect(limit(10, floor: 5_000) == 5_000)
        #expect(WorkBudget.scaled(.max, perUnit: .max, knee: .max, floor: 0).limit == .max)
        var budget = WorkBudget(limit: 100)
        budget.charge(99)
        #expect(!budget.isSpent)
        budget.charge(.max)
        #expect(budget.isSpent && budget.used == .max)
    }

    /// With a budget a third of what the whole search takes, crossing reduction stops once
    /// the budget is spent, with no more than one step's work beyond it, keeps the best
    /// order it found (better than where it started), and does the same on every run.
    @Test func crossingReductionStopsAtItsBudget() {
        let g = graph(layers: 14, width: 30, seed: 43)
        var whole = Ordering(graph: g)
        var unlimited = CrossingSearch(starts: 3, everyStartWhole: false, kicks: [])
        unlimited.workPerUnit = .max
        whole.minimizeCrossings(unlimited, sweeps: 24)
        let used = whole.budget.used
        #expect(used > 1_000_000 && used < Int.max)
        var cut = CrossingSearch(starts: 3, everyStartWhole: false, kicks: [])
        (cut.workPerUnit, cut.workFloor) = (0, used / 3)
        var first = Ordering(graph: g), second = Ordering(graph: g)
        first.minimizeCrossings(cut, sweeps: 24)
        second.minimizeCrossings(cut, sweeps: 24)
        #expect(first.budget.limit == used / 3)
        #expect(first.budget.isSpent)
        // one step: a sweep, a count or a transposition pass over the graph, one layer's
        // sifting, or one long edge moved
        #expect(first.budget.used < used / 3 + 40 * WorkBudget.units(g))
        #expect(first.layers == second.layers && first.budget.used == second.budget.used)
        var start = Ordering(graph: g)
        #expect(first.totalCrossings() < start.totalCrossings())
    }

    /// The default terms: graphs up to the knee get 2,400 units a unit (dag_5000 takes
    /// 2,250), and past it the budget grows as the fourth root, so the cyclic graphs of
    /// 1,000, 2,000 and 4,000 nodes of `flowbench --only growth` (88,796, 175,668 and
    /// 602,910 units) get budgets that grow slower than their size; the same for the
    /// position simplex's pivots.
    @Test func theDefaultBudgetsGrowSlowerThanLargeGraphs() {
        let search = CrossingSearch.forGraph(vertices: 100_000, effort: .normal)
        #expect(search.budget(36_818).limit == 2_400 * 36_818)
        let sizes = [88_796, 175_668, 602_910]
        let limits = sizes.map { search.budget($0).limit }
        #expect(limits[0] >= 74_046_207)  // what the 1,000-node graph takes: not cut
        #expect(limits[1] * 10 < limits[0] * 13 && limits[2] * 10 < limits[0] * 20)
        #expect(limits[2] < 180_000_000)
        // layered_5000 and dag_5000 get what they take; the cyclic graphs less
        #expect(PositionSimplex.pivotBudget(35_556).limit == 500 * 35_556)
        #expect(PositionSimplex.pivotBudget(60_555).limit >= 19_888_417)
        let pivots = [147_397, 291_528, 1_002_305].map { PositionSimplex.pivotBudget($0).limit }
        #expect(pivots[0] < 50_000_000 && pivots[2] < 45_000_000)
    }

    /// Network simplex stops pivoting once its work reaches `maxWork`, with feasible ranks,
    /// after fewer pivots than it takes to the optimum, and the same ranks on every run.
    @Test func pivotsStopAtTheirWork() {
        var r = TestSupport.SplitMix64(seed: 7)
        let n = 400
        var edges: [NetworkSimplex.Edge] = []
        for v in 1..<n {
            edges.append(.init(source: Int(r.next() % UInt64(v)), target: v, minLength: 1, weight: 1))
            edges.append(.init(source: Int(r.next() % UInt64(v)), target: v, minLength: 1 + Int(r.next() % 3), weight: 2))
        }
        var whole = NetworkSimplex(nodeCount: n, edges: edges)
        whole.solve(maxIterations: .max)
        #expect(whole.pivots > 20)
        let cap = whole.work / 4
        var cut = NetworkSimplex(nodeCount: n, edges: edges), again = cut
        cut.solve(maxIterations: .max, maxWork: cap)
        again.solve(maxIterations: .max, maxWork: cap)
        #expect(cut.work >= cap && cut.pivots < whole.pivots)
        #expect(cut.rank == again.rank && cut.work == again.work)
        for e in edges { #expect(cut.rank[e.target] - cut.rank[e.source] >= e.minLength) }
        let cost = { (rank: [Int]) in edges.reduce(0) { $0 + $1.weight * (rank[$1.target] - rank[$1.source]) } }
        #expect(cost(cut.rank) >= cost(whole.rank))
    }
}
