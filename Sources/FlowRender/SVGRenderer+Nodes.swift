import FlowCore

// Nodes: draw order, shapes, titles and handles (docs/rendering.md, "Nodes").

extension SVGRenderer {
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

    /// One node: a group with the node's id and classes holding its shape, its title and
    /// its handles.
    func writeNode(
        _ w: inout ByteWriter, _ n: FlowNode<Data>, _ shape: NodeShape, isContainer: Bool,
        handles used: Set<HandleRef>?, title: (FlowNode<Data>) -> String
    ) {
        let f = n.frame
        w.raw("<g id=\"node-")
        w.escaped(n.id)
        w.raw("\" class=\"node")
        if isContainer { w.raw(" group") }
        let look = n.hasLook
        if look { writeClasses(&w, n.classes) }
        var state = NodeState()
        if case .draft(let s) = n.phase {
            state.draft = true
            switch s {
            case .neutral: w.raw(" draft")
            case .valid: w.raw(" draft valid"); state.outlined = true
            case .invalid: w.raw(" draft invalid"); state.outlined = true
            }
        }
        if n.isDropTarget {
            w.raw(" drop")
            state.outlined = true
            state.filled = true
        } else if n.isSelected {
            w.raw(" selected")
            state.outlined = true
        } else if n.isHovered {
            w.raw(" hovered")
            state.outlined = true
        }
        w.byte(UInt8(ascii: "\""))
        let inline = look ? StyleSheet.inlineStyle(n.classes, n.style, store.classStyles, node: state) : FlowStyle()
        writeInline(&w, inline, .nodeGroup)
        w.raw(">\n")
        // a table is drawn in the node's shape (a record's box, an ellipse, …)
        let table = !isContainer ? storedTable(n) : nil
        let polygon = table == nil && !isContainer ? storedPolygon(n) : nil
        let fill = look ? writeNodeGradient(&w, n, f) : nil
        if let polygon {
            writePolygon(&w, polygon, f, inline, fill: fill)
        } else if table.map(Self.outlinesTable) ?? true {
            writeShape(&w, shape, f, inline, fill: fill)
        }

        if let table {
            writeTable(&w, n, table, inline)
        } else if shape.isRecord && !isContainer {
            writeRecord(&w, n, title(n), inline)
        } else if !isContainer, let spans = storedSpans(n) {
            // text in several looks, centred where the title would be
            let c = shape.textCenter(in: f)
            let style = look ? store.resolvedStyle(of: n) : FlowStyle()
            writeSpans(&w, spans, in: Rect(c.x, c.y, 0, 0), align: nil, valign: nil, font: style.font, inline)
        } else if let layout = titleLayout(n, shape, isContainer: isContainer, title(n)) {
            if isContainer {
                writeContainerTitle(&w, layout, containerTitleBox(n, layout), inline)
            } else {
                writeTitle(&w, layout, shape, f, inline)
            }
        }

        // Centre handles are not drawn: they would sit on the title. Nor are default handles
        // when the store attaches edges to them on the facing side (`autoHandles`).
        let autoSides = store.configuration.autoHandles && HandleDeclaration.areDefaults(n.handles)
        if options.handles != .none && !autoSides {
            for h in n.handles where h.position != .center {
                if let used, !used.contains(HandleRef(node: n.id, handle: h.id)) { continue }
                // on the outline drawn: a polygon's, not the shape's that stands in for it
                var p = h.point(on: shape, in: f)
                if polygon != nil {
                    p = Self.clipped(EdgeEnd(point: p, position: h.position), to: polygonOutline(n, f), in: f).point
                }
                w.raw(h.type == .source ? "<circle class=\"handle source\" cx=\"" : "<circle class=\"handle target\" cx=\"")
                w.number(mapX(p.x))
                w.raw("\" cy=\"")
                w.number(mapY(p.y))
                w.raw("\" r=\"")
                w.number(Metrics.handleRadius * zoom)
                w.raw("\"/>\n")
            }
        }
        w.raw("</g>\n")
    }

    /// The outline of a node: a `rect` (rounded, rectangle, stadium), an `ellipse`, a
    /// `circle` or a `path`, with class `shape`.
    /// `fill`: a gradient's `url(#…)` that fills it.
    func writeShape(_ w: inout ByteWriter, _ shape: NodeShape, _ f: Rect, _ inline: FlowStyle, fill: String? = nil) {
        let cx = f.x + f.width / 2, cy = f.y + f.height / 2
        func attributes(_ w: inout ByteWriter, _ element: StaticString) {
            w.raw(element)
            w.raw(" class=\"shape\"")
            writeInline(&w, inline, .nodeShape, fill: fill)
        }
        switch shape {
        case .plain:
            break  // no outline: the title alone
        case .rounded, .rectangle, .stadium, .record, .mrecord:
            attributes(&w, "<rect")
            w.raw(" x=\"")
            w.number(mapX(f.x))
            w.raw("\" y=\"")
            w.number(mapY(f.y))
            w.raw("\" width=\"")
            w.number(f.width * zoom)
            w.raw("\" height=\"")
            w.number(f.height * zoom)
            if shape != .rectangle && shape != .record {
                let r = shape == .stadium ? NodeShape.diameter(in: f) / 2 : NodeShape.cornerRadius(in: f)
                w.raw("\" rx=\"")
                w.number(r * zoom)
            }
            w.raw("\"/>\n")
        case .ellipse:
            attributes(&w, "<ellipse")
            w.raw(" cx=\"")
            w.number(mapX(cx))
            w.raw("\" cy=\"")
            w.number(mapY(cy))
            w.raw("\" rx=\"")
            w.number(f.width / 2 * zoom)
            w.raw("\" ry=\"")
            w.number(f.height / 2 * zoom)
            w.raw("\"/>\n")
        case .circle:
            attributes(&w, "<circle")
            w.raw(" cx=\"")
            w.number(mapX(cx))
            w.raw("\" cy=\"")
            w.number(mapY(cy))
            w.raw("\" r=\"")
            w.number(NodeShape.diameter(in: f) / 2 * zoom)
            w.raw("\"/>\n")
        default:
            attributes(&w, "<path")
            w.raw(" d=\"")
            writeOutline(&w, shape, f)
            w.raw("\"/>\n")
        }
    }

    /// Path data of the outlines drawn as paths, from the parameters hit testing uses
    /// (`NodeShape.skew`, `hexagonInset`, `cylinderCap`, `documentWave`, `noteFold`).
    func writeOutline(_ w: inout ByteWriter, _ shape: NodeShape, _ f: Rect) {
        let cx = f.x + f.width / 2, cy = f.y + f.height / 2
        switch shape {
        case .diamond:
            polygon(&w, [Point(cx, f.y), Point(f.maxX, cy), Point(cx, f.maxY), Point(f.x, cy)])
        case .hexagon:
            let i = NodeShape.hexagonInset(in: f)
            polygon(&w, [
                Point(f.x + i, f.y), Point(f.maxX - i, f.y), Point(f.maxX, cy), Point(f.maxX - i, f.maxY),
                Point(f.x + i, f.maxY), Point(f.x, cy),
            ])
        case .parallelogram:
            let s = NodeShape.skew(in: f)
            polygon(&w, [Point(f.x + s, f.y), Point(f.maxX, f.y), Point(f.maxX - s, f.maxY), Point(f.x, f.maxY)])
        case .note:
            let k = NodeShape.noteFold(in: f)
            polygon(&w, [Point(f.x, f.y), Point(f.maxX - k, f.y), Point(f.maxX, f.y + k), Point(f.maxX, f.maxY), Point(f.x, f.maxY)])
            // the fold
            command(&w, "M", Point(f.maxX - k, f.y))
            command(&w, "L", Point(f.maxX - k, f.y + k))
            command(&w, "L", Point(f.maxX, f.y + k))
        case .cylinder:
            let ry = NodeShape.cylinderCap(in: f), rx = f.width / 2
            // the body: down the left side, round the bottom, up the right, over the top
            command(&w, "M", Point(f.x, f.y + ry))
            command(&w, "L", Point(f.x, f.maxY - ry))
            arc(&w, rx, ry, to: Point(f.maxX, f.maxY - ry))
            command(&w, "L", Point(f.maxX, f.y + ry))
            arc(&w, rx, ry, to: Point(f.x, f.y + ry))
            w.byte(UInt8(ascii: "Z"))
            // the front of the top cap
            command(&w, "M", Point(f.x, f.y + ry))
            arc(&w, rx, ry, to: Point(f.maxX, f.y + ry))
        case .document:
            let a = NodeShape.documentWave(in: f), k = NodeShape.waveControlFactor * a
            command(&w, "M", Point(f.x, f.y))
            command(&w, "L", Point(f.maxX, f.y))
            command(&w, "L", Point(f.maxX, f.maxY - a))
            w.byte(UInt8(ascii: "C"))
            point(&w, Point(f.x + f.width * 2 / 3, f.maxY - a - k))
            w.byte(32)
            point(&w, Point(f.x + f.width / 3, f.maxY - a + k))
            w.byte(32)
            point(&w, Point(f.x, f.maxY - a))
            w.byte(UInt8(ascii: "Z"))
        case .rounded, .rectangle, .stadium, .ellipse, .circle, .record, .mrecord, .plain:
            polygon(&w, [Point(f.x, f.y), Point(f.maxX, f.y), Point(f.maxX, f.maxY), Point(f.x, f.maxY)])
        case .triangle, .invtriangle, .house, .invhouse, .trapezium, .invtrapezium, .pentagon, .septagon,
            .octagon, .doubleoctagon, .tripleoctagon, .asymmetric:
            // each periphery inside the last, the gap taken off every side
            for k in 0..<shape.peripheries {
                let g = Double(k) * NodeShape.peripheryGap
                polygon(&w, shape.polygon(in: f.insetBy(dx: g, dy: g))!)  // invariant: these are polygons
            }
        case .doublecircle:
            let r = NodeShape.diameter(in: f) / 2
            for radius in [r, max(0, r - NodeShape.peripheryGap)] {
                command(&w, "M", Point(cx - radius, cy))
                arc(&w, radius, radius, to: Point(cx + radius, cy))
                arc(&w, radius, radius, to: Point(cx - radius, cy))
                w.byte(UInt8(ascii: "Z"))
            }
        case .msquare, .mdiamond, .box3d, .component, .subroutine, .tab, .folder:
            writeMarkedOutline(&w, shape, f)
        }
    }

    /// The outlines of the shapes with marks inside or on them: the box or diamond, then
    /// the marks (cut corners and tips, a 3D box's edges, a component's boxes, a
    /// subroutine's lines, a tab, a folder's tab).
    func writeMarkedOutline(_ w: inout ByteWriter, _ shape: NodeShape, _ f: Rect) {
        let cx = f.x + f.width / 2, cy = f.y + f.height / 2
        switch shape {
        case .msquare, .mdiamond:
            let m = NodeShape.markSize(in: f)
            if shape == .msquare {
                polygon(&w, [Point(f.x, f.y), Point(f.maxX, f.y), Point(f.maxX, f.maxY), Point(f.x, f.maxY)])
                // the corners cut off
                for (a, b) in [
                    (Point(f.x, f.y + m), Point(f.x + m, f.y)), (Point(f.maxX - m, f.y), Point(f.maxX, f.y + m)),
                    (Point(f.maxX, f.maxY - m), Point(f.maxX - m, f.maxY)), (Point(f.x + m, f.maxY), Point(f.x, f.maxY - m)),
                ] {
                    command(&w, "M", a)
                    command(&w, "L", b)
                }
            } else {
                polygon(&w, [Point(cx, f.y), Point(f.maxX, cy), Point(cx, f.maxY), Point(f.x, cy)])
                // the tips cut off
                let kx = m * f.width / max(f.height, 1e-9)
                for (a, b) in [
                    (Point(cx - kx, f.y + m), Point(cx + kx, f.y + m)), (Point(cx - kx, f.maxY - m), Point(cx + kx, f.maxY - m)),
                    (Point(f.x + kx, cy - m), Point(f.x + kx, cy + m)), (Point(f.maxX - kx, cy - m), Point(f.maxX - kx, cy + m)),
                ] {
                    command(&w, "M", a)
                    command(&w, "L", b)
                }
            }
        case .box3d:
            let d = NodeShape.markSize(in: f)
            polygon(&w, [
                Point(f.x, f.y + d), Point(f.x + d, f.y), Point(f.maxX, f.y), Point(f.maxX, f.maxY - d),
                Point(f.maxX - d, f.maxY), Point(f.x, f.maxY),
            ])
            // the front face's top and right edges
            command(&w, "M", Point(f.x, f.y + d))
            command(&w, "L", Point(f.maxX - d, f.y + d))
            command(&w, "L", Point(f.maxX, f.y))
            command(&w, "M", Point(f.maxX - d, f.y + d))
            command(&w, "L", Point(f.maxX - d, f.maxY))
        case .component:
            let d = NodeShape.markSize(in: f)
            polygon(&w, [Point(f.x, f.y), Point(f.maxX, f.y), Point(f.maxX, f.maxY), Point(f.x, f.maxY)])
            // two small boxes over the left side
            for y in [f.y + f.height / 4 - d / 2, f.y + f.height * 3 / 4 - d / 2] {
                polygon(&w, [Point(f.x - d / 2, y), Point(f.x + d / 2, y), Point(f.x + d / 2, y + d), Point(f.x - d / 2, y + d)])
            }
        case .subroutine:
            let d = NodeShape.subroutineInset(in: f)
            polygon(&w, [Point(f.x, f.y), Point(f.maxX, f.y), Point(f.maxX, f.maxY), Point(f.x, f.maxY)])
            // a line inside each side
            for x in [f.x + d, f.maxX - d] {
                command(&w, "M", Point(x, f.y))
                command(&w, "L", Point(x, f.maxY))
            }
        case .tab, .folder:
            let d = NodeShape.markSize(in: f)
            polygon(&w, [Point(f.x, f.y), Point(f.maxX, f.y), Point(f.maxX, f.maxY), Point(f.x, f.maxY)])
            if shape == .tab {
                // a small tab in the top left corner
                polygon(&w, [Point(f.x + d, f.y), Point(f.x + 3 * d, f.y), Point(f.x + 3 * d, f.y + d), Point(f.x + d, f.y + d)])
            } else {
                // a folder's tab on top, to the right
                command(&w, "M", Point(f.maxX - 5 * d, f.y))
                command(&w, "L", Point(f.maxX - 4 * d, f.y - d))
                command(&w, "L", Point(f.maxX - 2 * d, f.y - d))
                command(&w, "L", Point(f.maxX - d, f.y))
            }
        default:
            break
        }
    }

    func polygon(_ w: inout ByteWriter, _ points: [Point]) {
        for (i, p) in points.enumerated() { command(&w, i == 0 ? "M" : "L", p) }
        w.byte(UInt8(ascii: "Z"))
    }

    private func command(_ w: inout ByteWriter, _ c: Character, _ p: Point) {
        w.byte(c.asciiValue!)  // invariant: M or L
        point(&w, p)
    }

    private func arc(_ w: inout ByteWriter, _ rx: Double, _ ry: Double, to p: Point) {
        w.byte(UInt8(ascii: "A"))
        w.number(rx * zoom)
        w.byte(32)
        w.number(ry * zoom)
        w.raw(" 0 0 0 ")
        point(&w, p)
    }

    /// Node `n`'s title as drawn: in its style's font, wrapped where the store wrapped it
    /// (a node sized to its title) and cut to fit its frame; nil when nothing shows.
    /// A container's title is measured bold unless its style says otherwise, as it is drawn.
    func titleLayout(_ n: FlowNode<Data>, _ shape: NodeShape, isContainer: Bool, _ title: String) -> TextLayout? {
        let style = n.hasLook ? store.resolvedStyle(of: n) : FlowStyle()
        let wrapWidth = n.autoSize ? style.wrapWidth ?? TextLayout.defaultWrapWidth : nil
        let font = isContainer ? TextFont(size: style.font.size, bold: style.bold ?? true) : style.font
        return TitleLayout.layout(
            title, font: font, shape: shape, frame: n.frame, isContainer: isContainer, wrapWidth: wrapWidth)
    }

    /// A node's title centred in the shape's text area (`writeText`).
    func writeTitle(_ w: inout ByteWriter, _ layout: TextLayout, _ shape: NodeShape, _ f: Rect, _ inline: FlowStyle) {
        let c = shape.textCenter(in: f)
        let y = c.y - Double(layout.lines.count - 1) * layout.font.lineHeight / 2 + layout.font.baselineOffset
        writeText(&w, layout, x: c.x, firstBaseline: y, inline)
    }

    /// A container's title in `box` (`containerTitleBox`: the top left or the top right of
    /// its frame), started at the box's left.
    func writeContainerTitle(_ w: inout ByteWriter, _ layout: TextLayout, _ box: Rect, _ inline: FlowStyle) {
        let y = box.y + layout.font.lineHeight / 2 + layout.font.baselineOffset
        writeText(&w, layout, x: box.x, firstBaseline: y, inline)
    }

    /// The title: one `text`, its lines as `tspan`s when there are several, the first line's
    /// baseline at `y`; centred on `x` or started there, as the node's class says.
    private func writeText(
        _ w: inout ByteWriter, _ layout: TextLayout, x: Double, firstBaseline y: Double, _ inline: FlowStyle
    ) {
        let lh = layout.font.lineHeight
        w.raw("<text class=\"title\"")
        writeInline(&w, inline, .nodeTitle)
        if layout.lines.count == 1 {
            w.raw(" x=\"")
            w.number(mapX(x))
            w.raw("\" y=\"")
            w.number(mapY(y))
            w.raw("\">")
            w.escaped(layout.lines[0])
        } else {
            w.byte(UInt8(ascii: ">"))
            writeLines(&w, layout.lines, x: x, firstBaseline: y, lineHeight: lh)
        }
        w.raw("</text>\n")
    }

    /// `lines` as `tspan`s centred or started at `x`, the first on `firstBaseline`, each
    /// next one `lineHeight` lower (canvas units).
    func writeLines(_ w: inout ByteWriter, _ lines: [String], x: Double, firstBaseline: Double, lineHeight: Double) {
        var y = firstBaseline
        for line in lines {
            w.raw("<tspan x=\"")
            w.number(mapX(x))
            w.raw("\" y=\"")
            w.number(mapY(y))
            w.raw("\">")
            w.escaped(line)
            w.raw("</tspan>")
            y += lineHeight
        }
    }
}

/// What a node's state styles itself, so the node's own style leaves it alone.
struct NodeState {
    /// Selected, hovered, a drop target or a valid or invalid draft: the outline's colour
    /// and width.
    var outlined = false
    /// A drop target: the fill.
    var filled = false
    /// A draft: the outline's dashes.
    var draft = false
}
