import Foundation
import Testing

/// Tests/FlowLuaTests/Lua/*.lua under the stock `lua5.4` with `require "flow"` (libflow.so).
@Suite struct StoreScriptTests {
    static var scriptsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Lua")
    }

    @Test func luaScriptsPassUnderStockLua() throws {
        guard StockLuaTests.lua != nil else {
            print("SKIPPED luaScriptsPassUnderStockLua: lua5.4 is not installed")
            return
        }
        let lib = StockLuaTests.productsDirectory.appendingPathComponent("libflow.so")
        try #require(FileManager.default.fileExists(atPath: lib.path), "libflow.so not built")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: Self.scriptsDirectory.path)
            .filter { $0.hasSuffix(".lua") }.sorted()
        #expect(!scripts.isEmpty)
        for name in scripts {
            let (status, text) = try StockLuaTests.runStockLua([Self.scriptsDirectory.appendingPathComponent(name).path])
            #expect(status == 0, "\(name): \(text)")
            #expect(text.hasSuffix("ok\n"), "\(name): \(text)")
        }
    }
}
