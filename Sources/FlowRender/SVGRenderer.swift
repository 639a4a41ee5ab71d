import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drawing constants, in canvas units (see docs/rendering.md).
enum Metrics {
    static let nodeCornerRadius = 8.0
    static let handleRadius = 4.0
    /// How far strokes, handles and arrowheads reach outside a node frame or an edge path;
    /// fit mode keeps this margin around them.
    static let reach = 5.0
    static let titlePadding = 8.0
    static let groupTitleInset = Point(10, 18)
    /// Baseline offset below the vertical centre of a line of 12 px text.
    static let baselineOffset = 4.2
    static let labelPadding = 4.0
    static let labelCornerRadius = 4.0
    static let labelMaxWidth = 200.0
    static let labelHeight = TextMetrics.fontSize + 2 * labelPadding
    /// Distance between the baselines of two lines of text.
    static let lineHeight = 14.0
    static let arrowLength = 10.0
    static let arrowHalfWidth = 4.0
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
        case .normal: return "edge"
        case .animated: return "edge animated"
        case .selected: return "edge selected"
        case .dropTarget: return "edge drop"
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
        // Nodes, copied once, in store order.
        var nodes: [FlowNode<Data>] = []
        nodes.reserveCapacity(store.nodeCount)
        store.forEachNode { nodes.append($0) }
        var edges = edgeItems(nodes)
        let warnings = placeLabels(&edges, nodes)

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
            let box = (content ?? .zero).insetBy(dx: -options.padding, dy: -options.padding)
            viewBox = Rect(box.x, box.y, max(box.width, 1), max(box.height, 1))
            width = viewBox.width
            height = viewBox.height
            guard width.isFinite, height.isFinite else {
                throw .invalidValue(op, "the content is too large to draw (its size is not finite)")
            }
        } else {
            let vp = store.viewport
            zoom = vp.zoom
            offset = vp.offset
            width = options.width
            height = options.height
            viewBox = Rect(0, 0, width, height)
            visible = Rect(
                corner: vp.screenToCanvas(.zero), corner: vp.screenToCanvas(Point(width, height)))
        }

        var w = ByteWriter(capacity: 4096 + nodes.count * 260 + edges.count * 200)
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

        let drawnEdges = visible.map { v in edges.filter { $0.bounds.intersects(v) } } ?? edges
        var used = Set<EdgeEmphasis>()
        for e in drawnEdges { used.insert(e.emphasis) }
        let layers = EdgeEmphasis.allCases.filter { used.contains($0) }

        writeDefs(&w, edgeLayers: layers)
        writeBackground(&w, viewBox: viewBox)

        // Containers below the edges, the other nodes above them, the edge labels on top.
        let (containers, others) = drawOrder(nodes, visible: visible)
        if !containers.isEmpty {
            w.raw("<g class=\"containers\">\n")
            for i in containers { writeNode(&w, nodes[i], isContainer: true, title: title) }
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
            for i in others { writeNode(&w, nodes[i], isContainer: false, title: title) }
            w.raw("</g>\n")
        }
        if drawnEdges.contains(where: { $0.label != nil }) {
            w.raw("<g class=\"labels\">\n")
            for e in drawnEdges { if let l = e.label { writeLabel(&w, l) } }
            w.raw("</g>\n")
        }
        w.raw("</svg>\n")
        return RenderedSVG(bytes: w.bytes, width: width, height: height, warnings: warnings)
    }

    // MARK: - Edges

    /// The drawable edges in store order (edges whose handles cannot be resolved are
    /// skipped), with their emphasis and label. `nodes` are the store's nodes.
    func edgeItems(_ nodes: [FlowNode<Data>]) -> [EdgeItem] {
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
                    targetFrame: nodes[ti].frame, targetHandles: nodes[ti].handles, autoHandles: autoHandles)
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
            let bounds = g.bounds.insetBy(dx: -Metrics.reach, dy: -Metrics.reach)
            items.append(EdgeItem(
                id: e.id, geometry: g, emphasis: emphasis, label: e.label.flatMap(LabelBox.make),
                rotatesLabel: e.pathType == .straight || g.labelAngle != 0, bounds: bounds))
        }
        return items
    }

    /// Places the edge labels in store order (LabelPlacement.swift), avoiding the nodes that
    /// are not containers and the labels placed before; grows each edge's bounds by its
    /// label. Returns a warning for every label that could not be placed without overlap.
    func placeLabels(_ items: inout [EdgeItem], _ nodes: [FlowNode<Data>]) -> [String] {
        guard items.contains(where: { $0.label != nil }) else { return [] }
        var placer = LabelPlacer()
        var parents = Set<String>()
        for n in nodes { if let p = n.parentID { parents.insert(p) } }
        for n in nodes where !n.acceptsChildren && !parents.contains(n.id) {
            placer.add(n.frame, name: "node '\(n.id)'")
        }
        for i in items.indices {
            guard var box = items[i].label else { continue }
            placer.place(&box, of: items[i].id, along: items[i].geometry, rotated: items[i].rotatesLabel)
            items[i].label = box
            items[i].bounds = items[i].bounds.union(box.bounds)
        }
        return placer.warnings
    }

    func writeEdge(_ w: inout ByteWriter, _ e: EdgeItem) {
        w.raw("<path class=\"")
        w.raw(e.emphasis.className)
        w.raw("\" d=\"")
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

    func writeLabel(_ w: inout ByteWriter, _ l: LabelBox) {
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
        w.raw("<rect class=\"label\" x=\"")
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
        let first = Metrics.baselineOffset - Double(l.lines.count - 1) * Metrics.lineHeight / 2
        for (k, line) in l.lines.enumerated() {
            w.raw("<text class=\"label-text\" x=\"")
            w.number(cx)
            w.raw("\" y=\"")
            w.number(cy + (first + Double(k) * Metrics.lineHeight) * zoom)
            w.raw("\">")
            w.escaped(line)
            w.raw("</text>")
        }
        if rotated { w.raw("</g>") }
        w.byte(10)
    }

    // MARK: - Nodes

    /// Indices of the nodes to draw, split into containers (nodes that accept children or
    /// have some) and the others, each sorted by depth in the hierarchy, then zIndex, then
    /// store order. With a viewport, nodes outside it are left out.
    func drawOrder(_ nodes: [FlowNode<Data>], visible: Rect?) -> (containers: [Int], others: [Int]) {
        var depth = [Int](repeating: 0, count: nodes.count)
        var hasChildren = [Bool](repeating: false, count: nodes.count)
        if nodes.contains(where: { $0.parentID != nil }) {
            var index: [String: Int] = [:]
            index.reserveCapacity(nodes.count)
            for (i, n) in nodes.enumerated() { index[n.id] = i }
            var parent = [Int](repeating: -1, count: nodes.count)
            for (i, n) in nodes.enumerated() {
                if let p = n.parentID, let j = index[p] {
                    parent[i] = j
                    hasChildren[j] = true
                }
            }
            // Depths by walking up to a known depth; `known` marks computed entries. The
            // walk is bounded by the node count, so even a (corrupt) cycle terminates.
            var known = [Bool](repeating: false, count: nodes.count)
            var chain: [Int] = []
            for i in nodes.indices where !known[i] {
                chain.removeAll(keepingCapacity: true)
                var j = i
                while j >= 0, !known[j], chain.count <= nodes.count {
                    chain.append(j)
                    j = parent[j]
                }
                var d = j >= 0 && known[j] ? depth[j] + 1 : 0
                for k in chain.reversed() {
                    depth[k] = d
                    known[k] = true
                    d += 1
                }
            }
        }
        var containers: [Int] = []
        var others: [Int] = []
        others.reserveCapacity(nodes.count)
        for (i, n) in nodes.enumerated() {
            if let visible,
                !n.frame.insetBy(dx: -Metrics.reach, dy: -Metrics.reach).intersects(visible)
            {
                continue
            }
            if n.acceptsChildren || hasChildren[i] { containers.append(i) } else { others.append(i) }
        }
        let needsSort = nodes.contains { $0.zIndex != 0 } || depth.contains { $0 != 0 }
        if needsSort {
            let before = { (a: Int, b: Int) -> Bool in
                if depth[a] != depth[b] { return depth[a] < depth[b] }
                if nodes[a].zIndex != nodes[b].zIndex { return nodes[a].zIndex < nodes[b].zIndex }
                return a < b
            }
            containers.sort(by: before)
            others.sort(by: before)
        }
        return (containers, others)
    }

    func writeNode(
        _ w: inout ByteWriter, _ n: FlowNode<Data>, isContainer: Bool,
        title: (FlowNode<Data>) -> String
    ) {
        let f = n.frame
        w.raw("<rect class=\"node")
        if isContainer { w.raw(" group") }
        if case .draft(let state) = n.phase {
            switch state {
            case .neutral: w.raw(" draft")
            case .valid: w.raw(" draft valid")
            case .invalid: w.raw(" draft invalid")
            }
        }
        if n.isDropTarget {
            w.raw(" drop")
        } else if n.isSelected {
            w.raw(" selected")
        } else if n.isHovered {
            w.raw(" hovered")
        }
        w.raw("\" x=\"")
        w.number(mapX(f.x))
        w.raw("\" y=\"")
        w.number(mapY(f.y))
        w.raw("\" width=\"")
        w.number(f.width * zoom)
        w.raw("\" height=\"")
        w.number(f.height * zoom)
        w.raw("\" rx=\"")
        w.number(min(Metrics.nodeCornerRadius, f.width / 2, f.height / 2) * zoom)
        w.raw("\"/>\n")

        if f.height >= TextMetrics.fontSize {
            let maxWidth: Double
            let anchor: Point
            if isContainer {
                maxWidth = f.width - 2 * Metrics.groupTitleInset.x
                anchor = Point(f.x + Metrics.groupTitleInset.x, f.y + Metrics.groupTitleInset.y)
            } else {
                maxWidth = f.width - 2 * Metrics.titlePadding
                anchor = Point(f.x + f.width / 2, f.y + f.height / 2 + Metrics.baselineOffset)
            }
            // One line per newline, as many as the node's height holds (centred in normal
            // nodes, downwards from the top in containers).
            let fit = Int((f.height - TextMetrics.fontSize) / Metrics.lineHeight) + 1
            let lines = TextMetrics.lines(of: title(n)).prefix(max(1, fit)).compactMap {
                TextMetrics.fitted($0, maxWidth: maxWidth)?.text
            }
            let first = isContainer ? 0 : -Double(lines.count - 1) * Metrics.lineHeight / 2
            for (k, text) in lines.enumerated() {
                w.raw(isContainer ? "<text class=\"title group\" x=\"" : "<text class=\"title\" x=\"")
                w.number(mapX(anchor.x))
                w.raw("\" y=\"")
                w.number(mapY(anchor.y + first + Double(k) * Metrics.lineHeight))
                w.raw("\">")
                w.escaped(text)
                w.raw("</text>\n")
            }
        }

        // Centre handles are not drawn: they would sit on the title. Nor are default handles
        // when the store attaches edges to them on the facing side (`autoHandles`).
        if store.configuration.autoHandles && HandleDeclaration.areDefaults(n.handles) { return }
        for h in n.handles where h.position != .center {
            let p = h.position.point(in: f)
            w.raw(h.type == .source ? "<circle class=\"handle source\" cx=\"" : "<circle class=\"handle target\" cx=\"")
            w.number(mapX(p.x))
            w.raw("\" cy=\"")
            w.number(mapY(p.y))
            w.raw("\" r=\"")
            w.number(Metrics.handleRadius * zoom)
            w.raw("\"/>\n")
        }
    }

    // MARK: - Definitions and background

    func colourProperty(_ w: inout ByteWriter, _ name: StaticString, _ c: Colour) {
        w.raw(name)
        w.raw(":#")
        w.raw(c.hex)
        w.byte(UInt8(ascii: ";"))
        if c.alpha < 1 {
            w.raw(name)
            w.raw("-opacity:")
            w.number(c.alpha)
            w.byte(UInt8(ascii: ";"))
        }
    }

    func lengthProperty(_ w: inout ByteWriter, _ name: StaticString, _ v: Double) {
        w.raw(name)
        w.byte(UInt8(ascii: ":"))
        w.number(v * zoom)
        w.byte(UInt8(ascii: ";"))
    }

    /// `stroke-dasharray` for a pattern; `none` when it is empty or draws nothing but gaps
    /// of zero length.
    func dashProperty(_ w: inout ByteWriter, _ pattern: [Double]) {
        w.raw("stroke-dasharray:")
        if pattern.isEmpty || pattern.allSatisfy({ $0 == 0 }) {
            w.raw("none")
        } else {
            for (i, v) in pattern.enumerated() {
                if i > 0 { w.byte(32) }
                w.number(v * zoom)
            }
        }
        w.byte(UInt8(ascii: ";"))
    }

    /// Closes a CSS rule whose last declaration ends with `;`.
    func endRule(_ w: inout ByteWriter) {
        if w.bytes.last == UInt8(ascii: ";") { w.bytes.removeLast() }
        w.raw("}\n")
    }

    static func markerID(_ c: Colour) -> String {
        if c.alpha >= 1 { return "arrow-" + c.hex }
        let a = Int((c.alpha * 255).rounded())
        let digits = Array("0123456789abcdef")
        return "arrow-" + c.hex + String(digits[a / 16]) + String(digits[a % 16])
    }

    func writeDefs(_ w: inout ByteWriter, edgeLayers: [EdgeEmphasis]) {
        let p = palette
        let edge = store.configuration.edgeStyle
        w.raw("<defs>\n<style type=\"text/css\">\n")
        w.raw(".bg{fill:#")
        w.raw(p.background)
        w.raw("}\n")
        for layer in edgeLayers {
            let c = edgeColours[layer] ?? Colour(palette: p.accent)
            switch layer {
            case .normal: w.raw(".edge{fill:none;")
            case .animated: w.raw(".edge.animated{fill:none;")
            case .selected: w.raw(".edge.selected{fill:none;")
            case .dropTarget: w.raw(".edge.drop{fill:none;")
            }
            colourProperty(&w, "stroke", c)
            switch layer {
            case .normal, .animated:
                lengthProperty(&w, "stroke-width", edge.lineWidth)
            case .selected:
                lengthProperty(&w, "stroke-width", edge.selectedLineWidth)
            case .dropTarget:
                lengthProperty(&w, "stroke-width", edge.selectedLineWidth + 1)
            }
            dashProperty(&w, layer == .animated ? edge.animatedDashPattern : edge.dashPattern)
            w.raw("marker-end:url(#")
            w.raw(Self.markerID(c))
            w.raw(")")
            endRule(&w)
        }
        let font = TextMetrics.fontSize * zoom
        w.raw(".label{fill:#")
        w.raw(p.labelFill)
        w.raw(";stroke:#")
        w.raw(p.labelStroke)
        w.raw(";")
        lengthProperty(&w, "stroke-width", 1)
        endRule(&w)
        w.raw(".label-text{fill:#")
        w.raw(p.labelText)
        w.raw(";font-family:sans-serif;font-size:")
        w.number(font)
        w.raw("px;text-anchor:middle}\n.node{fill:#")
        w.raw(p.nodeFill)
        w.raw(";stroke:#")
        w.raw(p.nodeStroke)
        w.raw(";")
        lengthProperty(&w, "stroke-width", Metrics.nodeStroke)
        endRule(&w)
        w.raw(".node.group{fill:#")
        w.raw(p.groupFill)
        w.raw(";stroke:#")
        w.raw(p.groupStroke)
        w.raw("}\n.node.draft{")
        dashProperty(&w, [4, 3])
        endRule(&w)
        w.raw(".node.valid{stroke:#")
        w.raw(p.valid)
        w.raw("}\n.node.invalid{stroke:#")
        w.raw(p.invalid)
        w.raw("}\n.node.hovered{stroke:#")
        w.raw(p.hoverStroke)
        w.raw(";")
        lengthProperty(&w, "stroke-width", Metrics.hoverStroke)
        endRule(&w)
        w.raw(".node.selected{stroke:#")
        w.raw(p.accent)
        w.raw(";")
        lengthProperty(&w, "stroke-width", Metrics.emphasisStroke)
        endRule(&w)
        w.raw(".node.drop{fill:#")
        w.raw(p.dropFill)
        w.raw(";stroke:#")
        w.raw(p.accent)
        w.raw(";")
        lengthProperty(&w, "stroke-width", Metrics.emphasisStroke)
        endRule(&w)
        w.raw(".title{fill:#")
        w.raw(p.text)
        w.raw(";font-family:sans-serif;font-size:")
        w.number(font)
        w.raw("px;text-anchor:middle}\n.title.group{font-weight:bold;text-anchor:start}\n.handle{fill:#")
        w.raw(p.nodeFill)
        w.raw(";stroke:#")
        w.raw(p.handle)
        w.raw(";")
        lengthProperty(&w, "stroke-width", 1)
        endRule(&w)
        w.raw(".handle.source{fill:#")
        w.raw(p.handle)
        w.raw("}\n</style>\n")

        // One arrowhead per distinct colour, in layer order.
        var written = Set<String>()
        for layer in edgeLayers {
            let c = edgeColours[layer] ?? Colour(palette: p.accent)
            let id = Self.markerID(c)
            guard written.insert(id).inserted else { continue }
            w.raw("<marker id=\"")
            w.raw(id)
            w.raw("\" markerUnits=\"userSpaceOnUse\" orient=\"auto\" viewBox=\"0 0 ")
            w.number(Metrics.arrowLength)
            w.byte(32)
            w.number(2 * Metrics.arrowHalfWidth)
            w.raw("\" refX=\"")
            w.number(Metrics.arrowLength + Metrics.arrowInset)
            w.raw("\" refY=\"")
            w.number(Metrics.arrowHalfWidth)
            w.raw("\" markerWidth=\"")
            w.number(Metrics.arrowLength * zoom)
            w.raw("\" markerHeight=\"")
            w.number(2 * Metrics.arrowHalfWidth * zoom)
            w.raw("\"><path d=\"M0 0L")
            w.number(Metrics.arrowLength)
            w.byte(32)
            w.number(Metrics.arrowHalfWidth)
            w.raw("L0 ")
            w.number(2 * Metrics.arrowHalfWidth)
            w.raw("Z\" fill=\"#")
            w.raw(c.hex)
            if c.alpha < 1 {
                w.raw("\" fill-opacity=\"")
                w.number(c.alpha)
            }
            w.raw("\"/></marker>\n")
        }

        if options.background { writePatterns(&w) }
        w.raw("</defs>\n")
    }

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
            let alpha = backgroundColour.alpha * level.opacity
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
        func rect(_ w: inout ByteWriter, _ attribute: StaticString, _ value: StaticString) {
            w.raw("<rect ")
            w.raw(attribute)
            w.raw("=\"")
            w.raw(value)
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
        rect(&w, "class", "bg")
        guard options.background else { return }
        for level in backgroundLevels() { rect(&w, "fill", level.fill) }
    }
}
