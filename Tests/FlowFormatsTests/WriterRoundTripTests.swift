import FlowCore
import TestSupport
import Testing

@testable import FlowFormats

/// Issue #43: `store:dot()` and `store:mermaid()` wrote text their own readers refused (an
/// id with `\"`, an edge label with `|`). Over random stores whose ids and labels hold
/// quotes, backslashes, pipes, brackets, line ends and other scripts, reading the written
/// text gives the store back, with the edges' ranks (`EdgeRank`: DOT's `minlen`,
/// `constraint` and `weight`; Mermaid's longer links) and DOT's spacing (`nodesep`,
/// `ranksep`, `ranksep=equally`: `DiagramLook.nodeSpacing`, `layerSpacing`,
/// `equalLayerSpacing`) and the direction (DOT's `rankdir`, Mermaid's header:
/// `DiagramLook.direction`).
@Suite struct WriterRoundTripTests {
    static let pieces = [
        "a", "b", "Z", "0", "_", " ", "\"", "\\", "\\\\", "|", "[", "]", "{", "}", "(", ")", "<", ">",
        "\n", "\r", "\t", "#", "#quot;", "<br>", ";", "%%", "&", "-->", "`", ":", ",", "=", "é", "日本", "🙂",
        "\\N", "\\n", "end", "o", "x",
    ]

    static func text(_ rng: inout SplitMix64, _ length: Int) -> String {
        (0..<length).map { _ in rng.pick(pieces) }.joined()
    }

    /// A store of `nodes` nodes (some groups, nested), ids unique, labels on some nodes and
    /// edges, ranks (`EdgeRank`) on some edges, spacing on some (to the point's thousandth,
    /// from DOT's least 0.02 inches).
    static func randomStore(_ rng: inout SplitMix64) throws -> FlowStore<JSONValue> {
        var nodes: [FlowNode<JSONValue>] = []
        var ids = Set<String>()
        var groups: [String] = []
        for i in 0..<(1 + rng.below(12)) {
            var id = text(&rng, 1 + rng.below(5))
            if !ids.insert(id).inserted { id += "\(i)"; ids.insert(id) }
            let group = rng.chance(20)
            let data: JSONValue = rng.chance(50) ? .object(JSONObject([("label", .string(text(&rng, rng.below(6))))])) : .null
            nodes.append(FlowNode(
                id: id, position: Point(Double(i) * 100, 0), size: Size(80, 40), data: data,
                parentID: groups.isEmpty || rng.chance(40) ? nil : rng.pick(groups), acceptsChildren: group))
            if group { groups.append(id) }
        }
        let leaves = nodes.filter { !$0.acceptsChildren }.map(\.id)
        var edges: [FlowEdge] = []
        if !leaves.isEmpty {
            for k in 0..<rng.below(10) {
                edges.append(FlowEdge(
                    id: rng.chance(50) ? "e\(k + 1)" : text(&rng, 2) + "\(k)", sourceNodeID: rng.pick(leaves),
                    targetNodeID: rng.pick(leaves), label: rng.chance(60) ? text(&rng, rng.below(6)) : nil))
            }
        }
        var document = FlowDocument(nodes: nodes, edges: edges)
        for e in edges where rng.chance(30) {
            document.look.edgeRanks.append(EdgeRank(
                e.id, minLength: rng.chance(50) ? 1 : rng.below(5), constraint: !rng.chance(20),
                weight: rng.chance(50) ? 1 : rng.below(101)))
        }
        if rng.chance(40) { document.look.nodeSpacing = Double(1440 + rng.below(200_000)) / 1000 }
        if rng.chance(40) { document.look.layerSpacing = Double(1440 + rng.below(200_000)) / 1000 }
        document.look.equalLayerSpacing = rng.chance(30)
        if rng.chance(60) { document.look.direction = rng.pick(DiagramLook.Direction.allCases) }
        let s = FlowStore<JSONValue>()
        _ = try s.load(document)
        return s
    }

    /// Each edge's rank as `minlen constraint weight`, by edge index; "-" for the defaults.
    /// `mermaid`: only what Mermaid writes, the link's length (1 at least).
    static func ranks(_ d: FlowDocument<JSONValue>, mermaid: Bool = false) -> [String] {
        var byEdge: [String: EdgeRank] = [:]
        for r in d.look.edgeRanks { byEdge[r.edge] = r }
        return d.edges.map { e in
            guard let r = byEdge[e.id] else { return "-" }
            if mermaid { return max(1, r.minLength) == 1 ? "-" : "\(r.minLength)" }
            return r.isDefault ? "-" : "\(r.minLength) \(r.constraint) \(r.weight)"
        }
    }

    struct Summary: Equatable, CustomStringConvertible {
        var nodes: [String]
        var edges: [String]
        /// DOT's: the diagram's spacing.
        var spacing = ""
        /// The diagram's direction; Mermaid's header always has one (the drawn one when the
        /// document keeps none).
        var direction = ""
        var description: String { (nodes + edges + [spacing, direction]).joined(separator: "\n") }
    }

    /// The look's spacing as `node layer equal`, "-" for one not kept.
    static func spacing(_ look: DiagramLook) -> String {
        let node: String = look.nodeSpacing.map { "\($0)" } ?? "-"
        let layer: String = look.layerSpacing.map { "\($0)" } ?? "-"
        return node + " " + layer + " " + (look.equalLayerSpacing ? "equal" : "-")
    }

    /// Nodes by id (title, parent, group) and edges (id, ends, label), in a stable order.
    static func dotSummary(_ d: FlowDocument<JSONValue>) -> Summary {
        Summary(
            nodes: d.nodes.map { n in
                [n.id, n.data.title(nodeID: n.id), n.parentID ?? "-", n.acceptsChildren ? "G" : "N"].map { $0.debugDescription }.joined(separator: " ")
            }.sorted(),
            edges: zip(d.edges, ranks(d)).map { e, rank in
                [e.id, e.sourceNodeID, e.targetNodeID, e.label ?? "-", rank].map { $0.debugDescription }.joined(separator: " ")
            },
            spacing: spacing(d.look), direction: d.look.direction?.rawValue ?? "-")
    }

    /// Mermaid renames ids it cannot take and keeps the titles: nodes by title, edges by
    /// their ends' titles and label.
    static func mermaidSummary(_ d: FlowDocument<JSONValue>) -> Summary {
        let title = Dictionary(d.nodes.map { ($0.id, $0.data.title(nodeID: $0.id)) }, uniquingKeysWith: { a, _ in a })
        return Summary(
            nodes: d.nodes.map { n in
                [title[n.id]!, n.parentID.map { title[$0]! } ?? "-", n.acceptsChildren ? "G" : "N"].map { $0.debugDescription }.joined(separator: " ")
            }.sorted(),
            edges: zip(d.edges, ranks(d, mermaid: true)).map { e, length in
                [title[e.sourceNodeID]!, title[e.targetNodeID]!, e.label ?? "-", length].map { $0.debugDescription }.joined(separator: " ")
            },
            direction: d.look.direction?.rawValue ?? MermaidWriter.drawnDirection(d))
    }

    /// Whether DOT can write `id` so that it reads back (see `DOTWriter.quote`).
    static func dotWritable(_ id: String) -> Bool {
        DOTWriter.quoted(id, exact: true) != nil || DOTWriter.htmlBalanced(id)
    }

    /// 300 random stores written in `format` and read back: `check(written, read, text)` for
    /// each. What was read is written and read once more, which must give it back (format ->
    /// store -> format -> store).
    static func roundTrips(_ format: DiagramFormat, seed: UInt64, _ check: (FlowDocument<JSONValue>, FlowDocument<JSONValue>, String) -> Void) throws {
        var rng = SplitMix64(seed: seed)
        for round in 0..<300 {
            let a = try randomStore(&rng)
            let doc = a.document()
            if format == .dot && !(doc.nodes.allSatisfy({ Self.dotWritable($0.id) }) && doc.edges.allSatisfy({ Self.dotWritable($0.id) })) {
                // no DOT form: refused, naming the id, instead of written changed
                #expect(thrownMessage { _ = try a.text(format) }.contains("has no DOT form"))
                continue
            }
            let text = try a.text(format)
            let b = FlowStore<JSONValue>(), c = FlowStore<JSONValue>()
            do {
                try b.load(text, format: format)
                try c.load(b.text(format), format: format)
            } catch {
                Issue.record("round \(round): \(error)\n\(text)")
                continue
            }
            check(a.document(), b.document(), text)
            check(b.document(), c.document(), try b.text(format))
        }
    }

    @Test func dotReadsBackWhatItWrites() throws {
        var exact = 0
        try Self.roundTrips(.dot, seed: 43) { doc, read, text in
            exact += 1
            #expect(Self.dotSummary(read) == Self.dotSummary(doc), "\(text)")
        }
        #expect(exact > 200)
    }

    @Test func mermaidReadsBackWhatItWrites() throws {
        try Self.roundTrips(.mermaid, seed: 38) { doc, read, text in
            #expect(Self.mermaidSummary(read) == Self.mermaidSummary(doc), "\(text)")
        }
    }

    @Test func theReportedCases() throws {
        let s = FlowStore<JSONValue>()
        _ = try s.load(FlowDocument(
            nodes: [
                FlowNode(id: "a\\\"b", position: .zero, size: Size(10, 10), data: .null),
                FlowNode(id: "c", position: .zero, size: Size(10, 10), data: .null),
            ],
            edges: [FlowEdge(id: "e1", sourceNodeID: "a\\\"b", targetNodeID: "c", label: "x|y")]))
        let dot = FlowStore<JSONValue>()
        try dot.load(s.text(.dot), format: .dot)
        #expect(dot.document().nodes.map(\.id).sorted() == ["a\\\"b", "c"])
        let mermaid = FlowStore<JSONValue>()
        try mermaid.load(s.text(.mermaid), format: .mermaid)
        #expect(mermaid.document().edges.map(\.label) == ["x|y"])
        // an id with no DOT form is refused, not written changed
        let odd = FlowStore<JSONValue>()
        _ = try odd.load(FlowDocument(nodes: [FlowNode(id: "<a\\", position: .zero, size: Size(10, 10), data: .null)], edges: []))
        #expect(thrownMessage { _ = try odd.text(.dot) }
            == "encode: node id '<a\\' has no DOT form (an odd run of backslashes before a quote, a line end or its end, and unbalanced '<' '>')")
        #expect(try odd.text(.mermaid).contains("#60;a\\"))
    }
}
