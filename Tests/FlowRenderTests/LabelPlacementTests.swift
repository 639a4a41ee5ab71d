import FlowRouting
import TestSupport
import Testing

@testable import FlowCore
@testable import FlowRender

/// Interiors meet (touching does not count).
private func overlap(_ a: Rect, _ b: Rect) -> Bool {
    min(a.maxX, b.maxX) - max(a.minX, b.minX) > 0 && min(a.maxY, b.maxY) - max(a.minY, b.minY) > 0
}

/// The labels of a store placed as the renderer places them, and its warnings.
private func placed(_ store: Store) throws -> (items: [EdgeItem], warnings: [String]) {
    let renderer = try SVGRenderer(store: store, options: SVGOptions(), op: "svg")
    var nodes: [FlowNode<JSONValue>] = []
    store.forEachNode { nodes.append($0) }
    let shapes = nodes.map { _ in NodeShape.rounded }
    var items = renderer.edgeItems(nodes, shapes)
    let warnings = renderer.placeLabels(
        &items, nodes, shapes, containers: SVGRenderer<JSONValue>.containerFlags(nodes), paths: PathGrid(items),
        title: defaultNodeTitle)
    return (items, warnings)
}

@Suite struct LabelPlacementTests {
    /// Random diagrams with labels on many edges, of every path type: a label covers no
    /// node (containers aside) and no other label, unless a warning names its edge.
    @Test(arguments: 0..<25)
    func labelsCoverNothingOrSaySo(seed: Int) throws {
        var r = SplitMix64(seed: UInt64(seed))
        let store = Store()
        store.edgeRouter = OrthogonalRouter()
        let n = 5 + seed
        for i in 0..<n {
            try store.addNode(node(
                "n\(i)", r.uniform(0, 900), r.uniform(0, 600), r.uniform(30, 160), r.uniform(20, 70),
                container: r.chance(10)))
        }
        for k in 0..<(n + r.below(n)) {
            let text = r.chance(30) ? "line \(k)\nsecond" : (r.chance(50) ? "label \(k)" : "l\(k)")
            try store.addEdge(FlowEdge(
                id: "e\(k)", sourceNodeID: "n\(r.below(n))", sourceHandleID: "source",
                targetNodeID: "n\(r.below(n))", targetHandleID: "target",
                pathType: r.pick(EdgePathType.allCases), label: r.chance(80) ? text : nil))
        }
        let (items, warnings) = try placed(store)
        let nodes = store.nodes.filter { n in !n.acceptsChildren && !store.nodes.contains { $0.parentID == n.id } }
        var boxes: [(String, Rect)] = []
        for item in items {
            guard let box = item.label?.bounds else { continue }
            let warned = warnings.contains { $0.hasPrefix("the label of edge '\(item.id)'") }
            for n in nodes where overlap(box, n.frame) {
                #expect(warned, "seed \(seed): the label of \(item.id) covers node \(n.id) without a warning")
            }
            for (other, b) in boxes where overlap(box, b) {
                #expect(warned, "seed \(seed): the labels of \(item.id) and \(other) overlap without a warning")
            }
            boxes.append((item.id, box))
        }
        // The same store always gives the same picture and warnings.
        let again = try placed(store)
        #expect(again.warnings == warnings)
        #expect(again.items.map { $0.label?.center } == items.map { $0.label?.center })
    }

    /// A label halfway along an edge that leaves a group would sit on the group's border
    /// line: it goes inside or outside the group instead, and never on the group's title.
    @Test func labelsKeepOffGroupBordersAndTitles() throws {
        let store = try makeStore(
            [node("g", 0, 0, 200, 160, title: "a group title", container: true),
             node("a", 50, 10, 100, 40, parent: "g"), node("b", 50, 250, 100, 40)],
            [edge("e", "a", "source", "b", type: .bezier, label: "leaves the group")])
        let (items, warnings) = try placed(store)
        #expect(warnings.isEmpty)
        let box = try #require(items[0].label?.bounds)
        let g = store.node("g")!.frame
        let inside = box.minX > g.minX && box.maxX < g.maxX && box.minY > g.minY && box.maxY < g.maxY
        let outside = !overlap(box, g)
        #expect(inside || outside, "\(box) crosses the border of \(g)")
        // halfway (y = 150) is 10 above the border (y = 160): the label moved along its edge
        #expect(box.minY > 160 || box.maxY < 158)
        // the title's line runs from the inset (10, 6) for one line of text
        #expect(!overlap(box, Rect(10, 6, 100, 15)))
    }

    /// A group's title moves to the top right when an edge coming in from above runs
    /// through it at the top left, and stays at the top left when nothing does.
    @Test func aGroupTitleMovesOffAnEdgeThroughIt() throws {
        func titleX(_ source: Point) throws -> String? {
            let store = try makeStore(
                [node("g", 0, 100, 300, 160, title: "services", container: true),
                 node("a", 20, 160, 100, 40, parent: "g"),
                 node("s", source.x, source.y, 40, 40, handles: [HandleDeclaration(id: "source", type: .source, position: .bottom)])],
                [edge("e", "s", "source", "a", nil, type: .straight)])
            let svg = try renderSVG(store)
            guard let r = svg.range(of: #"<text class="title"[^>]*>services"#, options: .regularExpression) else { return nil }
            return String(svg[r]).components(separatedBy: "x=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
        // from straight above the title's left end: through it
        let crossed = try #require(try titleX(Point(20, 0)))
        #expect(Double(crossed)! > 150, "the title stays at x = \(crossed)")
        // from far to the right, crossing the band in its middle: the title stays
        #expect(try titleX(Point(250, 0)).map { Double($0)! < 50 } == true)
    }

    @Test func aLabelWithoutRoomIsDrawnWhereItCoversLeast() throws {
        let store = try makeStore(
            [node("p", 0, 0, 40, 40), node("q", 0, 100, 40, 40), node("cover", -200, 30, 440, 80)],
            [edge("e", "p", "source", "q", type: .straight, label: "hidden")])
        let drawing = try drawSVG(store)
        #expect(drawing.warnings == ["the label of edge 'e' overlaps node 'cover'"])
        #expect(drawing.svg.contains(">hidden</text>"))
    }

    @Test func multiLineTitlesAndLabels() throws {
        let store = try makeStore(
            [node("a", 0, 0, 150, 60, title: "first\nsecond"), node("b", 0, 200, 150, 30, title: "one\ntwo\nthree")],
            [edge("e", "a", "source", "b", type: .orthogonal, label: "up\nand down")])
        let svg = try renderSVG(store)
        // Centred as a block (FlowCore's TitleLayout); a 30-high node holds one line of the
        // three, cut with "…".
        #expect(svg.contains("<text class=\"title\"><tspan x=\"75\" y=\"26.7\">first</tspan><tspan x=\"75\" y=\"41.7\">second</tspan></text>"))
        #expect(svg.contains(">one…</text>") && !svg.contains(">two<") && !svg.contains(">three<"))
        #expect(svg.contains(">up</tspan>") && svg.contains(">and down</tspan>"))
    }

    /// Orthogonal edges routed by FlowRouting, auto handles and placed labels.
    @Test func routedDiagram() throws {
        var config = FlowConfiguration()
        config.autoHandles = true
        let store = Store(configuration: config)
        store.edgeRouter = OrthogonalRouter()
        let places: [(String, Double, Double)] = [
            ("web", 0, 0), ("mobile", 0, 260), ("gateway", 220, 130), ("auth", 440, 0), ("orders", 440, 130),
            ("search", 440, 260), ("db", 660, 65),
        ]
        for (id, x, y) in places { try store.addNode(node(id, x, y, 130, 50)) }
        let links: [(String, String, String)] = [
            ("web", "gateway", "HTTPS"), ("mobile", "gateway", "HTTPS"), ("gateway", "auth", "verify\ntoken"),
            ("gateway", "orders", "REST"), ("gateway", "search", "REST"), ("orders", "db", "SQL"),
            ("auth", "db", "sessions"), ("web", "auth", "login"),
        ]
        for (k, l) in links.enumerated() {
            try store.addEdge(edge("e\(k)", l.0, "source", l.1, "target", type: .orthogonal, label: l.2))
        }
        let drawing = try drawSVG(store)
        #expect(drawing.warnings.isEmpty)
        try Golden.check(drawing.svg, "routing")
    }
}

extension LabelPlacementTests {
    /// A label halfway along its edge that another edge crosses there moves along its own
    /// edge to where nothing else runs through it, and no warning is given for that.
    @Test func labelsKeepOffOtherEdges() throws {
        let store = try makeStore(
            [node("a", 0, 0, 100, 40), node("b", 0, 300, 100, 40), node("c", -300, 130, 100, 40), node("d", 300, 170, 100, 40)],
            [edge("e1", "a", "source", "b", "target", type: .straight, label: "down"),
             edge("e2", "c", "source", "d", "target", type: .straight)])
        let (items, warnings) = try placed(store)
        #expect(warnings.isEmpty)
        let box = try #require(items[0].label)
        var other = PathGrid()
        other.add(items[1].geometry.path.segments, edge: 1)
        // e2 runs across where e1's label would sit halfway; the label is not there
        var halfway = box
        halfway.center = items[0].geometry.path.points(atFractions: [0.5])[0].point
        #expect(other.edges(through: halfway.bounds, except: 0) == 1)
        #expect(other.edges(through: box.bounds, except: 0) == 0, "\(box.bounds)")
        #expect(box.center != halfway.center)
    }

    @Test func aPieceCrossesABoxOnlyThroughItsInside() {
        let r = Rect(0, 0, 10, 10)
        #expect(PathGrid.crosses(Point(-5, 5), Point(15, 5), r))
        #expect(PathGrid.crosses(Point(5, 5), Point(6, 6), r))
        #expect(!PathGrid.crosses(Point(-5, 0), Point(15, 0), r))  // along the border
        #expect(!PathGrid.crosses(Point(-5, -5), Point(-1, 20), r))
    }
}
