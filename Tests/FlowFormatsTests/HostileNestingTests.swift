@preconcurrency import Glibc
import FlowCore
import TestSupport
import Testing

@testable import FlowFormats

/// Issue #43: nesting the input controls (HTML tables, JSON values, groups written as
/// subgraphs) and strings longer than a reader takes. Every reader stays within a small
/// stack, and every writer writes only what its reader reads back, or fails naming the limit.
@Suite struct HostileNestingTests {
    /// Runs `body` on a thread with a stack of `bytes` and waits for it (a deep recursion
    /// crashes the test process).
    static func onStack(_ bytes: Int, _ body: @escaping () -> Void) {
        final class Job {
            let run: () -> Void
            init(_ run: @escaping () -> Void) { self.run = run }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, bytes)
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let started = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, job)
        pthread_attr_destroy(&attributes)
        #expect(started == 0)
        if started == 0 { pthread_join(thread, nil) }
    }

    /// A store of `depth` groups, each inside the one before, and a node in the innermost.
    static func chain(_ depth: Int) throws -> FlowStore<JSONValue> {
        var nodes = (0..<depth).map { i in
            FlowNode<JSONValue>(
                id: "g\(i)", position: .zero, size: Size(10, 10), data: .null,
                parentID: i == 0 ? nil : "g\(i - 1)", acceptsChildren: true)
        }
        nodes.append(FlowNode(id: "leaf", position: .zero, size: Size(10, 10), data: .null, parentID: "g\(depth - 1)"))
        let s = FlowStore<JSONValue>()
        _ = try s.load(FlowDocument(nodes: nodes, edges: []))
        return s
    }

    /// Groups nested as deep as the readers take are written and read back; deeper ones
    /// made DOT and Mermaid text the readers refused (and DOT indentation grew with the
    /// square of the depth): now the writers refuse them, naming the limit.
    @Test func groupsNestedPastTheReadersLimitAreRefusedByTheWriters() throws {
        let deepest = try Self.chain(64)
        #expect(GroupWalk.depth(deepest.document().nodes) == 64)
        
        for format in [DiagramFormat.dot, .mermaid] {
            let back = FlowStore<JSONValue>()
            try back.load(deepest.text(format), format: format)
            #expect(back.nodeCount == 65, "\(format)")
        }
        let deeper = try Self.chain(3_000)
        let start = ContinuousClock.now
        #expect(thrownMessage { _ = try deeper.text(.dot) }
            == "encode: groups nested 3000 levels deep; DOT text nests subgraphs at most 64 levels (the reader's limit)")
        #expect(thrownMessage { _ = try deeper.text(.mermaid) }
            == "encode: groups nested 3000 levels deep; Mermaid text nests subgraphs at most 64 levels (the reader's limit)")
        #expect(ContinuousClock.now - start < .seconds(2))
        // the walk's indentation stops growing: the text of a deep chain stays linear
        var written = 0
        GroupWalk.walk(deeper.document().nodes) { step in
            if case .open(_, let pad) = step { written += pad.utf8.count }
        }
        #expect(written <= 3_000 * 2 * GroupWalk.maximumIndent)
    }

    /// A title or label longer than a reader takes made text that reader refused.
    @Test func stringsPastTheReadersLimitAreRefusedByTheWriters() throws {
        func store(label: String) throws -> FlowStore<JSONValue> {
            let s = FlowStore<JSONValue>()
            _ = try s.load(FlowDocument(
                nodes: [
                    FlowNode(id: "a", position: .zero, size: Size(10, 10), data: .object(JSONObject([("label", .string(label))]))),
                    FlowNode(id: "b", position: .zero, size: Size(10, 10), data: .null),
                ],
                edges: [FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "b", label: "x")]))
            return s
        }
        // 50,000 bytes that grow when escaped (DOT: a backslash is two; Mermaid: `#quot;`)
        let fits = try store(label: String(repeating: "ab", count: 25_000))
        for format in [DiagramFormat.dot, .mermaid] {
            let back = FlowStore<JSONValue>()
            try back.load(fits.text(format), format: format)
            #expect(back.document().nodes.first { $0.id == "a" }?.data.title(nodeID: "a").utf8.count == 50_000)
        }
        let long = try store(label: String(repeating: "x", count: 70_000))
        #expect(thrownMessage { _ = try long.text(.dot) }
            == "encode: DOT line 3 would hold a string longer than 65536 bytes, the DOT reader's limit (DOTParser.maximumIDLength)")
        #expect(thrownMessage { _ = try long.text(.mermaid) }
            == "encode: Mermaid line 2 would be longer than 65536 bytes, the Mermaid reader's limit (a title or label too long)")
        let quotes = try store(label: String(repeating: "\"", count: 20_000))  // 120,000 bytes as `#quot;`
        #expect(thrownMessage { _ = try quotes.text(.mermaid) }.contains("longer than 65536 bytes"))
        let back = FlowStore<JSONValue>()
        try back.load(quotes.text(.dot), format: .dot)  // `\"`: one byte each to the reader
        #expect(back.document().nodes.first { $0.id == "a" }?.data.title(nodeID: "a").utf8.count == 20_000)
    }

    /// `<TABLE>` inside `<TD>` 1,900 deep in one 63 KB HTML label: the record was built by
    /// recursion, one level a table (a debug build crashed with a 1 MiB stack).
    @Test func deeplyNestedHTMLTablesStayWithinASmallStack() {
        let depth = 1_900
        let html = String(repeating: "<table><tr><td>", count: depth) + "x" + String(repeating: "</td></tr></table>", count: depth)
        let text = "digraph { a [shape=plain, label=<" + html + ">] }"
        nonisolated(unsafe) var warnings: [String] = []
        nonisolated(unsafe) var failure = ""
        Self.onStack(256 << 10) {
            do {
                warnings = try DOTReader.read(text).warnings
            } catch {
                failure = "\(error)"
            }
        }
        #expect(failure == "")
        #expect(warnings.contains("HTML label <TABLE> nested deeper than 32 levels is not drawn (1 node)"), "\(warnings)")
    }

    /// JSON nested to its limit, read, compared, written and freed within a quarter of the
    /// main thread's 8 MiB stack (a debug build needs about 1.5 MiB for it; 1 MiB fails).
    @Test func jsonNestedToItsLimitStaysWithinASmallStack() {
        let depth = JSONValue.maximumNestingDepth - 4
        let data = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let text = #"{"nodes":[{"id":"a","position":[0,0],"size":[1,1],"data":"# + data + #"}],"edges":[],"viewport":{"offset":[0,0],"zoom":1}}"#
        nonisolated(unsafe) var failure = ""
        Self.onStack(2 << 20) {
            do {
                let s = FlowStore<JSONValue>()
                try s.load(text, format: .json)
                let again = FlowStore<JSONValue>()
                try again.load(s.text(.json), format: .json)
                if again.document().nodes != s.document().nodes { failure = "changed" }
                _ = try s.text(.dot)
            } catch {
                failure = "\(error)"
            }
        }
        #expect(failure == "")
        let deeper = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(thrownMessage { _ = try FlowDocument<JSONValue>.decode(#"{"nodes":[{"id":"a","position":[0,0],"size":[1,1],"data":"# + deeper + "}]}") }
            .contains("nesting deeper than \(JSONValue.maximumNestingDepth) levels"))
    }

    /// A 60,000-piece `+` chain past a store's title limit (as in a sandbox): the error
    /// printed the whole 60 KB id.
    @Test func aLongIdPastTheTitleLimitIsShortInTheError() {
        let s = FlowStore<JSONValue>()
        s.limits = StoreLimits(labelBytes: 10_000)
        let text = "digraph { \"" + Array(repeating: "x", count: 60_000).joined(separator: "\" + \"") + "\" }"
        let m = thrownMessage { try s.load(text, format: .dot) }
        #expect(m == "node '" + String(repeating: "x", count: 40) + "…' has a title longer than 10000 bytes (a limit of this store); nothing was changed", "\(m.prefix(200))")
    }

    /// A store's own limits (a sandbox's `edges`, `nodes`) hold while a statement expands and
    /// before the layout of an import: the reader took its own default of 200,000 edges, and
    /// the layout ran before the store refused the result.
    @Test func aStoresLimitsHoldBeforeTheLayout() {
        let s = FlowStore<JSONValue>()
        s.limits = StoreLimits(nodes: 30, edges: 100)
        let set = { (p: String) in "{" + (1...20).map { "\(p)\($0)" }.joined(separator: " ") + "}" }
        let dot = thrownMessage { try s.load("digraph { \(set("a")) -> \(set("b")) }", format: .dot) }
        #expect(dot == "load: DOT: line 1, column 84: this statement would make 400 edges, and the graph already has 0: more than the limit of 100 edges (the store's limit)", "\(dot)")
        let group = (1...20).map { "a\($0)" }.joined(separator: " & ")
        let mermaid = thrownMessage { try s.load("flowchart LR\n\(group) --> \(group)\n", format: .mermaid) }
        #expect(mermaid.contains("more than the limit of 100 edges (the store's limit)"), "\(mermaid)")
        // 2,000 nodes in a chain refused before their layout
        let chain = "digraph { " + (1...2_000).map { "n\($0)" }.joined(separator: " -> ") + " }"
        s.limits = StoreLimits(nodes: 30)
        let start = ContinuousClock.now
        #expect(thrownMessage { try s.load(chain, format: .dot) } == "the store may hold at most 30 nodes (a limit of this store); nothing was changed")
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(s.nodeCount == 0)
    }

    /// The DOT parser looks at the work limit while it reads and makes edges, not only after.
    @Test func theDOTParserStopsAtTheWorkLimit() {
        let set = "{" + (1...400).map { "a\($0)" }.joined(separator: " ") + "}"
        let text = "digraph { " + String(repeating: "\(set) -> \(set); ", count: 1) + " }"
        let limit = WorkLimit(seconds: nil)
        limit.cancel()
        let m = thrownMessage { _ = try WorkLimit.$current.withValue(limit) { try DOTReader.read(text) } }
        #expect(m == WorkLimit.stoppedError("load").description, "\(m)")
    }
}
