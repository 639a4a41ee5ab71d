import FlowCore
import FlowRender
import TestSupport
import Testing

@testable import FlowFormats

/// HTML-like labels: tables as records with ports (drawn as tables: DOTHTMLTableTests),
/// other markup as text with line breaks.
@Suite struct DOTHTMLLabelTests {
    @Test func tablesBecomeRecords() {
        let l = DOTHTMLLabel("""
            <TABLE BORDER="0" BGCOLOR="yellow"><TR><TD PORT="a">left &amp; right</TD><TD>b</TD></TR>
            <TR><TD COLSPAN="2"><FONT COLOR="red">wide<BR/>cell</FONT></TD></TR></TABLE>
            """)
        #expect(l.isRecord)
        #expect(l.text == "{{<a> left & right | b} | wide\\ncell}")
        // the table's colours, border, spans and the cell's font are drawn
        #expect(l.dropped.isEmpty)
        #expect(l.table?.cells.last?.font == DOTHTMLTable.Font(color: FlowColor("#ff0000")))
        let r = RecordLabel.parse(l.text)
        #expect(RecordLabel.field(named: "a", in: r)?.lines == ["left & right"])
    }

    @Test func nestedTablesAndSpecialCharacters() {
        let l = DOTHTMLLabel("<TABLE><TR><TD>x|y</TD><TD><TABLE><TR><TD>p</TD></TR><TR><TD>q</TD></TR></TABLE></TD></TR></TABLE>")
        #expect(l.text == "x\\|y | {p | q}")
        #expect(l.dropped.isEmpty)
    }

    @Test func markupWithoutATableIsText() {
        let l = DOTHTMLLabel("<B>bold</B> and <I>it</I><BR ALIGN=\"LEFT\"/>next &#955;")
        #expect(!l.isRecord)
        #expect(l.text == "bold and it\nnext \u{3bb}")
        // part of the text bold, part italic: runs (drawn in a node, reported elsewhere)
        #expect(l.dropped.isEmpty && l.spanTags == ["<B>", "<I>"])
        #expect(l.spans?.map { $0.map(\.text) } == [["bold", " and", " it"], ["next \u{3bb}"]])
    }

    @Test func htmlLabelsImport() throws {
        let r = try DOTReader.read("""
            digraph { a [shape=plaintext, label=<<TABLE><TR><TD PORT="p">1</TD><TD PORT="q">2</TD></TR></TABLE>>];
              b [label=<x<BR/>y>]; c [label=<<B><I>all</I> <I>bold</I></B>>]; a:q -> b }
            """)
        #expect(r.document.nodes[2].style.bold == true)
        #expect(r.document.nodes[2].style.italic == true)
        #expect(r.document.nodes[2].data.title(nodeID: "c") == "all bold")
        #expect(r.document.nodes[0].shape == .record)
        #expect(r.document.nodes[0].data.title(nodeID: "a") == "<p> 1 | <q> 2")
        #expect(r.document.edges[0].sourceHandleID == "out-q")
        #expect(r.document.nodes[1].data.title(nodeID: "b") == "x\ny")
        #expect(r.warnings.isEmpty)
    }

    /// A `<FONT>`, `<B>` or `<I>` round all of an edge's, cluster's or graph's HTML label
    /// gives its text that colour, size and weight, as a node's (#38).
    @Test func aFontRoundAWholeEdgeClusterOrGraphLabelIsItsTextLook() throws {
        let r = try DOTReader.read("""
            digraph { label=<<FONT COLOR="red" POINT-SIZE="20">title</FONT>>
              subgraph cluster_c { label=<<B><FONT COLOR="blue">group</FONT></B>>; a }
              a -> b [label=<<I><FONT POINT-SIZE="9" COLOR="green">edge</FONT></I>>, fontcolor=black] }
            """)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        let e = r.document.edges[0]
        #expect(e.label == "edge" && e.style.textColor == FlowColor("#00ff00") && e.style.fontSize == 9 && e.style.italic == true)
        let c = try #require(r.document.nodes.first { $0.id == "cluster_c" })
        #expect(c.style.textColor == FlowColor("#0000ff") && c.style.bold == true)
        #expect(r.document.look.title == "title" && r.document.look.textColor == FlowColor("#ff0000") && r.document.look.fontSize == 20)
        // part of the text in a font: still reported
        let part = try DOTReader.read("digraph { a -> b [label=<one <FONT COLOR=\"red\">two</FONT>>] }")
        #expect(part.warnings == ["HTML label <FONT> around part of the text is not drawn (1 edge)"])
    }

    /// `<FONT>`, `<B>`, `<I>`, `<U>`, `<S>`, `<O>`, `<SUB>`, `<SUP>` round part of a node's
    /// text or a cell's are drawn as runs (`tspan`s), written back and read back (#38).
    @Test func partOfATextInItsOwnLookIsDrawnAsRuns() throws {
        let s = FlowStore<JSONValue>()
        let warnings = try s.load("""
            digraph { a [label=<plain <B>bold</B> <FONT COLOR="red" POINT-SIZE="20">big red</FONT><BR/><U>under</U>x<SUB>2</SUB>>]
              t [shape=plaintext, label=<<TABLE><TR><TD>one <I>two</I></TD><TD><S>gone</S></TD><TD>plain</TD></TR></TABLE>>] }
            """, format: .dot)
        #expect(warnings.isEmpty, "\(warnings)")
        let red = DOTHTMLTable.Font(color: FlowColor("#ff0000"), size: 20)
        let expected: [[DOTTextRun]] = [
            [DOTTextRun(text: "plain"), DOTTextRun(text: " bold", bold: true), DOTTextRun(text: " big red", font: red)],
            [DOTTextRun(text: "under", underline: true), DOTTextRun(text: "x"), DOTTextRun(text: "2", shift: -1)],
        ]
        guard case .object(let a) = s.node("a")!.data else { Issue.record("no data"); return }
        #expect(a["spans"] == DOTTextRun.json(expected))
        #expect(a["label"] == .string("plain bold big red\nunderx2"))
        // the node is grown round the 20 pt run: wider than its plain title needs
        #expect(s.node("a")!.size.width > TextMetrics.width(of: "plain bold big red", font: .standard) + 16)
        guard case .object(let t) = s.node("t")!.data, case .object(let table)? = t["table"],
            case .array(let cells)? = table["cells"], case .object(let c0) = cells[0], case .object(let c1) = cells[1],
            case .object(let c2) = cells[2]
        else { Issue.record("no table"); return }
        #expect(c0["spans"] == DOTTextRun.json([[DOTTextRun(text: "one"), DOTTextRun(text: " two", italic: true)]]))
        #expect(c1["spans"] == DOTTextRun.json([[DOTTextRun(text: "gone", strike: true)]]))
        #expect(c2["spans"] == nil && c2["text"] == .string("plain"))
        let svg = try renderSVG(s)
        for run in ["font-weight:bold\"> bold</tspan>", "text-decoration:underline\">under</tspan>",
            "baseline-shift:sub\">2</tspan>", "font-style:italic\"> two</tspan>", "text-decoration:line-through\">gone</tspan>"] {
            #expect(svg.contains(run), "\(run)")
        }
        #expect(svg.contains("<tspan style=\"fill:#ff0000;font-size:"))
        // written back as tags and read back the same
        let dot = try s.text(.dot)
        #expect(dot.contains("label=<plain<B> bold</B><FONT COLOR=\"#ff0000\" POINT-SIZE=\"20\"> big red</FONT><BR/><U>under</U>x<SUB>2</SUB>>"), "\(dot)")
        let back = FlowStore<JSONValue>()
        #expect(try back.load(dot, format: .dot).isEmpty)
        #expect(back.node("a")!.data == s.node("a")!.data && back.node("t")!.data == s.node("t")!.data)
        #expect(try s.text(.mermaid).contains("%% node a: text in several looks (fonts, bold, underline, …), written plain"))
    }

    /// A `<FONT FACE>` round all of a node's label is drawn (a run in that face); on an
    /// edge's label it is reported (#38).
    @Test func aFaceRoundAWholeLabelIsDrawnInANode() throws {
        let s = FlowStore<JSONValue>()
        let warnings = try s.load("""
            digraph { a [label=<<FONT FACE="Courier" COLOR="red">mono</FONT>>]
              a -> b [label=<<FONT FACE="Courier">edge</FONT>>] }
            """, format: .dot)
        #expect(warnings == ["HTML label FACE is not drawn (1 edge)"])
        guard case .object(let a) = s.node("a")!.data else { Issue.record("no data"); return }
        #expect(a["spans"] == DOTTextRun.json([[DOTTextRun(text: "mono", font: .init(color: FlowColor("#ff0000"), face: "Courier"))]]))
        #expect(s.node("a")!.style.textColor == FlowColor("#ff0000"))
        #expect(try renderSVG(s).contains("font-family:&apos;Courier&apos;,sans-serif\">mono</tspan>"))
    }
}
