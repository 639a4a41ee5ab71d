import FlowCore
import FlowLayout
import Testing

@testable import FlowFormats

@Suite struct MermaidTests {
    static let sample = """
        %% comment
        flowchart LR
          A[Start] --> B(Rounded) & C{Choice}
          B -.-> D((Circle)) ==> E[(DB)]
          C -- yes --> F[/In/] --- G{{Hex}}
          C -->|no| H([Stadium]):::hot
          subgraph S1 [Group one]
            I --> J
            subgraph S2
              K
            end
          end
          classDef hot fill:#f96,stroke:#333,stroke-width:4px
          class I,J hot
          A <--> K
        """

    @Test func readsShapesLinksGroupsAndClasses() throws {
        let r = try MermaidReader.read(Self.sample)
        #expect(r.direction == .LR)
        #expect(r.warnings.isEmpty)
        let byID = Dictionary(uniqueKeysWithValues: r.document.nodes.map { ($0.id, $0) })
        #expect(byID["C"]?.shape == .diamond)
        #expect(byID["D"]?.shape == .circle)
        #expect(byID["E"]?.shape == .cylinder)
        #expect(byID["G"]?.shape == .hexagon)
        #expect(byID["H"]?.classes == ["hot"])
        #expect(byID["K"]?.parentID == "S2")
        #expect(byID["S2"]?.parentID == "S1")
        #expect(r.document.classes["hot"]?.style.strokeWidth == 4)
        #expect(r.document.edges.map(\.label) == [nil, nil, nil, nil, "yes", nil, "no", nil, nil])
        #expect(r.document.edges[2].style.dash != nil)
        #expect(r.document.edges[3].style.strokeWidth == 3)
        #expect(r.document.edges[5].style.targetArrow == ArrowHead.none)
    }

    @Test func roundTripKeepsTheGraph() throws {
        let a = FlowStore<JSONValue>()
        try a.load(Self.sample, format: .mermaid)
        let b = FlowStore<JSONValue>()
        try b.load(a.text(.mermaid), format: .mermaid)
        #expect(DOTRoundTripTests.summary(a) == DOTRoundTripTests.summary(b))
        #expect(a.edges.map(\.style) == b.edges.map(\.style))
        // and through DOT
        let c = FlowStore<JSONValue>()
        try c.load(a.text(.dot), format: .dot)
        // (DOT has no stadium: it comes back a rounded box)
        let viaDOT = DOTRoundTripTests.summary(c)
        #expect(DOTRoundTripTests.summary(a).nodes.map { $0.replacing("stadium", "rounded") } == viaDOT.nodes)
        #expect(DOTRoundTripTests.summary(a).edges == viaDOT.edges)
    }

    @Test func errorsNameTheLine() {
        #expect(throws: FlowError.self) { try MermaidReader.read("sequenceDiagram\nA->>B: hi") }
        #expect(throws: FlowError.self) { try MermaidReader.read("flowchart TD\nsubgraph a\nb") }
        #expect(throws: FlowError.self) { try MermaidReader.read("flowchart TD\nA --> ") }
        let deep = "flowchart TD\n" + String(repeating: "subgraph s\n", count: 1000)
        #expect(throws: FlowError.self) { try MermaidReader.read(deep) }
        do {
            _ = try MermaidReader.read("flowchart TD\n\nA --> ")
        } catch {
            #expect("\(error)".contains("line 3"))
        }
    }
}
