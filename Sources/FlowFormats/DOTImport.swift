import FlowCore
import FlowLayout

/// DOT text to a document (docs/formats.md, "DOT").
public enum DOTReader {
    /// Reads DOT text. A syntax error throws `invalidDocument` naming line and column; every
    /// attribute that is not mapped is reported in the warnings.
    public static func read(_ text: String, operation: String = "load", limits: FormatLimits = FormatLimits()) throws(FlowError) -> FormatImport {
        var graph = try parse(text, operation, limits, countsFloor: true)
        if !graph.floor.isEmpty {
            // a statement that joins too many nodes each to each, its edges not made; a
            // graph whose nodes all have positions is not laid out
            if graph.nodes.contains(where: { $0.attributes["pos"] == nil }), let refusal = floorRefusal(graph, limits) {
                throw refusal
            }
            // or later lines took its nodes apart: read again, making every edge
            graph = try parse(text, operation, limits, countsFloor: false)
        }
        var builder = Builder(graph: graph)
        builder.readsImages = limits.readsImages
        let result = builder.build()
        try WorkLimit.check(operation)  // the builder stops early past the limit
        return result
    }

    private static func parse(
        _ text: String, _ operation: String, _ limits: FormatLimits, countsFloor: Bool
    ) throws(FlowError) -> DOTGraph {
        let graph: DOTGraph
        do {
            graph = try DOTParser.parse(text, limits: limits, countsFloor: countsFloor)
        } catch {
            try WorkLimit.check(operation)  // the parser stops early past the limit
            throw .invalidDocument(operation, "DOT: \(error.description)")
        }
        try WorkLimit.check(operation)
        return graph
    }

    /// The refusal of `graph`'s noted statements (`BendPointFloor`): nodes are counted in
    /// their innermost cluster, outside `rank` subgraphs, when no cluster has their id.
    private static func floorRefusal(_ graph: DOTGraph, _ limits: FormatLimits) -> FlowError? {
        var ranked = Set<String>()
        for r in graph.rankSets { ranked.formUnion(r.members) }
        return graph.floor.refusal(
            limit: limits.bendPoints, container: { graph.nodes[$0].cluster },
            counts: { i in
                let id = graph.nodes[i].id
                return !ranked.contains(id) && graph.clusterIndex[id] == nil
            })
    }

    static let shapes: [String: NodeShape] = [
        "box": .rectangle, "rect": .rectangle, "rectangle": .rectangle, "square": .rectangle,
        "ellipse": .ellipse, "oval": .ellipse, "circle": .circle,
        "diamond": .diamond, "hexagon": .hexagon, "parallelogram": .parallelogram,
        "cylinder": .cylinder, "note": .note, "mrecord": .mrecord, "record": .record,
        "mdiamond": .mdiamond, "msquare": .msquare, "mcircle": .circle, "doublecircle": .doublecircle,
        "triangle": .triangle, "invtriangle": .invtriangle, "house": .house, "invhouse": .invhouse,
        "trapezium": .trapezium, "invtrapezium": .invtrapezium, "pentagon": .pentagon, "septagon": .septagon,
        "octagon": .octagon, "doubleoctagon": .doubleoctagon, "tripleoctagon": .tripleoctagon,
        "plaintext": .plain, "plain": .plain, "none": .plain, "box3d": .box3d, "component": .component,
        "tab": .tab, "folder": .folder, "point": .circle, "polygon": .rectangle, "cds": .asymmetric,
    ]

    /// The DOT shapes whose node holding an HTML table becomes a record (a box round the
    /// table, or none); other shapes are drawn round the table.
    static let boxShapes: Set<String> = ["box", "rect", "rectangle", "square", "plaintext", "plain", "none", "record", "mrecord"]

    /// Graphviz's arrow shapes, filled and with the `o` modifier.
    static let arrowShapes: [String: (filled: ArrowHead, open: ArrowHead)] = [
        "normal": (.arrow, .hollowArrow), "inv": (.inv, .hollowInv), "dot": (.circle, .hollowCircle),
        "diamond": (.diamond, .hollowDiamond), "box": (.box, .hollowBox), "vee": (.vee, .open),
        "tee": (.tee, .tee), "crow": (.crow, .crow), "none": (.none, .none),
        "curve": (.open, .open), "icurve": (.inv, .hollowInv),
    ]

    /// Graphviz's older names for arrows.
    static let arrowSynonyms: [String: String] = [
        "ediamond": "odiamond", "open": "vee", "halfopen": "lvee", "empty": "onormal", "invempty": "oinv",
    ]

    /// A DOT arrow name (`normal`, `odot`, `linv`, `invodot`, …): the kind of its first
    /// shape (the one at the line's end), and what is not drawn: a half (`l`, `r`) is drawn
    /// whole, shapes after the first are not drawn, `curve` is drawn as an open arrowhead.
    /// Nil when the name is not one.
    static func arrow(_ name: String) -> (kind: ArrowHead, dropped: [String])? {
        var rest = Substring(arrowSynonyms[name] ?? name)
        var kinds: [ArrowHead] = [], dropped: [String] = []
        while !rest.isEmpty {
            var open = false, half: Character?
            if rest.first == "o", !arrowShapes.keys.contains(where: { rest.hasPrefix($0) }) { open = true; rest.removeFirst() }
            if let c = rest.first, c == "l" || c == "r", !arrowShapes.keys.contains(where: { rest.hasPrefix($0) }) {
                half = c
                rest.removeFirst()
            }
            // the longest shape name that starts the rest (`inv` before `i…`)
            guard let shape = arrowShapes.keys.filter({ rest.hasPrefix($0) }).max(by: { $0.count < $1.count }) else { return nil }
            rest.removeFirst(shape.count)
            let pair = arrowShapes[shape]!  // invariant: a key of the table
            kinds.append(open ? pair.open : pair.filled)
            if half != nil { dropped.append("half arrowhead '\(half!)\(shape)' drawn whole") }
            if shape == "curve" || shape == "icurve" { dropped.append("arrowhead '\(shape)' drawn as \(kinds.last!.rawValue)") }
            guard kinds.count <= 4 else { return nil }
        }
        guard let first = kinds.first else { return nil }
        if kinds.count > 1 { dropped.append("arrowheads after the first are not drawn") }
        return (first, dropped)
    }

    struct Builder {
        let graph: DOTGraph
        var tally = WarningTally()
        /// Whether `<IMG>` files are read (`FormatLimits.readsImages`).
        var readsImages = true
        var positioned = 0
        var points: [String: Point] = [:]
        var maxY = 0.0
        var direction = LayoutDirection.TB
        /// Whether the graph names its direction (`rankdir`): kept in the document's look.
        var directionGiven = false
        /// The fields of each record node, laid out in its frame at the origin.
        var records: [String: RecordField] = [:]
        /// Whether every node has a `pos` (the graph was laid out), and the clusters' `bb`
        /// boxes by index (`readPositions`).
        var allPositioned = false
        var boxes: [Int: Rect] = [:]
        /// The group id of each cluster so far, and the ids taken (`groupNode`).
        var clusterIDs: [String] = []
        var used = Set<String>()
        /// Handles the edges' ports add, by node, and the edge ids taken (`edge`).
        var handles: [String: [HandleDeclaration]] = [:]
        var edgeIDs = Set<String>()
        /// The edges' `minlen` and `constraint` (`DiagramLook.edgeRanks`), in edge order.
        var edgeRanks: [EdgeRank] = []
        /// Free space between neighbours in a rank and between ranks, in points, as the
        /// graph's `nodesep` and `ranksep` give it (nil when absent), and whether its ranks
        /// are equally spaced (`ranksep=equally`): kept in the document's look.
        var nodeSpacing: Double?
        var layerSpacing: Double?
        var equalLayerSpacing = false
        /// Graphviz's spacing when the graph gives none: 0.25 and 0.5 inches.
        static let defaultNodeSpacing = 18.0, defaultLayerSpacing = 36.0

        init(graph: DOTGraph) { self.graph = graph }

        /// Expands `\N`, `\G`, `\n`, `\l`, `\r` and `\\` in a label. A final `\n` (`\l`, `\r`)
        /// ends the last line, as in Graphviz: it adds no empty line.
        func label(_ raw: String, id: String) -> String {
            guard raw.contains("\\") else { return raw }
            var out = ""
            var it = raw.makeIterator()
            var endsLine = false
            while let c = it.next() {
                endsLine = false
                guard c == "\\" else { out.append(c); continue }
                guard let d = it.next() else { out.append(c); break }
                switch d {
                case "n", "l", "r": out.append("\n"); endsLine = true
                case "N", "E", "T", "H": out += id
                case "G": out += graph.id ?? ""
                case "\\": out.append("\\")
                default: out.append(c); out.append(d)
                }
            }
            if endsLine { out.removeLast() }
            return out
        }

        func styleParts(_ value: String) -> [String] {
            value.split(separator: ",").map { String($0).trimmingSpaces().lowercased() }
        }

        /// Applies the style attributes every element shares; returns whether `key` was one.
        mutating func styleAttribute(_ key: String, _ value: String, _ style: inout FlowStyle, kind: String, fillFromColor: inout Bool) -> Bool {
            switch key {
            case "color":
                if let c = DOTReader.Builder.firstColor(value) { style.stroke = c } else { tally.add("\(kind) colour '\(value)' is not mapped", unit: kind) }
            case "fillcolor":
                // a list's first colour; the list is a gradient (`elementGradient`)
                if let c = DOTReader.Builder.firstColor(value) { style.fill = c } else { tally.add("\(kind) colour '\(value)' is not mapped", unit: kind) }
            case "gradientangle" where kind == "node" || kind == "cluster":
                break  // read with the gradient (`elementGradient`)
            case "fontcolor":
                if let c = parseColor(value) { style.textColor = c } else { tally.add("\(kind) colour '\(value)' is not mapped", unit: kind) }
            case "penwidth":
                if let w = number(value), w >= 0 { style.strokeWidth = w } else { tally.add("\(kind) penwidth '\(value)' is not a width", unit: kind) }
            case "fontsize":
                if let v = number(value), v > 0 { style.fontSize = v } else { tally.add("\(kind) fontsize '\(value)' is not a size", unit: kind) }
            case "style":
                for part in styleParts(value) {
                    switch part {
                    case "dashed": style.dash = [6, 4]
                    case "dotted": style.dash = [2, 3]
                    case "solid": style.dash = nil
                    case "bold": style.strokeWidth = style.strokeWidth ?? 2
                    case "filled": fillFromColor = true
                    case "radial" where kind == "node" || kind == "cluster": fillFromColor = true  // a gradient's
                    case "invis": style.opacity = 0  // kept, not drawn
                    case "rounded" where kind == "node" || kind == "cluster": break
                    case "": break
                    default: tally.add("\(kind) style '\(part)' is not mapped", unit: kind)
                    }
                }
            default:
                return false
            }
            return true
        }

        mutating func build() -> FormatImport {
            let look = graphLook()
            readPositions()
            // Clusters become groups, outer ones first, then the nodes.
            var nodes = graph.clusters.map { groupNode($0) }
            for n in graph.nodes { nodes.append(node(n)) }
            // Ports on edges become handles where they name a side.
            var edges: [FlowEdge] = []
            var probe = WorkLimitProbe()
            for (i, e) in graph.edges.enumerated() {
                if probe.shouldStop() { break }
                edges.append(edge(e, index: i))
            }
            if allPositioned { fitGroups(&nodes, boxed: Set(boxes.keys.map { clusterIDs[$0] })) }
            for i in nodes.indices {
                if let extra = handles[nodes[i].id] { nodes[i].handles = HandleDeclaration.defaults + extra }
            }
            var doc = FlowDocument<JSONValue>(nodes: nodes, edges: edges)
            doc.viewport = Viewport()
            doc.look = look
            doc.look.edgeRanks = edgeRanks
            doc.look.nodeSpacing = nodeSpacing
            doc.look.layerSpacing = layerSpacing
            doc.look.equalLayerSpacing = equalLayerSpacing
            if directionGiven { doc.look.direction = DiagramLook.Direction(direction) }
            return FormatImport(
                document: doc, warnings: tally.lines, direction: direction, needsLayout: !allPositioned,
                nodeSpacing: nodeSpacing ?? Self.defaultNodeSpacing, layerSpacing: layerSpacing ?? Self.defaultLayerSpacing)
        }

        /// The diagram's look from the graph's attributes (title, font, page colour, rank
        /// sets); what is not mapped is reported.
        mutating func graphLook() -> DiagramLook {
            var look = DiagramLook()
            var htmlLook: HTMLTextLook?
            for (k, v) in graph.attributes {
                switch k {
                case "bb": break
                case "rankdir":
                    if let d = LayoutDirection(rawValue: v.uppercased()) {
                        direction = d
                        directionGiven = true
                    } else {
                        tally.add("graph rankdir '\(v)' is not a direction", unit: "")
                    }
                case "nodesep", "ranksep": separation(k, v)
                case "label":
                    var t = label(v, id: graph.id ?? "")
                    if graph.attributes.isHTML(k) {
                        let html = htmlText(v, unit: "graph")
                        t = html.text
                        htmlLook = html.look
                    }
                    if !t.isEmpty { look.title = t }
                case "labelloc":
                    switch v.lowercased() {
                    case "t": look.titlePlace = .top
                    case "b": look.titlePlace = .bottom
                    default: tally.add("graph labelloc '\(v)' is not a place (expected t or b)", unit: "")
                    }
                case "fontname": if !v.isEmpty { look.fontName = v }
                case "fontsize":
                    if let s = number(v), s > 0 { look.fontSize = s } else { tally.add("graph fontsize '\(v)' is not a size", unit: "") }
                case "fontcolor":
                    if let c = parseColor(v) { look.textColor = c } else { tally.add("graph colour '\(v)' is not mapped", unit: "") }
                case "bgcolor":
                    if let c = Self.firstColor(v) { look.background = c } else { tally.add("graph colour '\(v)' is not mapped", unit: "") }
                    let radial = graph.attributes["style"].map { styleParts($0).contains("radial") } ?? false
                    look.backgroundGradient = gradient(v, radial: radial, angle: graph.attributes["gradientangle"], kind: "graph")
                case "gradientangle" where graph.attributes["bgcolor"]?.contains(":") == true: break  // with bgcolor
                case "style" where v.lowercased().trimmingSpaces() == "radial" && graph.attributes["bgcolor"]?.contains(":") == true:
                    break  // with bgcolor
                default:
                    tally.add("graph attribute '\(k)' is not mapped", unit: "")
                }
            }
            let htmlLabels = graph.nodes.count(where: { $0.attributes.isHTML("label") })
                + graph.edges.count(where: { $0.attributes.isHTML("label") })
                + graph.clusters.count(where: { $0.attributes.isHTML("label") })
                + (graph.attributes.isHTML("label") ? 1 : 0)
            // HTML labels are read (`htmlLabel`); other HTML strings (ids, …) are kept as text
            let other = max(0, graph.htmlStrings - htmlLabels)
            if other > 0 {
                tally.plain.append("\(other) HTML string\(other == 1 ? "" : "s") kept as plain text (the markup is not interpreted)")
            }
            for k in graph.subgraphAttributes { tally.add("subgraph attribute '\(k)' is not mapped", unit: "subgraph") }
            look.ranks = rankSets()
            if let h = htmlLook {
                // a `<FONT>` round all of the title: its colour and size
                if let c = h.color { look.textColor = c }
                if let s = h.size, s <= FlowLimits.fontSize { look.fontSize = s }
                if h.bold { tally.add("graph HTML label <B> is not drawn", unit: "") }
                if h.italic { tally.add("graph HTML label <I> is not drawn", unit: "") }
            }
            return look
        }

        /// The nodes' `pos` points and the clusters' `bb` boxes, and the top of the drawing in
        /// DOT's y-up points (y grows up in DOT): the root `bb`, else the highest node or
        /// cluster.
        mutating func readPositions() {
            for n in graph.nodes {
                if let v = n.attributes["pos"], let p = point(v) { points[n.id] = p }
            }
            allPositioned = !graph.nodes.isEmpty && points.count == graph.nodes.count
            for (i, c) in graph.clusters.enumerated() {
                if let v = c.attributes["bb"], let r = box(v) { boxes[i] = r }
            }
            if let v = graph.attributes["bb"], let r = box(v) {
                maxY = r.origin.y + r.size.height
            } else {
                for n in graph.nodes {
                    guard let p = points[n.id] else { continue }
                    let h = n.attributes["height"].flatMap { number($0) }.map { $0 * 72 } ?? 0
                    maxY = max(maxY, p.y + h / 2)
                }
                for r in boxes.values { maxY = max(maxY, r.origin.y + r.size.height) }
            }
        }

        /// The group a cluster becomes (its id made unique among nodes and clusters).
        mutating func groupNode(_ c: DOTGraph.Cluster) -> FlowNode<JSONValue> {
            // `id` (which the DOT writer sets when it had to prefix `cluster_`) names the group.
            var id = c.attributes["id"] ?? c.id
            if id.isEmpty { id = c.id }
            let wanted = id
            var k = 2
            while graph.nodeIndex[id] != nil || used.contains(id) { id = "\(wanted)_\(k)"; k += 1 }
            if id != wanted { tally.plain.append("cluster '\(wanted)' was renamed '\(id)': a node or cluster has that id") }
            used.insert(id)
            clusterIDs.append(id)
            var style = FlowStyle()
            var title: String?
            var fill = false
            var shape: NodeShape?
            var classes: [String] = []
            var background: FlowColor?
            var htmlLook: HTMLTextLook?
            for (key, value) in c.attributes {
                if styleAttribute(key, value, &style, kind: "cluster", fillFromColor: &fill) {
                    if key == "style", styleParts(value).contains("rounded") { shape = .rounded }
                    continue
                }
                switch key {
                case "bb": if boxes[clusterIDs.count - 1] == nil { tally.add("cluster bb '\(value)' is not a box", unit: "cluster") }
                case "label" where c.attributes.isHTML(key):
                    let html = htmlText(value, unit: "cluster")
                    title = html.text
                    htmlLook = html.look
                case "label": title = label(value, id: c.id)
                case "id": break
                case "class": classes = value.split(separator: " ").map(String.init)
                case "bgcolor":
                    if let c = Self.firstColor(value) { background = c } else { tally.add("cluster colour '\(value)' is not mapped", unit: "cluster") }
                default: tally.add("cluster attribute '\(key)' is not mapped", unit: "cluster")
                }
            }
            // Graphviz: a filled cluster takes its fillcolor, else its color, else its
            // bgcolor; an unfilled one its bgcolor
            if style.fill == nil { style.fill = fill ? style.stroke ?? background : background }
            let gradient = elementGradient(c.attributes, filled: fill, kind: "cluster")
            if let gradient { style.fill = gradient.from }
            htmlLook?.apply(to: &style)
            var frame = Rect(origin: .zero, size: Size(200, 120))
            if allPositioned, let r = boxes[clusterIDs.count - 1] {
                frame = Rect(
                    origin: Point(milli(r.origin.x), milli(maxY - r.origin.y - r.size.height)),
                    size: Size(milli(r.size.width), milli(r.size.height)))
            }
            var data = labelData(title, id: id)
            if let gradient { data = data.setting("gradient", to: gradient.jsonValue) }
            return FlowNode(
                id: id, position: frame.origin, size: frame.size, data: data,
                parentID: c.parent.map { clusterIDs[$0] }, acceptsChildren: true,
                shape: shape, classes: validClasses(classes), style: style, autoSize: false)
        }

        /// Sizes the groups that had no `bb` around their children (inner groups first).
        func fitGroups(_ nodes: inout [FlowNode<JSONValue>], boxed: Set<String>) {
            let groups = nodes.indices.filter { nodes[$0].acceptsChildren && !boxed.contains(nodes[$0].id) }
            for g in groups.reversed() {
                let id = nodes[g].id
                var r: Rect?
                for n in nodes where n.parentID == id {
                    r = r.map { $0.union(n.frame) } ?? n.frame
                }
                guard let r else { continue }
                nodes[g].position = Point(r.origin.x - 20, r.origin.y - 44)
                nodes[g].size = Size(r.size.width + 40, r.size.height + 64)
            }
        }

        /// The shape `polygon` draws with `sides`, `skew` and `distortion` (Graphviz's), the
        /// double circle `peripheries=2` makes of a circle, and the polygon drawn in its place
        /// (`DOTPolygon`) when no shape draws it as it is (more sides, a rotation, more
        /// outlines); what is still not drawn is reported.
        mutating func polygonShape(_ name: String, _ shape: NodeShape, _ attributes: [String: String]) -> (NodeShape, DOTPolygon?) {
            var shape = shape
            func value(_ key: String) -> Double? { attributes[key].flatMap { number($0) } }
            var polygon = DOTPolygon.named[name]
            var drawn = false
            if name == "polygon" {
                let sides = Int(max(0, min(value("sides") ?? 4, Double(DOTPolygon.maximumSides))))
                let skew = value("skew") ?? 0, distortion = value("distortion") ?? 0
                // an ellipse is neither skewed nor distorted (as in Graphviz)
                polygon = sides < 3 ? DOTPolygon(sides: 0) : DOTPolygon(sides: sides, skew: skew, distortion: distortion)
                switch sides {
                case ..<3: shape = .ellipse  // Graphviz: fewer than 3 sides is an ellipse
                case 3: shape = .triangle
                case 4 where skew != 0: shape = .parallelogram
                case 4 where distortion > 0: shape = .invtrapezium
                case 4 where distortion < 0: shape = .trapezium
                case 4: shape = .rectangle
                case 5: shape = .pentagon
                case 6: shape = .hexagon
                case 7: shape = .septagon
                case 8: shape = .octagon
                default: shape = .ellipse
                }
                drawn = sides > 8 || sides > 4 && (skew != 0 || distortion != 0) || sides == 3 && (skew != 0 || distortion != 0)
            }
            if let o = value("orientation"), let p = polygon, p.sides >= 3 {
                let turn = DOTPolygon(sides: p.sides, orientation: o, skew: p.skew, distortion: p.distortion)
                if !turn.isUnrotated {
                    polygon!.orientation += o
                    drawn = true
                    shape = .ellipse  // edges end on the nearest shape that turns with it
                }
            }
            if let p = value("peripheries") {
                if p == 0 { shape = .plain; drawn = false; polygon = nil }
                else if p == 2 && shape == .circle { shape = .doublecircle }
                else if p == 2 && shape == .rectangle && name != "polygon" && !drawn { shape = .subroutine }
                else if p == 2 && shape == .octagon && !drawn { shape = .doubleoctagon }
                else if p == 1 || (p == 2 && [.doublecircle, .doubleoctagon].contains(shape))
                    || (p == 3 && shape == .tripleoctagon)
                {
                    // the shape draws them
                } else if polygon != nil {
                    polygon!.peripheries = Int(min(p, Double(DOTPolygon.maximumPeripheries)))
                    drawn = true
                } else {
                    tally.add("node attribute 'peripheries' is not mapped", unit: "node")
                }
            }
            // Graphviz reads `sides`, `skew` and `distortion` for polygons only; other shapes
            // are not turned
            if polygon?.sides ?? 0 < 3, let o = value("orientation"), o.truncatingRemainder(dividingBy: 360) != 0,
                shape.polygon(in: Rect(0, 0, 1, 1)) != nil || shape == .rectangle
            {
                tally.add("node attribute 'orientation' is not mapped", unit: "node")
            }
            return (shape, drawn ? polygon : nil)
        }

        /// An HTML label read (`DOTHTMLLabel`), what it drops reported for `unit`.
        mutating func htmlLabel(_ value: String, unit: String) -> DOTHTMLLabel {
            let html = DOTHTMLLabel(value, readsImages: readsImages)
            for d in html.dropped { tally.add("HTML label \(d) is not drawn", unit: unit) }
            return html
        }

        /// The text of an HTML label where a table is not drawn: a table's cells one a line
        /// (its borders, colours, spans and fonts dropped, reported); and the look the whole
        /// of a label without a table takes: its `<FONT>`'s colour and size, `<B>`, `<I>`.
        mutating func htmlText(_ value: String, unit: String) -> (text: String, look: HTMLTextLook) {
            let html = htmlLabel(value, unit: unit)
            guard html.isRecord else {
                // the look of part of the text is drawn in a node's label only
                for t in html.spanTags {
                    tally.add(t == "FACE" ? "HTML label FACE is not drawn" : "HTML label \(t) around part of the text is not drawn", unit: unit)
                }
                return (html.text, HTMLTextLook(color: html.font?.color, size: html.font?.size, bold: html.bold, italic: html.italic))
            }
            if html.hasFonts { tally.add("\(unit) HTML label <FONT> is not drawn", unit: unit) }
            tally.add("\(unit) HTML label <TABLE> drawn as its cells' text", unit: unit)
            let text = RecordLabel.leaves(RecordLabel.parse(html.text)).map { $0.lines.joined(separator: " ") }
                .filter { !$0.isEmpty }.joined(separator: "\n")
            return (text, HTMLTextLook())
        }

        /// What a `<FONT>`, `<B>` or `<I>` around all of an HTML label gives its text.
        struct HTMLTextLook {
            var color: FlowColor?, size: Double?
            var bold = false, italic = false

            /// Set on `style` (an edge's, a cluster's): over its `fontcolor` and `fontsize`,
            /// as in Graphviz.
            func apply(to style: inout FlowStyle) {
                if let color { style.textColor = color }
                if let size { style.fontSize = size }
                if bold { style.bold = true }
                if italic { style.italic = true }
            }
        }

        /// A record label with `\N` and `\G` expanded, its other escapes kept (the record
        /// syntax's), in braces when the graph runs sideways (Graphviz stacks the fields then).
        func recordLabel(_ raw: String, id: String) -> String {
            var out = ""
            var it = raw.makeIterator()
            while let c = it.next() {
                guard c == "\\" else { out.append(c); continue }
                guard let d = it.next() else { out.append(c); break }
                switch d {
                case "N": out += id
                case "G": out += graph.id ?? ""
                default: out.append(c); out.append(d)
                }
            }
            return direction.isHorizontal ? "{" + out + "}" : out
        }

        /// A port naming a side becomes a handle on that side (`s`, `n:in`, …). A record
        /// field's port becomes a handle over the field on the side the edge leaves by
        /// (its compass point's side, else the side facing the flow: a source's far side, a
        /// target's near side); a port the node does not have is reported.
        mutating func handle(_ port: DOTPort?, node: String, type: HandleType) -> String? {
            // without a port the edge uses the node's default handle of its kind, so it ends
            // on the node's border (where a layout turns it) and its arrowhead shows
            guard var port else { return type == .source ? "source" : "target" }
            // a record's field named like a compass point (`<n>`) is that field, as in Graphviz
            if port.name == nil, let c = port.compass, let record = records[node],
                RecordLabel.field(named: c, in: record) != nil
            {
                port = DOTPort(name: c, compass: nil)
            }
            var side: HandlePosition?
            switch port.compass {
            case "n"?, "ne"?, "nw"?: side = .top
            case "s"?, "se"?, "sw"?: side = .bottom
            case "e"?: side = .right
            case "w"?: side = .left
            case "c"?, "_"?, nil: side = nil
            default: side = nil
            }
            var offset = 0.0
            var id = (type == .source ? "out-" : "in-")
            if let name = port.name {
                if let record = records[node], let field = RecordLabel.field(named: name, in: record) {
                    let s = side ?? flowSide(type)
                    let f = field.frame, size = record.frame.size
                    offset = s == .top || s == .bottom
                        ? (f.midX / max(size.width, 1e-9) - 0.5) : (f.midY / max(size.height, 1e-9) - 0.5)
                    // a label wider than the node's given size spills past its sides
                    offset = milli(min(max(offset, -0.5), 0.5))
                    side = s
                    id += name + (port.compass.map { ":" + $0 } ?? "")
                } else {
                    tally.add("edge port '\(name)' is not a field of node '\(node)'", unit: "edge")
                    guard side != nil else { return type == .source ? "source" : "target" }
                    id += side!.rawValue
                }
            } else {
                guard let side else { return type == .source ? "source" : "target" }
                id += side.rawValue
            }
            var list = handles[node] ?? []
            if !list.contains(where: { $0.id == id }) {
                list.append(HandleDeclaration(id: id, type: type, position: side!, offset: offset))
                handles[node] = list
            }
            return id
        }

        /// The side an edge leaves its source by (`source`) or enters its target by along
        /// the graph's direction.
        func flowSide(_ type: HandleType) -> HandlePosition {
            let source = type == .source
            switch direction {
            case .TB: return source ? .bottom : .top
            case .BT: return source ? .top : .bottom
            case .LR: return source ? .right : .left
            case .RL: return source ? .left : .right
            }
        }

        mutating func validClasses(_ names: [String]) -> [String] {
            names.filter { tally.keepsClass($0) }
        }
    }
}
