import FlowCore
import Testing

@testable import FlowFormats

/// DOT's `charset`: a graph that declares Latin-1 and is not valid UTF-8 is read byte for
/// character, as Graphviz reads Latin1.gv; anything else that is not UTF-8 is still refused.
@Suite struct CharsetTests {
    private func bytes(_ head: String, _ tail: [UInt8]) -> [UInt8] { Array(head.utf8) + tail + Array("\" }".utf8) }

    @Test func latin1IsReadWhenDeclared() throws {
        for declaration in ["charset=latin1", "charset = \"ISO-8859-1\"", "CHARSET=l1", "charset=\"latin-1\""] {
            let text = try DiagramText.string(bytes("digraph { \(declaration); a [label=\"caf", [0xE9]), operation: "decode")
            #expect(text.hasSuffix("caf\u{E9}\" }"), "\(declaration)")
        }
    }

    @Test func otherTextMustBeUTF8() {
        for declaration in ["charset=utf-8", "charset=latin2", "", "label=latin1"] {
            #expect(throws: FlowError.self, "\(declaration)") {
                try DiagramText.string(bytes("digraph { \(declaration); a [label=\"caf", [0xE9]), operation: "decode")
            }
        }
        // valid UTF-8 is read as UTF-8 whatever the declaration
        #expect(try! DiagramText.string(Array("digraph { charset=latin1; é }".utf8), operation: "decode") == "digraph { charset=latin1; é }")
    }
}
