import Testing

@testable import FlowCore
@testable import FlowRender

/// Whole-document goldens under Golden/ (`RECORD_GOLDEN=1 swift test --filter FlowRenderTests`
/// rewrites them). Every picture is also parsed and checked by `SVGDocument`.
@Suite struct GoldenTests {
    static let sides: [HandlePosition] = [.top, .bottom, .left, .right, .center]

    /// All 25 source side × target side pairs of one path type in a 5 × 5 matrix: row =
    /// source side, column = target side. Each cell holds a source node at its top left and
    /// a target node below and to the right of it.
    static func sideMatrix(_ type: EdgePathType) throws -> Store {
        var nodes: [FlowNode<JSONValue>] = []
        var edges: [FlowEdge] = []
        for (row, s) in sides.enumerated() {
            for (column, t) in sides.enumerated() {
                let x = Double(column) * 360
                let y = Double(row) * 280
                let a = "\(s.rawValue)-\(t.rawValue)-a"
                let b = "\(s.rawValue)-\(t.rawValue)-b"
                nodes.append(
                    node(a, x, y, 110, 40, title: s.rawValue,
                        handles: [HandleDeclaration(id: "out", type: .source, position: s)]))
                nodes.append(
                    node(b, x + 170, y + 150, 110, 40, title: t.rawValue,
                        handles: [HandleDeclaration(id: "in", type: .target, position: t)]))
                edges.append(edge("\(s.rawValue)-\(t.rawValue)", a, "out", b, "in", type: type))
            }
        }
        return try makeStore(nodes, edges)
    }

    @Test(arguments: EdgePathType.allCases)
    func everySidePairOfAPathType(_ type: EdgePathType) throws {
        let store = try Self.sideMatrix(type)
        let svg = try renderSVG(store)
        try Golden.check(svg, "sides-\(type.rawValue)")
        let doc = try SVGDocument(svg)
        #expect(doc.edgePaths.count == 25)
        #expect(doc.nodes.count == 50)
        // Each path is the edge's geometry, as the store computes it.
        for (path, e) in zip(doc.edgePaths, store.edges) {
            let g = try store.edgeGeometry(e.id)
            let d = path.attributes["d"] ?? ""
            #expect(d.hasPrefix("M\(fmt(g.sourcePoint.x)) \(fmt(g.sourcePoint.y))"))
            #expect(d.hasSuffix("\(fmt(g.targetPoint.x)) \(fmt(g.targetPoint.y))"))
            let command: Character =
                switch type {
                case .bezier: "C"
                case .straight: "L"
                case .smoothStep, .orthogonal: "Q"
                case .simpleBezier: "Q"
                }
            #expect(d.contains(command) || ((type == .smoothStep || type == .orthogonal) && !d.contains("C")))
        }
    }

    /// One edge of each path type through three bend points, one row per type.
    @Test func bendPoints() throws {
        var nodes: [FlowNode<JSONValue>] = []
        var edges: [FlowEdge] = []
        for (row, type) in EdgePathType.allCases.enumerated() {
            let y = Double(row) * 260
            nodes.append(node("\(type.rawValue)-a", 0, y, 120, 40, title: "a"))
            nodes.append(node("\(type.rawValue)-b", 420, y + 120, 120, 40, title: "b"))
            var e = edge(type.rawValue, "\(type.rawValue)-a", "source", "\(type.rawValue)-b", "target", type: type, label: type.rawValue)
            e.points = [Point(160, y + 110), Point(330, y + 20), Point(380, y + 70)]
            edges.append(e)
        }
        let store = try makeStore(nodes, edges)
        let svg = try renderSVG(store)
        try Golden.check(svg, "bend-points")
        let doc = try SVGDocument(svg)
        #expect(doc.labels == EdgePathType.allCases.map(\.rawValue))
        // Each path is the edge's geometry through its points, as the store computes it.
        for (path, e) in zip(doc.edgePaths, store.edges) {
            let g = try store.edgeGeometry(e.id)
            let d = path.attributes["d"] ?? ""
            #expect(d.hasPrefix("M\(fmt(g.sourcePoint.x)) \(fmt(g.sourcePoint.y))"))
            #expect(d.hasSuffix("\(fmt(g.targetPoint.x)) \(fmt(g.targetPoint.y))"))
            #expect(SVGDocument.numberTokens(d).count == 2 * g.path.segments.reduce(0) { n, s in
                switch s {
                case .move, .line: n + 1
                case .quad: n + 2
                case .cubic: n + 3
                }
            })
        }
        // The picture grows to take in a point far from the nodes.
        let wide = try renderSVG(store, options: SVGOptions())
        try store.updateEdge("straight") { $0.points.append(Point(1200, 40)) }
        let wider = try SVGDocument(try renderSVG(store, options: SVGOptions()))
        #expect(try (wider.root.number("width") ?? 0) > (SVGDocument(wide).root.number("width") ?? 0) + 600)
    }

    /// A small flow chart using every feature at once: the README picture.
    static func showcase() throws -> Store {
        let store = try makeStore(
            [
                node("start", 0, 0, 140, 50, title: "Start", handles: sideways),
                node("check", 260, 0, 160, 60, title: "Valid input?", handles: [
                    HandleDeclaration(id: "target", type: .target, position: .left),
                    HandleDeclaration(id: "yes", type: .source, position: .right),
                    HandleDeclaration(id: "no", type: .source, position: .bottom),
                ]),
                node("group", 520, -70, 260, 270, title: "Processing", container: true, handles: []),
                node("work", 560, 10, 180, 50, title: "Transform & store", parent: "group"),
                node("done", 560, 120, 180, 50, title: "Done ✓", parent: "group"),
                node("error", 260, 180, 160, 50, title: "Report the error to the user", handles: [
                    HandleDeclaration(id: "target", type: .target, position: .top),
                    HandleDeclaration(id: "source", type: .source, position: .left),
                ]),
            ],
            [
                edge("e1", "start", "source", "check", "target", type: .smoothStep),
                edge("e2", "check", "yes", "work", "target", type: .bezier, label: "yes"),
                edge("e3", "check", "no", "error", "target", type: .smoothStep, label: "no"),
                edge("e4", "work", "source", "done", "target", type: .straight),
                edge("e5", "error", "source", "start", "target", type: .bezier, label: "retry"),
            ])
        try store.selectNode("check")
        try store.setEdgeAnimated("e4", true)
        return store
    }

    @Test func showcaseInBothThemes() throws {
        let store = try Self.showcase()
        store.configuration.backgroundStyle.pattern = .dot
        for theme in SVGTheme.allCases {
            let svg = try renderSVG(store, options: SVGOptions(theme: theme))
            try Golden.check(svg, "showcase-\(theme.rawValue)")
            let doc = try SVGDocument(svg)
            #expect(doc.nodes.count == 6)
            #expect(doc.edgePaths.count == 5)
            #expect(doc.labels == ["yes", "no", "retry"])
            #expect(
                doc.titles == [
                    "Processing", "Start", "Valid input?", "Report the error to\nthe user",
                    "Transform & store", "Done ✓",
                ])
        }
    }

    @Test func labels() throws {
        let store = try makeStore(
            [
                node("a", 0, 0, handles: sideways),
                node("b", 320, 0, handles: sideways),
                node("c", 320, 200, handles: sideways),
                node("d", 0, 400, handles: sideways),
                node("e", 600, 400, handles: sideways),
                node("f", 700, 0, handles: sideways),
            ],
            [
                edge("plain", "a", "source", "b", "target", type: .straight, label: "plain"),
                edge("markup", "a", "source", "c", "target", type: .straight, label: "<&\"'>"),
                edge("backwards", "e", "source", "d", "target", type: .straight, label: "upright"),
                edge("steep", "c", "source", "f", "target", type: .straight, label: "steep"),
                edge("unicode", "b", "source", "f", "target", type: .bezier, label: "Grüße ✓ 日本語"),
                edge(
                    "long", "d", "source", "c", "target", type: .smoothStep,
                    label: "a label far too long to fit in two hundred pixels of box width"),
                edge(
                    "controls", "c", "source", "e", "target", type: .simpleBezier,
                    label: "tab\there\u{0}\u{7}\u{FFFE}!"),
                edge("empty", "a", "source", "d", "target", type: .bezier, label: ""),
            ])
        let svg = try renderSVG(store)
        try Golden.check(svg, "labels")
        let doc = try SVGDocument(svg)
        #expect(
            doc.labels == [
                "plain", "<&\"'>", "upright", "steep", "Grüße ✓ 日本語",
                "a label far too long to fi…", "tab here!",
            ])
        #expect(svg.contains("&lt;&amp;&quot;&apos;&gt;"))
        #expect(svg.contains("Grüße ✓ 日本語"))
        // Only the sloped straight edges are rotated, and never upside down.
        let rotations = doc.elements("g").compactMap { $0.attributes["transform"] }
        #expect(rotations.count == 2)
        for r in rotations {
            let degrees = try #require(Double(SVGDocument.numberTokens(r)[0]))
            #expect(degrees > -90 && degrees <= 90 && degrees != 0)
        }
        // Label boxes are 8 wider than the estimated text and at most 200 wide.
        let boxes = doc.elements("rect", class: "label").compactMap { $0.number("width") }
        #expect(boxes == [43, 43, 57, 43, 100, 197, 71])
    }

    @Test func groupsAreDrawnBehindTheirChildren() throws {
        let store = try makeStore([
            node("c4", 380, 330, 140, 50, z: 5),
            node("g1", 0, 0, 520, 420, container: true, handles: []),
            node("c1", 20, 60, 140, 50, parent: "g1", z: 1),
            node("g2", 200, 40, 300, 300, parent: "g1", container: true),
            node("c2", 230, 110, 140, 50, parent: "g2"),
            node("c3", 250, 140, 140, 50, parent: "g2", z: -1),
            node("empty", 600, 0, 200, 120, title: "An empty group", container: true),
        ], [
            edge("e1", "c1", "source", "c2", "target"),
            edge("e2", "c2", "source", "c4", "target", type: .smoothStep),
        ])
        let svg = try renderSVG(store)
        try Golden.check(svg, "groups")
        let doc = try SVGDocument(svg)
        // Containers first (depth, zIndex, store order), then edges, then the other nodes.
        let order = doc.elements.filter { $0.name == "text" || $0.name == "path" && $0.classes.contains("edge") }
            .map { $0.name == "path" ? "edge" : $0.text }
        #expect(order == ["g1", "An empty group", "g2", "edge", "edge", "c4", "c1", "c3", "c2"])
        #expect(doc.nodes.filter { $0.classes.contains("group") }.count == 3)
    }

    @Test func selectionHoverDropTargetsAndAnimation() throws {
        let store = try makeStore([
            node("plain", 0, 0), node("selected", 200, 0), node("hovered", 400, 0),
            node("other", 600, 0), node("both", 800, 0),
            FlowNode(id: "draft", position: Point(0, 200), data: .string("draft"), phase: .draft(.neutral)),
            FlowNode(id: "valid", position: Point(200, 200), data: .string("valid"), phase: .draft(.valid)),
            FlowNode(id: "invalid", position: Point(400, 200), data: .string("invalid"), phase: .draft(.invalid)),
        ], [
            edge("normal", "plain", "source", "draft", "target"),
            edge("sel", "selected", "source", "valid", "target"),
            edge("anim", "hovered", "source", "invalid", "target"),
            edge("dropEdge", "other", "source", "invalid", "target"),
            edge("selAnim", "both", "source", "invalid", "target", type: .straight),
            edge("selDrop", "plain", "source", "valid", "target", type: .smoothStep),
        ])
        try store.selectNode("selected")
        try store.selectNode("both", exclusive: false)
        try store.selectEdge("sel", exclusive: false)
        try store.selectEdge("selAnim", exclusive: false)
        try store.selectEdge("selDrop", exclusive: false)
        try store.setAnimatedEdges(["anim", "selAnim"])
        try store.setHoveredNode("hovered")
        try store.setDropTargetNode("both")
        try store.setDropTargetEdge("selDrop")
        let svg = try renderSVG(store)
        try Golden.check(svg, "styles")
        let doc = try SVGDocument(svg)
        #expect(doc.nodes.map { $0.attributes["class"] ?? "" } == [
            "node", "node selected", "node hovered", "node", "node drop",
            "node draft", "node draft valid", "node draft invalid",
        ])
        // Layers bottom to top: normal, animated, selected, drop target; store order within.
        #expect(doc.edgePaths.map { $0.attributes["class"] ?? "" } == [
            "edge", "edge", "edge animated", "edge selected", "edge selected", "edge drop",
        ])
        let style = doc.elements("style")[0].text
        #expect(style.contains(".edge{fill:none;stroke:#808080;stroke-width:1.5;stroke-dasharray:none}"))
        #expect(style.contains(".edge.animated{stroke-dasharray:5 5}"))
        #expect(style.contains(".edge.selected{stroke:#007aff;stroke-width:2.5}"))
        #expect(style.contains(".edge.drop{stroke:#007aff;stroke-width:3.5}"))
        // One arrowhead per distinct colour, each edge ending in its colour's.
        #expect(doc.elements("marker").compactMap { $0.attributes["id"] } == ["arrow-808080", "arrow-007aff"])
        #expect(doc.edgePaths.map { $0.attributes["marker-end"] ?? "" } == [
            "url(#arrow-808080)", "url(#arrow-808080)", "url(#arrow-808080)", "url(#arrow-007aff)",
            "url(#arrow-007aff)", "url(#arrow-007aff)",
        ])
    }

    @Test func customEdgeStyle() throws {
        let store = try makeStore(
            [node("a", 0, 0), node("b", 100, 200), node("c", 300, 200)],
            [edge("ab", "a", "source", "b", "target"), edge("ac", "a", "source", "c", "target")]
        ) {
            $0.edgeStyle.strokeColor = "#336699CC"
            $0.edgeStyle.selectedStrokeColor = "#ff8800"
            $0.edgeStyle.lineWidth = 2
            $0.edgeStyle.dashPattern = [6, 2]
            $0.edgeStyle.animatedDashPattern = [1, 0.5]
        }
        try store.selectEdge("ac")
        let svg = try renderSVG(store, options: SVGOptions(padding: 10, theme: .dark))
        try Golden.check(svg, "custom-edge-style")
        let doc = try SVGDocument(svg)
        #expect(doc.elements("marker").compactMap { $0.attributes["id"] } == ["arrow-336699cc", "arrow-ff8800"])
        let arrow = try #require(doc.elements("marker").first?.children.first)
        #expect(arrow.attributes["fill"] == "#336699" && arrow.attributes["fill-opacity"] == "0.8")
        #expect(doc.elements("style")[0].text.contains(".edge{fill:none;stroke:#336699;stroke-opacity:0.8;stroke-width:2;stroke-dasharray:6 2}"))
    }

    static func backgroundStore(_ pattern: BackgroundPattern) throws -> Store {
        try makeStore(
            [node("a", 0, 0, handles: sideways), node("b", 260, 90, handles: sideways)],
            [edge("ab", "a", "source", "b", "target", type: .smoothStep, label: "on a pattern")]
        ) { $0.backgroundStyle.pattern = pattern }
    }

    @Test(arguments: BackgroundPattern.allCases)
    func backgrounds(_ pattern: BackgroundPattern) throws {
        let store = try Self.backgroundStore(pattern)
        let svg = try renderSVG(store)
        try Golden.check(svg, "background-\(pattern.rawValue)")
        let doc = try SVGDocument(svg)
        let fills = doc.elements("rect").compactMap { $0.attributes["fill"] }
        switch pattern {
        case .none: #expect(fills.isEmpty)
        case .grid: #expect(fills == ["url(#bg-grid-fine)", "url(#bg-grid-coarse)"])
        case .dot: #expect(fills == ["url(#bg-dots)"])
        }
        // Without `background` only the theme colour is drawn.
        let plain = try SVGDocument(try renderSVG(store, options: SVGOptions(background: false)))
        #expect(plain.elements("pattern").isEmpty)
        #expect(plain.elements("rect", class: "bg").count == 1)
    }

    @Test func darkGridBackground() throws {
        let store = try Self.backgroundStore(.grid)
        try Golden.check(try renderSVG(store, options: SVGOptions(theme: .dark)), "background-grid-dark")
    }

    @Test func viewportMode() throws {
        let store = try Self.showcase()
        store.configuration.backgroundStyle.pattern = .grid
        try store.setViewport(Viewport(offset: Point(40, 80), zoom: 0.55))
        let svg = try renderSVG(store, options: SVGOptions(fit: false, width: 400, height: 260))
        try Golden.check(svg, "viewport")
        let doc = try SVGDocument(svg)
        #expect(doc.root.attributes["width"] == "400" && doc.root.attributes["height"] == "260")
        #expect(doc.root.attributes["viewBox"] == "0 0 400 260")
        // Canvas coordinates are mapped: screen = canvas · zoom + offset.
        let start = try #require(doc.nodes.first { $0.attributes["class"] == "node" }?.children.first)
        #expect(start.attributes["x"] == "40" && start.attributes["y"] == "80")
        #expect(start.attributes["width"] == "77" && start.attributes["height"] == "27.5")
        // The visible canvas, (-72.73, -145.45) to (654.55, 327.27), overlaps every node.
        #expect(doc.nodes.count == 6)
        // Fine grid: 20 · 0.55 = 11 px (opacity 0.4 + 0.6 · 0.2), coarse 55 px.
        let patterns = doc.elements("pattern")
        #expect(patterns.map { $0.attributes["width"] ?? "" } == ["11", "55"])
        #expect(patterns[0].children[0].attributes["stroke-opacity"] == "0.1")
    }

    @Test func viewportModeLeavesOutWhatIsNotVisible() throws {
        let store = try Self.showcase()
        try store.setViewport(Viewport(offset: Point(-200, 0), zoom: 2))
        let svg = try renderSVG(store, options: SVGOptions(fit: false, width: 500, height: 300))
        try Golden.check(svg, "viewport-zoomed")
        let doc = try SVGDocument(svg)
        // Visible canvas: x 100…350, y 0…150: part of "Start", "Valid input?" (260…420) and
        // the edges near them; the edge leaving "Valid input?" to the right is left out.
        #expect(doc.titles == ["Start", "Valid input?"])
        #expect(doc.edgePaths.count == 3)
        #expect(doc.labels == ["no", "retry"])
    }

    @Test func emptyStore() throws {
        let svg = try renderSVG(Store())
        try Golden.check(svg, "empty")
        let doc = try SVGDocument(svg)
        #expect(doc.root.attributes["viewBox"] == "-4 -4 8 8")
        #expect(doc.nodes.isEmpty && doc.edgePaths.isEmpty)
        let tight = try SVGDocument(try renderSVG(Store(), options: SVGOptions(padding: 0)))
        #expect(tight.root.attributes["viewBox"] == "0 0 1 1")
    }
}

/// The renderer's number format, for expectations.
func fmt(_ v: Double) -> String {
    var w = ByteWriter(capacity: 16)
    w.number(v)
    return String(decoding: w.bytes, as: UTF8.self)
}
