import Testing

@testable import FlowCore

/// Styles, classes and nodes sized to their titles in the store.
@Suite struct StyleTests {
    @Test func colours() throws {
        let c = try #require(FlowColor("#EEeeFF"))
        #expect(c == FlowColor(red: 0xee, green: 0xee, blue: 0xff))
        #expect(c.description == "#eeeeff")
        #expect(FlowColor("#11223380")?.description == "#11223380")
        #expect(FlowColor("#112233ff")?.description == "#112233")
        for bad in ["blue", "#123", "#12345g", "112233", "#1122334", ""] { #expect(FlowColor(bad) == nil, "\(bad)") }
        #expect(throws: FlowError.invalidValue("addNode", "style.fill: invalid colour 'blue' (expected #rrggbb or #rrggbbaa)")) {
            try FlowColor(parsing: "blue", field: "style.fill", operation: "addNode")
        }
    }

    @Test func stylesAreValidatedByTheStore() throws {
        let store = Store()
        var n = node("a")
        n.style.opacity = 2
        #expect(throws: FlowError.invalidValue("addNode", "style.opacity must be a number from 0 to 1")) { try store.addNode(n) }
        n.style = FlowStyle(dash: [4, -1])
        #expect(throws: FlowError.invalidValue("addNode", "style.dash must be finite numbers that are not negative")) {
            try store.addNode(n)
        }
        n.style = FlowStyle()
        n.classes = ["db", "1x"]
        #expect(throws: FlowError.self) { try store.addNode(n) }
        n.classes = ["selected"]
        #expect(throws: FlowError.invalidValue("addNode", "class: the class name 'selected' is reserved (the pictures use it)")) {
            try store.addNode(n)
        }
        #expect(store.nodeCount == 0)
        #expect(throws: FlowError.self) { try store.setClassStyles(["db": FlowClass(style: FlowStyle(fontSize: 0))]) }
        try store.addNode(node("b"))
        try store.addNode(node("c"))
        var e = edge("e", "b", "c")
        e.style.strokeWidth = .infinity
        #expect(throws: FlowError.invalidValue("addEdge", "style.strokeWidth must be a finite number that is not negative")) {
            try store.addEdge(e)
        }
    }

    @Test func precedence() throws {
        let store = Store()
        try store.setClassStyles([
            "db": FlowClass(shape: .cylinder, style: FlowStyle(fill: FlowColor("#eeeeff"), stroke: FlowColor("#000000"))),
            "warn": FlowClass(style: FlowStyle(stroke: FlowColor("#ff0000"), bold: true)),
        ])
        var n = node("a")
        n.classes = ["db", "warn"]
        n.style.fill = FlowColor("#ffffff")
        try store.addNode(n)
        let a = try #require(store.node("a"))
        #expect(store.resolvedShape(of: a) == .cylinder)
        let s = store.resolvedStyle(of: a)
        #expect(s.fill == FlowColor("#ffffff"))  // its own wins
        #expect(s.stroke == FlowColor("#ff0000"))  // the later class wins
        #expect(s.bold == true)
        #expect(s.textColor == nil)  // from the theme
        try store.updateNode("a") { $0.shape = .hexagon }
        #expect(store.resolvedShape(of: store.node("a")!) == .hexagon)
    }

    @Test func nodesSizedToTheirTitles() throws {
        let store = Store()
        try store.addNode(FlowNode(id: "short", position: .zero, data: .string("OK")))
        #expect(store.node("short")?.size == Size(150, 60))
        #expect(store.node("short")?.autoSize == true)
        // 26 characters = 182 px: one line, 16 px of padding
        try store.addNode(FlowNode(id: "long", position: .zero, data: .string("Appoint incident commander")))
        #expect(store.node("long")?.size == Size(198, 60))
        // wrapped at 200 px: four lines, the longest 27 characters (189 px)
        let text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
        try store.addNode(FlowNode(id: "para", position: .zero, data: .string(text)))
        #expect(store.node("para")?.size == Size(205, 68))
        // a given size is kept, the title cut to fit
        try store.addNode(FlowNode(id: "fixed", position: .zero, size: Size(80, 30), data: .string(text)))
        #expect(store.node("fixed")?.size == Size(80, 30))
        #expect(store.node("fixed")?.autoSize == false)

        // a new title re-sizes the node: one undo step, one replace event
        let log = EventLog(store)
        try store.updateNode("short") { $0.data = .string("Appoint incident commander") }
        #expect(store.node("short")?.size == Size(198, 60))
        #expect(log.take() == ["N[replace(short)]"])
        try store.undo()
        #expect(store.node("short")?.size == Size(150, 60))
        _ = log.take()
        // so do a shape, a font and a class of the sheet
        try store.updateNode("short") { $0.shape = .circle }
        #expect(store.node("short")?.size == Size(60, 60))
        try store.updateNode("short") { $0.shape = nil; $0.style.fontSize = 24; $0.data = .string("Big") }
        #expect(store.node("short")?.size == Size(150, 60))
        try store.updateNode("short") { $0.data = .string("Bigger title") }
        #expect(store.node("short")?.size == Size(184, 60))
        _ = log.take()
        try store.updateNode("short") { $0.style = FlowStyle(); $0.classes = ["big"] }
        #expect(store.node("short")?.size == Size(150, 60))
        try store.setClassStyles(["big": FlowClass(style: FlowStyle(fontSize: 24))])
        #expect(store.node("short")?.size == Size(184, 60))
        #expect(log.take() == ["N[replace(short)]", "N[dimensions(short 184x60)]"])
        try store.undo()
        #expect(store.classStyles.isEmpty)
        #expect(store.node("short")?.size == Size(150, 60))
        try store.redo()
        #expect(store.node("short")?.size == Size(184, 60))

        // setting a size ends it
        try store.updateNodeSize("short", to: Size(100, 40))
        #expect(store.node("short")?.autoSize == false)
        try store.updateNode("short") { $0.data = .string("x") }
        #expect(store.node("short")?.size == Size(100, 40))
        // and turning it on again sizes the node at once
        try store.updateNode("short") { $0.autoSize = true }
        #expect(store.node("short")?.size == Size(150, 60))
        // an update that changes the size of a node sized to its title ends it too
        try store.updateNode("long") { $0.size = Size(300, 80) }
        #expect(store.node("long")?.size == Size(300, 80))
        #expect(store.node("long")?.autoSize == false)
    }

    @Test func documentsKeepStylesAndClasses() throws {
        let store = Store()
        try store.setClassStyles([
            "db": FlowClass(shape: .cylinder, style: FlowStyle(fill: FlowColor("#eeeeff"), dash: [4, 2])),
            "hot": FlowClass(style: FlowStyle(stroke: FlowColor("#ff000080"), targetArrow: .diamond)),
        ])
        var a = FlowNode<JSONValue>(id: "a", position: .zero, data: .string("A rather long title for a node"), classes: ["db"])
        a.style = FlowStyle(opacity: 0.5, textColor: FlowColor("#333333"), bold: true, italic: false, wrapWidth: 120)
        try store.addNode(a)
        try store.addNode(FlowNode(id: "b", position: Point(0, 200), size: Size(150, 60), data: .null, shape: .diamond))
        try store.addNode(FlowNode(id: "c", position: Point(300, 0), data: .null))
        try store.addEdge(
            FlowEdge(
                id: "e", sourceNodeID: "a", targetNodeID: "b", classes: ["hot"],
                style: FlowStyle(strokeWidth: 3, sourceArrow: .circle)))
        let json = try store.export()
        #expect(json.contains("\"classes\": {\n    \"db\": {\n      \"dash\": [4, 2],\n      \"fill\": \"#eeeeff\",\n      \"shape\": \"cylinder\"\n    },"))
        #expect(json.contains("\"autoSize\": true"))  // a, grown beyond the default size
        #expect(json.contains("\"autoSize\": false"))  // b, given the default size
        #expect(json.split(separator: "\"autoSize\"").count == 3)  // c: inferred
        #expect(json.contains("\"shape\": \"diamond\""))
        #expect(json.contains("\"sourceArrow\": \"circle\""))

        let copy = Store()
        try copy.load(json: json)
        #expect(try copy.export() == json)
        #expect(copy.classStyles == store.classStyles)
        #expect(copy.nodes == store.nodes)
        #expect(copy.edges == store.edges)
        #expect(copy.node("c")?.autoSize == true)
        #expect(copy.node("b")?.autoSize == false)

        // bad values in a document name their place
        #expect(throws: FlowError.invalidDocument("load", "nodes[0].style.fill: invalid colour 'red' (expected #rrggbb or #rrggbbaa)")) {
            try copy.load(json: #"{"nodes": [{"id": "x", "position": [0, 0], "size": [1, 1], "style": {"fill": "red"}}], "edges": [], "viewport": {"offset": [0, 0], "zoom": 1}}"#)
        }
        #expect(throws: FlowError.self) {
            try copy.load(json: #"{"nodes": [{"id": "x", "position": [0, 0], "size": [1, 1], "shape": "star"}], "edges": [], "viewport": {"offset": [0, 0], "zoom": 1}}"#)
        }
        #expect(throws: FlowError.invalidValue("load", "style.opacity must be a number from 0 to 1")) {
            try copy.load(json: #"{"nodes": [{"id": "x", "position": [0, 0], "size": [1, 1], "style": {"opacity": 3}}], "edges": [], "viewport": {"offset": [0, 0], "zoom": 1}}"#)
        }
        #expect(try copy.export() == json)
    }

    @Test func undoRestoresStyles() throws {
        let store = Store()
        try store.addNode(node("a"))
        try store.addNode(node("b", 0, 200))
        try store.addEdge(edge("e", "a", "b"))
        let before = StoreState(store)
        try store.transaction { () throws(FlowError) in
            try store.updateNode("a") { $0.shape = .ellipse; $0.classes = ["x", "y"]; $0.style.fill = FlowColor("#abcdef") }
            try store.updateEdge("e") { $0.style.targetArrow = ArrowHead.none; $0.classes = ["x"] }
        }
        let after = StoreState(store)
        #expect(store.node("a")?.shape == .ellipse)
        #expect(store.edge("e")?.style.targetArrow == ArrowHead.none)
        try store.undo()
        #expect(StoreState(store) == before)
        try store.redo()
        #expect(StoreState(store) == after)
        // a node without a look costs one nil reference
        #expect(store.node("b")?.hasLook == false)
    }
}
