@preconcurrency import Glibc
import FlowCore
import FlowLayout
import FlowRender
import TestSupport
import Testing

@testable import FlowFormats

/// Issue #43: each reader and writer fed random bytes and mutations of valid inputs: the
/// seeds below, the diagram corpus's DOT files (scripts/diagrams) and, written from them,
/// Mermaid and JSON; with a budget also Graphviz's examples. No input may crash a reader;
/// every failure is a thrown error; every accepted document is written as DOT, Mermaid and
/// JSON, and each reader accepts what its writer wrote; and every accepted text is decoded
/// as `flow.decode` does (laid out when it has no positions), laid out and drawn as SVG.
///
/// By default a fixed number of cases from fixed seeds (a few seconds each in a debug
/// build). With `FLOWSCRIPT_FUZZ_SECONDS` set, each target runs for that many seconds
/// instead (scripts/test's "format fuzzing" step), from the seed `FLOWSCRIPT_FUZZ_SEED`
/// (default: the fixed one), and prints how many cases it ran. The seconds are the whole
/// target's: building its corpus and reading every seed as it is come first, and the
/// random cases fill what is left, so the step keeps to its budget.
@Suite struct FormatFuzzTests {
    /// Seconds each target runs; nil: the fixed number of cases.
    static let budget: Double? = environment("FLOWSCRIPT_FUZZ_SECONDS").flatMap(Double.init).map { max(0, $0) }
    /// Added to each target's fixed seed.
    static let seedOffset: UInt64 = environment("FLOWSCRIPT_FUZZ_SEED").flatMap { UInt64($0) } ?? 0

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The package's folder (this file is in Tests/FlowFormatsTests).
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The diagram corpus's DOT files, and with a budget Graphviz's examples (plain files).
    static let dotFiles: [String] = {
        var paths: [String] = []
        GraphvizExamples.walk(root + "/scripts/diagrams", &paths)
        if budget != nil { paths += GraphvizExamples.files() }
        return paths.sorted().compactMap { GraphvizExamples.contents($0) }
    }()

    /// Each corpus file read and written in `format` (Mermaid, JSON).
    static func written(_ format: DiagramFormat) -> [String] {
        dotFiles.compactMap { text in
            let s = FlowStore<JSONValue>()
            guard (try? s.load(DOTReader.read(text).document)) != nil else { return nil }
            return try? s.text(format)
        }
    }

    static let dotSeeds = [
        "digraph G { a -> b -> c [label=\"x\"]; node [shape=box]; d [label=\"D\\nline\", color=red] }",
        "strict graph { subgraph cluster_a { label=\"A\"; x; subgraph cluster_b { y } } z -- {x y} }",
        "digraph { \"a\" + \"b\" -> <<b>html</b>>; a:s -> b:n; a:p:ne -> c; -1.5 -> .5 }",
        "/* c */ digraph { graph [rankdir=LR, bb=\"0,0,100,100\"]; a [pos=\"10,10\"]; b [pos=\"50,50\"]; a -> b [pos=\"e,50,50 10,10 20,20 30,30 50,50\"] }",
        "# line\ndigraph { {a b} -> {c d} -> e; edge [style=dashed]; f -> g [dir=both, arrowtail=dot] }",
    ]

    static let mermaidSeeds = [
        MermaidTests.sample,
        "graph TD\n  a[\"q #quot;x#quot;\"] -->|\"l#124;m\"| b((c))\n  b -. t .-> c; c ~~~ d\n",
        "flowchart LR\n  subgraph s [T]\n    direction LR\n    x & y --> z\n  end\n  style x fill:#f00\n  linkStyle 0 stroke:red\n",
    ]

    static let jsonSeeds = [
        #"{"version":1,"nodes":[{"id":"a","position":[0,0],"size":[10,10],"data":{"label":"A"}},{"id":"g","position":[0,0],"size":[100,100],"acceptsChildren":true}],"edges":[{"id":"e","sourceNodeID":"a","targetNodeID":"a","label":"l"}],"viewport":{"offset":[1,2],"zoom":1.5}}"#,
        #"{"nodes":[{"id":"x\"y","position":[1,2],"size":[3,4],"parentID":"x\"y"}],"edges":[],"viewport":{"offset":[0,0],"zoom":1}}"#,
    ]

    /// Pieces that mean something to one of the readers.
    static let tokens = [
        "->", "--", "-->", "---", "-.->", "==>", "~~~", "<-->", "{", "}", "[", "]", "(", ")", "((", "))", "\"", "\\",
        "\\\"", "=", ";", ",", ":", "+", "<", ">", "&", "|", "#quot;", "#35;", "<br>", "%%", "\n", " ", "subgraph",
        "end", "cluster_x", "strict", "graph", "node", "edge", "classDef", ":::", "/*", "*/", "//", "\u{FEFF}",
        "é", "🙂", "\u{0}", "\r\n", "{\"", "\":", "null", "[0,0]", "1e308", "-0", "999999999999999999999",
        // structure: records, HTML tables, nesting, Mermaid shapes and classes
        "shape=record", "label=\"{a|<p>b|{c|d}}\"", "label=<", "<table>", "<tr>", "<td port=\"p\">", "</td>",
        "</tr>", "</table>", "<b>", "subgraph cluster_n {", "[label=x]", " -> {a b}", "\" + \"", ":p:ne",
        "@{ shape: rect }", "%%{init: {}}%%", "A --> B", "x & y", "-- text -->", "-->|t|", "(((", ")))",
        "[[", "]]", ">", "{{", "}}", "\"parentID\":\"a\"", "\"acceptsChildren\":true", "\"data\":[[[[",
    ]

    static func mutate(_ text: String, _ corpus: [String], _ rng: inout SplitMix64) -> String {
        var u = Array(text.unicodeScalars)
        for _ in 0..<(1 + rng.below(4)) {
            let at = u.isEmpty ? 0 : rng.below(u.count + 1)
            switch rng.below(6) {
            case 0:  // delete a range
                if !u.isEmpty, at < u.count { u.removeSubrange(at..<min(u.count, at + 1 + rng.below(8))) }
            case 1:  // insert a token
                u.insert(contentsOf: rng.pick(tokens).unicodeScalars, at: at)
            case 2:  // duplicate a range, many times
                if at < u.count {
                    let piece = Array(u[at..<min(u.count, at + 1 + rng.below(16))])
                    u.insert(contentsOf: Array(repeating: piece, count: 1 + rng.below(40)).joined(), at: at)
                }
            case 3:  // splice another input in
                let other = Array(rng.pick(corpus).unicodeScalars)
                let from = rng.below(other.count)
                u.insert(contentsOf: other[from..<min(other.count, from + rng.below(40))], at: at)
            case 4:  // a random scalar
                u.insert(Unicode.Scalar(UInt8(rng.below(128))), at: at)
            default:  // swap two ranges' order by cutting one out and pasting it elsewhere
                if at < u.count {
                    let end = min(u.count, at + 1 + rng.below(12))
                    let piece = Array(u[at..<end])
                    u.removeSubrange(at..<end)
                    u.insert(contentsOf: piece, at: rng.below(u.count + 1))
                }
            }
        }
        return String(String.UnicodeScalarView(u))
    }

    static func randomBytes(_ rng: inout SplitMix64, prefix: String) -> [UInt8] {
        Array(prefix.utf8) + (0..<rng.below(200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    /// Reads `text`; when it is accepted, writes the document in every format and reads each back.
    static func check(_ text: String, _ format: DiagramFormat, _ accepted: inout Int, drawing: Bool = true) {
        let document: FlowDocument<JSONValue>
        do throws(FlowError) {
            switch format {
            case .dot: document = try DOTReader.read(text, limits: FormatLimits(edges: 5_000)).document
            case .mermaid: document = try MermaidReader.read(text, limits: FormatLimits(edges: 5_000)).document
            case .json: document = try FlowDocument<JSONValue>.decode(text)
            }
        } catch {
            #expect(!error.description.isEmpty)
            return
        }
        let store = FlowStore<JSONValue>()
        do {
            _ = try store.load(document)
        } catch {
            return  // a document the store refuses (a limit, a bad value) is refused with an error
        }
        accepted += 1
        if drawing { layOutAndDraw(text, format) }
        for out in DiagramFormat.allCases {
            do {
                let written: String
                do throws(FlowError) {
                    written = try store.text(out)
                } catch where error.code == .invalidState && (error.message.contains("reader's limit") || error.message.contains("has no DOT form")) {
                    continue  // a store this format cannot hold is refused, naming the limit or the id
                }
                let again = FlowStore<JSONValue>()
                switch out {
                case .json: try again.load(json: written)
                case .dot: _ = try again.load(DOTReader.read(written).document)
                case .mermaid: _ = try again.load(MermaidReader.read(written).document)
                }
            } catch {
                Issue.record("\(format) input accepted, but its \(out) text is refused: \(error)\ninput: \(text.debugDescription)")
            }
        }
    }

    /// The edges a fuzzed text may make, and the time one case's decode, layout and drawing
    /// may take: enough for every structure the mutations make, and many cases a second.
    static let laidOutEdges = 500
    static let drawingSeconds = 0.25

    /// What `flow.decode` does with an accepted text (a DOT or Mermaid graph without
    /// positions is laid out), then a layout and the SVG drawing of the store: none may
    /// crash (a font size of 1e28 crashed the layout, and the readers and writers alone
    /// never showed it); a failure is an error naming what failed. Under a work limit, as
    /// a sandbox runs them: a case that runs out of time fails with the limit's error.
    static func layOutAndDraw(_ text: String, _ format: DiagramFormat) {
        let store = FlowStore<JSONValue>()
        WorkLimit.$current.withValue(WorkLimit(seconds: drawingSeconds)) {
            guard failure(of: { () throws(FlowError) in
                try store.load(text, format: format, operation: "decode", limits: FormatLimits(edges: laidOutEdges))
            }) == nil else { return }
            _ = failure { () throws(FlowError) in _ = try store.layout() }  // what it holds is drawn all the same
            _ = failure { () throws(FlowError) in
                let svg = try renderSVG(store)
                #expect(svg.contains("<svg"), "\(format) input drawn as \(svg.prefix(80).debugDescription)\ninput: \(text.debugDescription)")
            }
        }
    }

    /// The error `body` throws (which must say what failed), nil when it throws none.
    static func failure(of body: () throws(FlowError) -> Void) -> FlowError? {
        do throws(FlowError) {
            try body()
            return nil
        } catch {
            #expect(!error.description.isEmpty)
            return error
        }
    }

    /// Whether a target that has run `cases` cases should run another: until the budget is
    /// spent when there is one, else up to `fixed`.
    static func goesOn(_ cases: Int, fixed: Int, until deadline: ContinuousClock.Instant?) -> Bool {
        guard let deadline else { return cases < fixed }
        return ContinuousClock.now < deadline
    }

    static var deadline: ContinuousClock.Instant? {
        budget.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
    }

    /// `seeds` read as they are (the corpus is laid out and drawn by its own tests), then
    /// random cases: `cases` of them, or until `deadline` when there is one.
    static func fuzz(
        _ format: DiagramFormat, seeds: [String], header: String, seed: UInt64, cases: Int,
        until deadline: ContinuousClock.Instant?
    ) -> Int {
        var rng = SplitMix64(seed: seed &+ seedOffset)
        var accepted = 0
        for s in seeds { check(s, format, &accepted, drawing: false) }
        var i = 0
        defer { if budget != nil { print("fuzz \(format): \(i) cases, \(accepted) accepted (seed \(seed &+ seedOffset))") } }
        while goesOn(i, fixed: cases, until: deadline) {
            defer { i += 1 }
            let text: String
            switch i % 4 {
            case 0: text = String(decoding: randomBytes(&rng, prefix: i % 8 == 0 ? header : ""), as: UTF8.self)
            default: text = mutate(rng.pick(seeds), seeds, &rng)
            }
            check(text, format, &accepted)
        }
        return accepted
    }

    @Test func dotReader() {
        let deadline = Self.deadline  // the files' reading counts in the budget
        #expect(Self.dotFiles.count >= 16)
        let accepted = Self.fuzz(
            .dot, seeds: Self.dotSeeds + Self.dotFiles, header: "digraph { ", seed: 1, cases: 1_500, until: deadline)
        #expect(accepted > 100)
    }

    @Test func mermaidReader() {
        let deadline = Self.deadline
        let written = Self.written(.mermaid)
        #expect(written.count >= 16)
        let accepted = Self.fuzz(
            .mermaid, seeds: Self.mermaidSeeds + written, header: "flowchart LR\n", seed: 2, cases: 1_500, until: deadline)
        #expect(accepted > 100)
    }

    @Test func jsonDocumentReader() {
        let deadline = Self.deadline
        let written = Self.written(.json)
        #expect(written.count >= 16)
        let accepted = Self.fuzz(
            .json, seeds: Self.jsonSeeds + written, header: "{\"nodes\":[", seed: 3, cases: 1_500, until: deadline)
        #expect(accepted > 20)
    }

    /// The writers over random stores: every text reads back (WriterRoundTripTests checks
    /// what it reads back as).
    @Test func writers() throws {
        var rng = SplitMix64(seed: 4 &+ Self.seedOffset)
        let deadline = Self.deadline
        var cases = 0
        defer { if Self.budget != nil { print("fuzz writers: \(cases) stores") } }
        while Self.goesOn(cases, fixed: 300, until: deadline) {
            cases += 1
            let store = try WriterRoundTripTests.randomStore(&rng)
            var accepted = 0
            Self.check(try store.export(), .json, &accepted)
            #expect(accepted == 1)
        }
    }

    /// Bytes that are not UTF-8 are refused before any reader sees them.
    @Test func bytesThatAreNotText() {
        var rng = SplitMix64(seed: 5 &+ Self.seedOffset)
        let deadline = Self.budget.map { ContinuousClock.now + .milliseconds(Int(min($0, 2) * 1000)) }
        var cases = 0
        while Self.goesOn(cases, fixed: 3_000, until: deadline) {
            cases += 1
            let bytes = Self.randomBytes(&rng, prefix: "digraph { ")
            do throws(FlowError) {
                let text = try DiagramText.string(bytes, operation: "decode")
                #expect(DiagramText.firstInvalidUTF8(bytes) == nil)
                #expect(Array(text.utf8) == bytes)
            } catch {
                #expect(DiagramText.firstInvalidUTF8(bytes) != nil)
            }
        }
    }
}
