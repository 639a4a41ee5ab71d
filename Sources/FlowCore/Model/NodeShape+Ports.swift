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
        if self == .parallelogram && (side == .left || side == .right) {
            // on the slant: the left one runs from its top (skewed in) to its bottom
            let sk = Self.skew(in: f), h = max(f.height, 1e-12)
            let y = min(max(middle.y + offset, f.minY), f.maxY), t = (y - f.minY) / h
            return Point(side == .left ? f.minX + sk * (1 - t) : f.maxX - sk * t, y)
        }
        if self == .cylinder && (side == .top || side == .bottom) {
            // on the round of the cap
            let x = min(max(middle.x + offset, f.minX), f.maxX)
            let rise = cylinderRise(at: x, in: f)
            return Point(x, side == .top ? f.minY + rise : f.maxY - rise)
        }
        if let (c, r) = stadiumCap(side, in: f) {
            let u = min(max(offset, -r), r)
            return c + along * u + side.direction * (r * r - u * u).squareRoot()
        }
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
        if self == .stadium, let side = stadiumCapSide(of: p, in: f) { return side }
        if self == .cylinder, p.x >= f.minX, p.x <= f.maxX {
            let rise = cylinderRise(at: p.x, in: f), tolerance = 1e-9 * max(1, abs(p.y))
            if abs(p.y - (f.minY + rise)) <= tolerance { return .top }
            if abs(p.y - (f.maxY - rise)) <= tolerance { return .bottom }
        }
        if self == .parallelogram, f.height > 0, p.y >= f.minY, p.y <= f.maxY {
            let sk = Self.skew(in: f), t = (p.y - f.minY) / f.height
            let tolerance = 1e-9 * max(1, abs(p.x))
            if abs(p.x - (f.minX + sk * (1 - t))) <= tolerance { return .left }
            if abs(p.x - (f.maxX - sk * t)) <= tolerance { return .right }
        }
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

extension NodeShape {
    /// For a stadium, the centre and radius of the round cap on `side` (its short sides:
    /// left and right of a wide one), or nil.
    public func stadiumCap(_ side: HandlePosition, in f: Rect) -> (centre: Point, radius: Double)? {
        guard self == .stadium, side != .center else { return nil }
        let wide = f.width >= f.height
        guard wide == (side == .left || side == .right) else { return nil }
        let r = min(f.width, f.height) / 2
        return (HandlePosition.center.point(in: f) + side.direction * ((wide ? f.width : f.height) / 2 - r), r)
    }

    /// How far below the frame's top (above its bottom) a cylinder's cap lies at `x`.
    private func cylinderRise(at x: Double, in f: Rect) -> Double {
        let hw = f.width / 2, u = hw > 0 ? (x - f.midX) / hw : 0
        return Self.cylinderCap(in: f) * (1 - max(0, 1 - u * u).squareRoot())
    }

    /// The cap side of a stadium that `p` lies on the round of (to within rounding), or nil.
    private func stadiumCapSide(of p: Point, in f: Rect) -> HandlePosition? {
        for side in [HandlePosition.left, .right, .top, .bottom] {
            guard let (c, r) = stadiumCap(side, in: f), r > 0 else { continue }
            let d = p - c
            let outward = d.x * side.direction.x + d.y * side.direction.y
            guard outward > 1e-9 else { continue }
            if abs((d.x * d.x + d.y * d.y).squareRoot() - r) <= 1e-9 * max(1, abs(p.x), abs(p.y)) { return side }
        }
        return nil
    }
}
