/// How nodes, edges and groups look in a picture: shapes, colours, strokes, text and
/// arrowheads, and the classes that share them (docs/rendering.md, "Styles and classes").
///
/// Every property of a `FlowStyle` is optional: an unset property comes from the element's
/// classes, else from the picture's theme. An element's own style wins over its classes,
/// classes listed later win over earlier ones, and classes win over the theme.

/// The outline a node is drawn with. Hit testing and handle positions follow it.
public enum NodeShape: String, Sendable, CaseIterable, FlowEnum {
    case rounded, rectangle, diamond, ellipse, circle, hexagon, parallelogram, cylinder, document, stadium, note,
        record, mrecord, doublecircle, triangle, invtriangle, house, invhouse, trapezium, invtrapezium,
        pentagon, septagon, octagon, doubleoctagon, tripleoctagon, plain, msquare, mdiamond, box3d,
        component, tab, folder, subroutine, asymmetric
    public static var valueName: String { "shape" }
}

/// What is drawn at an end of an edge.
public enum ArrowHead: String, Sendable, CaseIterable, FlowEnum {
    case none, arrow, open, diamond, circle
    /// Outlined: a triangle, a diamond, a circle (Graphviz `onormal`, `odiamond`, `odot`;
    /// Mermaid's `--o`), a square, a triangle pointing back.
    case hollowArrow, hollowDiamond, hollowCircle, hollowBox, hollowInv
    /// A triangle pointing back at the line (`inv`), a filled chevron (`vee`), a bar across
    /// the line (`tee`), a crow's foot (`crow`), a filled square (`box`), an X (`cross`,
    /// Mermaid's `--x`).
    case inv, vee, tee, crow, box, cross
    public static var valueName: String { "arrowhead" }
}

/// A colour written `#rrggbb` or `#rrggbbaa` (alpha last).
public struct FlowColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#rrggbb` or `#rrggbbaa` (either case); nil for anything else.
    public init?(_ text: String) {
        let u = Array(text.utf8)
        guard u.count == 7 || u.count == 9, u[0] == UInt8(ascii: "#") else { return nil }
        var bytes: [UInt8] = []
        var i = 1
        while i < u.count {
            guard let hi = Self.digit(u[i]), let lo = Self.digit(u[i + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
    }

    /// Parses a colour, or throws `invalidValue` under `operation` naming `field`:
    /// `addNode: style.fill: invalid colour 'blue' (expected #rrggbb or #rrggbbaa)`.
    public init(parsing text: String, field: String, operation: String) throws(FlowError) {
        guard let c = FlowColor(text) else {
            throw .invalidValue(operation, "\(field): invalid colour '\(text)' (expected #rrggbb or #rrggbbaa)")
        }
        self = c
    }

    private static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The six lowercase hex digits of red, green and blue.
    public var hex: String { Self.hexDigits([red, green, blue]) }

    /// The alpha as a fraction, 0...1.
    public var opacity: Double { Double(alpha) / 255 }

    /// `#rrggbb`, or `#rrggbbaa` when the colour is not opaque; lowercase.
    public var description: String {
        "#" + Self.hexDigits(alpha == 255 ? [red, green, blue] : [red, green, blue, alpha])
    }

    static func hexDigits(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The look of a node, an edge or a class. Unset (nil) properties are inherited: from the
/// element's classes, then from the theme.
public struct FlowStyle: Hashable, Sendable {
    /// Node: the inside of the shape. Edge: the label's box.
    public var fill: FlowColor?
    /// Node: the outline. Edge: the line and its arrowheads.
    public var stroke: FlowColor?
    /// Width of the outline or line, in canvas units (finite, not negative).
    public var strokeWidth: Double?
    /// Dash pattern of the outline or line (finite lengths, not negative); empty: solid.
    public var dash: [Double]?
    /// Opacity of the whole element, 0...1.
    public var opacity: Double?
    /// Colour of the title (node) or label (edge).
    public var textColor: FlowColor?
    /// Font size of the title or label, in canvas units (finite, positive).
    public var fontSize: Double?
    public var bold: Bool?
    public var italic: Bool?
    /// Nodes: the width at which the title of a node sized to its text wraps (finite,
    /// positive; default `TextLayout.defaultWrapWidth`).
    public var wrapWidth: Double?
    /// Edges: what is drawn where the edge leaves its source (default none).
    public var sourceArrow: ArrowHead?
    /// Edges: what is drawn where the edge reaches its target (default an arrow).
    public var targetArrow: ArrowHead?

    public init(
        fill: FlowColor? = nil, stroke: FlowColor? = nil, strokeWidth: Double? = nil,
        dash: [Double]? = nil, opacity: Double? = nil, textColor: FlowColor? = nil,
        fontSize: Double? = nil, bold: Bool? = nil, italic: Bool? = nil, wrapWidth: Double? = nil,
        sourceArrow: ArrowHead? = nil, targetArrow: ArrowHead? = nil
    ) {
        self.fill = fill
        self.stroke = stroke
        self.strokeWidth = strokeWidth
        self.dash = dash
        self.opacity = opacity
        self.textColor = textColor
        self.fontSize = fontSize
        self.bold = bold
        self.italic = italic
        self.wrapWidth = wrapWidth
        self.sourceArrow = sourceArrow
        self.targetArrow = targetArrow
    }

    /// Whether no property is set.
    @inline(__always)
    public var isEmpty: Bool {
        fill == nil && stroke == nil && strokeWidth == nil && dash == nil && opacity == nil && textColor == nil
            && fontSize == nil && bold == nil && italic == nil && wrapWidth == nil && sourceArrow == nil
            && targetArrow == nil
    }

    /// These properties with the ones `other` sets laid over them (`other` wins).
    public func merged(with other: FlowStyle) -> FlowStyle {
        var s = self
        if let v = other.fill { s.fill = v }
        if let v = other.stroke { s.stroke = v }
        if let v = other.strokeWidth { s.strokeWidth = v }
        if let v = other.dash { s.dash = v }
        if let v = other.opacity { s.opacity = v }
        if let v = other.textColor { s.textColor = v }
        if let v = other.fontSize { s.fontSize = v }
        if let v = other.bold { s.bold = v }
        if let v = other.italic { s.italic = v }
        if let v = other.wrapWidth { s.wrapWidth = v }
        if let v = other.sourceArrow { s.sourceArrow = v }
        if let v = other.targetArrow { s.targetArrow = v }
        return s
    }

    /// The font of the title or label.
    public var font: TextFont { TextFont(size: fontSize ?? TextFont.defaultSize, bold: bold ?? false) }

    /// Checks the numbers; throws `invalidValue` under `op` naming `path` and the property
    /// (`addNode: style.opacity must be a number from 0 to 1`).
    public func validate(_ op: String, _ path: String) throws(FlowError) {
        func fail(_ property: String, _ rule: String) -> FlowError {
            .invalidValue(op, "\(path).\(property) must be \(rule)")
        }
        if let v = strokeWidth, !(v.isFinite && v >= 0) { throw fail("strokeWidth", "a finite number that is not negative") }
        if let d = dash, d.contains(where: { !($0.isFinite && $0 >= 0) }) {
            throw fail("dash", "finite numbers that are not negative")
        }
        if let v = opacity, !(v >= 0 && v <= 1) { throw fail("opacity", "a number from 0 to 1") }
        if let v = fontSize, !(v > 0 && v <= FlowLimits.fontSize) {
            throw fail("fontSize", "a positive number up to \(formatNumber(FlowLimits.fontSize))")
        }
        if let v = wrapWidth, !(v.isFinite && v > 0) { throw fail("wrapWidth", "a finite positive number") }
    }
}

/// An entry of a store's style sheet (`FlowStore.classStyles`): what elements with the
/// class look like. `shape` applies to nodes only; the style to nodes and edges alike
/// (each reads the properties that apply to it).
public struct FlowClass: Hashable, Sendable {
    public var shape: NodeShape?
    public var style: FlowStyle

    public init(shape: NodeShape? = nil, style: FlowStyle = FlowStyle()) {
        self.shape = shape
        self.style = style
    }

    /// Class names are CSS identifiers (a letter or `_`, then letters, digits, `_` and `-`)
    /// that the pictures do not use themselves (`reservedNames`).
    public static func validateName(_ name: String, _ op: String, _ path: String) throws(FlowError) {
        let u = Array(name.utf8)
        func letter(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
        }
        func digitOrDash(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") }
        guard let first = u.first, letter(first), u.allSatisfy({ letter($0) || digitOrDash($0) }) else {
            throw .invalidValue(
                op,
                "\(path): invalid class name '\(name)' (expected a letter or '_', then letters, digits, '_' or '-')")
        }
        if reservedNames.contains(name) {
            throw .invalidValue(op, "\(path): the class name '\(name)' is reserved (the pictures use it)")
        }
    }

    /// The class names a picture gives its own elements.
    public static let reservedNames: Set<String> = [
        "animated", "bg", "drop", "draft", "edge", "group", "handle", "hovered", "invalid",
        "label", "label-text", "node", "selected", "shape", "source", "target", "title", "valid",
        "containers", "edges", "labels", "nodes",
    ]
}

/// Shape, classes and style of a node, kept out of line so that a node without any costs
/// one nil reference. Immutable: a node that changes them gets a new one.
final class NodeLook: Sendable {
    let shape: NodeShape?
    let classes: [String]
    let style: FlowStyle

    init(shape: NodeShape?, classes: [String], style: FlowStyle) {
        self.shape = shape
        self.classes = classes
        self.style = style
    }

    /// A look, or nil when everything is the default.
    @inline(__always)
    static func make(shape: NodeShape?, classes: [String], style: FlowStyle) -> NodeLook? {
        shape == nil && classes.isEmpty && style.isEmpty ? nil : NodeLook(shape: shape, classes: classes, style: style)
    }

    static func same(_ a: NodeLook?, _ b: NodeLook?) -> Bool {
        if a === b { return true }
        guard let a, let b else { return false }
        return a.shape == b.shape && a.classes == b.classes && a.style == b.style
    }
}

/// Classes and style of an edge, kept out of line like `NodeLook`.
final class EdgeLook: Sendable {
    let classes: [String]
    let style: FlowStyle

    init(classes: [String], style: FlowStyle) {
        self.classes = classes
        self.style = style
    }

    static func make(classes: [String], style: FlowStyle) -> EdgeLook? {
        classes.isEmpty && style.isEmpty ? nil : EdgeLook(classes: classes, style: style)
    }

    static func same(_ a: EdgeLook?, _ b: EdgeLook?) -> Bool {
        if a === b { return true }
        guard let a, let b else { return false }
        return a.classes == b.classes && a.style == b.style
    }
}

extension NodeLook: Equatable {
    static func == (a: NodeLook, b: NodeLook) -> Bool { same(a, b) }
}

extension EdgeLook: Hashable {
    static func == (a: EdgeLook, b: EdgeLook) -> Bool { same(a, b) }
    func hash(into h: inout Hasher) {
        h.combine(classes)
        h.combine(style)
    }
}
