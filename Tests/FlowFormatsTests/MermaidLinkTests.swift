import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

/// Mermaid's link ends, link styles, shapes and subgraph directions (#38), and what the
/// writers keep of a diagram styled by classes.
@Suite struct MermaidLinkTests {
    static let sample = """
        flowchart TB
          A[[Sub]] --o B>Flag]
          A --x C
          C x--x D
          subgraph G [Group]
            direction LR
            D --> E
          end
          A ~~~ D
          B --> o
          C --> x
          A---oE
          A--- oE
          classDef hot fill:#f96,stroke:#333
          class E hot
          linkStyle 1 stroke:#ff0000,stroke-width:4px,fill:none
          linkStyle default color:#0000ff
        """

    static func byID(_ d: FlowDocument<JSONValue>) -> [String: FlowNode<JSONValue>] {
        Dictionary(uniqueKeysWithValues: d.nodes.map { ($0.id, $0) })
    }

    @Test func readsEndsShapesAndLinkStyles() throws {
        let r = try MermaidReader.read(Self.sample)
        let nodes = Self.byID(r.document)
        #expect(nodes["A"]?.shape == .subroutine)
        #expect(nodes["B"]?.shape == .asymmetric)
        // `o` and `x` after a space are node ids, as Mermaid reads them
        #expect(nodes["o"] != nil && nodes["x"] != nil && nodes["oE"] != nil)
        let e = r.document.edges
        #expect(e.map(\.targetNodeID) == ["B", "C", "D", "E", "D", "o", "x", "E", "oE"])
        #expect(e[0].style.targetArrow == .circle)
        #expect(e[1].style.targetArrow == .cross)
        #expect(e[2].style.sourceArrow == .cross && e[2].style.targetArrow == .cross)
        #expect(e[4].style.opacity == 0)
        // `A---oE`: a circle link to E; `A--- oE`: a plain link to oE
        #expect(e[7].style.targetArrow == .circle)
        #expect(e[8].style.targetArrow == ArrowHead.none)
        #expect(e[1].style.stroke == FlowColor("#ff0000") && e[1].style.strokeWidth == 4)
        #expect(e.allSatisfy { $0.style.textColor == FlowColor("#0000ff") })
        #expect(nodes["G"]?.data.string(at: "direction") == "LR")
        // what is not drawn is said precisely, and nothing else is reported
        #expect(r.warnings == ["direction LR inside a subgraph is kept in its data, not drawn: the layout lays the whole graph out TB (1 subgraph)"])
    }

    @Test func linkStyleErrorsAndWarnings() throws {
        let r = try MermaidReader.read("flowchart LR\n a --> b\n linkStyle 3 stroke:#f00\n linkStyle 0 interpolate basis stroke:#0f0")
        #expect(r.warnings.contains("linkStyle names link 3, and the graph has 1 link (1 line)"))
        #expect(r.warnings.contains("linkStyle interpolate 'basis' is not mapped (1 line)"))
        #expect(r.document.edges[0].style.stroke == FlowColor("#00ff00"))
        #expect(throws: FlowError.self) { try MermaidReader.read("flowchart LR\n a --> b\n linkStyle one stroke:#f00") }
        #expect(throws: FlowError.self) { try MermaidReader.read("flowchart LR\n a --> b\n linkStyle 0") }
        let bad = try MermaidReader.read("flowchart LR\n subgraph s\n direction XY\n a\n end")
        #expect(bad.warnings == ["direction 'XY' is not a direction (expected TB, TD, BT, LR or RL) (1 line)"])
    }

    /// Mermaid → store → Mermaid → store gives the same export, and writing it again the
    /// same text.
    @Test func roundTripGivesTheSameExport() throws {
        let a = FlowStore<JSONValue>()
        try a.load(Self.sample, format: .mermaid)
        let text = try a.text(.mermaid)
        let b = FlowStore<JSONValue>()
        try b.load(text, format: .mermaid)
        let c = FlowStore<JSONValue>()
        try c.load(b.text(.mermaid), format: .mermaid)
        #expect(try b.text(.mermaid) == c.text(.mermaid))
        #expect(try b.export() == c.export())
        #expect(try a.export() == b.export())
        func look(_ s: FlowStore<JSONValue>) -> [String] {
            s.nodes.map { "\($0.id) \($0.shape?.rawValue ?? "-") \($0.classes) \($0.style) \($0.data)" }.sorted()
                + s.edges.map { "\($0.sourceNodeID)>\($0.targetNodeID) \($0.style) \($0.label ?? "-")" }.sorted()
        }
        #expect(look(a) == look(b))
        #expect(a.classStyles == b.classStyles)
        #expect(text.contains("direction LR"))
        #expect(text.contains(" o[") || text.contains(" o(") || text.contains("\n  o"))
    }

    /// A store styled by its class sheet, written as Mermaid and DOT: the shapes, dashes and
    /// colours the classes give are kept, and so are the ids.
    static func classStyledStore() throws -> FlowStore<JSONValue> {
        let s = FlowStore<JSONValue>()
        _ = try s.load(FlowDocument(
            nodes: [
                FlowNode(id: "orders", position: .zero, data: .null, classes: ["db"]),
                FlowNode(id: "api", position: Point(0, 100), data: .null, classes: ["svc"]),
                FlowNode(id: "web", position: Point(0, 200), data: .null, classes: ["ui"]),
                FlowNode(id: "xray", position: Point(0, 300), data: .null),
            ],
            edges: [
                FlowEdge(id: "e1", sourceNodeID: "web", targetNodeID: "api"),
                FlowEdge(id: "e2", sourceNodeID: "api", targetNodeID: "orders", classes: ["async"]),
                FlowEdge(id: "e3", sourceNodeID: "api", targetNodeID: "xray", style: FlowStyle(targetArrow: .hollowDiamond)),
            ],
            classes: [
                "db": FlowClass(shape: .cylinder, style: FlowStyle(fill: FlowColor("#ffeeaa"))),
                "svc": FlowClass(shape: .hexagon), "ui": FlowClass(shape: .stadium),
                "async": FlowClass(style: FlowStyle(stroke: FlowColor("#ff0000"), dash: [4, 2])),
            ]))
        return s
    }

    @Test func mermaidKeepsWhatClassesGive() throws {
        let s = try Self.classStyledStore()
        let text = try s.text(.mermaid)
        #expect(text.contains("orders[(\"orders\")]"))
        #expect(text.contains("api{{\"api\"}}"))
        #expect(text.contains("web([\"web\"])"))
        #expect(text.contains("xray("))
        #expect(text.contains("api -.-> orders"))
        #expect(text.contains("linkStyle 1 stroke:#ff0000,stroke-dasharray:4 2"))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .mermaid)
        #expect(back.nodes.map(\.id).sorted() == ["api", "orders", "web", "xray"])
        #expect(back.nodes.first { $0.id == "orders" }.map { back.resolvedShape(of: $0) } == .cylinder)
        #expect(back.nodes.first { $0.id == "orders" }.map { back.resolvedStyle(of: $0).fill } == FlowColor("#ffeeaa"))
        let async = back.edges.first { $0.targetNodeID == "orders" }!
        #expect(async.style.dash == [4, 2] && async.style.stroke == FlowColor("#ff0000"))
    }

    @Test func dotKeepsWhatClassesGive() throws {
        let s = try Self.classStyledStore()
        let text = try s.text(.dot)
        #expect(text.contains("\"orders\" [shape=cylinder, fillcolor=\"#ffeeaa\""))
        #expect(text.contains("\"api\" [shape=hexagon"))
        #expect(text.contains("\"web\" [shape=box"))
        #expect(text.contains("color=\"#ff0000\", style=\"dashed\""))
        #expect(text.contains("arrowhead=odiamond"))
        let back = FlowStore<JSONValue>()
        try back.load(text, format: .dot)
        #expect(back.nodes.map { "\($0.id) \(back.resolvedShape(of: $0).rawValue)" }.sorted()
            == ["api hexagon", "orders cylinder", "web rounded", "xray rounded"])
        #expect(back.edges.first { $0.targetNodeID == "xray" }?.style.targetArrow == .hollowDiamond)
    }
}

/// Mermaid's front matter title: the diagram's title, written back (#38).
@Suite struct MermaidTitleTests {
    @Test func theTitleIsReadAndWritten() throws {
        let r = try MermaidReader.read("---\ntitle: Orders \"and\" more\nconfig:\n  theme: dark\n---\nflowchart LR\n a --> b")
        #expect(r.document.look.title == "Orders \"and\" more")
        #expect(r.warnings == ["front matter 'config' is not supported (1 line)"])
        #expect(throws: FlowError.self) { try MermaidReader.read("---\ntitle: x\nflowchart LR\n a") }
        for title in ["plain", "with \"quotes\" and \\ back", "two\nlines", "tab\there", "bell\u{7}", "é ♥ 中"] {
            let s = FlowStore<JSONValue>()
            _ = try s.load(FlowDocument(nodes: [FlowNode(id: "a", position: .zero, data: .null)], look: DiagramLook(title: title)))
            let text = try s.text(.mermaid)
            let back = try MermaidReader.read(text)
            #expect(back.document.look.title == title, "\(text)")
            #expect(back.warnings.isEmpty)
        }
        #expect(try MermaidReader.read("---\ntitle: 'it''s'\n---\nflowchart LR\n a").document.look.title == "it's")
    }

    @Test func longerLinksSpanMoreLayersAndAreWrittenBack() throws {
        let text = """
            flowchart TB
              A --> B
              A ----> C
              A -...-> D
              A ===> E
              A -- text ---> F
              B ---- G
              A -- text --> H
            """
        let read = try MermaidReader.read(text)
        #expect(read.warnings.isEmpty)
        #expect(read.document.look.edgeRanks == [
            EdgeRank("e2", minLength: 3), EdgeRank("e3", minLength: 3), EdgeRank("e4", minLength: 2),
            EdgeRank("e5", minLength: 2), EdgeRank("e6", minLength: 2),
        ])
        let s = FlowStore<JSONValue>()
        try s.load(text, format: .mermaid)
        try s.layout()
        func y(_ id: String) -> Double { s.node(id)!.position.y }
        #expect(y("C") > y("E") && y("E") > y("B") && y("B") > y("A"))
        #expect(y("H") == y("B") || y("H") > y("B"))
        let written = try s.text(.mermaid)
        for link in ["A ----> C", "A -...-> D", "A ===> E", "A --->|\"text\"| F", "B ---- G", "A -->|\"text\"| H"] {
            #expect(written.contains(link), "\(link) in \(written)")
        }
        let back = FlowStore<JSONValue>()
        try back.load(written, format: .mermaid)
        #expect(back.diagramLook.edgeRanks == s.diagramLook.edgeRanks)
    }
}

