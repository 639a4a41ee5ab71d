import FlowCore

/// The colour scheme of a picture (see docs/rendering.md for the palettes).
public enum SVGTheme: String, Sendable, CaseIterable, FlowEnum {
    case light, dark
    public static var valueName: String { "theme" }
}

/// Which handles a picture draws.
public enum HandleVisibility: String, Sendable, CaseIterable, FlowEnum {
    /// The handles that an edge uses.
    case used
    /// Every handle except centre handles.
    case all
    /// None: arrowheads then reach the node outlines.
    case none
    public static var valueName: String { "handles" }
}

/// How a diagram is drawn by `renderSVG`, `writeSVG`, `renderPNG` and `renderPDF` (lua-api
/// §12): one set of options for every format.
public struct SVGOptions: Hashable, Sendable {
    /// true: the picture shows all content (nodes, edges, labels) plus `padding`, one canvas
    /// unit per pixel. false: it shows what the store's viewport shows on a canvas of
    /// `width` × `height` pixels.
    public var fit: Bool
    /// Space around the content in fit mode, in canvas units (finite, not negative).
    public var padding: Double
    /// Canvas width in pixels when not fitting (finite, positive).
    public var width: Double
    /// Canvas height in pixels when not fitting (finite, positive).
    public var height: Double
    public var theme: SVGTheme
    /// Whether the configured background pattern (grid or dots) is drawn over the theme's
    /// background colour. The background colour is always drawn.
    public var background: Bool
    /// The picture's size is its drawing's size times this (finite, positive): the SVG's
    /// `width` and `height` (its view box is the same), and the pixels of a PNG.
    public var scale: Double
    /// Which handles are drawn.
    public var handles: HandleVisibility
    /// The picture's title (an SVG `<title>`, shown by viewers as a tooltip or tab name).
    public var title: String?

    public init(
        fit: Bool = true, padding: Double = 4, width: Double = 800, height: Double = 600,
        theme: SVGTheme = .light, background: Bool = true, scale: Double = 1,
        handles: HandleVisibility = .used, title: String? = nil
    ) {
        self.fit = fit
        self.padding = padding
        self.width = width
        self.height = height
        self.theme = theme
        self.background = background
        self.scale = scale
        self.handles = handles
        self.title = title
    }

    func validate(_ op: String) throws(FlowError) {
        guard padding.isFinite, padding >= 0 else {
            throw .invalidValue(op, "padding must be a finite number not below 0")
        }
        guard width.isFinite, width > 0, height.isFinite, height > 0 else {
            throw .invalidValue(op, "width and height must be finite positive numbers")
        }
        guard scale.isFinite, scale > 0 else {
            throw .invalidValue(op, "scale must be a finite positive number")
        }
    }
}

/// A colour of the configuration, parsed, or `invalidValue` naming `field`.
typealias Colour = FlowColor

extension FlowColor {
    init(_ text: String, field: String, _ op: String) throws(FlowError) {
        try self.init(parsing: text, field: field, operation: op)
    }

    /// A colour from the palette tables (always valid).
    init(palette hex: String) {
        self = FlowColor("#" + hex)!  // invariant: the palettes hold valid colours
    }
}

/// The fixed colours of a theme. Edge colours and the background pattern colour come from
/// the store's `EdgeStyle` and `BackgroundStyle`; everything else from here.
struct Palette {
    var background: String
    var nodeFill: String
    var nodeStroke: String
    var groupFill: String
    var groupStroke: String
    var hoverStroke: String
    var accent: String
    /// The accent mixed at 10 % into the node fill (drop-target nodes).
    var dropFill: String
    var text: String
    var labelFill: String
    var labelStroke: String
    var labelText: String
    var handle: String
    var valid: String
    var invalid: String

    static func of(_ theme: SVGTheme) -> Palette {
        switch theme {
        case .light:
            return Palette(
                background: "ffffff", nodeFill: "ffffff", nodeStroke: "b0b0b8",
                groupFill: "f2f2f7", groupStroke: "c7c7cc", hoverStroke: "6e6e73",
                accent: "007aff", dropFill: "e6f2ff", text: "1c1c1e",
                labelFill: "ffffff", labelStroke: "d1d1d6", labelText: "3a3a3c",
                handle: "8e8e93", valid: "34c759", invalid: "ff3b30")
        case .dark:
            return Palette(
                background: "1c1c1e", nodeFill: "2c2c2e", nodeStroke: "545458",
                groupFill: "242426", groupStroke: "48484a", hoverStroke: "aeaeb2",
                accent: "0a84ff", dropFill: "293543", text: "f2f2f7",
                labelFill: "2c2c2e", labelStroke: "48484a", labelText: "e5e5ea",
                handle: "98989d", valid: "30d158", invalid: "ff453a")
        }
    }
}
