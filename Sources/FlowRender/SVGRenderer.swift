import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drawing constants, in canvas units (see docs/rendering.md).
enum Metrics {
    static let handleRadius = 4.0
    /// How far strokes, handles and arrowheads reach outside a node frame or an edge path;
    /// fit mode keeps this margin around them.
    static let reach = 5.0
    /// The same when no handle is drawn (`handles = "none"`): strokes alone, and the wings
    /// of an arrowhead that ends at a node's corner.
    static let strokeReach = 2.0
    static let labelPadding = 4.0
    static let labelCornerRadius = 4.0
    static let labelMaxWidth = 200.0
    static let arrowLength = 10.0
    static let arrowHalfWidth = 4.0
    /// The diameter of a circle arrowhead: wider than a handle's dot (`handleRadius`).
    static let arrowCircle = 11.0
    /// The arrow tip stops this far before the end point, on the outline of the handle.
    static let arrowInset = handleRadius + 0.5
    /// Node stroke widths.
    static let nodeStroke = 1.0
    static let hoverStroke = 1.5
    static let emphasisStroke = 2.0
}

/// A finished picture: the SVG document, its size in pixels, and what could not be drawn
/// as asked.
struct RenderedSVG {
    var bytes: [UInt8]
    var width: Double
    var height: Double
    var warnings: [String]
}

/// How an edge is emphasised; one per edge, by the §15 priority (drop target > selected >
/// animated > normal). Also the order of the edge layers, bottom to top.
enum EdgeEmphasis: Int, CaseIterable {
    case normal, animated, selected, dropTarget

    var className: StaticString {
        switch self {
        case .normal: return ""
        case .animated: return " animated"
        case .selected: return " selected"
        case .dropTarget: return " drop"
        }
    }
}

/// An edge ready to draw.
struct EdgeItem {
    var id: String
    var geometry: EdgeGeometry
    var emphasis: EdgeEmphasis
    var label: LabelBox?
    /// Whether the label turns along the path (straight edges).
    var rotatesLabel: Bool
    /// Path bounds grown by `reach`, united with the label box once it is placed.
    var bounds: Rect
    /// Its classes, the style written on its elements, and its arrowheads.
    var classes: [String]
    var inline: FlowStyle
    var startMarker: Marker?
    var endMarker: Marker?
}

/// An arrowhead definition: what, at which end, in which colour.
struct Marker: Hashable {
    var kind: ArrowHead
    var atStart: Bool
    var colour: Colour
}

/// Renders a store into SVG bytes.
struct SVGRenderer<Data: FlowNodeData> {
    let store: FlowStore<Data>
    let options: SVGOptions
    let op: String

    // Resolved style.
    var palette: Palette
    var edgeColours: [EdgeEmphasis: Colour] = [:]
    var backgroundColour: Colour

    // Mapping from canvas units to output units: out = canvas · zoom + offset.
    var zoom = 1.0
    var offset = Point.zero

    /// The containers whose title is drawn at the top right of the frame, off the edges
    /// that run through its top left (`titlesAtRight`); set by `render`.
    var rightTitles: Set<String> = []

    /// Checks the options and the store's styles; throws `invalidValue` naming `op`.
    init(store: FlowStore<Data>, options: SVGOptions, op: String) throws(FlowError) {
        self.store = store
        self.options = options
        self.op = op
        try options.validate(op)
        palette = Palette.of(options.theme)
        let edge = store.configuration.edgeStyle
        let bg = store.configuration.backgroundStyle
        let stroke = try Colour(edge.strokeColor, field: "edgeStyle.strokeColor", op)
        edgeColours[.normal] = stroke
        edgeColours[.animated] = stroke
        edgeColours[.selected] = try Colour(
            edge.selectedStrokeColor, field: "edgeStyle.selectedStrokeColor", op)
        edgeColours[.dropTarget] = Colour(palette: palette.accent)
        backgroundColour = try Colour(bg.color, field: "backgroundStyle.color", op)
        try Self.checkLength(edge.lineWidth, "edgeStyle.lineWidth", op)
        try Self.checkLength(edge.selectedLineWidth, "edgeStyle.selectedLineWidth", op)
        for v in edge.dashPattern { try Self.checkLength(v, "edgeStyle.dashPattern", op) }
        for v in edge.animatedDashPattern {
            try Self.checkLength(v, "edgeStyle.animatedDashPattern", op)
        }
        if bg.pattern != .none {
            try Self.checkLength(bg.lineWidth, "backgroundStyle.lineWidth", op)
            try Self.checkLength(bg.dotRadius, "backgroundStyle.dotRadius", op)
            guard bg.spacing.isFinite, bg.spacing > 0 else {
                throw .invalidValue(op, "backgroundStyle.spacing must be a finite positive number")
            }
        }
    }

    private static func checkLength(_ v: Double, _ field: String, _ op: String) throws(FlowError) {
        guard v.isFinite, v >= 0 else {
            throw .invalidValue(op, "\(field) must be finite and not negative")
        }
    }

    // MARK: - Mapping

    @inline(__always) func mapX(_ x: Double) -> Double { x * zoom + offset.x }
    @inline(__always) func mapY(_ y: Double) -> Double { y * zoom + offset.y }

    // MARK: - Render

    /// Draws the store; `title` gives the text of each drawn node.
    /// Throws `invalidValue` when the content is too far apart for a finite picture size.
    mutating func render(title: (FlowNode<Data>) -> String) throws(FlowError) -> RenderedSVG {
        // Nodes, copied once, in store order, with the shapes they are drawn with.
        var nodes: [FlowNode<Data>] = []
        nodes.reserveCapacity(store.nodeCount)
        store.forEachNode { nodes.append($0) }
        let shapes = nodes.map { $0.hasLook ? store.resolvedShape(of: $0) : .rounded }
        var edges = edgeItems(nodes, shapes)
        try WorkLimit.check(op)
        // the groups' titles and the edges' labels keep off the drawn paths
        let isContainer = Self.containerFlags(nodes)
        let paths = isContainer.contains(true) || edges.contains(where: { $0.label != nil }) ? PathGrid(edges) : PathGrid()
        rightTitles = titlesAtRight(nodes, shapes, containers: isContainer, paths: paths, title: title)
        let warnings = placeLabels(&edges, nodes, shapes, containers: isContainer, paths: paths, title: title)
        // the label placement, the longest part, stops early past the current WorkLimit
        try WorkLimit.check(op)
        var diagramTitle = diagramTitleLayout()

        let frame = try pictureFrame(nodes, edges, &diagramTitle)
        let (width, height, viewBox, visible) = (frame.width, frame.height, frame.viewBox, frame.visible)

        var w = ByteWriter(capacity: 4096 + nodes.count * 300 + edges.count * 240)
        writeHeader(&w, width: width, height: height, viewBox: viewBox)

        let drawnEdges = visible.map { v in edges.filter { $0.bounds.intersects(v) } } ?? edges
        var used = Set<EdgeEmphasis>()
        for e in drawnEdges { used.insert(e.emphasis) }
        let layers = EdgeEmphasis.allCases.filter { used.contains($0) }

        // Containers below the edges, the other nodes above them, the edge labels on top;
        // each set in draw order.
        // an element whose opacity is 0 (DOT `style=invis`, Mermaid `~~~`) is kept, not drawn
        var (containers, others) = drawOrder(nodes, visible: visible)
        if nodes.contains(where: { Self.isInvisible($0.hasLook ? store.resolvedStyle(of: $0) : FlowStyle()) }) {
            containers.removeAll { nodes[$0].hasLook && Self.isInvisible(store.resolvedStyle(of: nodes[$0])) }
            others.removeAll { nodes[$0].hasLook && Self.isInvisible(store.resolvedStyle(of: nodes[$0])) }
        }
        let sheet = StyleSheet(
            store: store, nodes: (containers + others).map { nodes[$0] }, edges: drawnEdges, edgeLayers: layers)
        writeDefs(&w, sheet)
        writeBackground(&w, viewBox: viewBox)

        let handles = usedHandles()
        if !containers.isEmpty {
            w.raw("<g class=\"containers\">\n")
            for i in containers { writeNode(&w, nodes[i], shapes[i], isContainer: true, handles: handles, title: title) }
            w.raw("</g>\n")
        }
        if !drawnEdges.isEmpty {
            w.raw("<g class=\"edges\">\n")
            for layer in layers {
                for e in drawnEdges where e.emphasis == layer { writeEdge(&w, e) }
            }
            w.raw("</g>\n")
        }
        if !others.isEmpty {
            w.raw("<g class=\"nodes\">\n")
            for i in others { writeNode(&w, nodes[i], shapes[i], isContainer: false, handles: handles, title: title) }
            w.raw("</g>\n")
        }
        if drawnEdges.contains(where: { $0.label != nil }) {
            w.raw("<g class=\"labels\">\n")
            for e in drawnEdges { if let l = e.label { writeLabel(&w, l, of: e) } }
            w.raw("</g>\n")
        }
        if let diagramTitle { writeDiagramTitle(&w, diagramTitle) }
        w.raw("</svg>\n")
        try WorkLimit.check(op)
        return RenderedSVG(bytes: w.bytes, width: width, height: height, warnings: warnings)
    }

    // MARK: - Frame

    /// How far what is drawn reaches outside node frames and edge paths (`Metrics`).
    var reach: Double { options.handles == .none ? Metrics.strokeReach : Metrics.reach }

    /// The picture's size and view box: fitted around every node, edge and the diagram's
    /// title (placed here) plus the padding, or the viewport's canvas (`visible`: the part
    /// of the canvas it shows).
    mutating func pictureFrame(
        _ nodes: [FlowNode<Data>], _ edges: [EdgeItem], _ diagramTitle: inout DiagramTitle?
    ) throws(FlowError) -> (width: Double, height: Double, viewBox: Rect, visible: Rect?) {
        let width: Double
        let height: Double
        let viewBox: Rect
        var visible: Rect?
        if options.fit {
            var content: Rect?
            for n in nodes {
                let r = n.frame.insetBy(dx: -reach, dy: -reach)
                content = content?.union(r) ?? r
            }
            for e in edges { content = content?.union(e.bounds) ?? e.bounds }
            if diagramTitle != nil {
                diagramTitle!.place(around: content)
                content = content?.union(diagramTitle!.frame) ?? diagramTitle!.frame
            }
            let box = (content ?? .zero).insetBy(dx: -options.padding, dy: -options.padding)
            viewBox = Rect(box.x, box.y, max(box.width, 1), max(box.height, 1))
            width = viewBox.width * options.scale
            height = viewBox.height * options.scale
            guard width.isFinite, height.isFinite else {
                throw .invalidValue(op, "the content is too large to draw (its size is not finite)")
            }
        } else {
            let vp = store.viewport
            zoom = vp.zoom
            offset = vp.offset
            viewBox = Rect(0, 0, options.width, options.height)
            width = options.width * options.scale
            height = options.height * options.scale
            visible = Rect(
                corner: vp.screenToCanvas(.zero), corner: vp.screenToCanvas(Point(options.width, options.height)))
            if diagramTitle != nil {
                var content: Rect?
                for n in nodes { content = content?.union(n.frame) ?? n.frame }
                for e in edges { content = content?.union(e.bounds) ?? e.bounds }
                diagramTitle!.place(around: content)
            }
        }

        return (width, height, viewBox, visible)
    }

    /// The XML declaration, the `<svg>` element's start and the picture's `<title>`.
    func writeHeader(_ w: inout ByteWriter, width: Double, height: Double, viewBox: Rect) {
        w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        w.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
        w.number(width)
        w.raw("\" height=\"")
        w.number(height)
        w.raw("\" viewBox=\"")
        w.number(viewBox.x)
        w.byte(32)
        w.number(viewBox.y)
        w.byte(32)
        w.number(viewBox.width)
        w.byte(32)
        w.number(viewBox.height)
        w.raw("\">\n")
        if let t = options.title {
            w.raw("<title>")
            w.escaped(t)
            w.raw("</title>\n")
        }
    }
}

/// A handle of a node.
struct HandleRef: Hashable {
    var node: String
    var handle: String
}

