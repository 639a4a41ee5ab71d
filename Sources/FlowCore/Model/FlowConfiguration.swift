/// How edges are stroked (colours as `#rrggbb` or `#rrggbbaa` hex strings).
public struct EdgeStyle: Hashable, Sendable {
    public var strokeColor = "#808080"
    public var selectedStrokeColor = "#007aff"
    public var lineWidth = 1.5
    public var selectedLineWidth = 2.5
    public var dashPattern: [Double] = []
    public var animatedDashPattern: [Double] = [5, 5]
    public init() {}
}

/// The canvas background (rendering only).
public struct BackgroundStyle: Hashable, Sendable {
    public var pattern: BackgroundPattern = .none
    public var color = "#80808033"
    public var spacing = 20.0
    public var lineWidth = 0.5
    public var dotRadius = 1.5
    public init() {}
}

/// Store configuration (store-semantics §2, lua-api §1). The zoom limits are clamped every
/// time the configuration is set (D12): `minZoom >= 0.01`, `maxZoom >= minZoom`.
public struct FlowConfiguration: Hashable, Sendable {
    public var defaultEdgePathType: EdgePathType = .bezier
    public var edgeStyle = EdgeStyle()
    public var backgroundStyle = BackgroundStyle()
    public var snapToGrid = false
    public var gridSize = 20.0
    public var minZoom = 0.1 { didSet { clampZoomLimits() } }
    public var maxZoom = 4.0 { didSet { clampZoomLimits() } }
    public var panEnabled = true
    public var zoomEnabled = true
    public var selectionEnabled = true
    public var multiSelectionEnabled = true
    /// Radius of the default point area that starts a connection (D8).
    public var handleHitRadius = 25.0
    /// Radius of the default point area that accepts a connection (D8).
    public var connectionRadius = 40.0
    /// Distance from an edge path within which it is hit (D8).
    public var edgeHitTolerance = 5.0
    /// Whether an edge end at one of the default handles (`"source"`, `"target"`) of a node
    /// that has the default handles attaches on the side facing the other end's node, as
    /// the handle id `"auto"` does (docs/routing.md, "Auto handles").
    public var autoHandles = false

    public init() {}

    private mutating func clampZoomLimits() {
        let lo = min(max(minZoom.isNaN ? 0.01 : minZoom, 0.01), FlowLimits.maximumZoom)
        let hi = min(max(maxZoom.isNaN ? lo : maxZoom, lo), FlowLimits.maximumZoom)
        if lo != minZoom { minZoom = lo }
        if hi != maxZoom { maxZoom = hi }
    }

    /// `round_half_away(v / gridSize) * gridSize` per coordinate when snapping is on; never
    /// yields `-0.0` (D17).
    public func snapped(_ p: Point) -> Point {
        guard snapToGrid, gridSize > 0 else { return p }
        return Self.snap(p, gridSize)
    }

    /// `p` rounded to the nearest multiple of `grid` (half away from zero, never -0).
    static func snap(_ p: Point, _ grid: Double) -> Point {
        func snap(_ v: Double) -> Double {
            let r = (v / grid).rounded(.toNearestOrAwayFromZero) * grid
            guard r.isFinite else { return v }  // a grid too fine for v: v is on it
            return r == 0 ? 0 : r
        }
        return Point(snap(p.x), snap(p.y))
    }

    /// Clamps a zoom value to the limits.
    public func clampZoom(_ z: Double) -> Double { min(max(z, minZoom), maxZoom) }
}
