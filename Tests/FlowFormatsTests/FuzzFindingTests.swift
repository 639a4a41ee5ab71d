import FlowCore
import Testing

@testable import FlowFormats

/// What `scripts/test`'s format fuzzing found (#43), each pinned by the smallest case.
@Suite struct FuzzFindingTests {
    /// A font size of 1e28 (Mermaid's `font-size:111…2px`) was accepted, and laying the
    /// diagram out crashed (a breadth past Int.max) while its DOT text
    /// (`fontsize=1.1111e+28`) was refused: a font size is at most 10,000, and a number DOT's
    /// numerals cannot write is quoted.
    @Test func aHugeFontSizeIsRefusedAndLargeNumbersAreWrittenAsDOTReadsThem() throws {
        let huge = "flowchart LR\n  a --> b\n  style a font-size:11111111111111111111111111112px\n"
        let store = FlowStore<JSONValue>()
        #expect(throws: FlowError.self) { _ = try store.load(MermaidReader.read(huge).document) }
        #expect(store.nodes.isEmpty)
        // the error names the call that read the text (`flow.decode` is "decode"), not "load"
        do throws(FlowError) {
            try store.load(huge, format: .mermaid, operation: "decode")
            Issue.record("a font size of 1e28 was accepted")
        } catch {
            #expect(error.description == "decode: style.fontSize must be a positive number up to 10000")
        }
        let large = "flowchart LR\n  a --> b\n  style a font-size:10000px,stroke-width:1000000000000000000000px\n"
        _ = try store.load(MermaidReader.read(large).document)
        let dot = try store.text(.dot)
        #expect(dot.contains("penwidth=\""))
        let again = FlowStore<JSONValue>()
        _ = try again.load(DOTReader.read(dot).document)
        #expect(again.node("a")?.style.strokeWidth == store.node("a")?.style.strokeWidth)
        #expect(again.node("a")?.style.fontSize == 10_000)
    }

    /// A record whose label is wider than the node's given size put a port's handle past the
    /// node's side (offset 0.9), which the store refuses: the handle stays on the side.
    @Test func aPortOfARecordWiderThanItsNodeStaysOnTheSide() throws {
        let fields = (0..<30).map { "<f\($0)> field \($0)" }.joined(separator: "|")
        let dot = "digraph { a [shape=record, width=1, fixedsize=true, label=\"\(fields)\"]; b; a:f29 -> b }"
        let store = FlowStore<JSONValue>()
        _ = try store.load(DOTReader.read(dot).document)
        let handle = try #require(store.node("a")?.handles.first { $0.id == "out-f29" })
        #expect(handle.offset == 0.5)
    }
}
