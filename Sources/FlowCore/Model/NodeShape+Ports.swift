// Ports on a node's outline: where several edges meet one side of a node, a layout gives
// each its own point on that side (docs/layout.md, "Ports"), and an edge whose first (last)
// point lies there attaches at it (docs/store.md, "Where an edge attaches").

extension NodeShape {
    /// Whether the outline is curved or slanted where the handles sit: ports on these lie
    /// on the outline, off the frame's border.
    var portsFollowOutline: Bool {
        switch self {
        case .ellipse, .circle, .doublecircle, .diamond, .mdiamond: return true
        default: return polygon(in: Rect(0, 0, 1, 1)) != nil
        }
    }

    /// The circle, diamond or polygon whose outline the ports of this shape follow.
    private var outlineKind: NodeShape {
        switch self {
        case .doublecircle: return .circle
        case .mdiamond: return .diamond
        default: return self
        }
    }

    /// The point of the outline in `f` on `side`, `offset` along the side from its middle
    /// (left to right, top to bottom): on the frame's border for the shapes with straight
    /// sides, on the curve or slant for ellipses, circles and diamonds.
    public func portPoint(_ side: HandlePosition, offset: Double, in f: Rect) -> Point {
        let horizontal = side == .top || side == .bottom
        let middle = side.point(in: f)
        let along = horizontal ? Point(1, 0) : Point(0, 1)
        guard portsFollowOutline, side != .center else { return middle + along * offset }
        let c = HandlePosition.center.point(in: f)
        if let corners = polygon(in: f) {
            return Self.exit(from: c + along * offset, side.direction, corners)
        }
        let kind = outlineKind
        var (ra, rb) = horizontal ? (f.width / 2, f.height / 2) : (f.height / 2, f.width / 2)
        if kind == .circle { ra = NodeShape.diameter(in: f) / 2; rb = ra }
        let u = min(max(offset / max(ra, 1e-12), -1), 1)
        // how far out from the centre, across the side, the outline lies at u
        let out = kind == .diamond ? rb * (1 - abs(u)) : rb * (1 - u * u).squareRoot()
        let outward = side.direction
        return c + along * (u * ra) + outward * out
    }

    /// The side of the outline in `f` that `p` lies on (to within rounding), or nil: the
    /// frame's border for shapes with straight sides (`EdgeEnds.side(of:on:)`), the curve or
    /// slant for ellipses, circles and diamonds, each quarter of it the side it faces.
    public func portSide(of p: Point, in f: Rect) -> HandlePosition? {
        guard portsFollowOutline else { return EdgeEnds.side(of: p, on: f) }
        let c = HandlePosition.center.point(in: f)
        let kind = outlineKind
        var (rx, ry) = (f.width / 2, f.height / 2)
        if kind == .circle { rx = NodeShape.diameter(in: f) / 2; ry = rx }
        guard rx > 0, ry > 0 else { return nil }
        let dx = (p.x - c.x) / rx, dy = (p.y - c.y) / ry
        if let corners = polygon(in: f) {
            guard Self.onBorder(p, corners) else { return nil }
            if abs(dy) >= abs(dx) { return dy < 0 ? .top : .bottom }
            return dx < 0 ? .left : .right
        }
        let level = kind == .diamond ? abs(dx) + abs(dy) : (dx * dx + dy * dy).squareRoot()
        guard abs(level - 1) <= 1e-9 * max(1, abs(p.x), abs(p.y)) else { return nil }
        if abs(dy) >= abs(dx) { return dy < 0 ? .top : .bottom }
        return dx < 0 ? .left : .right
    }
}
