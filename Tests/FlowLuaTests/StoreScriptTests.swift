import Foundation
import Testing

/// Tests/FlowLuaTests/Lua/*.lua under the stock `lua5.4` with `require "flow"` (libflow.so).
@Suite struct StoreScriptTests {
    static var scriptsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Lua")
    }

    @Test func luaScriptsPassUnderStockLua() throws {
        guard let lua = StockLuaTests.lua else {
            print("SKIPPED luaScriptsPassUnderStockLua: lua5.4 is not installed")
            return
        }
        let lib = StockLuaTests.productsDirectory.appendingPathComponent("libflow.so")
        try #require(FileManager.default.fileExists(atPath: lib.path), "libflow.so not built")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: Self.scriptsDirectory.path)
            .filter { $0.hasSuffix(".lua") }.sorted()
        #expect(!scripts.isEmpty)
        for name in scripts {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: lua)
            p.arguments = [Self.scriptsDirectory.appendingPathComponent(name).path]
            var env = ProcessInfo.processInfo.environment
            env["LUA_CPATH"] = StockLuaTests.productsDirectory.path + "/lib?.so"
            env["LUA_INIT"] = nil
            p.environment = env
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            #expect(p.terminationStatus == 0, "\(name): \(text)")
            #expect(text.hasSuffix("ok\n"), "\(name): \(text)")
        }
    }
}
