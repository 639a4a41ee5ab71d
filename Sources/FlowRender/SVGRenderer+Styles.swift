import FlowCore

// The <style> element and the arrowheads (docs/rendering.md, "Styles and classes"): one
// CSS rule per theme role, one per class of the style sheet that a drawn element uses,
// then the rules of the states (selected, hovered, drop target, draft), which win over the
// classes. An element's own style is written on it (`style="…"`) and wins over both,
// except for what its state sets.

/// The parts of a picture a style applies to.
enum StylePart {
    case nodeGroup, nodeShape, nodeTitle, edgePath, labelBox, labelText
}

/// What the <style> element needs: the classes drawn elements use and the arrowheads.
struct StyleSheet {
    /// Classes of the style sheet used by drawn nodes, by drawn edges; sorted.
    var nodeClasses: [String] = []
    var edgeClasses: [String] = []
    /// Distinct arrowheads, in the order edges use them (edge layers bottom to top).
    var markers: [Marker] = []
    /// The edge layers drawn, bottom to top.
    var layers: [EdgeEmphasis]

    init<Data>(store: FlowStore<Data>, nodes: [FlowNode<Data>], edges: [EdgeItem], edgeLayers: [EdgeEmphasis]) {
        layers = edgeLayers
        let sheet = store.classStyles
        if !sheet.isEmpty {
            var n = Set<String>(), e = Set<String>()
            for node in nodes where node.hasLook { for c in node.classes where sheet[c] != nil { n.insert(c) } }
            for edge in edges { for c in edge.classes where sheet[c] != nil { e.insert(c) } }
            nodeClasses = n.sorted()
            edgeClasses = e.sorted()
        }
        var seen = Set<Marker>()
        for layer in edgeLayers {
            for e in edges where e.emphasis == layer {
                for m in [e.startMarker, e.endMarker] {
                    if let m, seen.insert(m).inserted { markers.append(m) }
                }
            }
        }
    }

    /// What an element carries in its `style` attribute: its own style, and where two of
    /// its classes disagree, the one later in its list (the rules of the <style> element
    /// let the one later in the sheet win). Nothing its state sets.
    static func inlineStyle(
        _ classes: [String], _ own: FlowStyle, _ sheet: [String: FlowClass], node state: NodeState
    ) -> FlowStyle {
        var s = ownAndConflicts(classes, own, sheet)
        if state.outlined {
            s.stroke = nil
            s.strokeWidth = nil
        }
        if state.filled { s.fill = nil }
        if state.draft { s.dash = nil }
        return s
    }

    static func inlineStyle(
        _ classes: [String], _ own: FlowStyle, _ sheet: [String: FlowClass], edge emphasis: EdgeEmphasis
    ) -> FlowStyle {
        var s = ownAndConflicts(classes, own, sheet)
        switch emphasis {
        case .selected, .dropTarget:
            s.stroke = nil
            s.strokeWidth = nil
        case .animated:
            s.dash = nil
        case .normal:
            break
        }
        return s
    }

    private static func ownAndConflicts(_ classes: [String], _ own: FlowStyle, _ sheet: [String: FlowClass]) -> FlowStyle {
        guard classes.count > 1, !sheet.isEmpty else { return own }
        func merged(_ names: [String]) -> FlowStyle {
            names.reduce(FlowStyle()) { s, c in sheet[c].map { s.merged(with: $0.style) } ?? s }
        }
        let bySheet = merged(classes.sorted()), byElement = merged(classes)
        if bySheet == byElement { return own }
        var s = FlowStyle()
        if bySheet.fill != byElement.fill { s.fill = byElement.fill }
        if bySheet.stroke != byElement.stroke { s.stroke = byElement.stroke }
        if bySheet.strokeWidth != byElement.strokeWidth { s.strokeWidth = byElement.strokeWidth }
        if bySheet.dash != byElement.dash { s.dash = byElement.dash }
        if bySheet.opacity != byElement.opacity { s.opacity = byElement.opacity }
        if bySheet.textColor != byElement.textColor { s.textColor = byElement.textColor }
        if bySheet.fontSize != byElement.fontSize { s.fontSize = byElement.fontSize }
        if bySheet.bold != byElement.bold { s.bold = byElement.bold }
        if bySheet.italic != byElement.italic { s.italic = byElement.italic }
        return s.merged(with: own)
    }
}

extension Marker {
    /// `arrow-808080`, `diamond-start-ff0000`, … (`rrggbbaa` for a translucent colour).
    var id: String {
        kind.rawValue + (atStart ? "-start-" : "-") + String(colour.description.dropFirst())
    }
}

extension SVGRenderer {
    // MARK: Declarations

    func colourProperty(_ w: inout ByteWriter, _ name: StaticString, _ c: Colour) {
        w.raw(name)
        w.raw(":#")
        w.raw(c.hex)
        w.byte(UInt8(ascii: ";"))
        if c.alpha < 255 {
            w.raw(name)
            w.raw("-opacity:")
            w.number(c.opacity)
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

    /// The CSS declarations of `s` that apply to `part`, each ending in `;`.
    func declarations(_ w: inout ByteWriter, _ s: FlowStyle, _ part: StylePart) {
        switch part {
        case .nodeShape:
            if let c = s.fill { colourProperty(&w, "fill", c) }
            if let c = s.stroke { colourProperty(&w, "stroke", c) }
            if let v = s.strokeWidth { lengthProperty(&w, "stroke-width", v) }
            if let d = s.dash { dashProperty(&w, d) }
        case .edgePath:
            if let c = s.stroke { colourProperty(&w, "stroke", c) }
            if let v = s.strokeWidth { lengthProperty(&w, "stroke-width", v) }
            if let d = s.dash { dashProperty(&w, d) }
        case .labelBox:
            if let c = s.fill { colourProperty(&w, "fill", c) }
        case .nodeTitle, .labelText:
            if let c = s.textColor { colourProperty(&w, "fill", c) }
            if let v = s.fontSize {
                lengthProperty(&w, "font-size", v)
                w.bytes.removeLast()
                w.raw("px;")
            }
            if let b = s.bold { w.raw(b ? "font-weight:bold;" : "font-weight:normal;") }
            if let i = s.italic { w.raw(i ? "font-style:italic;" : "font-style:normal;") }
        case .nodeGroup:
            break
        }
        if let o = s.opacity, part == .nodeGroup || part == .edgePath || part == .labelBox || part == .labelText {
            w.raw("opacity:")
            w.number(o)
            w.byte(UInt8(ascii: ";"))
        }
    }

    /// ` style="…"` with the declarations of `s` for `part`; nothing when there are none.
    func writeInline(_ w: inout ByteWriter, _ s: FlowStyle, _ part: StylePart, fill: String? = nil) {
        let start = w.bytes.count
        w.raw(" style=\"")
        let body = w.bytes.count
        declarations(&w, s, part)
        if let fill {
            // a gradient's `url(#…)`, over the colour before it
            w.raw("fill:")
            w.raw(fill)
            w.byte(UInt8(ascii: ";"))
        }
        if w.bytes.count == body {
            w.bytes.removeSubrange(start...)
            return
        }
        w.bytes.removeLast()  // the last `;`
        w.byte(UInt8(ascii: "\""))
    }

    /// `selector{declarations}` for a class rule; nothing when no declaration applies.
    func classRule(_ w: inout ByteWriter, _ prefix: StaticString, _ name: String, _ suffix: StaticString, _ s: FlowStyle, _ part: StylePart) {
        let start = w.bytes.count
        w.raw(prefix)
        w.raw(name)
        w.raw(suffix)
        w.byte(UInt8(ascii: "{"))
        let body = w.bytes.count
        declarations(&w, s, part)
        if w.bytes.count == body {
            w.bytes.removeSubrange(start...)
            return
        }
        endRule(&w)
    }

    /// `selector{fill:#…;stroke:#…;stroke-width:…}` with the palette colours given.
    func themeRule(
        _ w: inout ByteWriter, _ selector: StaticString, fill: String? = nil, stroke: String? = nil, width: Double? = nil
    ) {
        w.raw(selector)
        w.byte(UInt8(ascii: "{"))
        for (name, hex) in [("fill", fill), ("stroke", stroke)] {
            guard let hex else { continue }
            w.raw(name)
            w.raw(":#")
            w.raw(hex)
            w.byte(UInt8(ascii: ";"))
        }
        if let width { lengthProperty(&w, "stroke-width", width) }
        endRule(&w)
    }

    /// `selector{fill:#…;font-family:sans-serif;font-size:…px;text-anchor:middle}`: text in
    /// the palette colour given, at the default size.
    func textRule(_ w: inout ByteWriter, _ selector: StaticString, fill: String) {
        w.raw(selector)
        w.raw("{fill:#")
        w.raw(fill)
        w.raw(";font-family:sans-serif;font-size:")
        w.number(TextFont.defaultSize * zoom)
        w.raw("px;text-anchor:middle}\n")
    }

    /// Closes a CSS rule whose last declaration ends with `;`.
    func endRule(_ w: inout ByteWriter) {
        if w.bytes.last == UInt8(ascii: ";") { w.bytes.removeLast() }
        w.raw("}\n")
    }

    // MARK: Definitions

    func writeDefs(_ w: inout ByteWriter, _ sheet: StyleSheet) {
        let p = palette
        let edge = store.configuration.edgeStyle
        let classes = store.classStyles
        w.raw("<defs>\n<style type=\"text/css\">\n")
        themeRule(&w, ".bg", fill: p.background)
        if !sheet.layers.isEmpty { writeEdgeRules(&w, sheet, edge) }
        themeRule(&w, ".label", fill: p.labelFill, stroke: p.labelStroke, width: 1)
        textRule(&w, ".label-text", fill: p.labelText)
        for name in sheet.edgeClasses {
            let s = classes[name]!.style  // invariant: collected from the sheet
            classRule(&w, ".label.", name, "", s, .labelBox)
            classRule(&w, ".label-text.", name, "", s, .labelText)
        }
        themeRule(&w, ".node>.shape", fill: p.nodeFill, stroke: p.nodeStroke, width: Metrics.nodeStroke)
        themeRule(&w, ".node.group>.shape", fill: p.groupFill, stroke: p.groupStroke)
        textRule(&w, ".title", fill: p.text)
        w.raw(".node.group>.title{font-weight:bold;text-anchor:start}\n")
        for name in sheet.nodeClasses {
            let s = classes[name]!.style  // invariant: collected from the sheet
            classRule(&w, ".node.", name, "", s, .nodeGroup)
            classRule(&w, ".node.", name, ">.shape", s, .nodeShape)
            classRule(&w, ".node.", name, ">.title", s, .nodeTitle)
        }
        w.raw(".node.draft>.shape{")
        dashProperty(&w, [4, 3])
        endRule(&w)
        themeRule(&w, ".node.valid>.shape", stroke: p.valid)
        themeRule(&w, ".node.invalid>.shape", stroke: p.invalid)
        themeRule(&w, ".node.hovered>.shape", stroke: p.hoverStroke, width: Metrics.hoverStroke)
        themeRule(&w, ".node.selected>.shape", stroke: p.accent, width: Metrics.emphasisStroke)
        themeRule(&w, ".node.drop>.shape", fill: p.dropFill, stroke: p.accent, width: Metrics.emphasisStroke)
        themeRule(&w, ".handle", fill: p.nodeFill, stroke: p.handle, width: 1)
        themeRule(&w, ".handle.source", fill: p.handle)
        w.raw("</style>\n")

        for m in sheet.markers { writeMarker(&w, m) }
        if options.background { writePatterns(&w) }
        w.raw("</defs>\n")
    }

    /// `.edge` with the configured style, the classes' rules, then the emphasised layers.
    private func writeEdgeRules(_ w: inout ByteWriter, _ sheet: StyleSheet, _ edge: EdgeStyle) {
        w.raw(".edge{fill:none;")
        colourProperty(&w, "stroke", edgeColours[.normal]!)  // invariant: set by init
        lengthProperty(&w, "stroke-width", edge.lineWidth)
        dashProperty(&w, edge.dashPattern)
        endRule(&w)
        for name in sheet.edgeClasses {
            classRule(&w, ".edge.", name, "", store.classStyles[name]!.style, .edgePath)  // invariant: from the sheet
        }
        for layer in sheet.layers {
            switch layer {
            case .normal:
                continue
            case .animated:
                w.raw(".edge.animated{")
                dashProperty(&w, edge.animatedDashPattern)
            case .selected:
                w.raw(".edge.selected{")
                colourProperty(&w, "stroke", edgeColours[.selected]!)  // invariant: set by init
                lengthProperty(&w, "stroke-width", edge.selectedLineWidth)
            case .dropTarget:
                w.raw(".edge.drop{")
                colourProperty(&w, "stroke", edgeColours[.dropTarget]!)  // invariant: set by init
                lengthProperty(&w, "stroke-width", edge.selectedLineWidth + 1)
            }
            endRule(&w)
        }
    }

    // MARK: Arrowheads

    /// How far before the end point an arrowhead's tip stops: on the outline of a drawn
    /// handle, else on the node's outline.
    var arrowInset: Double { options.handles == .none ? Metrics.nodeStroke / 2 : Metrics.arrowInset }

    /// One arrowhead: `Metrics.arrowLength` long and twice `arrowHalfWidth` wide, following
    /// the path's direction; at the start it points back at the source. A circle is
    /// `Metrics.arrowCircle` across, wider than a handle's dot, so that it does not read
    /// as one.
    func writeMarker(_ w: inout ByteWriter, _ m: Marker) {
        let shape = MarkerShape.of(m.kind)
        let l = shape.length, h = shape.halfWidth
        // the x of the tip in the marker's own units
        let tip = m.atStart ? l - shape.tip : shape.tip
        w.raw("<marker id=\"")
        w.raw(m.id)
        w.raw("\" markerUnits=\"userSpaceOnUse\" orient=\"auto\" viewBox=\"0 0 ")
        w.number(l)
        w.byte(32)
        w.number(2 * h)
        w.raw("\" refX=\"")
        w.number(m.atStart ? tip - arrowInset : tip + arrowInset)
        w.raw("\" refY=\"")
        w.number(h)
        w.raw("\" markerWidth=\"")
        w.number(l * zoom)
        w.raw("\" markerHeight=\"")
        w.number(2 * h * zoom)
        w.raw("\">")
        if let r = shape.circle {
            w.raw("<circle cx=\"")
            w.number(m.atStart ? l - r.cx : r.cx)
            w.raw("\" cy=\"")
            w.number(h)
            w.raw("\" r=\"")
            w.number(r.r)
            w.byte(UInt8(ascii: "\""))
        } else {
            w.raw("<path d=\"")
            for (i, part) in shape.path.enumerated() {
                let x = m.atStart ? l - part.x : part.x
                if part.command != 0 { w.byte(part.command) } else if i > 0 { w.byte(32) }
                w.number(x)
                w.byte(32)
                w.number(part.y)
            }
            if shape.closed { w.byte(UInt8(ascii: "Z")) }
            w.byte(UInt8(ascii: "\""))
        }
        switch shape.paint {
        case .filled:
            w.raw(" fill=\"#")
            w.raw(m.colour.hex)
            if m.colour.alpha < 255 {
                w.raw("\" fill-opacity=\"")
                w.number(m.colour.opacity)
            }
        case .outlined, .strokes:
            // an outline is filled with the page's colour (the diagram's, else the theme's): the
        // line under it does not show
            if shape.paint == .outlined {
                w.raw(" fill=\"#")
                w.raw(store.diagramLook.background?.hex ?? palette.background)
            } else {
                w.raw(" fill=\"none")
            }
            w.raw("\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" stroke=\"#")
            w.raw(m.colour.hex)
            if m.colour.alpha < 255 {
                w.raw("\" stroke-opacity=\"")
                w.number(m.colour.opacity)
            }
        }
        w.raw("\"/></marker>\n")
    }
}

/// The drawing of an arrowhead kind, pointing right (the end of a path) in a box
/// `length` × 2·`halfWidth`; `writeMarker` mirrors it for the start.
struct MarkerShape {
    enum Paint { case filled, outlined, strokes }
    /// A path's points: `command` is `M` or `L` (0: continues the last command).
    struct Part {
        var command: UInt8
        var x: Double
        var y: Double
    }
    var length = Metrics.arrowLength
    var halfWidth = Metrics.arrowHalfWidth
    /// Where the tip is: the x that `refX` puts at the path's end (before the inset).
    var tip: Double
    var paint: Paint
    var path: [Part] = []
    var closed = true
    var circle: (cx: Double, r: Double)?

    static func polygon(_ points: [(Double, Double)], tip: Double, paint: Paint, closed: Bool = true) -> MarkerShape {
        var s = MarkerShape(tip: tip, paint: paint, closed: closed)
        for (i, p) in points.enumerated() {
            s.path.append(Part(command: i == 0 ? UInt8(ascii: "M") : UInt8(ascii: "L"), x: p.0, y: p.1))
        }
        return s
    }

    /// Separate strokes, each from its first point to its second.
    static func strokes(_ lines: [((Double, Double), (Double, Double))], tip: Double) -> MarkerShape {
        var s = MarkerShape(tip: tip, paint: .strokes, closed: false)
        for (a, b) in lines {
            s.path.append(Part(command: UInt8(ascii: "M"), x: a.0, y: a.1))
            s.path.append(Part(command: UInt8(ascii: "L"), x: b.0, y: b.1))
        }
        return s
    }

    static func of(_ kind: ArrowHead) -> MarkerShape {
        let d = Metrics.arrowCircle
        switch kind {
        case .arrow, .none: return polygon([(0, 0), (10, 4), (0, 8)], tip: 10, paint: .filled)
        case .open: return polygon([(1, 1), (9, 4), (1, 7)], tip: 9.75, paint: .strokes, closed: false)
        case .hollowArrow: return polygon([(0.75, 0.75), (9.25, 4), (0.75, 7.25)], tip: 9.75, paint: .outlined)
        case .inv: return polygon([(10, 0), (0, 4), (10, 8)], tip: 10, paint: .filled)
        case .hollowInv: return polygon([(9.25, 0.75), (0.75, 4), (9.25, 7.25)], tip: 9.75, paint: .outlined)
        case .diamond: return polygon([(0, 4), (5, 0), (10, 4), (5, 8)], tip: 10, paint: .filled)
        case .hollowDiamond: return polygon([(0.75, 4), (5, 0.75), (9.25, 4), (5, 7.25)], tip: 9.75, paint: .outlined)
        case .vee: return polygon([(0, 0), (10, 4), (0, 8), (3.5, 4)], tip: 10, paint: .filled)
        case .box: return polygon([(3, 0.5), (10, 0.5), (10, 7.5), (3, 7.5)], tip: 10, paint: .filled)
        case .hollowBox: return polygon([(3.75, 1.25), (9.25, 1.25), (9.25, 6.75), (3.75, 6.75)], tip: 9.75, paint: .outlined)
        case .tee: return polygon([(6, 0), (9, 0), (9, 8), (6, 8)], tip: 9, paint: .filled)
        case .crow: return strokes([((0.75, 4), (9.25, 0.75)), ((0.75, 4), (9.25, 4)), ((0.75, 4), (9.25, 7.25))], tip: 9.25)
        case .cross: return strokes([((2.75, 0.75), (9.25, 7.25)), ((2.75, 7.25), (9.25, 0.75))], tip: 9.75)
        case .circle:
            var s = MarkerShape(length: d, halfWidth: d / 2, tip: d, paint: .filled)
            s.circle = (d / 2, d / 2)
            return s
        case .hollowCircle:
            var s = MarkerShape(length: d, halfWidth: d / 2, tip: d - 0.75, paint: .outlined)
            s.circle = (d / 2, d / 2 - 0.75)
            return s
        }
    }
}
