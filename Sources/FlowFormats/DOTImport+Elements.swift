import FlowCore
import FlowLayout

extension DOTReader.Builder {
    /// A DOT node as a store node: shape, size (`width`/`height` as minimums unless
    /// `fixedsize`), look and position; what is not mapped is reported.
    mutating func node(_ n: DOTGraph.Node) -> FlowNode<JSONValue> {
        var style = FlowStyle()
        var shape: NodeShape = .ellipse
        var title: String?
        var fill = false
        var width: Double?, height: Double?
        var fixedSize = false
        var rounded = false
        var classes: [String] = []
        var rawLabel: String?
        var shapeName = "ellipse"
        var htmlRecord: String?
        var htmlTable: DOTHTMLTable?
        var htmlSpans: [[DOTTextRun]]?
        var polygonAttributes: [String: String] = [:]
        for (key, value) in n.attributes {
            if styleAttribute(key, value, &style, kind: "node", fillFromColor: &fill) {
                if key == "style", styleParts(value).contains("rounded") { rounded = true }
                continue
            }
            switch key {
            case "label" where n.attributes.isHTML(key):
                let html = htmlLabel(value, unit: "node")
                if html.isRecord { htmlRecord = html.text } else { title = html.text }
                htmlTable = html.table
                htmlSpans = html.spans
                if html.bold { style.bold = true }
                // a `<FONT>` around all of a label without a table: the node's text colour and size
                if let f = html.font {
                    if let c = f.color { style.textColor = c }
                    if let size = f.size { style.fontSize = size }
                }
                if html.italic { style.italic = true }
            case "label": title = label(value, id: n.id); rawLabel = value
            case "shape":
                if let s = DOTReader.shapes[value.lowercased()] {
                    shape = s
                    shapeName = value.lowercased()
                } else {
                    tally.add("node shape '\(value)' is not mapped", unit: "node")
                }
            case "width": if let v = number(value), v > 0 { width = milli(v * 72) } else { tally.add("node width '\(value)' is not a size", unit: "node") }
            case "height": if let v = number(value), v > 0 { height = milli(v * 72) } else { tally.add("node height '\(value)' is not a size", unit: "node") }
            case "fixedsize": fixedSize = ["true", "shape"].contains(value.lowercased())
            case "pos": if points[n.id] == nil { tally.add("node pos '\(value)' is not a point", unit: "node") }
            case "class": classes = value.split(separator: " ").map(String.init)
            case "sides", "skew", "distortion", "peripheries", "orientation", "regular": polygonAttributes[key] = value
            default: tally.add("node attribute '\(key)' is not mapped", unit: "node")
            }
        }
        var polygon: DOTPolygon?
        (shape, polygon) = polygonShape(shapeName, shape, polygonAttributes)
        let regular = polygonAttributes["regular"].map { ["true", "yes", "1"].contains($0.lowercased()) || (number($0) ?? 0) != 0 } ?? false
        polygon?.regular = regular
        // Graphviz: a regular node is as wide as it is high, half an inch unless given
        if regular && width == nil && height == nil { (width, height) = (36, 36) }
        if shapeName == "point" {
            // a small filled dot without a label
            if style.fill == nil { style.fill = style.stroke ?? FlowColor("#000000") }
            title = ""
            if width == nil && height == nil { (width, height) = (3.6, 3.6) }
            fixedSize = true
        }
        if rounded && shape == .rectangle { shape = .rounded }
        if rounded && shape == .record { shape = .mrecord }
        if let htmlRecord {
            // a table: drawn in the node's shape, a box a record (and kept as a record, its
            // cells' ports the fields')
            if DOTReader.boxShapes.contains(shapeName) { shape = rounded ? .mrecord : .record }
            title = htmlRecord
            if width == nil && height == nil { (width, height) = (54, 36) }
        } else if shape.isRecord {
            // the title keeps the record syntax (its escapes), the fields lie across
            // the flow: stacked when the graph runs sideways
            title = recordLabel(rawLabel ?? "\\N", id: n.id)
            if width == nil && height == nil { (width, height) = (54, 36) }
        }
        if fill, style.fill == nil { style.fill = style.stroke ?? FlowColor("#d3d3d3") }
        var data = labelData(title, id: n.id)
        if let g = elementGradient(n.attributes, filled: fill, kind: "node") {
            // the first colour for what draws no gradient (Mermaid, a class sheet)
            style.fill = g.from
            data = data.setting("gradient", to: g.jsonValue)
        }
        if let htmlSpans, htmlTable == nil {
            // text in several looks: drawn as its runs, the node grown round them as dot
            // grows one round a label
            data = data.setting("spans", to: DOTTextRun.json(htmlSpans))
            if !fixedSize {
                let block = DOTTextRun.size(htmlSpans, base: style.font)
                let room = DOTHTMLTable.outlineRoom(Size(block.width + 16, block.height + 8), shape: shapeName, height: height)
                (width, height) = (milli(max(width ?? 54, room.width)), milli(max(height ?? 36, room.height)))
            }
        }
        if let htmlTable {
            let size = placeTable(htmlTable, node: n.id, shape: shapeName, font: style.font, width, height, fixed: fixedSize, &data)
            (width, height, fixedSize) = (size.width, size.height, true)
        }
        var size: Size?
        var autoSize = true
        if width != nil || height != nil {
            // Graphviz: `width` and `height` are minimums the label may grow, unless
            // `fixedsize` is set
            let w = width ?? 54, h = height ?? 36
            let given = shape == .circle ? Size(max(w, h), max(w, h)) : Size(w, h)
            func fitting(_ minimum: Size) -> Size {
                TitleLayout.fittingSize(
                    data.title(nodeID: n.id), font: style.font, shape: shape, isContainer: false,
                    wrapWidth: style.wrapWidth ?? TextLayout.defaultWrapWidth, minimum: minimum)
            }
            size = fixedSize ? given : fitting(given)
            // the size a node sized to its title has: it stays sized to its title
            // (a record keeps its size: its ports' places along its sides depend on it)
            autoSize = !fixedSize && !shape.isRecord && size == fitting(FlowNode<JSONValue>.defaultSize)
            if regular, let s = size {
                // Graphviz: a regular node is as wide as it is high
                size = Size(max(s.width, s.height), max(s.width, s.height))
                autoSize = false
            }
            if shape.isRecord, htmlTable == nil, let size {
                records[n.id] = RecordLabel.layout(
                    RecordLabel.parse(data.title(nodeID: n.id)), in: Rect(origin: .zero, size: size), font: style.font)
            }
        }
        if let polygon, shapeName != "point", htmlTable == nil {
            // the innermost outline around the title (or at the size given), the others
            // outside it
            let inner = fixedSize && size != nil
                ? size! : polygonSize(polygon, title: data.title(nodeID: n.id), style: style, shape: shape, from: size)
            let placed = polygon.placed(in: inner)
            let room = Size(placed.size.width - inner.width, placed.size.height - inner.height)
            data = data.setting("polygon", to: polygon.json(points: placed.points, room: room))
            if placed.size != inner || !fixedSize { (size, autoSize) = (placed.size, false) }
        }
        var position = Point.zero
        if allPositioned, let p = points[n.id] {
            let s = size ?? FlowNode<JSONValue>.defaultSize
            position = Point(milli(p.x - s.width / 2), milli((maxY - p.y) - s.height / 2))
        }
        return FlowNode(
            id: n.id, position: position, size: size, data: data,
            parentID: n.cluster.map { clusterIDs[$0] }, shape: shape,
            classes: validClasses(classes), style: style, autoSize: autoSize)
    }

    /// A DOT edge (the `i`th) as a store edge: its id, label, arrowheads by `dir`, the
    /// handles its ports name, its drawn spline's points; what is not mapped is reported.
    mutating func edge(_ e: DOTGraph.Edge, index i: Int) -> FlowEdge {
        var style = FlowStyle()
        var fill = false
        var title: String?
        var id = "e\(i + 1)"
        var classes: [String] = []
        var dir = graph.directed ? "forward" : "none"
        var bends: [Point] = []
        var head: ArrowHead?, tail: ArrowHead?
        var rank = EdgeRank("")
        var htmlLook: HTMLTextLook?
        for (key, value) in e.attributes {
            if styleAttribute(key, value, &style, kind: "edge", fillFromColor: &fill) { continue }
            switch key {
            case "label" where e.attributes.isHTML(key):
                let html = htmlText(value, unit: "edge")
                title = html.text
                htmlLook = html.look
            case "label": title = label(value, id: id)
            case "id": id = value
            case "pos" where allPositioned:
                if let p = splinePoints(value) { bends = p } else { tally.add("edge pos '\(value.prefix(20))' is not a spline", unit: "edge") }
            case "class": classes = value.split(separator: " ").map(String.init)
            case "dir": dir = value.lowercased()
            case "arrowhead", "arrowtail":
                if let a = DOTReader.arrow(value.lowercased()) {
                    if key == "arrowhead" { head = a.kind } else { tail = a.kind }
                    for d in a.dropped { tally.add("edge \(key): \(d)", unit: "edge") }
                } else {
                    tally.add("edge \(key) '\(value)' is not mapped", unit: "edge")
                }
            case "minlen":
                if let n = number(value), n >= 0, n <= Double(EdgeRank.maximumMinLength) {
                    rank.minLength = Int(n)
                } else {
                    tally.add("edge minlen '\(value)' is not a length (0 to \(EdgeRank.maximumMinLength))", unit: "edge")
                }
            case "constraint":
                switch value.lowercased() {
                case "false", "no", "0": rank.constraint = false
                case "true", "yes", "1", "": rank.constraint = true
                default: tally.add("edge constraint '\(value)' is not a boolean", unit: "edge")
                }
            case "weight":
                if let n = number(value), n == n.rounded(), n >= 0, n <= Double(EdgeRank.maximumWeight) {
                    rank.weight = Int(n)
                } else {
                    tally.add("edge weight '\(value)' is not a weight (an integer from 0 to \(EdgeRank.maximumWeight))", unit: "edge")
                }
            default: tally.add("edge attribute '\(key)' is not mapped", unit: "edge")
            }
        }
        htmlLook?.apply(to: &style)
        if !edgeIDs.insert(id).inserted {
            tally.plain.append("edge id '\(id)' is used twice; the second is 'e\(i + 1)'")
            id = "e\(i + 1)"
            edgeIDs.insert(id)
        }
        if !rank.isDefault {
            rank.edge = id
            edgeRanks.append(rank)
        }
        switch dir {
        case "forward":
            if let head, head != .arrow { style.targetArrow = head }
        case "back":
            style.targetArrow = ArrowHead.none
            style.sourceArrow = tail ?? .arrow
        case "both":
            if let head, head != .arrow { style.targetArrow = head }
            style.sourceArrow = tail ?? .arrow
        case "none":
            style.targetArrow = ArrowHead.none
        default:
            tally.add("edge dir '\(dir)' is not mapped", unit: "edge")
        }
        if !graph.directed && dir == "none" && head == nil {
            style.targetArrow = ArrowHead.none
        }
        let sh = handle(e.tailPort, node: e.tail, type: .source)
        let th = handle(e.headPort, node: e.head, type: .target)
        return FlowEdge(
            id: id, sourceNodeID: e.tail, sourceHandleID: sh, targetNodeID: e.head, targetHandleID: th,
            label: title, points: bends, classes: validClasses(classes), style: style)
    }
}
