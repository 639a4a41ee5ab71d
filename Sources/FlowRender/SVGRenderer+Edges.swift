import FlowCore

extension SVGRenderer {
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
        // the outlines of the polygons drawn in place of their nodes' shapes, by node
        var outlines: [Int: [Point]?] = [:]
        func outline(_ i: Int) -> [Point]? {
            if let o = outlines[i] { return o }
            let o = polygonOutline(nodes[i], nodes[i].frame)
            outlines[i] = o
            return o
        }
        store.forEachEdge { e in
            guard let si = index[e.sourceNodeID], let ti = index[e.targetNodeID],
                let ends = EdgeEnds.resolve(
                    e, sourceFrame: nodes[si].frame, sourceHandles: nodes[si].handles,
                    targetFrame: nodes[ti].frame, targetHandles: nodes[ti].handles, autoHandles: autoHandles,
                    sourceShape: shapes[si], targetShape: shapes[ti])
            else { return }
            let type = EdgePathType.allCases.firstIndex(of: e.pathType) ?? 0
            // an edge ends on a drawn polygon's outline, not on the nearest shape's
            let source = Self.clipped(ends.source, to: outline(si), in: nodes[si].frame)
            let target = Self.clipped(ends.target, to: outline(ti), in: nodes[ti].frame)
            let g = EdgeGeometry(
                sourcePoint: source.point, sourcePosition: source.position,
                targetPoint: target.point, targetPosition: target.position,
                points: Array(ends.points), calculator: calculators[type])
            let emphasis: EdgeEmphasis =
                e.isDropTarget
                ? .dropTarget
                : e.isSelected ? .selected : anyAnimated && store.isEdgeAnimated(e.id) ? .animated : .normal
            let style = store.resolvedStyle(of: e)
            if Self.isInvisible(style) { return }
            let bounds = g.bounds.insetBy(dx: -reach, dy: -reach)
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
    /// and where it can the other edges' paths (`paths`, built from `items`); grows each
    /// edge's bounds by its label. `containers[i]`: whether `nodes[i]` is drawn as one.
    /// Returns a warning for every label that could not be placed without overlap.
    func placeLabels(
        _ items: inout [EdgeItem], _ nodes: [FlowNode<Data>], _ shapes: [NodeShape], containers: [Bool],
        paths: PathGrid, title: (FlowNode<Data>) -> String
    ) -> [String] {
        guard items.contains(where: { $0.label != nil }) else { return [] }
        var placer = LabelPlacer()
        for (i, n) in nodes.enumerated() {
            guard containers[i] else {
                placer.add(n.frame, name: "node '\(n.id)'")
                continue
            }
            // a label may sit inside a container or outside it, not across its border
            // or on its title
            placer.addBorder(of: n.frame, name: "the border of group '\(n.id)'")
            if let t = titleLayout(n, shapes[i], isContainer: true, title(n)) {
                placer.add(containerTitleBox(n, t), name: "the title of group '\(n.id)'")
            }
        }
        placer.paths = paths
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
