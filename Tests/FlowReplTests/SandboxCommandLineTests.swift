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
