import Foundation
import Testing

/// `flowrepl --sandbox` (docs/sandbox.md): every chunk, the script and `-e` included, runs
/// in the sandbox, and a limit ends only the chunk that hit it.
@Suite struct SandboxCommandLineTests {
    @Test func optionsScriptsAndInputRunSandboxed() throws {
        #expect(try ReplProcess.run(["--sandbox", "-e", "print(io, require, os.execute, type(os.clock))"]).stdout
            == "nil\tnil\tnil\tfunction\n")
        // without it, the same chunk sees the full libraries
        #expect(try ReplProcess.run(["-e", "print(type(io), type(require))"]).stdout == "table\tfunction\n")
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("s.lua")
        try "print(flow.open, package)".write(to: script, atomically: true, encoding: .utf8)
        #expect(try ReplProcess.run(["--sandbox", script.path]).stdout == "nil\tnil\n")
        // a loop ends at the instruction limit and the session goes on; `save` and `open`
        // are not defined
        let session = try ReplProcess.run(["--sandbox", "--quiet"], stdin: "while true do end\nsave\n1 + 1\n")
        #expect(session.stderr.hasPrefix("stdin:1: sandbox: instruction limit exceeded (100000000 instructions)\n"))
        #expect(session.stdout == "nil\n2\n")
    }

    /// A stable layout of a random 1,000-node graph with three edges a node (cycles
    /// everywhere) in `flow.sandbox` under a 1 s limit: its sifting looked at no limit and
    /// went on for 5.2 to 6.3 s of CPU (13 s on the clock) in a debug build.
    @Test(arguments: ["s:layout()", "s:layout{stable = true}"])
    func aCyclicLayoutEndsAtTheTimeLimit(call: String) throws {
        let code = """
            local seed, n, nodes, edges = 12345, 1000, {}, {}
            local function pick() seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n + 1 end
            for i = 1, n do nodes[i] = ('{id="n%d"}'):format(i) end
            for i = 1, n do for _ = 1, 3 do edges[#edges + 1] = ('{sourceNodeID="n%d", targetNodeID="n%d"}'):format(i, pick()) end end
            local code = 'local s = flow.newStore() s:addNodes{' .. table.concat(nodes, ',') .. '} s:addEdges{'
              .. table.concat(edges, ',') .. '} \(call)'
            local c = os.clock()
            local ok, m = flow.sandbox(code, {seconds = 1, memory = 0, instructions = 0})
            print(ok, m, os.clock() - c < 2.5)
            """
        let r = try ReplProcess.run(["-e", code])
        #expect(r.stdout == "nil\t(sandbox):1: sandbox: time limit exceeded (1 s)\ttrue\n", "\(r)")
    }

    /// A sandbox has no network: no live preview, no `--serve`, `--token` or `--watch`
    /// with it, and no workspace (a file, or a PostgreSQL server), refused before anything
    /// is loaded or opened.
    @Test func theSandboxHasNoNetwork() throws {
        let preview = try ReplProcess.run(["--sandbox", "-e", "print(pcall(preview))"])
        #expect(preview.stdout == "false\tpreview: not available in the sandbox (it has no network)\n", "\(preview)")
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ws.flowdb").path
        for option in [
            ["--serve", "127.0.0.1:0"], ["--watch", "x.lua"], ["--token", "abcdefghijklmnopqrstuvwxyz"],
            ["--workspace", "postgres://user@127.0.0.1:1/flow"], ["--workspace", file],
        ] {
            let r = try ReplProcess.run(["--sandbox"] + option + ["-e", "print(1)"])
            #expect(r.status == 1, "\(r)")
            #expect(r.stdout == "")
            let why = option[0] == "--workspace" ? "a sandbox has no files and no network" : "a sandbox has no network"
            #expect(r.stderr.hasSuffix(": --sandbox cannot be combined with \(option[0]) (\(why))\n"), "\(r)")
        }
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
