/// How much searching crossing reduction does on one graph: how many start orders, whether
/// each start gets the whole treatment, and what iterated sifting may spend
/// (`IteratedSifting.swift`).
///
/// `LayoutEffort.normal` fits the search to the graph so that a thousand nodes take a few
/// tens of milliseconds: small graphs get every start taken all the way and graphs of up to
/// a thousand vertices (dummies included) a thousand short kicks; larger ones none, since
/// there a kick costs too much for what it gains. `.thorough` gives every graph a long run
/// of kicks that shuffle longer stretches, bounded by its work, for fewer crossings at the
/// cost of seconds (the numbers are in docs/layout.md).
struct CrossingSearch: Equatable {
    /// One run of iterated sifting's kicks.
    struct Kicks: Equatable {
        /// Kicks at most.
        var count: Int
        /// Longest stretch of a layer one kick shuffles.
        var length: Int
        /// Kicks in a row without a new best before the run stops.
        var patience: Int
        /// Work the run's kicks together may take, in units of a layer's sifting (its width
        /// times the segments at it): a kick costs about one layer's sifting, so a graph
        /// with wide layers gets fewer kicks.
        var work: Int
    }

    /// Start orders: the depth-first order, its mirror when every start is taken all the
    /// way, then seeded shuffles.
    var starts: Int
    /// Whether every start gets sweeps with transposition and sifting; otherwise the starts
    /// get barycentre sweeps alone, which are cheap, and only the best of them the rest.
    var everyStartWhole: Bool
    /// Runs of kicks, each from the best order the one before it found (none: no kicks).
    var kicks: [Kicks]
    /// The terms of the search's work budget (`budget(_:)`): units of work a unit of the
    /// graph below the knee, the knee, the least budget.
    var workPerUnit = CrossingSearch.defaultWorkPerUnit
    var workKnee = CrossingSearch.defaultWorkKnee
    var workFloor = CrossingSearch.defaultWorkFloor

    /// The work the search may do on a graph of `units` (`WorkBudget.units`): `workPerUnit`
    /// a unit up to `workKnee` units, growing as the fourth root beyond, at least
    /// `workFloor`. Iterated sifting's kicks have a bound of their own (`Kicks.work`).
    func budget(_ units: Int) -> WorkBudget {
        WorkBudget.scaled(units, perUnit: workPerUnit, knee: workKnee, floor: workFloor)
    }

    /// The budget's terms. dag_5000 (36,818 units) takes 82.9 million units of work and
    /// gets 88.4 million; no benchmark graph is cut short. The cyclic graph of 4,000 nodes
    /// (602,910 units, 468 million wanted) gets 178 million.
    static let defaultWorkPerUnit = 2_400
    static let defaultWorkKnee = 37_000
    static let defaultWorkFloor = 50_000_000

    /// The search `effort` gives a graph of `vertices` vertices, dummies included. A
    /// thorough search is the normal one followed by a long run of kicks, so it never ends
    /// with more crossings.
    static func forGraph(vertices: Int, effort: LayoutEffort) -> CrossingSearch {
        let small = vertices <= 150
        // 6,000,000 is 1,000 kicks on layers of dag_200's (5,118 a layer, about 40 ms); a
        // two-layer graph of 120 nodes a layer and 360 edges gets 133
        let normal = CrossingSearch(
            starts: small ? 8 : 3, everyStartWhole: small,
            kicks: vertices <= 1_000 ? [Kicks(count: 1_000, length: 10, patience: 300, work: 6_000_000)] : [])
        switch effort {
        case .normal:
            return normal
        case .thorough:
            // about 28,000 kicks on layered_1000's layers (1.9 s), 33 on dag_5000's
            var search = normal
            search.kicks.append(Kicks(count: 30_000, length: 25, patience: 1_000, work: 200_000_000))
            return search
        }
    }
}
