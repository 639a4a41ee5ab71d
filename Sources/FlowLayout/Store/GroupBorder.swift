import FlowCore

/// A border node of a group's layout: where edges between a node inside the group and
/// nodes outside leave the group (on the group graph's last layer) or enter it (its first).
/// `LayoutPlan` orders each group's border nodes by where the nodes at the edges' other ends
/// lie (their mean), which it learns from a pass over all groups, so it lays the groups out
/// again until those orders settle.
struct GroupBorder {
    /// The group (the store index of its node; -1 for the top level) and the border node
    /// in that group's graph.
    var level: Int
    var node: Int
    /// On the last layer (an edge leaving the group) or the first.
    var last: Bool
    /// The store nodes at the other ends of the edges through it, and the node at their
    /// end inside the group (which orders border nodes with the same partners).
    var partners: [Int]
    var inner: Int

    /// What edges share a border node: one group, one side, one node inside (the end
    /// node, or the subgroup the edges come from) and one handle of it; `edge` is the
    /// edge's index for an edge that shares with none.
    struct Key: Hashable {
        var level: Int
        var inner: Int
        var last: Bool
        var handle: String?
        var edge: Int?
    }

    /// Whether edges of a path type share border nodes: stepped edges do (they join in
    /// one run, as they end in one), curves and lines do not (they fan out from their
    /// handle, and a shared run would hide one under the other).
    static func shares(_ type: EdgePathType) -> Bool { type == .smoothStep || type == .orthogonal }

    /// Most layout passes over the groups.
    static let maximumPasses = 4

    /// The border nodes of each group's first and last layer in the order their keys give
    /// (by key, tie, node), one list per group and side; the same lists lay the groups out
    /// the same way.
    static func order(_ borders: [GroupBorder], _ keys: [(key: Double, tie: Double)]) -> [[Int]] {
        var sides: [Int: [Int]] = [:]  // indices into `borders` by group and side
        for (i, b) in borders.enumerated() { sides[2 * b.level + (b.last ? 1 : 0), default: []].append(i) }
        return sides.keys.sorted().map { side in
            sides[side]!.sorted { i, j in
                (keys[i].key, keys[i].tie, borders[i].node) < (keys[j].key, keys[j].tie, borders[j].node)
            }.map { borders[$0].node }
        }
    }
}
