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

    /// Each hunk of a mismatch names the input line that printed its changes (a line printed
    /// by several inputs belongs to the one that ended it); changes of different inputs get
    /// hunks of their own, a replaced line next to its replacement. The marks that tell the
    /// runner which input printed what never reach the transcript.
    @Test func aMismatchShowsTheInputLine() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(dir.appendingPathComponent("m.lua"), """
            x = 20
            x + 1
            local _ = io.write("no newline; ")
            x + 2
            function f()
              return x + 3
            end
            f()

            """)
        try write(dir.appendingPathComponent("m.out"), "21\nno newline; 99\n24\n")
        let run = try ReplProcess.run(["test", dir.path])
        #expect(run.status == 1)
        #expect(run.stdout.hasSuffix("""
            +++ actual
            @@ -1,2 +1,2 @@ m.lua:4: x + 2
             21
            -no newline; 99
            +no newline; 22
            @@ -3,2 +3,2 @@ m.lua:8: f()
            -24
            +23
             
            0 passed, 1 failed

            """))
        _ = try ReplProcess.run(["test", "--update", dir.path])
        let updated = try String(contentsOf: dir.appendingPathComponent("m.out"), encoding: .utf8)
        #expect(updated == "21\nno newline; 22\n23\n")
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
