/// Layout of the minimap overlay (store-semantics §9): where the world, every node and the
/// visible part of the canvas are drawn inside a `size` rectangle, and how a click there
/// pans the view.
public struct MiniMapGeometry: Hashable, Sendable {
    /// A node to draw: its frame and whether it is highlighted as selected.
    public struct Node: Hashable, Sendable {
        public var frame: Rect
        public var isSelected: Bool

        public init(frame: Rect, isSelected: Bool = false) {
            self.frame = frame
            self.isSelected = isSelected
        }
    }

    /// The default minimap size.
    public static let defaultSize = Size(200, 150)

    /// Size of the minimap.
    public let size: Size
    public let viewport: Viewport
    public let canvasSize: Size
    /// The canvas area shown: all nodes grown by 50, or without nodes the visible canvas
    /// grown by its own size on every side.
    public let worldBounds: Rect
    /// Minimap units per canvas unit.
    public let scale: Double
    /// Minimap point where `worldBounds.min` is drawn (the world is centred).
    public let contentOrigin: Point
    /// The nodes in draw order, frames in minimap coordinates (at least 2×2).
    public let nodes: [Node]
    /// The visible canvas rectangle in minimap coordinates.
    public let viewportRect: Rect

    /// - Parameters:
    ///   - nodes: node frames (canvas) and selection flags, in draw order.
    ///   - viewport: the current viewport.
    ///   - canvasSize: size of the visible canvas (screen).
    ///   - size: size of the minimap.
    public init(nodes: [Node], viewport: Viewport, canvasSize: Size, size: Size = defaultSize) {
        self.size = size
        self.viewport = viewport
        self.canvasSize = canvasSize
        let visible = Rect(
            corner: viewport.screenToCanvas(.zero),
            corner: viewport.screenToCanvas(Point(canvasSize.width, canvasSize.height)))
        let world: Rect
        if let first = nodes.first {
            let union = nodes.dropFirst().reduce(first.frame.standardized) { $0.union($1.frame) }
            world = union.insetBy(dx: -50, dy: -50)
        } else {
            world = visible.insetBy(dx: -visible.width, dy: -visible.height)
        }
        let scale = min(size.width / max(world.width, 1), size.height / max(world.height, 1))
        let origin = Point(
            (size.width - world.width * scale) / 2, (size.height - world.height * scale) / 2)
        let worldMin = Point(world.minX, world.minY)
        worldBounds = world
        self.scale = scale
        contentOrigin = origin
        viewportRect = Rect(
            origin: origin + (visible.origin - worldMin) * scale,
            size: Size(visible.width * scale, visible.height * scale))
        self.nodes = nodes.map { node in
            let frame = node.frame.standardized
            let width = max(frame.width * scale, 2)
            let height = max(frame.height * scale, 2)
            let center = origin + (frame.center - worldMin) * scale
            return Node(
                frame: Rect(center.x - width / 2, center.y - height / 2, width, height),
                isSelected: node.isSelected)
        }
    }

    /// The minimap point where canvas point `p` is drawn.
    public func miniMapPoint(forCanvasPoint p: Point) -> Point {
        contentOrigin + (p - Point(worldBounds.minX, worldBounds.minY)) * scale
    }

    /// The canvas point drawn at minimap point `m`.
    public func canvasPoint(forMiniMapPoint m: Point) -> Point {
        (m - contentOrigin) / scale + Point(worldBounds.minX, worldBounds.minY)
    }

    /// The screen delta to pass to `pan(by:)` so that the canvas point under minimap point
    /// `m` becomes the centre of the view.
    public func panDelta(forMiniMapPoint m: Point) -> Point {
        let target = canvasPoint(forMiniMapPoint: m)
        let center = viewport.screenToCanvas(Point(canvasSize.width / 2, canvasSize.height / 2))
        return (target - center) * -viewport.zoom
    }
}
