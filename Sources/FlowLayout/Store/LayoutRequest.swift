import FlowCore

/// Which layout to run.
public enum LayoutAlgorithm: String, Sendable, CaseIterable {
    /// Layers in the flow's direction (Sugiyama); any graph.
    case layered
    /// A tidy tree: parents centred over their children; forests only.
    case tree
}

/// What `FlowStore.layout` should do: the algorithm, spacing and direction, which nodes to
/// place, and which to leave where they are.
public struct LayoutRequest: Sendable {
    public var algorithm: LayoutAlgorithm
    public var options: LayoutOptions
    /// The nodes to lay out (with their descendants); nil: every node. With
    /// `options.stable`, every node is laid out and these are fitted in as new among the
    /// rest, which keeps its places and moves only where they need room.
    public var nodes: [String]?
    /// Lay out the descendants of this group inside it and resize it to fit.
    public var group: String?
    /// Nodes that keep their positions (with their descendants); the laid-out nodes are
    /// placed around them. So does every node whose data `isPinned` (JSON `pinned = true`).
    public var pinned: Set<String>
    /// For a stable layout (`options.stable`): the nodes whose positions count as places to
    /// keep; the others are new and fitted in. Nil: the store decides (`FlowStore.layout`:
    /// the nodes it held at its last layout, or, before any, those whose box overlaps no
    /// earlier node's in their container).
    public var placed: Set<String>?
    /// Rank constraints for the layered layout, honoured with the diagram's own
    /// (`DiagramLook.ranks`); an unknown id throws. Constraints apply among the nodes laid
    /// out together: the members of one group (or, with groups laid out as clusters, all).
    public var ranks: [RankSet]
    /// How single edges take part in the layered layout's layering (`EdgeRank`: DOT's
    /// `minlen` and `constraint`), over the diagram's own (`DiagramLook.edgeRanks`); an
    /// unknown id throws. The last one given for an edge wins.
    public var edgeRanks: [EdgeRank]
    /// Free space between a group's border and its children.
    public var groupPadding: Double
    /// Extra room at the top of a group for its title.
    public var groupTitleHeight: Double
    /// Most bend points the layered layout's routes may hold together (`LayoutLimits`;
    /// docs/layout.md, "Limits"): past it the layout fails naming the limit.
    public var maximumBendPoints = LayoutLimits.defaultBendPoints

    public init(
        algorithm: LayoutAlgorithm = .layered, options: LayoutOptions = LayoutOptions(),
        nodes: [String]? = nil, group: String? = nil, pinned: Set<String> = [], placed: Set<String>? = nil,
        groupPadding: Double = 20, groupTitleHeight: Double = 24, ranks: [RankSet] = [],
        edgeRanks: [EdgeRank] = []
    ) {
        self.ranks = ranks
        self.edgeRanks = edgeRanks
        self.placed = placed
        self.algorithm = algorithm
        self.options = options
        self.nodes = nodes
        self.group = group
        self.pinned = pinned
        self.groupPadding = groupPadding
        self.groupTitleHeight = groupTitleHeight
    }
}

/// What a layout did.
public struct LayoutStats: Sendable, Equatable {
    /// Nodes placed (groups included).
    public var nodes: Int
    /// Edges given routes.
    public var edges: Int
    /// Crossings between edges of neighbouring layers, summed over every level of groups.
    public var crossings: Int
    /// Layers of the top level.
    public var layers: Int
    /// Edges drawn against the layer direction to break cycles.
    public var reversedEdges: Int
    /// Size of the laid-out nodes' bounding box.
    public var width: Double
    public var height: Double

    public init() {
        nodes = 0
        edges = 0
        crossings = 0
        layers = 0
        reversedEdges = 0
        width = 0
        height = 0
    }
}
