import FlowCore
import TestSupport
import Testing

@testable import FlowFormats

/// Issue #38: `store:dot()` writes a table as the HTML-like label it was read from and a
/// polygon as `shape=polygon` with its attributes, so the DOT read back is the same
/// document (export -> decode -> dot() -> decode); `store:mermaid()` writes the nearest
/// form and says what is lost.
@Suite struct DOTDrawnWriterTests {
    /// graphviz-doc's table.gv (examples/graphs) and html2.gv, html3.gv (html/info), with
    /// rules, sides, styles and fonts added.
    static let tables = [
        """
        digraph structs { node [shape=plaintext];
          struct1 [label=<<TABLE CELLPADDING="10" BORDER="0"><TR><TD HEIGHT="30" WIDTH="90">a</TD><TD>b</TD><TD>c</TD></TR></TABLE>>];
          struct2 [label=<<TABLE><TR><TD COLSPAN="3">elefantel</TD><TD ROWSPAN="2" VALIGN="bottom" ALIGN="right">two</TD></TR>
            <TR><TD COLSPAN="2" ROWSPAN="2"><TABLE BGCOLOR="grey"><TR><TD>buca</TD></TR><TR><TD BGCOLOR="yellow">c</TD></TR>
            <TR><TD>f</TD></TR></TABLE></TD><TD>patratos</TD></TR><TR><TD COLSPAN="2" ALIGN="right">4</TD></TR></TABLE>>];
          struct3 [label=<<TABLE CELLPADDING="5"><TR><TD ROWSPAN="3">Hello</TD><TD ROWSPAN="2" COLSPAN="3"><TABLE BORDER="4">
            <TR><TD COLSPAN="3">b</TD></TR><TR><TD>a</TD><TD>dino</TD><TD>y</TD></TR><TR><TD COLSPAN="3">rhino</TD></TR></TABLE></TD></TR>
            <TR><TD COLSPAN="2">climb</TD><TD ROWSPAN="2">Up</TD></TR><TR><TD COLSPAN="3">low</TD></TR></TABLE>>];
          struct1 -> struct3; struct1 -> struct2 }
        """,
        """
        digraph G { rankdir=LR node [shape=plaintext]
          a [label=<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0"><TR><TD ROWSPAN="3" BGCOLOR="yellow">class</TD></TR>
            <TR><TD PORT="here" BGCOLOR="lightblue">qualifier</TD></TR></TABLE>>]
          b [shape=ellipse style=filled label=<<TABLE BGCOLOR="bisque"><TR><TD COLSPAN="3">elephant</TD>
            <TD ROWSPAN="2" BGCOLOR="chartreuse" VALIGN="bottom" ALIGN="right">two</TD></TR>
            <TR><TD COLSPAN="2" ROWSPAN="2"><TABLE BGCOLOR="grey"><TR><TD>corn</TD></TR><TR><TD BGCOLOR="yellow">c</TD></TR>
            <TR><TD>f</TD></TR></TABLE></TD><TD BGCOLOR="white">penguin</TD></TR>
            <TR><TD COLSPAN="2" BORDER="4" ALIGN="right" PORT="there">4</TD></TR></TABLE>>]
          a:here -> b:there [dir=both arrowtail=diamond] }
        """,
        """
        digraph structs { node [shape=plaintext];
          struct1 [label=<<TABLE STYLE="rounded"><TR><TD>line 1</TD><TD BGCOLOR="blue"><FONT COLOR="white">line2</FONT></TD>
            <TD BGCOLOR="gray"><FONT POINT-SIZE="24.0">line3</FONT></TD>
            <TD BGCOLOR="yellow"><FONT POINT-SIZE="24.0" FACE="ambrosia">line4</FONT></TD>
            <TD><TABLE CELLPADDING="0" BORDER="0" CELLSPACING="0"><TR><TD><FONT COLOR="green">Mixed</FONT></TD>
            <TD><FONT COLOR="red">fonts</FONT></TD></TR></TABLE></TD></TR>
            <HR/><TR><TD SIDES="LB" STYLE="dashed">a &amp; b</TD><VR/><TD COLSPAN="4" SIDES="T" STYLE="dotted,rounded">x &lt; y</TD></TR></TABLE>>];
          boxed [shape=box, style=rounded, label=<<B><TABLE><TR><TD PORT="p">bold</TD></TR></TABLE></B>>];
          plain [shape=plain, label=<<TABLE><TR><TD>no margin</TD></TR></TABLE>>];
          struct1 -> boxed:p; boxed -> plain }
        """,
    ]

    /// The store `dot` loads into, exported and decoded, then written as DOT and read back.
    static func roundTrip(_ dot: String) throws -> (FlowStore<JSONValue>, FlowStore<JSONValue>, String) {
        let first = FlowStore<JSONValue>()
        let warnings = try first.load(dot, format: .dot)
        #expect(warnings.isEmpty, "\(warnings)")
        let decoded = FlowStore<JSONValue>()
        _ = try decoded.load(first.text(.json), format: .json)
        let written = try decoded.text(.dot)
        let back = FlowStore<JSONValue>()
        let again = try back.load(written, format: .dot)
        #expect(again.isEmpty, "\(again)")
        return (decoded, back, written)
    }

    /// Each node's id, shape, size, position and style, and each edge's ends.
    static func summary(_ s: FlowStore<JSONValue>) -> [String] {
        let d = s.document()
        return d.nodes.map { n in
            "\(n.id) \(String(describing: n.shape)) \(n.size) \(n.position) \(n.style)"
        } + d.edges.map { "\($0.sourceNodeID):\($0.sourceHandleID ?? "-") -> \($0.targetNodeID):\($0.targetHandleID ?? "-")" }
    }

    /// The two stores' nodes' data (their tables, polygons, labels) are equal, node by node.
    static func sameData(_ a: FlowStore<JSONValue>, _ b: FlowStore<JSONValue>) {
        let (x, y) = (a.document().nodes, b.document().nodes)
        #expect(x.count == y.count)
        for (m, n) in zip(x, y) { #expect(m.data == n.data, "\(m.id)") }
    }

    @Test func tablesAreWrittenAsHTMLAndReadBackTheSame() throws {
        for dot in Self.tables {
            let (before, after, written) = try Self.roundTrip(dot)
            #expect(written.contains("label=<<TABLE") || written.contains("label=<<B><TABLE"), "\(written)")
            #expect(!written.contains("shape=record"), "\(written)")
            let a = Self.summary(before), b = Self.summary(after)
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) { #expect(x == y) }
            Self.sameData(before, after)
        }
    }

    @Test func fontsRulesSidesAndStylesAreDrawnNotDropped() throws {
        let l = DOTHTMLLabel("""
            <TABLE STYLE="rounded"><TR><TD><FONT COLOR="red" POINT-SIZE="20" FACE="Courier">big</FONT></TD><VR/><TD SIDES="lr" STYLE="dashed">b</TD></TR>
            <HR/><TR><TD STYLE="radial">c</TD><TD><IMG SRC="missing.png"/></TD></TR></TABLE>
            """)
        // an image whose file is missing is reported (DOTImageTests); radial without a
        // BGCOLOR list is a plain fill, as in dot (DOTGradientTests)
        #expect(l.dropped == ["<IMG SRC=\"missing.png\"> (no such file, or it cannot be read)"])
        var t = try #require(l.table)
        _ = t.size(font: .standard)
        guard case .object(let json) = t.json, case .array(let cells)? = json["cells"],
            case .object(let big) = cells[0], case .object(let b) = cells[1]
        else {
            Issue.record("no cells")
            return
        }
        #expect(json["style"] == .string("rounded") && json["hr"] == .array([.number(1)]))
        #expect(big["font"] == .object(JSONObject([("color", .string("#ff0000")), ("size", .number(20)), ("face", .string("Courier"))])))
        #expect(b["vr"] == .bool(true) && b["sides"] == .string("LR") && b["style"] == .string("dashed"))
        // the 20 pt text makes its row higher than a 12 pt one
        #expect(t.cells[0].frame.height > t.cells[2].frame.height + 8)
    }

    @Test func aFontAroundAWholeLabelIsTheNodesFont() throws {
        let r = try DOTReader.read("digraph { a [label=<<FONT COLOR=\"blue\" POINT-SIZE=\"18\">big blue</FONT>>]; b [label=<x <FONT COLOR=\"red\">y</FONT>>] }")
        #expect(r.document.nodes[0].style.textColor == FlowColor("#0000ff") && r.document.nodes[0].style.fontSize == 18)
        // a font round part of the text: drawn as runs (DOTHTMLLabelTests)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        #expect(FillGradient.stored(in: r.document.nodes[1].data) == nil)
        guard case .object(let data) = r.document.nodes[1].data else { Issue.record("no data"); return }
        #expect(data["spans"] == DOTTextRun.json([[DOTTextRun(text: "x"), DOTTextRun(text: " y", font: .init(color: FlowColor("#ff0000")))]]))
    }

    @Test func polygonsAreWrittenWithTheirAttributesAndReadBackTheSame() throws {
        let (before, after, written) = try Self.roundTrip("""
            digraph { node [shape=polygon];
              a [sides=7, skew=.3, peripheries=3, orientation=20, label="seven"];
              b [sides=4, distortion=-.5, peripheries=2, regular=true];
              c [shape=ellipse, peripheries=3];
              d [shape=hexagon, orientation=15];
              a -> b -> c -> d }
            """)
        #expect(written.contains("shape=polygon, sides=7, skew=0.3, orientation=20, peripheries=3"), "\(written)")
        #expect(written.contains("\"c\" [shape=ellipse, peripheries=3"), "\(written)")
        let a = Self.summary(before), b = Self.summary(after)
        for (x, y) in zip(a, b) { #expect(x == y) }
        Self.sameData(before, after)
    }

    /// dot draws extra outlines outside the polygon, 4 points apart: a pentagon 1 inch
    /// across with 3 outlines is 1.2646 by 1.2701 inches (dot -Tdot), with 2 outlines
    /// 1.1323 by 1.1351, an ellipse 16 points larger each way. The node is twice the
    /// outermost outline's farthest corner from the pentagon's centre each way, which
    /// stays in its middle (the bottom side nearer to it than the top corner).
    @Test func peripheriesLieOutsideAsInDot() throws {
        let r = try DOTReader.read("""
            digraph { a [shape=polygon, sides=5, peripheries=3, fixedsize=true, width=1, height=1, label=""];
              c [shape=ellipse, peripheries=3, width=1, height=1, fixedsize=true, label=""]
              b [shape=pentagon, peripheries=2, fixedsize=true, width=1, height=1, label=""] }
            """)
        let a = r.document.nodes[0].size, c = r.document.nodes[1].size, b = r.document.nodes[2].size
        #expect(abs(a.width - 1.2646 * 72) < 0.01 && abs(a.height - 1.2701 * 72) < 0.01, "\(a)")
        #expect(abs(b.width - 1.1323 * 72) < 0.01 && abs(b.height - 1.1351 * 72) < 0.01, "\(b)")
        // the innermost pentagon as dot draws it: its top corner 36 above the middle, its
        // bottom side 29.12 below
        let inner = try #require(DOTPolygonTests.polygon(r.document.nodes[2]))
        guard case .array(let ps)? = inner["points"] else { Issue.record("no points"); return }
        let ys = stride(from: 1, to: ps.count, by: 2).compactMap { i -> Double? in
            if case .number(let v) = ps[i] { return (v - 0.5) * b.height } else { return nil }
        }
        #expect(abs(ys.min()! + 36) < 0.02 && abs(ys.max()! - 29.124) < 0.02, "\(ys)")
        #expect(c == Size(88, 88))
        // the innermost outline keeps the size given
        let p = try #require(DOTPolygonTests.polygon(r.document.nodes[0]))
        guard case .array(let points)? = p["points"] else { Issue.record("no points"); return }
        let xs = stride(from: 0, to: points.count, by: 2).compactMap { i -> Double? in
            if case .number(let v) = points[i] { return v } else { return nil }
        }
        #expect(abs((xs.max()! - xs.min()!) * a.width - 72) < 0.05)
    }

    @Test func mermaidWritesATableAsItsRowsAndSaysWhatIsLost() throws {
        let s = FlowStore<JSONValue>()
        _ = try s.load(Self.tables[0], format: .dot)
        _ = try s.load("digraph { t [label=<<TABLE><TR><TD>a</TD><TD>b</TD></TR><TR><TD COLSPAN=\"2\">c</TD></TR></TABLE>>]; p [shape=polygon, sides=9] }", format: .dot)
        let text = try s.text(.mermaid)
        // a table in a node without a shape is drawn in DOT's ellipse (written as a stadium)
        #expect(text.contains("t([\"a #124; b<br>c\"])"), "\(text)")
        #expect(text.contains("%% node t: a table, written as its text a row a line"), "\(text)")
        #expect(text.contains("%% node p: a polygon (9 sides), written as its nearest shape (ellipse)"), "\(text)")
        let back = FlowStore<JSONValue>()
        _ = try back.load(text, format: .mermaid)
        #expect(back.document().nodes.map(\.id) == ["t", "p"])
    }

    /// Over graphviz-doc's 60 example graphs (polypoly.gv and crazy.gv among them) and its
    /// HTML examples, every node drawn from its data (a table, a polygon) reads back from
    /// `store:dot()` with the same data, shape and size.
    @Test func theGraphvizExamplesTablesAndPolygonsReadBackTheSame() throws {
        var files = GraphvizWarningsTests.examples().map(\.1)
        files += GraphvizExamples.files().filter { $0.contains("/html/") }.compactMap(GraphvizExamples.contents)
        guard !files.isEmpty else {
            print("skipped: no Graphviz example files (install graphviz-doc: scripts/setup)")
            return
        }
        var drawn = 0
        for text in files {
            let a = FlowStore<JSONValue>()
            try a.load(text, format: .dot)
            let b = FlowStore<JSONValue>()
            try b.load(a.text(.dot), format: .dot)
            let (x, y) = (a.document().nodes, b.document().nodes)
            #expect(x.count == y.count)
            for (m, n) in zip(x, y) {
                guard case .object(let o) = m.data, o["table"] != nil || o["polygon"] != nil else { continue }
                drawn += 1
                #expect(m.data == n.data, "\(m.id): \(m.data) \(n.data)")
                #expect(m.shape == n.shape && m.size == n.size, "\(m.id): \(String(describing: m.shape)) \(String(describing: n.shape)) \(m.size) \(n.size)")
            }
        }
        // table.gv's 3 tables, html2-4's 4, polypoly's and crazy's polygons
        #expect(drawn > 50, "\(drawn)")
    }
}
