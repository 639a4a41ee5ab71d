import FlowCore

/// The graph a layout works on: nodes with sizes, directed edges between them by index.
/// It knows nothing of the store; `FlowStore.layout` builds one from the diagram.
public struct LayoutGraph: Sendable {
    public struct Node: Sendable {
        public var width: Double
        public var height: Double
        /// Keeps the node on the first or last layer of its part (a group's border, where
        /// edges from outside enter and leave).
        public var layer: LayerConstraint
        /// Where a node held to the first or last layer goes in it: the nodes of such a
        /// layer, when every one has a key, keep the order of their keys.
        public var orderKey: Double?
        /// Orders nodes with equal keys (then their index does).
        public var orderTie: Double
        /// Where the node's centre was (in the frame the result's positions are in), for a
        /// stable layout (`LayoutOptions.stable`); nil for a node new since then.
        public var previous: Point?
        /// How strongly a stable layout holds the node at `previous`: 1 normally, more for a
        /// node that should move only to make room (`LayoutRequest.nodes` with `stable`).
        public var hold: Int
        /// The innermost cluster (`LayoutGraph.clusters`) that holds the node, or -1.
        public var cluster: Int

        public init(
            width: Double, height: Double, layer: LayerConstraint = .free, orderKey: Double? = nil, orderTie: Double = 0,
            previous: Point? = nil, hold: Int = 1, cluster: Int = -1
        ) {
            self.cluster = cluster
            self.width = width
            self.height = height
            self.layer = layer
            self.orderKey = orderKey
            self.orderTie = orderTie
            self.previous = previous
            self.hold = hold
        }
    }

    public enum LayerConstraint: Sendable, Hashable {
        case free, first, last
    }

    public struct Edge: Sendable {
        public var source: Int
        public var target: Int
        /// Where the edge leaves its source across the node's breadth, as a fraction from
        /// -0.5 (the start of the side facing the next layer) to 0.5; 0 is the middle.
        /// Crossing reduction orders edges at a node by it.
        public var sourcePort: Double
        /// The same for the target.
        public var targetPort: Double
        /// The size of the edge's label (zero for none): a labelled edge spans at least two
        /// layers and its label gets a place of that size on the layer in between.
        public var labelSize: Size
        /// How the edge will be drawn through its bend points, which shapes its route (see
        /// `runsStraight` and `bendsWhenFlat`).
        public var pathType: EdgePathType
        /// The fewest layers the edge spans (DOT's `minlen`; 0: its ends may share a layer).
        /// A labelled edge spans one more, for the layer of its label, unless this is 0.
        public var minLength: Int
        /// Whether the edge takes part in layering (DOT's `constraint`): without, it is
        /// drawn between the layers its ends get from the other edges, down or up or along
        /// one layer, and breaks no cycle.
        public var constraint: Bool
        /// How much keeping the edge short and straight counts (DOT's `weight`, 0 or more):
        /// its weight in the layering and in the coordinates along the layers. 0: none,
        /// though it still keeps `minLength`.
        public var weight: Int
        /// The edge's bend points as the last layout drew them (in the frame of the nodes'
        /// `previous` centres), for a stable layout: its long edges' bends start where the
        /// edge ran. Nil for an edge new since then.
        public var previousRoute: [Point]? = nil

        public init(
            source: Int, target: Int, sourcePort: Double = 0, targetPort: Double = 0,
            labelSize: Size = Size(0, 0), pathType: EdgePathType = .straight, minLength: Int = 1, constraint: Bool = true,
            weight: Int = 1
        ) {
            self.minLength = minLength
            self.constraint = constraint
            self.weight = weight
            self.source = source
            self.target = target
            self.sourcePort = sourcePort
            self.targetPort = targetPort
            self.labelSize = labelSize
            self.pathType = pathType
        }

        var hasLabel: Bool { labelSize.width > 0 && labelSize.height > 0 }
        /// Whether a long edge may run across its layers on the shortest way between its
        /// ends; edges drawn with orthogonal steps keep one line per dummy instead.
        var runsStraight: Bool { pathType != .smoothStep && pathType != .orthogonal }
        /// Whether the edge is drawn with the plain Bézier curve, whose control points reach
        /// out along the handle sides by a share of the edge's whole length: between
        /// neighbouring layers such an edge that runs far sideways gets one bend point in its
        /// middle, so it is drawn as the curve through points, which does not bulge.
        var bendsWhenFlat: Bool { pathType == .bezier }
    }

    /// A box drawn around some nodes (a group): laid out with the rest of the graph, its
    /// nodes side by side with the others in their layers, and the box kept clear of every
    /// node it does not hold (`LayeredLayout`, `ClusterLayout`).
    public struct Cluster: Sendable {
        /// The cluster that holds this one, or -1.
        public var parent: Int
        /// Free space between the box and what it holds.
        public var padding: Double
        /// Extra room at the top of the box (on the canvas) for its title.
        public var title: Double

        public init(parent: Int = -1, padding: Double = 20, title: Double = 0) {
            self.parent = parent
            self.padding = padding
            self.title = title
        }
    }

    /// A rank constraint (`FlowCore.RankSet`) over nodes by index: `same` nodes share a
    /// layer; `min` (`source`) nodes go on the first layer (alone there), `max` (`sink`)
    /// on the last. Nodes of one constraint in different connected parts join the parts.
    public struct RankConstraint: Sendable, Equatable {
        public var kind: RankSet.Kind
        public var nodes: [Int]

        public init(_ kind: RankSet.Kind, _ nodes: [Int]) {
            self.kind = kind
            self.nodes = nodes
        }
    }

    public var nodes: [Node]
    public var edges: [Edge]
    /// Clusters, each after the one that holds it (`Cluster.parent` < its index).
    public var clusters: [Cluster]
    /// Rank constraints of the layered layout (`RankConstraint`), honoured as dot does.
    public var ranks: [RankConstraint]

    public init(nodes: [Node] = [], edges: [Edge] = [], clusters: [Cluster] = [], ranks: [RankConstraint] = []) {
        self.nodes = nodes
        self.edges = edges
        self.clusters = clusters
        self.ranks = ranks
    }
}

/// Where the layers go: `TB` top to bottom (the default), `BT`, `LR`, `RL`.
public enum LayoutDirection: String, Sendable, CaseIterable {
    case TB, BT, LR, RL

    /// Whether layers are columns (LR, RL) instead of rows.
    public var isHorizontal: Bool { self == .LR || self == .RL }
}

/// How long crossing reduction searches for a better order. `normal` fits the search to
/// the graph's size so a thousand nodes take a few tens of milliseconds; `thorough`
/// searches every graph much longer (seconds on a thousand nodes) for fewer crossings.
/// Either way the result depends on the input alone.
public enum LayoutEffort: String, Sendable, CaseIterable {
    case normal, thorough
}

/// Spacing, direction and effort of a layout.
public struct LayoutOptions: Sendable, Equatable {
    public var direction: LayoutDirection
    /// Free space between neighbours within a layer.
    public var nodeSpacing: Double
    /// Free space between two layers.
    public var layerSpacing: Double
    /// Layers' centres equally spaced (DOT's `ranksep=equally`): every step between
    /// neighbouring layers of a connected part as long as its longest. The layered
    /// algorithm only.
    public var equalLayerSpacing: Bool
    /// Free space between disconnected parts laid side by side.
    public var componentSpacing: Double
    /// Free space between two edges passing side by side through a layer.
    public var edgeSpacing: Double
    /// How long the layered layout searches for fewer crossings (trees have none to find).
    public var effort: LayoutEffort
    /// Keep the mental map: nodes with a `previous` centre keep their layer and their order
    /// in it and stay near where they were; the others are fitted in (`StableLayout`).
    /// The layered algorithm only; trees are laid out the same either way.
    public var stable: Bool
    /// Wanted width / height of the picture: a long layout is cut between layers into parts
    /// laid side by side (`LayoutWrap`) when that comes nearer this ratio. Nil: one part.
    /// The layered algorithm, laying out every node, only.
    public var aspectRatio: Double?

    /// The least gap between layers in which the plain Bézier curve between neighbouring
    /// layers (control points at least 50 out along the handle sides, store-semantics §8)
    /// does not turn back against the flow in its middle: the default `layerSpacing`, and
    /// the least a DOT file's `ranksep` is drawn with.
    public static let curveLayerSpacing = 50.0

    public init(
        direction: LayoutDirection = .TB, nodeSpacing: Double = 24, layerSpacing: Double = curveLayerSpacing,
        componentSpacing: Double = 40, edgeSpacing: Double? = nil, effort: LayoutEffort = .normal,
        stable: Bool = false, aspectRatio: Double? = nil, equalLayerSpacing: Bool = false
    ) {
        self.equalLayerSpacing = equalLayerSpacing
        self.aspectRatio = aspectRatio
        self.direction = direction
        self.effort = effort
        self.stable = stable
        self.nodeSpacing = nodeSpacing
        self.layerSpacing = layerSpacing
        self.componentSpacing = componentSpacing
        self.edgeSpacing = edgeSpacing ?? nodeSpacing / 2
    }
}

/// What a layout computed: every node's top-left corner, every edge's bend points (the
/// route between its two ends, in drawing order from source to target), and numbers.
public struct LayoutResult: Sendable {
    public var positions: [Point]
    public var edgePoints: [[Point]]
    /// Where each edge's label goes (its centre), when the edge has a label and runs with
    /// the flow: an edge drawn against the flow gets no room for its label in the layers
    /// (nil here), since a back edge's route is meant to run beside the nodes, with its
    /// label along that route.
    public var labelPositions: [Point?]
    /// Whether each edge is drawn against the layer direction (to break a cycle).
    public var reversed: [Bool]
    /// How many edges are.
    public var reversedEdges: Int
    /// Layers of the tallest component (1 for a graph without edges).
    public var layers: Int
    /// Crossings between edges passing between neighbouring layers, as ordered.
    public var crossings: Int
    public var width: Double
    public var height: Double
    /// The box of each cluster (`LayoutGraph.clusters`), in the frame of `positions`.
    public var clusterFrames: [Rect]

    public init(nodeCount: Int, edgeCount: Int, clusterCount: Int = 0) {
        clusterFrames = Array(repeating: .zero, count: clusterCount)
        positions = Array(repeating: Point(0, 0), count: nodeCount)
        edgePoints = Array(repeating: [], count: edgeCount)
        labelPositions = Array(repeating: nil, count: edgeCount)
        reversed = Array(repeating: false, count: edgeCount)
        reversedEdges = 0
        layers = 0
        crossings = 0
        width = 0
        height = 0
    }
}
