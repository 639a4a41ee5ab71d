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

    /// Runs `lua5.4 arguments` with the built module on LUA_CPATH (and nothing else there);
    /// returns its exit status and its output (stdout and stderr).
    static func runStockLua(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let lua = try #require(Self.lua)
        let lib = Self.productsDirectory.appendingPathComponent("libflow.so")
        try #require(FileManager.default.fileExists(atPath: lib.path), "libflow.so not built at \(lib.path)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: lua)
        p.arguments = arguments
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
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: Self.lua != nil, "lua5.4 is not installed (apt-get install lua5.4)"))
    func requireFlowInStockLua() throws {
        let (status, output) = try Self.runStockLua(["-e", """
            local flow = require "flow"
            print(flow.version, tostring(flow.null), flow.type(flow.null), require("flow") == flow)
            print(pcall(flow.type))
            """])
        #expect(status == 0)
        #expect(output == """
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

    /// `require "flow"` maps no SQLite, no Foundation and no ICU (#39): workspaces are the
    /// module `flow.workspace`, loaded on the first `flow.workspace` call.
    @Test(.enabled(if: Self.lua != nil, "lua5.4 is not installed (apt-get install lua5.4)"))
    func requireFlowMapsNoFoundationNoSQLite() throws {
        let (status, output) = try Self.runStockLua(["-e", """
            local flow = require "flow"
            local s = flow.newStore()
            s:addNode{id = "a", x = 0, y = 0}
            assert(s:svg())
            for line in io.lines("/proc/self/maps") do
              local lib = line:match("/([^/]*%.so[.%d]*)$")
              if lib and (lib:find("sqlite") or lib:find("Foundation") or lib:find("ICU") or lib:find("GRDB")) then print(lib) end
            end
            print(package.loaded["flow.workspace"] == nil, type(flow.workspace))
            """])
        #expect(status == 0)
        #expect(output == "true\tfunction\n")
    }
}
