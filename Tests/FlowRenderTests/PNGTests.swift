import Foundation
import Testing

@testable import FlowCore
@testable import FlowRender

@Suite struct PNGTests {
    static var hasConverter: Bool { findExecutable("rsvg-convert") != nil }

    /// A fresh path in a temporary directory, removed by the caller.
    static func temporaryPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowrender-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// The width and height of a PNG file, from its signature and IHDR chunk.
    static func pngDimensions(_ path: String) throws -> (width: Int, height: Int) {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(data.count > 24)
        #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(data[12..<16]) == Array("IHDR".utf8))
        func be32(_ i: Int) -> Int { data[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test func writesAPNGOfTheSVGSize() throws {
        guard Self.hasConverter else {
            print("skipped: rsvg-convert is not installed (apt-get install librsvg2-bin)")
            return
        }
        let store = try GoldenTests.showcase()
        let svg = try SVGDocument(try renderSVG(store))
        let width = try #require(svg.root.number("width"))
        let height = try #require(svg.root.number("height"))
        let path = Self.temporaryPath("showcase.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try renderPNG(store, to: path)
        let size = try Self.pngDimensions(path)
        #expect(size.width == Int(width.rounded()))
        #expect(size.height == Int(height.rounded()))

        try renderPNG(store, options: SVGOptions(theme: .dark, scale: 2), to: path)
        let doubled = try Self.pngDimensions(path)
        #expect(doubled.width == Int((width * 2).rounded()))
        #expect(doubled.height == Int((height * 2).rounded()))
    }

    @Test func viewportModeUsesTheCanvasSize() throws {
        guard Self.hasConverter else {
            print("skipped: rsvg-convert is not installed (apt-get install librsvg2-bin)")
            return
        }
        let store = try GoldenTests.showcase()
        let path = Self.temporaryPath("viewport.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try renderPNG(store, options: SVGOptions(fit: false, width: 320, height: 200, scale: 1.5), to: path)
        let size = try Self.pngDimensions(path)
        #expect(size.width == 480 && size.height == 300)
    }

    @Test func largePicturesAreScaledDownToTheMaximumSide() throws {
        #expect(pngSize(width: 100, height: 50, scale: 1)! == (100, 50))
        #expect(pngSize(width: 100.4, height: 50.6, scale: 1)! == (100, 51))
        #expect(pngSize(width: 0.2, height: 0.2, scale: 1)! == (1, 1))
        #expect(pngSize(width: 40000, height: 10000, scale: 1)! == (16384, 4096))
        #expect(pngSize(width: 1000, height: 3000, scale: 10)! == (5461, 16384))
        #expect(pngSize(width: 1e12, height: 1, scale: 1)! == (16384, 1))
        #expect(pngSize(width: 1e300, height: 1e300, scale: 1e10) == nil)
        #expect(pngSize(width: .infinity, height: 1, scale: 1) == nil)
        guard Self.hasConverter else { return }
        // A wide diagram really comes out at the maximum.
        let store = try makeStore([node("a", 0, 0, 20000, 100, handles: []), node("b", 20000, 3000, 100, 100, handles: [])])
        let path = Self.temporaryPath("wide.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try renderPNG(store, options: SVGOptions(padding: 0), to: path)
        let size = try Self.pngDimensions(path)
        #expect(size.width == maximumPNGSide)
        #expect(size.height == Int((3110.0 * 16384 / 20110).rounded()))
    }

    @Test func aMissingConverterIsAClearError() throws {
        let store = try GoldenTests.showcase()
        let path = Self.temporaryPath("never.png")
        #expect(throws: FlowError(.io, operation: "save", message: "rsvg-convert not found (apt-get install librsvg2-bin)")) {
            try renderPNG(store, to: path, converter: "/nonexistent/rsvg-convert")
        }
        #expect(throws: FlowError(.io, operation: "save", message: "no-such-converter-xyz not found (apt-get install librsvg2-bin)")) {
            try renderPNG(store, to: path, converter: "no-such-converter-xyz")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        let error = try #require(throws: FlowError.self) {
            try renderPNG(store, to: path, converter: "/nonexistent/rsvg-convert")
        }
        #expect(error.description == "save: rsvg-convert not found (apt-get install librsvg2-bin)")
    }

    @Test func aFailingConverterReportsItsStatusAndErrorOutput() throws {
        guard Self.hasConverter else { return }
        let store = try GoldenTests.showcase()
        let path = Self.temporaryPath("missing-dir/sub/out.png")
        let error = try #require(throws: FlowError.self) { try renderPNG(store, to: path) }
        #expect(error.code == .io)
        #expect(error.description.hasPrefix("save: rsvg-convert failed (exit status "))
        #expect(error.description.count > "save: rsvg-convert failed (exit status 1)".count)
    }

    @Test func picturesOfInfiniteSizeCannotBeMade() throws {
        // The store refuses coordinates beyond ±1e15 (docs/store.md D26), so no store holds
        // content too large to draw (the renderers keep their own check).
        let error = try #require(throws: FlowError.self) {
            try makeStore([node("far", 1e308, 0, 100, 40, handles: [])])
        }
        #expect(error.description == "addNode: position must be numbers from -1e15 to 1e15 (got (1e+308, 0))")
    }

    @Test func invalidScaleIsRejected() throws {
        let store = try GoldenTests.showcase()
        for scale in [0, -1, Double.nan, Double.infinity] {
            #expect(throws: FlowError.self) { try renderPNG(store, options: SVGOptions(scale: scale), to: "/nonexistent/x.png") }
        }
    }

    @Test func writeSVGWritesTheSameText() throws {
        let store = try GoldenTests.showcase()
        let path = Self.temporaryPath("showcase.svg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writeSVG(store, to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == renderSVG(store))
        let error = try #require(throws: FlowError.self) {
            try writeSVG(store, to: "/nonexistent-dir/out.svg")
        }
        #expect(error.code == .io)
        #expect(error.description == "save: cannot write '/nonexistent-dir/out.svg': No such file or directory")
    }
}
