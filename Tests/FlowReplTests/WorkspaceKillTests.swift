import Foundation
import Testing

/// Nothing committed is lost: a child `flowrepl --workspace` running a long script is
/// killed with SIGKILL at a random moment; reopening the workspace gives exactly the
/// batches whose calls had returned (the child prints each step's number after its call
/// returns; the kill may land between a commit and its print, so the workspace may hold
/// one batch more than was printed, never fewer) and the document they make.
@Suite("Workspaces survive SIGKILL") struct WorkspaceKillTests {
    /// One call per step, each one batch: adds, moves and undos.
    static let steps = """
        function step(s, i)
          if i % 6 == 0 then s:undo()
          elseif i % 2 == 0 then s:moveNode("n" .. (i - 1), i, -i)
          else s:addNode{id = "n" .. i, x = i, y = 0} end
        end
        """

    @Test(arguments: 0..<30)
    func reopeningGivesThePrintedBatches(seed: Int) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ReplProcess.binary), "flowrepl not built")
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("w.flowspace").path
        let script = dir.appendingPathComponent("long.lua")
        try Data((Self.steps + """

            for i = 1, 1000000 do
              step(store, i)
              io.write(i, "\\n")
              io.stdout:flush()
            end
            """).utf8).write(to: script)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ReplProcess.binary)
        p.arguments = ["--quiet", "--workspace", path, "main", script.path]
        p.environment = ReplProcess.environment([:])
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        // A random moment: after some output, then a random pause of up to 40 ms.
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func random(_ n: UInt64) -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state % n
        }
        var text = Data()
        let wanted = Int(random(400)) + 1
        while String(decoding: text, as: UTF8.self).split(separator: "\n").count < wanted {
            let d = out.fileHandleForReading.availableData
            if d.isEmpty { break }
            text.append(d)
        }
        usleep(useconds_t(random(40_000)))
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        text.append(out.fileHandleForReading.readDataToEndOfFile())
        let printed = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // Complete lines only (the last element is what followed the last newline).
        let count = printed.dropLast().count
        #expect(printed.dropLast().map { Int($0) } == Array(1...max(count, 1)).prefix(count).map { Optional($0) })

        let check = Self.steps + """

            local ws = assert(flow.workspace(\"\(path)\"))
            local m = #ws:versions("main")
            local fresh = flow.newStore()
            for i = 1, m do step(fresh, i) end
            local at = ws:open("main", {at = m})
            local now = ws:open("main")
            print(m, at:export() == fresh:export(), now:export() == fresh:export())
            """
        let r = try ReplProcess.run(["--quiet", "-e", check])
        let fields = r.stdout.split(separator: "\t").map(String.init)
        try #require(fields.count == 3, "\(r)")
        let m = Int(fields[0]) ?? -1
        #expect(m == count || m == count + 1, "printed \(count), workspace has \(m)")
        #expect(fields[1] == "true" && fields[2] == "true\n", "\(r)")
    }

    /// `--workspace path [name]`: the session's store is the diagram, saved as it goes.
    @Test func workspaceOption() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("w.flowspace").path
        let first = try ReplProcess.run(["--quiet", "--workspace", path, "-e", "store:addNode{id = 'a', x = 1, y = 2}"])
        #expect(first == .init(stdout: "", stderr: "saving diagram 'main' to workspace \(path) (0 nodes)\n", status: 0))
        let second = try ReplProcess.run(
            ["--quiet", "--workspace", path, "main", "-e", "print(store:node('a').x, store.name, workspace:list()[1])"])
        #expect(second == .init(stdout: "1\tstore\tmain\n", stderr: "saving diagram 'main' to workspace \(path) (1 node)\n", status: 0))
        let other = try ReplProcess.run(["--quiet", "--workspace", path, "plan", "-e", "print(#workspace:list(), store.nodeCount)"])
        #expect(other.stdout == "2\t0\n")
        let text = dir.appendingPathComponent("t.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let bad = try ReplProcess.run(["--workspace", text, "-e", "print(1)"])
        #expect(bad.status == 1 && bad.stdout == "")
        #expect(bad.stderr.hasPrefix("\(ReplProcess.progname): workspace: '\(text)' is not a workspace (not an SQLite database)"), "\(bad)")
        let missing = try ReplProcess.run(["--workspace"])
        #expect(missing.status == 1 && missing.stderr.contains("'--workspace'"))
    }
}
