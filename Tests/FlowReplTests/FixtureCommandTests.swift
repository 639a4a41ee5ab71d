import Foundation
import Testing

/// `flowrepl test` and `flowrepl --record`, run as processes.
@Suite("Fixtures: flowrepl test and --record") struct FixtureCommandTests {
    func write(_ url: URL, _ text: String) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func recordingAFixtureReplaysToTheSameTranscript() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lua = dir.appendingPathComponent("session.lua")
        let input = """
            store:addNode{id="a", x=1, y=2}
            this is not lua
            store:moveNode("a", 10, 20)
            error("boom")
            function twice(n)
              return n * 2
            end
            twice(21)

            """
        let run = try ReplProcess.run(["--record", lua.path], stdin: input)
        #expect(run.status == 0)
        let recorded = try String(contentsOf: lua, encoding: .utf8)
        #expect(recorded == """
            store:addNode{id="a", x=1, y=2}
            store:moveNode("a", 10, 20)
            function twice(n)
              return n * 2
            end
            twice(21)

            """)
        let out = try String(contentsOf: dir.appendingPathComponent("session.out"), encoding: .utf8)
        #expect(out == """
            node+ a (1, 2) 150x60
            Node a (1, 2, 150x60)
            node~ a position (10, 20)
            true
            42

            """)
        let check = try ReplProcess.run(["test", lua.path])
        #expect(check.status == 0)
        #expect(check.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func theRunnerReportsAMismatchAndFails() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir.appendingPathComponent("a.lua"), "1 + 1\nstore:addNode{id='x'}\n")
        try write(dir.appendingPathComponent("a.out"), "2\nnode+ x (0, 0) 150x60\nNode x (0, 0, 150x60)\n")
        try write(dir.appendingPathComponent("b.lua"), "'b'\n")
        try write(dir.appendingPathComponent("b.out"), "c\n")
        let run = try ReplProcess.run(["test", dir.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL \(dir.path)/b.lua"))
        #expect(run.stdout.contains("-c\n+b\n"))
        #expect(!run.stdout.contains("FAIL \(dir.path)/a.lua"))
        #expect(run.stdout.hasSuffix("1 passed, 1 failed\n"))
        let update = try ReplProcess.run(["test", "--update", dir.path])
        #expect(update.status == 0)
        #expect(try String(contentsOf: dir.appendingPathComponent("b.out"), encoding: .utf8) == "b\n")
    }

    @Test func aMissingTranscriptIsAFailure() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir.appendingPathComponent("new.lua"), "1\n")
        let run = try ReplProcess.run(["test", dir.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("no expected transcript"))
    }
}
