import FlowCore

/// A Graphviz polygon that no shape of the store draws as it is (more than 8 sides, a skew or
/// distortion past 4 sides, a rotation, extra outlines): stored in the node's data as
/// `polygon` (`json`) and drawn from it, the node's shape kept as the nearest one for edges
/// to end on (docs/formats.md, "Polygons").
struct DOTPolygon: Equatable {
    /// 0 for an ellipse (what Graphviz draws for fewer than 3 sides).
    var sides = 4
    /// Degrees, clockwise; 0 puts a side at the bottom.
    var orientation = 0.0
    var skew = 0.0, distortion = 0.0
    var peripheries = 1
    var regular = false

    /// The most sides (outlines) drawn.
    static let maximumSides = 100
    static let maximumPeripheries = 16

    /// Graphviz's polygon shapes by name, as polygons.
    static let named: [String: DOTPolygon] = [
        "box": DOTPolygon(), "rect": DOTPolygon(), "rectangle": DOTPolygon(), "square": DOTPolygon(),
        "polygon": DOTPolygon(), "ellipse": DOTPolygon(sides: 0), "oval": DOTPolygon(sides: 0),
        "triangle": DOTPolygon(sides: 3), "invtriangle": DOTPolygon(sides: 3, orientation: 180),
        "diamond": DOTPolygon(orientation: 45), "pentagon": DOTPolygon(sides: 5),
        "hexagon": DOTPolygon(sides: 6), "septagon": DOTPolygon(sides: 7), "octagon": DOTPolygon(sides: 8),
        "trapezium": DOTPolygon(distortion: -0.4), "invtrapezium": DOTPolygon(orientation: 180, distortion: -0.4),
        "parallelogram": DOTPolygon(skew: 0.6),
    ]

    /// Whether a rotation by `orientation` leaves the polygon as it was (a multiple of its
    /// symmetry when it has neither skew nor distortion).
    var isUnrotated: Bool {
        let step = skew == 0 && distortion == 0 ? 360 / Double(max(sides, 1)) : 360
        let r = orientation.truncatingRemainder(dividingBy: step)
        return abs(r) < 1e-9 || abs(abs(r) - step) < 1e-9
    }

    var json: JSONValue {
        var o = JSONObject([("sides", .number(Double(sides)))])
        func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        if orientation != 0 { o["orientation"] = .number(round(orientation)) }
        if skew != 0 { o["skew"] = .number(round(skew)) }
        if distortion != 0 { o["distortion"] = .number(round(distortion)) }
        if peripheries != 1 { o["peripheries"] = .number(Double(peripheries)) }
        if regular { o["regular"] = .bool(true) }
        return .object(o)
    }
}
