import Foundation
import Testing

/// The throwaway cluster's URL (scripts/pg-cluster; scripts/test sets it).
let sharedTestURL = ProcessInfo.processInfo.environment["FLOW_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

/// flowrepl processes sharing a diagram of a PostgreSQL workspace (docs/collaboration.md):
/// the throwaway cluster of scripts/pg-cluster, whose URL scripts/test sets.
@Suite(
    "Shared workspaces across processes",
    .enabled(if: sharedTestURL != nil, "FLOW_TEST_POSTGRES_URL is not set: start a cluster with scripts/pg-cluster (scripts/test does)"),
    .serialized)
struct SharedWorkspaceProcessTests {
    static let url = sharedTestURL

    /// A diagram name no other test uses.
    static func diagram() -> String { "p\(UInt64.random(in: 1...UInt64.max))" }

    /// Starts flowrepl on `script` (a file in `dir`) with `args` after it.
    static func start(_ script: String, in dir: URL, _ args: [String], stdout: URL? = nil) throws -> Process {
        let file = dir.appendingPathComponent("s\(UInt64.random(in: 1...UInt64.max)).lua")
        try Data(script.utf8).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ReplProcess.binary)
        p.arguments = [file.path] + args
        p.environment = ReplProcess.environment([:])
        if let stdout {
            _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
            p.standardOutput = try FileHandle(forWritingTo: stdout)
        } else {
            p.standardOutput = FileHandle.nullDevice
        }
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Runs Lua `code` in flowrepl and returns what it printed.
    static func lua(_ code: String) throws -> String {
        let out = try ReplProcess.run(["--quiet", "-e", code])
        #expect(out.status == 0, "\(out)")
        return out.stdout
    }

    /// Writers that each make random calls (about a third of them conflicts), syncing now
    /// and then, wait for each other, sync, and write their export and how many of their
    /// batches were committed.
    static let writer = """
        local url, name, me, count, dir, writers = ...
        me, count, writers = tonumber(me), tonumber(count), tonumber(writers)
        local ws = assert(flow.workspace(url))
        local s = ws:open(name)
        math.randomseed(me)
        local ok = 0
        for i = 1, count do
          local ids = {}
          for _, n in ipairs(s:nodes()) do ids[#ids + 1] = n.id end
          local function pick() return #ids > 0 and ids[math.random(#ids)] or "none" end
          local r = math.random(6)
          local done = pcall(function()
            if r <= 2 then s:addNode{id = "w" .. me .. "-" .. i, x = math.random(300), y = math.random(300)}
            elseif r <= 4 then s:moveNode(pick(), math.random(300), math.random(300))
            elseif r == 5 then s:addEdge{id = "e" .. me .. "-" .. i, sourceNodeID = pick(), targetNodeID = pick()}
            else s:removeNode(pick()) end
          end)
          if done then ok = ok + 1 end
          if math.random(3) == 1 then ws:sync() end
        end
        io.open(dir .. "/done" .. me, "w"):close()
        for k = 1, 2000 do
          local all = true
          for w = 1, writers do
            local f = io.open(dir .. "/done" .. w)
            if f then f:close() else all = false end
          end
          if all then break end
          os.execute("sleep 0.02")
        end
        ws:sync()
        local f = io.open(dir .. "/export" .. me, "w")
        f:write(s:export())
        f:close()
        print(ok)
        """

    @Test func processesEditingOneDiagramConverge() throws {
        let url = try #require(Self.url)
        let name = Self.diagram()
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.lua("local ws = assert(flow.workspace('\(url)')); local s = ws:create('\(name)'); s:addNode{id = 'a'}")
        let writers = 4, count = 150
        var procs: [(Process, URL)] = []
        for w in 1...writers {
            let out = dir.appendingPathComponent("out\(w)")
            procs.append((try Self.start(Self.writer, in: dir, [url, name, "\(w)", "\(count)", dir.path, "\(writers)"], stdout: out), out))
        }
        var committed = 1
        for (p, out) in procs {
            let watchdog = Watchdog(p, seconds: 120)
            p.waitUntilExit()
            watchdog.cancel()
            #expect(p.terminationStatus == 0)
            committed += Int(String(decoding: try Data(contentsOf: out), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let exports = try (1...writers).map { try String(contentsOf: dir.appendingPathComponent("export\($0)"), encoding: .utf8) }
        #expect(Set(exports).count == 1, "the sessions' exports differ")
        let check = try Self.lua("""
            local ws = assert(flow.workspace('\(url)'))
            local s = ws:open('\(name)')
            local n = #ws:versions('\(name)')
            local v = ws:open('\(name)', {at = n})
            io.write(n, '\\n', tostring(v:export() == s:export()), '\\n', s:export())
            """)
        let lines = check.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        #expect(Int(lines[0]) == committed, "batches in the database vs. committed by the writers")
        #expect(lines[1] == "true")
        #expect(String(lines[2]) == exports[0])
    }

    /// A piped session prints another process's batch as change events before it runs
    /// the next line (flowrepl syncs before each chunk and each prompt).
    @Test func anotherProcesssBatchArrivesAtThePrompt() throws {
        let url = try #require(Self.url)
        let name = Self.diagram()
        let other = "\(ReplProcess.binary) --quiet --workspace \(url) \(name) -e 'store:addNode{id = \"b\", x = 5}' 2>/dev/null"
        let out = try ReplProcess.run(
            ["--workspace", url, name],
            stdin: "store:addNode{id = 'a'}\nos.execute([[\(other)]])\nprint(store.nodeCount)\n")
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.contains("node+ b (5, 0) 150x60\n2\n"), "\(out)")
        #expect(out.stderr.contains("saving diagram '\(name)' to workspace \(url) (0 nodes)"), "\(out)")
    }

    /// A session reading a pipe that stays open and idle (an editor or a script feeding it,
    /// no preview) prints another process's batch as change events with no line arriving:
    /// it waits on standard input and the workspace's connection at once.
    @Test func anotherProcesssBatchArrivesAtAnIdlePipe() throws {
        let url = try #require(Self.url)
        let name = Self.diagram()
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let input = Pipe()
        let idle = Process()
        idle.executableURL = URL(fileURLWithPath: ReplProcess.binary)
        idle.arguments = ["--workspace", url, name]
        idle.environment = ReplProcess.environment([:])
        idle.standardInput = input
        idle.standardOutput = try FileHandle(forWritingTo: out)
        idle.standardError = FileHandle.nullDevice
        try idle.run()
        let watchdog = Watchdog(idle, seconds: 60)
        defer {
            try? input.fileHandleForWriting.close()
            idle.waitUntilExit()
            watchdog.cancel()
        }
        /// Waits up to `seconds` for the idle session's output to contain `text`.
        func printed(_ text: String, within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self).contains(text) { return true }
                usleep(20_000)
            }
            return false
        }
        input.fileHandleForWriting.write(Data("io.write('ready\\n'); io.stdout:flush()\n".utf8))
        #expect(printed("ready\n", within: 30), "the idle session did not start")
        let other = try ReplProcess.run(["--quiet", "--workspace", url, name, "-e", "store:addNode{id = 'b', x = 5}"])
        #expect(other.status == 0, "\(other)")
        // no line is written to the idle session: it must print the change by itself
        #expect(printed("node+ b (5, 0) 150x60\n", within: 10), "printed: \(String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self))")
    }

    /// SIGKILL at a random moment of a writer: the database holds every batch whose call
    /// returned (the child prints each number after its call), at most one more.
    @Test(arguments: 0..<6)
    func aKilledWriterLosesNothingCommitted(seed: Int) throws {
        let url = try #require(Self.url)
        let name = Self.diagram()
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // the script runs in the workspace session: --workspace before the script
        let q = Process()
        q.executableURL = URL(fileURLWithPath: ReplProcess.binary)
        let script = dir.appendingPathComponent("long.lua")
        try Data("""
            for i = 1, 1000000 do
              if i % 2 == 0 then store:moveNode("n" .. (i - 1), i, -i) else store:addNode{id = "n" .. i, x = i} end
              io.write(i, "\\n")
              io.stdout:flush()
            end
            """.utf8).write(to: script)
        q.arguments = ["--quiet", "--workspace", url, name, script.path]
        q.environment = ReplProcess.environment([:])
        let pipe = Pipe()
        q.standardOutput = pipe
        q.standardError = FileHandle.nullDevice
        try q.run()
        var text = Data()
        let wanted = 20 + seed * 37
        while String(decoding: text, as: UTF8.self).split(separator: "\n").count < wanted {
            let d = pipe.fileHandleForReading.availableData
            if d.isEmpty { break }
            text.append(d)
        }
        usleep(useconds_t((seed * 7_919) % 30_000))
        kill(q.processIdentifier, SIGKILL)
        q.waitUntilExit()
        text.append(pipe.fileHandleForReading.readDataToEndOfFile())
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let printed = lines.count
        let check = try Self.lua("""
            local ws = assert(flow.workspace('\(url)'))
            local s = ws:open('\(name)')
            local n = #ws:versions('\(name)')
            io.write(n, ' ', tostring(ws:open('\(name)', {at = n}):export() == s:export()))
            """)
        let parts = check.split(separator: " ")
        let n = try #require(Int(parts[0]))
        #expect(n >= printed && n <= printed + 1, "printed \(printed), the database holds \(n)")
        #expect(parts[1] == "true")
    }

    /// PostgreSQL restarts while a session writes: it keeps its batches and writes them
    /// when the server is back; nothing is lost. The server is a cluster of the test's own:
    /// restarting the shared one would drop the connections of the tests running beside it.
    @Test func aRestartOfTheServerLosesNothing() throws {
        try #require(ProcessInfo.processInfo.environment["FLOW_TEST_POSTGRES_DIR"] != nil, "FLOW_TEST_POSTGRES_DIR is not set")
        let name = Self.diagram()
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let cluster = root.appendingPathComponent("scripts/pg-cluster").path
        // system(), not Process: the started (and restarted) server inherits Process's
        // exit-watching descriptor, and waitUntilExit would wait for the server to end
        let started = dir.appendingPathComponent("cluster")
        #expect(system("'\(cluster)' start >'\(started.path)' 2>/dev/null") == 0)
        var settings: [String: String] = [:]
        for part in String(decoding: try Data(contentsOf: started), as: UTF8.self).split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "export ", with: "").split(separator: "=", maxSplits: 1)
            if pair.count == 2 { settings[String(pair[0])] = String(pair[1]) }
        }
        let url = try #require(settings["FLOW_TEST_POSTGRES_URL"]), own = try #require(settings["FLOW_TEST_POSTGRES_DIR"])
        defer { _ = system("FLOW_TEST_POSTGRES_DIR='\(own)' '\(cluster)' stop >/dev/null 2>&1") }
        let out = dir.appendingPathComponent("out")
        let err = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let script = dir.appendingPathComponent("writer.lua")
        try Data("""
            local ws = workspace
            for i = 1, 200 do
              store:addNode{id = "n" .. i, x = i}
              os.execute("sleep 0.01")
            end
            for k = 1, 100 do
              ws:sync()
              os.execute("sleep 0.05")
            end
            io.write(store:export())
            """.utf8).write(to: script)
        let q = Process()
        q.executableURL = URL(fileURLWithPath: ReplProcess.binary)
        q.arguments = ["--quiet", "--workspace", url, name, script.path]
        q.environment = ReplProcess.environment([:])
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        q.standardOutput = try FileHandle(forWritingTo: out)
        q.standardError = try FileHandle(forWritingTo: err)
        try q.run()
        usleep(600_000)
        #expect(system("FLOW_TEST_POSTGRES_DIR='\(own)' '\(cluster)' restart >/dev/null 2>&1") == 0)
        let watchdog = Watchdog(q, seconds: 120)
        q.waitUntilExit()
        watchdog.cancel()
        #expect(q.terminationStatus == 0)
        let messages = String(decoding: try Data(contentsOf: err), as: UTF8.self)
        let check = try Self.lua("""
            local ws = assert(flow.workspace('\(url)'))
            io.write(#ws:versions('\(name)'), '\\n', ws:open('\(name)'):export())
            """)
        let parts = check.split(separator: "\n", maxSplits: 1)
        #expect(Int(parts[0]) == 200, "\(messages)")
        #expect(String(parts[1]) == String(decoding: try Data(contentsOf: out), as: UTF8.self))
        #expect(messages.contains("working locally") && messages.contains("reconnected"), "\(messages)")
        #expect(!messages.contains("password"))
    }
}
