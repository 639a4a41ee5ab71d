import FlowCore
import FlowLayout

/// A lower bound of the bend points the layered layout of an import will need, counted
/// while the text is read (docs/formats.md, "Limits"), so that text whose layout the layout
/// would refuse (`LayoutLimits.bendPoints`) is refused before any store or layout plan is
/// built for it.
///
/// An edge statement whose two operands share k nodes (`{a1 … aN} -> {a1 … aN}`,
/// `a1 & … & aN --> a1 & … & aN`) joins those k nodes each to each, in both directions. No
/// two of them can then share a layer, so on layers l1 < l2 < … < lk the edges between the
/// i-th and the j-th cross at least j - i - 1 layers between them: C(k, 3) bend points for
/// each edge a pair has (two, one in a strict undirected graph). That holds where the
/// nodes are laid out together as plain nodes: members of one container (the top level or
/// one group), themselves not groups, in no rank constraint (`rank=same` puts nodes on one
/// layer), by edges of length at least 1 that constrain the layering; the reader counts
/// only those, as the nodes stand when all the text is read.
///
/// A statement whose bound alone passes the limit is noted and its edges are not made. At
/// the end the reader refuses with the largest bound that still passes the limit, naming
/// the statement; when later lines took the nodes apart (into groups, rank sets) it reads
/// the text again, making every edge, and the layout keeps its own count.
struct BendPointFloor {
    /// A noted statement: the nodes both its operands name, in the reader's numbering.
    struct Clique {
        var members: [Int]
        var pairEdges: Int
        var line: Int
        var column: Int
    }

    private(set) var cliques: [Clique] = []
    /// The edges of the noted statements, not made.
    private(set) var skippedEdges = 0

    var isEmpty: Bool { cliques.isEmpty }

    /// `pairEdges` × C(k, 3), saturating.
    static func bound(nodes k: Int, pairEdges: Int) -> Int {
        guard k >= 3 else { return 0 }
        // C(k, 3) = k (k - 1) (k - 2) / 6, divided as it goes so that it stays exact
        let (pairs, o0) = k.multipliedReportingOverflow(by: k - 1)
        let (a, o1) = (pairs / 2).multipliedReportingOverflow(by: k - 2)
        let (b, o2) = (a / 3).multipliedReportingOverflow(by: pairEdges)
        return o0 || o1 || o2 ? .max : b
    }

    /// Notes a statement from `sources` to `targets` (node numbers; repeats allowed) that
    /// makes `edges` edges, each shared node pair getting `pairEdges` of them, when the
    /// bound of the nodes both name passes `limit`; true when noted (its edges are then not
    /// made).
    mutating func note(
        _ sources: [Int], _ targets: [Int], edges: Int, pairEdges: Int, limit: Int, line: Int, column: Int
    ) -> Bool {
        // at most as many shared nodes as the smaller operand names
        guard Self.bound(nodes: min(sources.count, targets.count), pairEdges: pairEdges) > limit else { return false }
        let named = Set(sources)
        var seen = Set<Int>()
        let shared = targets.filter { named.contains($0) && seen.insert($0).inserted }
        guard Self.bound(nodes: shared.count, pairEdges: pairEdges) > limit else { return false }
        cliques.append(Clique(members: shared, pairEdges: pairEdges, line: line, column: column))
        skippedEdges += edges
        return true
    }

    /// The refusal: the noted statement whose nodes, as they stand at the end, still need
    /// the most bend points past `limit`; nil when none does. `container` gives a node's
    /// container (nil: the top level); `counts` whether a node is laid out as a plain node.
    func refusal<Container: Hashable>(
        limit: Int, container: (Int) -> Container?, counts: (Int) -> Bool
    ) -> FlowError? {
        var worst: (bound: Int, nodes: Int, clique: Clique)?
        for c in cliques {
            var byContainer: [Container?: Int] = [:]
            for m in c.members where counts(m) { byContainer[container(m), default: 0] += 1 }
            guard let k = byContainer.values.max() else { continue }
            let b = Self.bound(nodes: k, pairEdges: c.pairEdges)
            if b > limit && b > (worst?.bound ?? 0) { worst = (b, k, c) }
        }
        guard let worst else { return nil }
        let (b, k, c) = worst
        let needs = b == .max ? "more than \(LayoutLimits.grouped(.max))" : "at least \(LayoutLimits.grouped(b))"
        return FlowError(
            .invalidValue, operation: "layout",
            message: "the graph needs \(needs) bend points (the layers its edges cross): the statement at line "
                + "\(c.line), column \(c.column) joins \(LayoutLimits.grouped(k)) nodes each to each, so no two "
                + "share a layer; the limit is \(LayoutLimits.grouped(limit))")
    }
}
