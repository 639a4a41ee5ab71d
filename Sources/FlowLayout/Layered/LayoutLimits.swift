import FlowCore

/// What one layered layout may take (docs/layout.md, "Limits"). A long edge gets a bend
/// point (a dummy vertex of the proper graph) on every layer it passes, so the bend points
/// — the sum of the edges' layer spans — measure both the work and the memory of a layout:
/// a dense graph of a few hundred nodes needs millions of them. They are counted right
/// after layering, before anything is built for them:
/// - past `sharedChainsFrom`, edges that join the same two nodes at the same ports, without
///   labels, share one chain of bend points (as dot merges them): drawn on top of each
///   other, with one route's work;
/// - past `bendPoints` (counted before sharing: every edge's route holds its own points),
///   the layout fails naming the limit and the count;
/// - with a `memory` budget (a Lua sandbox's memory cap), what the layout will hold (about
///   1 kB a bend point of the proper graph, 64 bytes one of the routes': dense graphs
///   measured in a release build) is taken from it for the layout's length, and the layout
///   fails, allocating nothing, when it cannot be.
/// Past the current `WorkLimit` the layout stops between its steps (and within the long
/// ones) and fails. Apart from these, crossing reduction and the position simplex keep to
/// work budgets of their own that grow with the proper graph's size (`WorkBudget`): they
/// end early, keeping the best they found, and the layout succeeds.
public struct LayoutLimits {
    /// Most bend points the routes of all edges may hold together.
    public var bendPoints: Int
    /// What the layout's memory counts against; nil: nothing.
    public var memory: (any MemoryBudget)?

    /// The bend points from which parallel edges share one chain.
    public static let sharedChainsFrom = 20_000
    /// The default `bendPoints`: about a second of layout and a few hundred megabytes.
    public static let defaultBendPoints = 1_000_000
    /// About what a layout holds for each bend point of its proper graph (the vertex, its
    /// segments, the crossing reduction's and the position solver's arrays), and for each of
    /// the routes' bend points (two points, in the result and the store). Measured: decoding
    /// `{a1 ... a100} -> {a1 ... a100}` peaks at 255 MB; this gives about 190 MB for its layout.
    static let bytesPerSharedBendPoint = 1_024
    static let bytesPerRouteBendPoint = 64

    public init(bendPoints: Int = LayoutLimits.defaultBendPoints, memory: (any MemoryBudget)? = nil) {
        self.bendPoints = bendPoints
        self.memory = memory
    }

    /// No limits but the current `WorkLimit`.
    public static var unbounded: LayoutLimits { LayoutLimits(bendPoints: .max) }

    /// The bytes a layout holds for `bendPoints` in its routes, `shared` of them in its proper
    /// graph.
    static func bytes(bendPoints: Int, shared: Int) -> Int {
        let (a, o1) = bendPoints.multipliedReportingOverflow(by: bytesPerRouteBendPoint)
        let (b, o2) = shared.multipliedReportingOverflow(by: bytesPerSharedBendPoint)
        return o1 || o2 ? .max : a.addingReportingOverflow(b).overflow ? .max : a + b
    }

    /// The error for a layout that needs `count` bend points, past `bendPoints`.
    func tooManyBendPoints(_ count: Int) -> FlowError {
        FlowError(
            .invalidValue, operation: "layout",
            message: "the graph needs \(grouped(count)) bend points (the layers its edges cross); the limit is \(grouped(bendPoints))")
    }

    /// The error for a layout whose memory `bytes` the budget cannot give.
    static func outOfMemory(_ bytes: Int, bendPoints: Int, limit: Int) -> FlowError {
        FlowError(
            .invalidValue, operation: "layout",
            message: "the graph needs \(grouped(bendPoints)) bend points, about \(grouped(bytes)) bytes; that passes the memory limit of \(grouped(limit)) bytes")
    }

    /// `n` with thousands separated by commas.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    func grouped(_ n: Int) -> String { Self.grouped(n) }
}

/// What one layout has used of its `LayoutLimits`: the bend points of the parts laid out
/// so far, and the memory taken for them, given back when the layout ends.
final class LayoutAllowance {
    let limits: LayoutLimits
    private var bendPoints = 0
    private var taken = 0

    init(_ limits: LayoutLimits) { self.limits = limits }

    /// Admits a part whose routes need `bendPoints` bend points, `shared` of them in its
    /// proper graph, or throws, taking nothing.
    func admit(bendPoints count: Int, shared: Int) throws(FlowError) {
        let total = bendPoints.addingReportingOverflow(count)
        let all = total.overflow ? Int.max : total.partialValue
        if all > limits.bendPoints { throw limits.tooManyBendPoints(all) }
        if let budget = limits.memory {
            let bytes = LayoutLimits.bytes(bendPoints: count, shared: shared)
            if bytes > 0 {
                guard budget.take(bytes) else {
                    throw LayoutLimits.outOfMemory(bytes, bendPoints: count, limit: budget.limit)
                }
                taken += bytes
            }
        }
        bendPoints = all
    }

    /// Gives back the memory taken.
    func giveBack() {
        if let budget = limits.memory, taken > 0 { _ = budget.take(-taken) }
        taken = 0
    }

    deinit { giveBack() }
}
