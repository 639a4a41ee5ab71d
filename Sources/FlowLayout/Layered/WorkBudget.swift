/// Work a stage of the layered layout may do, in units of work counted by the stage itself
/// (a vertex or a segment end visited, a place weighed), never in time: a layout does the
/// same work, and gives the same result, on every machine and under any load.
///
/// Crossing reduction and the position simplex each get a budget proportional to the size
/// of the proper graph (`units(_:)`: its vertices, long-edge dummies included, and the ends
/// of its segments), so that their work grows linearly with the graph instead of with the
/// rounds a large graph takes to settle. A stage checks its budget between its steps (a
/// sweep, a layer's transposition or sifting, a long edge moved, a pivot) and keeps the
/// best it has found when the budget is spent. Graphs of up to some tens of thousands of
/// elements finish long before (docs/layout.md, "Limits").
struct WorkBudget {
    /// The units the stage may use.
    let limit: Int
    /// The units used so far.
    private(set) var used = 0

    init(limit: Int) { self.limit = limit }

    /// No budget: the stage runs until it settles.
    static let unlimited = WorkBudget(limit: .max)

    /// The proper graph's size: its vertices plus the ends of its segments (each segment is
    /// read at both ends), the work of one sweep over every layer.
    static func units(_ graph: ProperGraph) -> Int { graph.count + 2 * graph.segments.count }

    /// A budget of `perUnit` units of work for each of a graph's `units` up to `knee`, and
    /// beyond it growing as the fourth root of the size — a curve without a step — or at
    /// least `floor`: `perUnit × units` below the knee, `perUnit × knee × (units / knee)^¼`
    /// above it. A large graph's work costs more time a unit than a small one's (its arrays
    /// no longer fit in the processor's caches: 12 ns a unit of pivot work on 147,000 units,
    /// 33 ns on a million), so a budget growing linearly past the knee would still grow
    /// the time faster than the graph.
    static func scaled(_ units: Int, perUnit: Int, knee: Int, floor: Int) -> WorkBudget {
        let size = Double(max(0, units)), knee = Double(knee)
        let scaled = size <= knee ? size : knee * (size / knee).squareRoot().squareRoot()
        let limit = scaled * Double(perUnit)
        return WorkBudget(limit: max(floor, limit >= 9.0e18 ? .max : Int(limit)))
    }

    /// Counts `units` as used.
    mutating func charge(_ units: Int) {
        let (sum, overflow) = used.addingReportingOverflow(units)
        used = overflow ? .max : sum
    }

    /// Whether the budget is used up.
    var isSpent: Bool { used >= limit }
}
