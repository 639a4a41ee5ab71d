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
    /// Path bounds grown by `Metrics.reach`, united with the label box once it is placed.
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
        let warnings = placeLabels(&edges, nodes, shapes, title: title)
        // the label placement, the longest part, stops early past the current WorkLimit
        try WorkLimit.check(op)
        var diagramTitle = diagramTitleLayout()

        // Frame of the picture.
        let width: Double
        let height: Double
        let viewBox: Rect
        var visible: Rect?
        if options.fit {
            var content: Rect?
            for n in nodes {
                let r = n.frame.insetBy(dx: -Metrics.reach, dy: -Metrics.reach)
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

        var w = ByteWriter(capacity: 4096 + nodes.count * 300 + edges.count * 240)
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

    // MARK: - Edges

    /// The drawable edges in store order (edges whose handles cannot be resolved are
    /// skipped), with their emphasis, label and style. `nodes` are the store's nodes,
    /// `shapes` the shapes they are drawn with.
    func edgeItems(_ nodes: [FlowNode<Data>], _ shapes: [NodeShape]) -> [EdgeItem] {
        var items: [EdgeItem] = []
        items.reserveCapacity(store.edgeCount)
        guard store.edgeCount > 0 else { return items }
        let calculators = EdgePathType.allCases.map { store.pathCalculator(for: $0) }
        let anyAnimated = !store.animatedEdgeIDs.isEmpty
        // The ends are resolved as the store resolves them, without copying nodes.
        var index: [String: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (i, n) in nodes.enumerated() { index[n.id] = i }
        let autoHandles = store.configuration.autoHandles
        store.forEachEdge { e in
            guard let si = index[e.sourceNodeID], let ti = index[e.targetNodeID],
                let ends = EdgeEnds.resolve(
                    e, sourceFrame: nodes[si].frame, sourceHandles: nodes[si].handles,
                    targetFrame: nodes[ti].frame, targetHandles: nodes[ti].handles, autoHandles: autoHandles,
                    sourceShape: shapes[si], targetShape: shapes[ti])
            else { return }
            let type = EdgePathType.allCases.firstIndex(of: e.pathType) ?? 0
            let g = EdgeGeometry(
                sourcePoint: ends.source.point, sourcePosition: ends.source.position,
                targetPoint: ends.target.point, targetPosition: ends.target.position,
                points: Array(ends.points), calculator: calculators[type])
            let emphasis: EdgeEmphasis =
                e.isDropTarget
                ? .dropTarget
                : e.isSelected ? .selected : anyAnimated && store.isEdgeAnimated(e.id) ? .animated : .normal
            let style = store.resolvedStyle(of: e)
            if Self.isInvisible(style) { return }
            let bounds = g.bounds.insetBy(dx: -Metrics.reach, dy: -Metrics.reach)
            var item = EdgeItem(
                id: e.id, geometry: g, emphasis: emphasis, label: e.label.flatMap { LabelBox.make($0, font: style.font) },
                rotatesLabel: e.pathType == .straight || g.labelAngle != 0, bounds: bounds, classes: e.classes,
                inline: FlowStyle())
            if e.hasLook { item.inline = StyleSheet.inlineStyle(e.classes, e.style, store.classStyles, edge: emphasis) }
            let colour = emphasis == .selected || emphasis == .dropTarget ? edgeColours[emphasis]! : style.stroke ?? edgeColours[.normal]!  // invariant: all four set by init
            let start = style.sourceArrow ?? ArrowHead.none, end = style.targetArrow ?? .arrow
            if start != .none { item.startMarker = Marker(kind: start, atStart: true, colour: colour) }
            if end != .none { item.endMarker = Marker(kind: end, atStart: false, colour: colour) }
            items.append(item)
        }
        return items
    }

    /// Places the edge labels in store order (LabelPlacement.swift), avoiding the nodes that
    /// are not containers, the borders and titles of containers, the labels placed before,
    /// and where it can the other edges' paths; grows each edge's bounds by its label. Returns a warning for every label that
    /// could not be placed without overlap.
    func placeLabels(
        _ items: inout [EdgeItem], _ nodes: [FlowNode<Data>], _ shapes: [NodeShape], title: (FlowNode<Data>) -> String
    ) -> [String] {
        guard items.contains(where: { $0.label != nil }) else { return [] }
        var placer = LabelPlacer()
        var parents = Set<String>()
        for n in nodes { if let p = n.parentID { parents.insert(p) } }
        for (i, n) in nodes.enumerated() {
            guard n.acceptsChildren || parents.contains(n.id) else {
                placer.add(n.frame, name: "node '\(n.id)'")
                continue
            }
            // a label may sit inside a container or outside it, not across its border
            // or on its title
            placer.addBorder(of: n.frame, name: "the border of group '\(n.id)'")
            if let t = titleLayout(n, shapes[i], isContainer: true, title(n)) {
                let inset = TitleLayout.containerInset
                placer.add(
                    Rect(n.frame.x + inset.x, n.frame.y + inset.y, t.width, Double(t.lines.count) * t.font.lineHeight),
                    name: "the title of group '\(n.id)'")
            }
        }
        for i in items.indices { placer.paths.add(items[i].geometry.path.segments, edge: Int32(i)) }
        var probe = WorkLimitProbe(stride: 64)
        for i in items.indices {
            if probe.shouldStop() { break }  // render() then fails
            guard var box = items[i].label else { continue }
            placer.place(&box, of: items[i].id, number: Int32(i), along: items[i].geometry, rotated: items[i].rotatesLabel)
            items[i].label = box
            items[i].bounds = items[i].bounds.union(box.bounds)
        }
        return placer.warnings
    }

    func writeEdge(_ w: inout ByteWriter, _ e: EdgeItem) {
        w.raw("<path id=\"edge-")
        w.escaped(e.id)
        w.raw("\" class=\"edge")
        writeClasses(&w, e.classes)
        w.raw(e.emphasis.className)
        w.byte(UInt8(ascii: "\""))
        writeInline(&w, e.inline, .edgePath)
        if let m = e.startMarker {
            w.raw(" marker-start=\"url(#")
            w.raw(m.id)
            w.raw(")\"")
        }
        if let m = e.endMarker {
            w.raw(" marker-end=\"url(#")
            w.raw(m.id)
            w.raw(")\"")
        }
        w.raw(" d=\"")
        var hasCurrentPoint = false
        for segment in e.geometry.path.segments {
            switch segment {
            case _ where !hasCurrentPoint:
                w.byte(UInt8(ascii: "M"))
                point(&w, segment.endPoint)
            case .move(let p):
                w.byte(UInt8(ascii: "M"))
                point(&w, p)
            case .line(let p):
                w.byte(UInt8(ascii: "L"))
                point(&w, p)
            case .quad(let c, let p):
                w.byte(UInt8(ascii: "Q"))
                point(&w, c)
                w.byte(32)
                point(&w, p)
            case .cubic(let c1, let c2, let p):
                w.byte(UInt8(ascii: "C"))
                point(&w, c1)
                w.byte(32)
                point(&w, c2)
                w.byte(32)
                point(&w, p)
            }
            hasCurrentPoint = true
        }
        w.raw("\"/>\n")
    }

    @inline(__always)
    func point(_ w: inout ByteWriter, _ p: Point) {
        w.number(mapX(p.x))
        w.byte(32)
        w.number(mapY(p.y))
    }

    func writeLabel(_ w: inout ByteWriter, _ l: LabelBox, of e: EdgeItem) {
        let cx = mapX(l.center.x)
        let cy = mapY(l.center.y)
        let rotated = l.degrees != 0
        if rotated {
            w.raw("<g transform=\"rotate(")
            w.number(l.degrees)
            w.byte(32)
            w.number(cx)
            w.byte(32)
            w.number(cy)
            w.raw(")\">")
        }
        w.raw("<rect class=\"label")
        writeClasses(&w, e.classes)
        w.byte(UInt8(ascii: "\""))
        writeInline(&w, e.inline, .labelBox)
        w.raw(" x=\"")
        w.number(cx - l.width / 2 * zoom)
        w.raw("\" y=\"")
        w.number(cy - l.height / 2 * zoom)
        w.raw("\" width=\"")
        w.number(l.width * zoom)
        w.raw("\" height=\"")
        w.number(l.height * zoom)
        w.raw("\" rx=\"")
        w.number(Metrics.labelCornerRadius * zoom)
        w.raw("\"/>")
        let lh = l.font.lineHeight
        // One line per row of the label, as node titles are written (a `tspan` each).
        var y = cy + (l.font.baselineOffset - Double(l.lines.count - 1) * lh / 2) * zoom
        w.raw("<text class=\"label-text")
        writeClasses(&w, e.classes)
        w.byte(UInt8(ascii: "\""))
        writeInline(&w, e.inline, .labelText)
        if l.lines.count == 1 {
            w.raw(" x=\"")
            w.number(cx)
            w.raw("\" y=\"")
            w.number(y)
            w.raw("\">")
            w.escaped(l.lines[0])
        } else {
            w.byte(UInt8(ascii: ">"))
            for line in l.lines {
                w.raw("<tspan x=\"")
                w.number(cx)
                w.raw("\" y=\"")
                w.number(y)
                w.raw("\">")
                w.escaped(line)
                w.raw("</tspan>")
                y += lh * zoom
            }
        }
        w.raw("</text>")
        if rotated { w.raw("</g>") }
        w.byte(10)
    }

    /// ` name…` for each class of an element, after its own classes.
    func writeClasses(_ w: inout ByteWriter, _ classes: [String]) {
        for c in classes {
            w.byte(32)
            w.raw(c)  // class names are CSS identifiers: nothing to escape
        }
    }

    /// Whether an element with this style is left out of the picture (opacity 0).
    static func isInvisible(_ style: FlowStyle) -> Bool { style.opacity == 0 }

    /// The edges' handles, by node: what `handles = used` draws. An edge drawn with no
    /// arrowhead at either end (an undirected graph's) marks none: a dot at one end only
    /// would read as its direction.
    func usedHandles() -> Set<HandleRef>? {
        guard options.handles == .used else { return nil }
        var used = Set<HandleRef>()
        store.forEachEdge { e in
            if e.hasLook {
                let style = store.resolvedStyle(of: e)
                if (style.sourceArrow ?? ArrowHead.none) == .none && (style.targetArrow ?? .arrow) == .none { return }
                if Self.isInvisible(style) { return }
            }
            if let h = e.sourceHandleID { used.insert(HandleRef(node: e.sourceNodeID, handle: h)) }
            if let h = e.targetHandleID { used.insert(HandleRef(node: e.targetNodeID, handle: h)) }
        }
        return used
    }
}

/// A handle of a node.
struct HandleRef: Hashable {
    var node: String
    var handle: String
}

extension SVGRenderer {
    // MARK: - Background

    /// The background levels: tile size in output units and opacity factor. Grid: a fine
    /// level and a coarse one (5×); dots: one level. The spacing is multiplied by 5 until
    /// it is at least 10 output units (§15).
    func backgroundLevels() -> [(id: StaticString, fill: StaticString, size: Double, opacity: Double)] {
        let bg = store.configuration.backgroundStyle
        guard bg.pattern != .none else { return [] }
        var size = bg.spacing * zoom
        var steps = 0
        while size < 10, steps < 64 {
            size *= 5
            steps += 1
        }
        guard size.isFinite, size > 0 else { return [] }
        if bg.pattern == .dot { return [("bg-dots", "url(#bg-dots)", size, 1)] }
        let t = min(max((size - 10) / 5, 0), 1)
        return [
            ("bg-grid-fine", "url(#bg-grid-fine)", size, 0.4 + 0.6 * t),
            ("bg-grid-coarse", "url(#bg-grid-coarse)", size * 5, 1),
        ]
    }

    func writePatterns(_ w: inout ByteWriter) {
        let bg = store.configuration.backgroundStyle
        for level in backgroundLevels() {
            // Tiles are centred on the lattice points so lines and dots are never cut.
            let half = level.size / 2
            w.raw("<pattern id=\"")
            w.raw(level.id)
            w.raw("\" patternUnits=\"userSpaceOnUse\" x=\"")
            w.number(offset.x - half)
            w.raw("\" y=\"")
            w.number(offset.y - half)
            w.raw("\" width=\"")
            w.number(level.size)
            w.raw("\" height=\"")
            w.number(level.size)
            w.raw("\">")
            let alpha = backgroundColour.opacity * level.opacity
            if bg.pattern == .dot {
                w.raw("<circle cx=\"")
                w.number(half)
                w.raw("\" cy=\"")
                w.number(half)
                w.raw("\" r=\"")
                w.number(bg.dotRadius)
                w.raw("\" fill=\"#")
                w.raw(backgroundColour.hex)
                if alpha < 1 {
                    w.raw("\" fill-opacity=\"")
                    w.number(alpha)
                }
            } else {
                w.raw("<path d=\"M")
                w.number(half)
                w.raw(" 0V")
                w.number(level.size)
                w.raw("M0 ")
                w.number(half)
                w.raw("H")
                w.number(level.size)
                w.raw("\" fill=\"none\" stroke=\"#")
                w.raw(backgroundColour.hex)
                w.raw("\" stroke-width=\"")
                w.number(bg.lineWidth)
                if alpha < 1 {
                    w.raw("\" stroke-opacity=\"")
                    w.number(alpha)
                }
            }
            w.raw("\"/></pattern>\n")
        }
    }

    func writeBackground(_ w: inout ByteWriter, viewBox: Rect) {
        /// The rest of a `<rect` covering the view box, after its own attribute.
        func box(_ w: inout ByteWriter) {
            w.raw("\" x=\"")
            w.number(viewBox.x)
            w.raw("\" y=\"")
            w.number(viewBox.y)
            w.raw("\" width=\"")
            w.number(viewBox.width)
            w.raw("\" height=\"")
            w.number(viewBox.height)
            w.raw("\"/>\n")
        }
        func rect(_ w: inout ByteWriter, _ attribute: StaticString, _ value: StaticString) {
            w.raw("<rect ")
            w.raw(attribute)
            w.raw("=\"")
            w.raw(value)
            box(&w)
        }
        if let c = store.diagramLook.background {
            // the diagram's own page colour (DOT's bgcolor) over the theme's
            w.raw("<rect class=\"bg\" style=\"fill:#")
            w.raw(c.hex)
            if c.alpha < 255 {
                w.raw(";fill-opacity:")
                w.number(c.opacity)
            }
            box(&w)
        } else {
            rect(&w, "class", "bg")
        }
        guard options.background else { return }
        for level in backgroundLevels() { rect(&w, "fill", level.fill) }
    }
}
