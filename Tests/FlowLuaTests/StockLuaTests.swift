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

    /// An executable found on PATH.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let lua = which("lua5.4")

    @Test(.enabled(if: Self.lua != nil, "lua5.4 is not installed (apt-get install lua5.4)"))
    func requireFlowInStockLua() throws {
        let lua = try #require(Self.lua)
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

    @Test(.enabled(if: Self.which("readelf") != nil, "readelf is not installed (binutils)"))
    func moduleDoesNotLinkLua() throws {
        let lib = Self.productsDirectory.appendingPathComponent("libflow.so")
        try #require(FileManager.default.fileExists(atPath: lib.path), "libflow.so not built at \(lib.path)")
        let readelf = try #require(Self.which("readelf"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: readelf)
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
