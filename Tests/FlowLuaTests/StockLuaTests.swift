import Foundation
import Testing

/// The loadable module in the stock interpreter: `lua5.4` + `require "flow"` + libflow.so.
@Suite struct StockLuaTests {
    /// The directory holding the built products: the test bundle sits next to them
    /// (`.build/<triple>/<config>/FlowScriptPackageTests.xctest`).
    static var productsDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["FLOW_PRODUCTS_DIR"] {
            return URL(fileURLWithPath: dir)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static let lua = ["/usr/bin/lua5.4", "/usr/local/bin/lua5.4"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func requireFlowInStockLua() throws {
        guard let lua = Self.lua else {
            print("SKIPPED requireFlowInStockLua: lua5.4 is not installed (apt-get install lua5.4)")
            return
        }
        let lib = Self.productsDirectory.appendingPathComponent("libflow.so")
        try #require(FileManager.default.fileExists(atPath: lib.path), "libflow.so not built at \(lib.path)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: lua)
        p.arguments = ["-e", """
            local flow = require "flow"
            print(flow.version, tostring(flow.null), flow.type(flow.null), require("flow") == flow)
            print(pcall(flow.type))
            """]
        var env = ProcessInfo.processInfo.environment
        env["LUA_CPATH"] = Self.productsDirectory.path + "/lib?.so"
        env["LUA_INIT"] = nil
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self) == """
            0.1.0\tflow.null\tnil\ttrue
            false\tbad argument #1 to 'flow.type' (value expected)

            """)
    }

    @Test func moduleDoesNotLinkLua() throws {
        let lib = Self.productsDirectory.appendingPathComponent("libflow.so")
        guard FileManager.default.fileExists(atPath: "/usr/bin/readelf"), FileManager.default.fileExists(atPath: lib.path) else {
            print("SKIPPED moduleDoesNotLinkLua: readelf or libflow.so missing")
            return
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        p.arguments = ["-d", lib.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(text.contains("NEEDED"))
        #expect(!text.contains("liblua"))
    }
}
