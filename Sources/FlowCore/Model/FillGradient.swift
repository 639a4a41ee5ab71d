/// A fill that blends two colours (DOT's `fillcolor="red:blue"`, `style=radial`,
/// `gradientangle`): linear across the shape's box at `angle`, or radial from its middle
/// (or from the point of its box the angle names) out. Kept as JSON in a node's or group's
/// data (`"gradient"`) and in the diagram's look (`backgroundGradient`); the picture draws
/// it as an SVG `linearGradient` or `radialGradient` (docs/formats.md, "Gradients").
public struct FillGradient: Hashable, Sendable {
    public var from: FlowColor
    public var to: FlowColor
    /// Where the first colour stops and the second starts, a fraction of the way (DOT's
    /// `red;0.3:blue`): a hard edge there; nil: the colours blend all the way.
    public var split: Double?
    public var radial: Bool
    /// Degrees counter-clockwise from the positive x axis (0 to 360): the direction of a
    /// linear blend, the side of a radial one's focus (0: its middle).
    public var angle: Double

    public init(from: FlowColor, to: FlowColor, split: Double? = nil, radial: Bool = false, angle: Double = 0) {
        self.from = from
        self.to = to
        self.split = split
        self.radial = radial
        self.angle = angle
    }

    /// `{"colors": [from, to], "split"?, "radial"?: true, "angle"?}`.
    public var jsonValue: JSONValue {
        var o: [(String, JSONValue)] = [("colors", .array([.string(from.description), .string(to.description)]))]
        if let s = split { o.append(("split", .number(s))) }
        if radial { o.append(("radial", .bool(true))) }
        if angle != 0 { o.append(("angle", .number(angle))) }
        return .object(JSONObject(o))
    }

    /// Reads `jsonValue`'s form; a value that is not one throws `invalidDocument` naming
    /// `path` and what was expected.
    public init(json v: JSONValue, operation: String, path: String) throws(FlowError) {
        func fail(_ message: String) -> FlowError { .invalidDocument(operation, "\(path): \(message)") }
        guard case .object(let o) = v else { throw fail("expected an object") }
        guard case .array(let list)? = o["colors"], list.count == 2,
            case .string(let a) = list[0], case .string(let b) = list[1],
            let from = FlowColor(a), let to = FlowColor(b)
        else { throw fail("colors: expected two colours (#rrggbb or #rrggbbaa)") }
        self.init(from: from, to: to)
        if let x = o["split"], x != .null {
            guard case .number(let s) = x, s >= 0, s <= 1 else { throw fail("split: expected a number from 0 to 1") }
            split = s
        }
        if let x = o["radial"], x != .null {
            guard case .bool(let r) = x else { throw fail("radial: expected a boolean") }
            radial = r
        }
        if let x = o["angle"], x != .null {
            guard case .number(let a) = x, a >= 0, a <= 360 else { throw fail("angle: expected a number from 0 to 360") }
            angle = a
        }
    }

    /// The gradient in `data` (a node's or group's: its `"gradient"`), nil when there is none
    /// or it is not one.
    public static func stored(in data: JSONValue) -> FillGradient? {
        guard case .object(let o) = data, let g = o["gradient"] else { return nil }
        return try? FillGradient(json: g, operation: "gradient", path: "gradient")
    }
}
