import Foundation
import Testing

@testable import FlowCore
@testable import FlowRender

/// Goldens of shapes, styles, classes, arrowheads and text, and the picture options.
@Suite struct StyleGoldenTests {
    /// Every shape in a row of three, each with handles on all four sides, edges between
    /// neighbours, and a title of two lines.
    static func shapes() throws -> Store {
        var nodes: [FlowNode<JSONValue>] = []
        var edges: [FlowEdge] = []
        let all: [HandleDeclaration] = [
            HandleDeclaration(id: "top", type: .target, position: .top),
            HandleDeclaration(id: "left", type: .target, position: .left),
            HandleDeclaration(id: "right", type: .source, position: .right),
            HandleDeclaration(id: "bottom", type: .source, position: .bottom),
        ]
        for (i, shape) in NodeShape.allCases.enumerated() {
            let x = Double(i % 4) * 230, y = Double(i / 4) * 160
            nodes.append(
                FlowNode(
                    id: shape.rawValue, position: Point(x, y), size: Size(150, 80),
                    data: .string("\(shape.rawValue)\nshape"), handles: all, shape: shape))
            if i % 4 > 0 {
                edges.append(edge("e\(i)", NodeShape.allCases[i - 1].rawValue, "right", shape.rawValue, "left", type: .straight))
            }
            if i >= 4 {
                edges.append(edge("v\(i)", NodeShape.allCases[i - 4].rawValue, "bottom", shape.rawValue, "top", type: .straight))
            }
        }
        return try makeStore(nodes, edges)
    }

    @Test(arguments: SVGTheme.allCases)
    func everyShape(_ theme: SVGTheme) throws {
        let store = try Self.shapes()
        let svg = try renderSVG(store, options: SVGOptions(theme: theme))
        try Golden.check(svg, "shapes-\(theme.rawValue)")
        let doc = try SVGDocument(svg)
        // every shape but plain draws an outline
        #expect(doc.nodeShapes.count == NodeShape.allCases.count - 1)
        #expect(doc.nodeShapes.map(\.name) == [
            "rect", "rect", "path", "ellipse", "circle", "path", "path", "path", "path", "rect", "path",
            "rect", "rect",
        ] + Array(repeating: "path", count: 12) + Array(repeating: "path", count: 8))
        // the triangles cut theirs: too narrow in this frame
        #expect(doc.titles.allSatisfy { $0.hasSuffix("\nshape") || $0.hasSuffix("\u{2026}") })
        #expect(doc.titles.filter { $0.hasSuffix("\u{2026}") }.count == 2)
        // Every edge ends where the store puts its handles: on the outlines.
        for (path, e) in zip(doc.edgePaths, store.edges) {
            let g = try store.edgeGeometry(e.id)
            let d = path.attributes["d"] ?? ""
            #expect(d == "M\(fmt(g.sourcePoint.x)) \(fmt(g.sourcePoint.y))L\(fmt(g.targetPoint.x)) \(fmt(g.targetPoint.y))")
        }
        // The handles drawn are the ones edges use, on the outline.
        let circle = try #require(doc.nodes.first { $0.attributes["id"] == "node-circle" })
        let handles = circle.children.filter { $0.classes.contains("handle") }
        // a circle 80 across in a 150 × 80 frame at (0, 160): top, right and bottom are used
        #expect(handles.map { [$0.attributes["cx"]!, $0.attributes["cy"]!] } == [["75", "160"], ["115", "200"], ["75", "240"]])
    }

    /// A style sheet, classes on nodes and edges, own styles over them, and the states.
    static func classes() throws -> Store {
        let store = try makeStore(
            [
                FlowNode(id: "api", position: Point(0, 0), data: .string("API"), classes: ["service"]),
                FlowNode(id: "db", position: Point(0, 160), data: .string("Orders"), classes: ["db"]),
                FlowNode(id: "cache", position: Point(260, 160), data: .string("Cache"), classes: ["db", "hot"]),
                FlowNode(id: "both", position: Point(520, 160), data: .string("Hot first"), classes: ["hot", "db"]),
                FlowNode(
                    id: "own", position: Point(260, 0), data: .string("Own style"), classes: ["service"],
                    style: FlowStyle(
                        fill: FlowColor("#fff4d6"), stroke: FlowColor("#b8860b"), strokeWidth: 2, dash: [6, 3],
                        opacity: 0.9, textColor: FlowColor("#5c4400"), fontSize: 14, italic: true)),
                FlowNode(id: "picked", position: Point(520, 0), data: .string("Selected"), classes: ["service"]),
            ],
            [
                FlowEdge(id: "reads", sourceNodeID: "api", sourceHandleID: "source", targetNodeID: "db", targetHandleID: "target", label: "reads", classes: ["data"]),
                FlowEdge(id: "warms", sourceNodeID: "own", sourceHandleID: "source", targetNodeID: "cache", targetHandleID: "target", label: "warms", classes: ["data"], style: FlowStyle(stroke: FlowColor("#cc3300"), textColor: FlowColor("#cc3300"), fontSize: 10, bold: true)),
                FlowEdge(id: "calls", sourceNodeID: "picked", sourceHandleID: "source", targetNodeID: "both", targetHandleID: "target", pathType: .straight, classes: ["data"]),
            ])
        try store.setClassStyles([
            "service": FlowClass(shape: .stadium, style: FlowStyle(fill: FlowColor("#e8f0fe"), stroke: FlowColor("#4a6fa5"))),
            "db": FlowClass(shape: .cylinder, style: FlowStyle(fill: FlowColor("#eeeeff"), stroke: FlowColor("#555599"), bold: true)),
            "hot": FlowClass(style: FlowStyle(fill: FlowColor("#ffe0e0"), stroke: FlowColor("#cc0000"))),
            "data": FlowClass(style: FlowStyle(fill: FlowColor("#f5f8ff"), stroke: FlowColor("#4a6fa5"), strokeWidth: 2, sourceArrow: .circle, targetArrow: .open)),
        ])
        try store.selectNode("picked")
        try store.selectEdge("calls", exclusive: false)
        return store
    }

    @Test func stylesAndClasses() throws {
        let store = try Self.classes()
        let svg = try renderSVG(store)
        try Golden.check(svg, "classes")
        let doc = try SVGDocument(svg)
        #expect(doc.nodes.map { $0.attributes["class"] ?? "" } == [
            "node service", "node db", "node db hot", "node hot db", "node service", "node service selected",
        ])
        #expect(doc.nodes.map { $0.attributes["id"] ?? "" } == [
            "node-api", "node-db", "node-cache", "node-both", "node-own", "node-picked",
        ])
        let style = doc.elements("style")[0].text
        // one rule per class and part, in the order of the names; the states after them
        #expect(style.contains(".node.db>.shape{fill:#eeeeff;stroke:#555599}\n.node.db>.title{font-weight:bold}\n.node.hot>.shape{fill:#ffe0e0;stroke:#cc0000}\n.node.service>.shape{fill:#e8f0fe;stroke:#4a6fa5}\n.node.draft>.shape"))
        #expect(style.contains(".edge.data{stroke:#4a6fa5;stroke-width:2}"))
        #expect(style.contains(".label.data{fill:#f5f8ff}"))
        // classes later on an element win: "cache" has db then hot, so the sheet's order
        // (hot last) already gives hot; "both" has hot then db, so db's colours are written on it
        let shape = { (id: String) in doc.nodes.first { $0.attributes["id"] == "node-" + id }!.children[0] }
        #expect(shape("cache").attributes["style"] == nil)
        #expect(shape("both").attributes["style"] == "fill:#eeeeff;stroke:#555599")
        // the own style, written on the elements
        #expect(shape("own").attributes["style"] == "fill:#fff4d6;stroke:#b8860b;stroke-width:2;stroke-dasharray:6 3")
        #expect(doc.nodes.first { $0.attributes["id"] == "node-own" }!.attributes["style"] == "opacity:0.9")
        // shapes from the classes: stadium (a rect), cylinder (a path)
        #expect(shape("api").name == "rect" && shape("api").attributes["rx"] == "30")
        #expect(shape("db").name == "path")
        // arrowheads of each edge's colour: the selected edge's in the selection colour
        #expect(doc.edgePaths.map { [$0.attributes["marker-start"] ?? "", $0.attributes["marker-end"] ?? ""] } == [
            ["url(#circle-start-4a6fa5)", "url(#open-4a6fa5)"],
            ["url(#circle-start-cc3300)", "url(#open-cc3300)"],
            ["url(#circle-start-007aff)", "url(#open-007aff)"],
        ])
        #expect(doc.edgePaths[1].attributes["style"] == "stroke:#cc3300")
        #expect(doc.elements("text", class: "label-text")[1].attributes["style"] == "fill:#cc3300;font-size:10px;font-weight:bold")
    }

    @Test func arrowheads() throws {
        var nodes: [FlowNode<JSONValue>] = []
        var edges: [FlowEdge] = []
        for (row, start) in ArrowHead.allCases.enumerated() {
            for (column, end) in ArrowHead.allCases.enumerated() {
                let x = Double(column) * 220, y = Double(row) * 90
                let a = "\(start.rawValue)-\(end.rawValue)-a", b = "\(start.rawValue)-\(end.rawValue)-b"
                nodes.append(node(a, x, y, 40, 40, title: "", handles: sideways))
                nodes.append(node(b, x + 140, y, 40, 40, title: "", handles: sideways))
                var e = edge("\(start.rawValue)-\(end.rawValue)", a, "source", b, "target", type: .straight, label: column == 0 ? start.rawValue : nil)
                e.style = FlowStyle(sourceArrow: start, targetArrow: end)
                edges.append(e)
            }
        }
        let store = try makeStore(nodes, edges)
        for (name, handles) in [("arrowheads", HandleVisibility.used), ("arrowheads-no-handles", .none)] {
            let svg = try renderSVG(store, options: SVGOptions(handles: handles))
            try Golden.check(svg, name)
            let doc = try SVGDocument(svg)
            // a marker per kind and end; each kind but none at each end of a row or column
            let kinds = ArrowHead.allCases.count
            #expect(doc.elements("marker").count == 2 * (kinds - 1))
            #expect(doc.edgePaths.filter { $0.attributes["marker-start"] != nil }.count == (kinds - 1) * kinds)
            #expect(doc.edgePaths.filter { $0.attributes["marker-end"] != nil }.count == (kinds - 1) * kinds)
            // the edge with no arrowhead at either end marks no handles
            #expect(doc.elements("circle", class: "handle").count == (handles == .none ? 0 : 2 * (kinds * kinds - 1)))
        }
    }

    /// Titles: lines, wrapping, CJK, fonts, nodes sized to them and nodes that cut them.
    static func text() throws -> Store {
        let store = Store()
        let titles: [(String, FlowStyle, NodeShape?)] = [
            ("line one\nline two", FlowStyle(), nil),
            ("Appoint incident commander and open the incident channel", FlowStyle(), nil),
            ("データベースのバックアップを取得して検証する", FlowStyle(), nil),
            ("한국어 제목과 English words mixed", FlowStyle(), .ellipse),
            ("Bold and larger", FlowStyle(fontSize: 16, bold: true), nil),
            ("Italic, wrapped at 80", FlowStyle(italic: true, wrapWidth: 80), .hexagon),
            ("Approve the order?", FlowStyle(), .diamond),
            ("Start", FlowStyle(), .circle),
        ]
        for (i, (t, style, shape)) in titles.enumerated() {
            try store.addNode(
                FlowNode(
                    id: "t\(i)", position: Point(Double(i % 4) * 280, Double(i / 4) * 140), data: .string(t),
                    handles: [], shape: shape, style: style))
        }
        // Fixed sizes cut with "…".
        try store.addNode(FlowNode(id: "cut", position: Point(0, 300), size: Size(120, 40), data: .string("A title far too long for this node"), handles: []))
        try store.addNode(FlowNode(id: "cutCJK", position: Point(280, 300), size: Size(90, 24), data: .string("東京都渋谷区神南一丁目"), handles: []))
        return store
    }

    @Test func textThatFits() throws {
        let store = try Self.text()
        let svg = try renderSVG(store)
        try Golden.check(svg, "text")
        let doc = try SVGDocument(svg)
        #expect(doc.titles == [
            "line one\nline two", "Appoint incident commander\nand open the incident\nchannel",
            "データベースのバックアップを取得\nして検証する", "한국어 제목과 English words\nmixed", "Bold and larger",
            "Italic,\nwrapped at\n80", "Approve the order?", "Start", "A title far\ntoo long for…", "東京都渋谷…",
        ])
        // Nodes sized to their titles are no smaller than the default.
        for n in store.nodes where n.autoSize {
            #expect(n.size.width >= 150 || n.shape == .circle)
        }
        #expect(store.node("t7")?.size == Size(60, 60))
    }

    @Test func handlesOption() throws {
        let store = try GoldenTests.showcase()
        func count(_ h: HandleVisibility) throws -> Int {
            try SVGDocument(try renderSVG(store, options: SVGOptions(handles: h))).elements("circle", class: "handle").count
        }
        // 11 declared (none at the centre), 10 used by the five edges
        #expect(try count(.all) == 11)
        #expect(try count(.used) == 10)
        #expect(try count(.none) == 0)
    }

    @Test func titleAndScale() throws {
        let store = try GoldenTests.showcase()
        let plain = try SVGDocument(try renderSVG(store))
        let doc = try SVGDocument(try renderSVG(store, options: SVGOptions(scale: 2, title: "Showcase <2×>")))
        #expect(doc.root.children.first?.name == "title")
        #expect(doc.root.children.first?.text == "Showcase <2×>")
        #expect(abs(doc.root.number("width")! - 2 * plain.root.number("width")!) <= 0.02)
        #expect(doc.root.attributes["viewBox"] == plain.root.attributes["viewBox"])
        #expect(throws: FlowError.invalidValue("svg", "scale must be a finite positive number")) {
            try renderSVG(store, options: SVGOptions(scale: 0))
        }
    }

    @Test func pdf() throws {
        let store = try Self.classes()
        let path = PNGTests.temporaryPath("classes.pdf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try renderPDF(store, options: SVGOptions(title: "Classes"), to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.prefix(5) == Data("%PDF-".utf8))
    }

    /// Every golden file is well-formed XML as libxml2 reads it too (when xmllint is there).
    @Test func goldensPassXmllint() throws {
        guard let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first(where: FileManager.default.isExecutableFile) else {
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Golden.directory.path).filter { $0.hasSuffix(".svg") }.sorted()
        #expect(files.count >= 20)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: xmllint)
        p.arguments = ["--noout"] + files.map { Golden.directory.appendingPathComponent($0).path }
        let err = Pipe()
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 0, "\(message)")
    }
}
