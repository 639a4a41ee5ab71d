import FlowCore
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
        #expect(l.dropped == ["<B>", "<I>"])
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
}
