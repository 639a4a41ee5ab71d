import FlowCore
import FlowLayout
import TestSupport
import Testing

@testable import FlowFormats

/// DOT records: fields kept as the title, ports as handles over their fields.
@Suite struct DOTRecordTests {
    @Test func recordsKeepTheirFieldsAndPortsBecomeHandles() throws {
        let r = try DOTReader.read("""
            digraph structs {
              node [shape=record];
              struct1 [label="<f0> left|<f1> mid\\ dle|<f2> right"];
              struct2 [label="<f0> one|<f1> two"];
              struct3 [shape=Mrecord, label="hello\\nworld |{ b |{c|<here> d|e}| f}| g | h"];
              struct1:f1 -> struct2:f0;
              struct1:f2 -> struct3:here:n;
            }
            """)
        #expect(r.warnings.isEmpty)
        let nodes = Dictionary(uniqueKeysWithValues: r.document.nodes.map { ($0.id, $0) })
        #expect(nodes["struct1"]?.shape == .record)
        #expect(nodes["struct3"]?.shape == .mrecord)
        // the title keeps the record syntax and its escapes
        #expect(nodes["struct1"]?.data.title(nodeID: "struct1") == "<f0> left|<f1> mid\\ dle|<f2> right")
        let e = r.document.edges
        #expect(e[0].sourceHandleID == "out-f1")
        #expect(e[0].targetHandleID == "in-f0")
        #expect(e[1].targetHandleID == "in-here:n")
        let out = try #require(nodes["struct1"]?.handles.first { $0.id == "out-f1" })
        // the middle field of three: near the middle of the bottom side
        #expect(out.position == .bottom)
        #expect(abs(out.offset) < 0.1)
        let left = try #require(nodes["struct2"]?.handles.first { $0.id == "in-f0" })
        #expect(left.position == .top && left.offset < -0.1)
        let here = try #require(nodes["struct3"]?.handles.first { $0.id == "in-here:n" })
        #expect(here.position == .top && abs(here.offset) < 0.25)
    }

    @Test func sidewaysGraphsStackTheFields() throws {
        let r = try DOTReader.read("""
            digraph { rankdir=LR; node [shape=record]; a [label="<x> x|<y> y"]; b; a:y -> b }
            """)
        let a = r.document.nodes[0]
        #expect(a.data.title(nodeID: "a") == "{<x> x|<y> y}")
        let h = try #require(a.handles.first { $0.id == "out-y" })
        #expect(h.position == .right && h.offset > 0.1)
        // a record without a label shows its id
        #expect(r.document.nodes[1].data.title(nodeID: "b") == "{b}")
    }

    @Test func fieldsNamedLikeCompassPointsAreFields() throws {
        // graphviz-doc's hashtable.gv: `<n>` is a field, so `b:n` names it, not the top
        let r = try DOTReader.read("digraph { rankdir=LR; node [shape=record]; a [label=\"<s> x\"]; b [label=\"<n> n|<p> \"]; a:s -> b:n; c -> b:w }")
        #expect(r.document.edges[0].sourceHandleID == "out-s")
        #expect(r.document.edges[0].targetHandleID == "in-n")
        #expect(r.document.edges[1].targetHandleID == "in-left")
        #expect(r.warnings.isEmpty)
    }

    @Test func layoutsOrderNodesByTheFieldsTheirEdgesLeave() throws {
        // the targets and edges are declared in the opposite order of the fields they hang from
        let store = FlowStore<JSONValue>()
        try store.load("""
            digraph { rankdir=LR; n3; n2; n1; n0; a [shape=record, label="<f0> |<f1> |<f2> |<f3> "];
              a:f3 -> n3; a:f2 -> n2; a:f1 -> n1; a:f0 -> n0 }
            """, format: .dot)
        let ys = try (0..<4).map { try #require(store.node("n\($0)")).position.y }
        #expect(ys == ys.sorted())
    }

    @Test func edgesIntoARecordOrAPolygonGetTheirOwnEnds() throws {
        for shape in ["record", "house", "doublecircle", "box3d"] {
            let store = FlowStore<JSONValue>()
            try store.load("digraph { node [shape=\(shape)]; a; b; c; d; a -> d; b -> d; c -> d }", format: .dot)
            let ends = try store.edges.map { try store.edgeGeometry($0.id).targetPoint }
            #expect(Set(ends.map { "\($0.x),\($0.y)" }).count == 3, "\(shape)")
        }
    }

    @Test func unknownPortsAreReported() throws {
        let r = try DOTReader.read("digraph { a [shape=record, label=\"<p> p\"]; a:q -> a:p:w }")
        #expect(r.warnings == ["edge port 'q' is not a field of node 'a' (1 edge)"])
        #expect(r.document.edges[0].sourceHandleID == "source")
        #expect(r.document.edges[0].targetHandleID == "in-p:w")
    }

    @Test func recordsRoundTripThroughDOT() throws {
        let store = FlowStore<JSONValue>()
        try store.load("digraph { a [shape=record, label=\"<p> a\\\\b|{c|\\\"d\\\"}\"]; b [shape=Mrecord] }", format: .dot)
        let text = try store.text(.dot)
        #expect(text.contains("shape=record"))
        #expect(text.contains("shape=Mrecord"))
        let again = FlowStore<JSONValue>()
        try again.load(text, format: .dot)
        #expect(again.node("a")?.data.title(nodeID: "a") == store.node("a")?.data.title(nodeID: "a"))
    }

    @Test func coloursByX11AndSVGNameAndHSV() throws {
        let r = try DOTReader.read("""
            digraph { a [color=salmon2, fillcolor="/x11/chocolate", fontcolor=teal]; b [color="0.650 0.200 1.000"]; c [color=nocolour] }
            """)
        #expect(r.document.nodes[0].style.stroke == FlowColor("#ee8262"))
        #expect(r.document.nodes[0].style.fill == FlowColor("#d2691e"))
        #expect(r.document.nodes[0].style.textColor == FlowColor("#008080"))
        #expect(r.document.nodes[1].style.stroke == FlowColor("#ccd1ff"))
        #expect(r.warnings == ["node colour 'nocolour' is not mapped (1 node)"])
    }
}
