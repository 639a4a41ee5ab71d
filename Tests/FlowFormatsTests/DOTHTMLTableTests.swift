import FlowCore
import TestSupport
import Testing

@testable import FlowFormats

/// HTML-like tables drawn as Graphviz draws them: cells on a grid with spans, colours,
/// borders, padding and alignment, kept in the node's data as `table`.
@Suite struct DOTHTMLTableTests {
    /// The cells of `table` (a node's `table` data) by their text or port.
    static func cells(_ table: JSONValue?) -> [String: JSONObject] {
        guard case .object(let t)? = table, case .array(let cells)? = t["cells"] else { return [:] }
        var out: [String: JSONObject] = [:]
        for case .object(let c) in cells {
            if case .string(let s)? = c["text"] { out[s] = c } else if case .string(let p)? = c["port"] { out[p] = c }
        }
        return out
    }

    static func box(_ c: JSONObject?) -> Rect {
        func n(_ k: String) -> Double { if case .number(let v)? = c?[k] { return v } else { return .nan } }
        return Rect(n("x"), n("y"), n("width"), n("height"))
    }

    @Test func spansMakeAGrid() throws {
        var l = DOTHTMLLabel("""
            <TABLE><TR><TD COLSPAN="2">wide</TD><TD ROWSPAN="2">tall</TD></TR>
            <TR><TD>a</TD><TD>b</TD></TR><TR><TD COLSPAN="3">low</TD></TR></TABLE>
            """)
        #expect(l.dropped.isEmpty)
        var t = try #require(l.table)
        _ = t.size(font: .standard)
        t.move(to: .zero)
        l.table = t
        let cells = Self.cells(t.json)
        let (wide, tall, a, b, low) = (
            Self.box(cells["wide"]), Self.box(cells["tall"]), Self.box(cells["a"]), Self.box(cells["b"]), Self.box(cells["low"]))
        // `wide` spans the columns of `a` and `b`, `tall` the rows of `wide` and `a`
        #expect(wide.x == a.x && wide.maxX == b.maxX)
        #expect(tall.y == wide.y && tall.maxY == a.maxY && tall.x > b.maxX)
        #expect(low.x == a.x && low.maxX == tall.maxX && low.y > a.maxY)
        // border 1 and spacing 2 around and between the cells (Graphviz's defaults)
        #expect(a.x == 3 && b.x == a.maxX + 2 && t.frame.width == tall.maxX + 3)
    }

    @Test func neighboursShareABorderWithoutSpacing() throws {
        var t = try #require(DOTHTMLLabel("<TABLE CELLSPACING=\"0\" CELLBORDER=\"2\"><TR><TD>a</TD><TD>b</TD></TR></TABLE>").table)
        _ = t.size(font: .standard)
        let cells = Self.cells(t.json)
        let (a, b) = (Self.box(cells["a"]), Self.box(cells["b"]))
        #expect(b.x == a.maxX - 2 && a.x == 1 && t.frame.width == b.maxX + 1)
    }

    @Test func tablesImportWithTheirLookPortsAndNoWarnings() throws {
        let r = try DOTReader.read("""
            digraph { a [shape=plaintext, label=<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" BGCOLOR="lightgrey">
              <TR><TD PORT="p" BGCOLOR="yellow" ALIGN="LEFT">first</TD><TD PORT="q" VALIGN="BOTTOM" HEIGHT="60">second</TD></TR>
              </TABLE>>]; b; a:q -> b }
            """)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        let a = r.document.nodes[0]
        guard case .object(let data) = a.data else { Issue.record("no data"); return }
        guard case .object(let table)? = data["table"] else { Issue.record("no table"); return }
        #expect(table["outline"] == .bool(false))
        #expect(table["fill"] == .string("#d3d3d3"))
        let cells = Self.cells(data["table"])
        #expect(cells["first"]?["fill"] == .string("#ffff00"))
        #expect(cells["first"]?["align"] == .string("left") && cells["first"]?["port"] == .string("p"))
        #expect(cells["second"]?["valign"] == .string("bottom"))
        #expect(cells["second"]?["border"] == .number(1) && cells["second"]?["padding"] == .number(4))
        // the node holds the table and Graphviz's margin; HEIGHT is a minimum
        let second = Self.box(cells["second"])
        #expect(second.height == 60)
        #expect(a.size == Size(Self.box(table).width + 16, 60 + 8))
        // the edge leaves from the middle of cell `q`
        let handle = try #require(a.handles.first { $0.id == "out-q" })
        let size = try #require(a.size)
        #expect(abs(handle.offset - (second.midX / size.width - 0.5)) < 0.001)
        // the title stays the record it is written back as
        #expect(a.data.title(nodeID: "a") == "<p> first | <q> second")
    }

    @Test func edgeAndClusterTablesAreTheirTextAndSaySo() throws {
        let r = try DOTReader.read("""
            digraph { subgraph cluster_c { graph [label=<<TABLE BGCOLOR="red"><TR><TD>c1</TD><TD>c2</TD></TR></TABLE>>]; a }
              a -> b [label=<<TABLE><TR><TD>e1</TD></TR><TR><TD>e2</TD></TR></TABLE>>] }
            """)
        #expect(r.document.edges[0].label == "e1\ne2")
        #expect(r.warnings.contains("edge HTML label <TABLE> drawn as its cells' text (1 edge)"), "\(r.warnings)")
        #expect(r.warnings.contains("cluster HTML label <TABLE> drawn as its cells' text (1 cluster)"), "\(r.warnings)")
    }

    /// `label=<…>` as a statement (of a cluster, of the graph) is an HTML label as it is in
    /// a list: it was kept as plain text, markup and all.
    @Test func htmlLabelStatementsAreHTML() throws {
        let r = try DOTReader.read("digraph { label=<<I>all</I>>; subgraph cluster_c { label=<<B>bold c</B>>; a } }")
        // a title is not drawn italic (a cluster's bold is its style's)
        #expect(r.warnings == ["graph HTML label <I> is not drawn"], "\(r.warnings)")
        #expect(r.document.nodes.first { $0.id != "a" }?.data.title(nodeID: "") == "bold c")
    }

    @Test func whatIsNotReadIsReported() throws {
        let l = DOTHTMLLabel("<TABLE BGCOLOR=\"nocolour\" CELLSPACING=\"-3\"><TR><TD ALIGN=\"diagonal\" SIDES=\"LX\" HREF=\"x\">x</TD></TR></TABLE>")
        #expect(l.dropped == ["ALIGN 'diagonal'", "BGCOLOR 'nocolour'", "CELLSPACING '-3'", "HREF", "SIDES 'LX'"])
    }

    @Test func deepTablesAreDrawnAsText() throws {
        let depth = DOTHTMLLabel.maximumDrawnDepth + 2
        let html = String(repeating: "<TABLE><TR><TD>", count: depth) + "in" + String(repeating: "</TD></TR></TABLE>", count: depth)
        let l = DOTHTMLLabel(html)
        #expect(l.dropped == ["<TABLE> nested deeper than \(DOTHTMLLabel.maximumDrawnDepth) levels drawn as text"])
        var t = try #require(l.table)
        for _ in 1..<DOTHTMLLabel.maximumDrawnDepth { t = try #require(t.cells.first?.table) }
        #expect(t.cells.first?.table == nil && t.cells.first?.lines == ["in"])
    }

    /// What the reader stores passes the store's check, and survives export and decode.
    @Test func aTableNodeRoundTrips() throws {
        let store = FlowStore<JSONValue>()
        let warnings = try store.load("""
            digraph { t [label=<<TABLE COLOR="red"><TR><TD ROWSPAN="2" PORT="x">x</TD><TD><TABLE><TR><TD>in</TD></TR></TABLE></TD></TR>
              <TR><TD>y</TD></TR></TABLE>>]; u; t:x -> u }
            """, format: .dot)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(store.document().edges[0].sourceHandleID == "out-x")
        let again = FlowStore<JSONValue>()
        _ = try again.load(store.text(.json), format: .json)
        #expect(again.document().nodes == store.document().nodes)
        guard case .object(let data) = store.document().nodes[0].data, case .object(let table)? = data["table"] else {
            Issue.record("no table")
            return
        }
        #expect(table["outline"] == nil)
        #expect(Self.cells(data["table"])["x"]?["stroke"] == .string("#ff0000"))
    }
}
