import FlowCore
import FlowRender
import Foundation
import Testing

@testable import FlowFormats

/// An `<IMG SRC>` in a table cell: the file read (PNG, JPEG, SVG), the cell sized to it, the
/// picture embedding it; reported when it cannot be read or files are not read (#38).
@Suite struct DOTImageTests {
    /// The first bytes of a 40 by 20 PNG (signature and IHDR), enough to size it.
    static let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
        0, 0, 0, 40, 0, 0, 0, 20, 8, 2, 0, 0, 0]

    static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dotimage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func anImageIsReadSizedAndEmbedded() throws {
        let path = try Self.file("eqn.png", Self.png)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let s = FlowStore<JSONValue>()
        let warnings = try s.load("""
            digraph { node [shape=plaintext]
              t [label=<<TABLE><TR><TD><IMG SRC="\(path)"/></TD></TR><TR><TD>caption</TD></TR></TABLE>>] }
            """, format: .dot)
        #expect(warnings.isEmpty, "\(warnings)")
        guard case .object(let data) = s.node("t")!.data, case .object(let table)? = data["table"],
            case .array(let cells)? = table["cells"], case .object(let c0) = cells[0], case .object(let image)? = c0["image"]
        else { Issue.record("no image"); return }
        #expect(image["type"] == .string("image/png") && image["width"] == .number(40) && image["height"] == .number(20))
        #expect(image["data"] == .string(DOTImage.base64(Self.png)))
        // the cell holds the image with its padding and border: 40 + 2 * (2 + 1)
        #expect(c0["width"].flatMap { if case .number(let v) = $0 { v } else { nil } }.map { $0 >= 46 } == true)
        let svg = try renderSVG(s)
        #expect(svg.contains("<image class=\"cell image\""), "\(svg)")
        #expect(svg.contains("width=\"40\" height=\"20\" preserveAspectRatio=\"xMidYMid meet\" href=\"data:image/png;base64,\(DOTImage.base64(Self.png))\"/>"))
        // written back as the tag, read back the same
        let dot = try s.text(.dot)
        #expect(dot.contains("CELLPADDING=\"2\"><IMG SRC=\"\(path)\"/></TD>"), "\(dot)")
        let back = FlowStore<JSONValue>()
        #expect(try back.load(dot, format: .dot).isEmpty)
        #expect(back.node("t")!.data == s.node("t")!.data)
    }

    @Test func whatCannotBeReadIsReported() throws {
        let text = try Self.file("notes.txt", Array("not an image".utf8))
        defer { try? FileManager.default.removeItem(atPath: (text as NSString).deletingLastPathComponent) }
        let graph = """
            digraph { t [shape=plaintext, label=<<TABLE><TR><TD><IMG SRC="\(text)"/></TD><TD><IMG SRC="missing.png"/></TD></TR></TABLE>>] }
            """
        let r = try DOTReader.read(graph)
        #expect(r.warnings == [
            "HTML label <IMG SRC=\"\(text)\"> (not a PNG, JPEG or SVG image) is not drawn (1 node)",
            "HTML label <IMG SRC=\"missing.png\"> (no such file, or it cannot be read) is not drawn (1 node)",
        ])
        // files are not read where the reader may reach none (a Lua sandbox)
        var limits = FormatLimits()
        limits.readsImages = false
        let sandboxed = try DOTReader.read(graph, limits: limits)
        #expect(sandboxed.warnings.contains("HTML label <IMG SRC=\"missing.png\"> (files are not read in a sandbox) is not drawn (1 node)"))
    }

    @Test func jpegAndSVGSizesAreRead() {
        // SOI, an APP0 of 16 bytes, then SOF0: precision 8, height 30, width 50
        let jpeg: [UInt8] = [0xff, 0xd8, 0xff, 0xe0, 0, 16] + [UInt8](repeating: 0, count: 14)
            + [0xff, 0xc0, 0, 17, 8, 0, 30, 0, 50, 3]
        #expect(DOTImage.kind(jpeg).map { "\($0.0) \($0.1)" } == "image/jpeg \(Size(50, 30))")
        let svg = Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1in\" height=\"36pt\"></svg>".utf8)
        #expect(DOTImage.kind(svg).map { "\($0.0) \($0.1)" } == "image/svg+xml \(Size(72, 36))")
        let viewBox = Array("<svg viewBox=\"0 0 120 60\"></svg>".utf8)
        #expect(DOTImage.kind(viewBox)?.1 == Size(120, 60))
        #expect(DOTImage.kind(Array("plain text".utf8)) == nil)
        #expect(DOTImage.base64(Array("Man".utf8)) == "TWFu" && DOTImage.base64(Array("Ma".utf8)) == "TWE=")
    }
}
