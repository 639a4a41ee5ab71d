import Foundation
import Testing

/// flowrepl on a terminal (tmux): completion, history across runs, Ctrl-C, Ctrl-D.
/// Skipped, and reported as skipped, when tmux is not installed.
@Suite(.serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct InteractiveTests {
    /// The last line of the screen is exactly the prompt `p` (nothing typed yet).
    static func atPrompt(_ screen: String, _ p: String = ">") -> Bool {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) == p
    }

    /// Ctrl-D was pressed: the program must exit with status 0.
    func expectCleanExit(_ t: Tmux, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let status = try t.waitForExit()
        let screen = try t.screen()
        #expect(status == 0, "\(screen)", sourceLocation: sourceLocation)
    }

    func start(_ arguments: [String] = [], history: URL? = nil, directory: URL? = nil) throws -> Tmux {
        try #require(FileManager.default.isExecutableFile(atPath: ReplProcess.binary), "flowrepl not built")
        let t = try Tmux(arguments: arguments, history: history, directory: directory)
        let s = try t.wait { Self.atPrompt($0) }
        try #require(s.contains("Type help() for help"), "no banner:\n\(s)")
        // The prompt shows before the line editor has set up the terminal, and keys that
        // arrive in between are dropped (a busy machine widens the gap): type a probe until
        // it is echoed, then erase it.
        var echoed = false
        for _ in 0..<20 where !echoed {
            try t.type("#")
            echoed = (try? t.wait(forEnding: "> #", timeout: 0.5)) != nil
            if !echoed { try t.press("C-u") }
        }
        try #require(echoed, "the line editor never echoed a key")
        try t.press("C-u")
        try t.wait { Self.atPrompt($0) }
        return t
    }

    @Test func completion() throws {
        let t = try start()
        try t.type("fl")
        try t.press("Tab")
        var s = try t.wait(forEnding: "> flow.")
        #expect(s.hasSuffix("> flow."), "\(s)")
        try t.type("ty")
        try t.press("Tab")
        s = try t.wait(forEnding: "> flow.type(")
        #expect(s.hasSuffix("> flow.type("), "\(s)")
        try t.type("flow.null)")
        try t.press("Enter")
        s = try t.wait { $0.hasSuffix("nil\n>") }
        #expect(s.hasSuffix("> flow.type(flow.null)\nnil\n>"), "\(s)")
        // methods of a userdata, through its metatable's __index table
        try t.type("io.stdout:wr")
        try t.press("Tab")
        s = try t.wait(forEnding: "> io.stdout:write(")
        #expect(s.hasSuffix("> io.stdout:write("), "\(s)")
        try t.press("C-u")
        // several candidates: the second Tab lists them
        try t.type("string.f")
        try t.press("Tab", "Tab")
        s = try t.wait { $0.contains("string.format(") && $0.contains("string.find(") }
        #expect(s.contains("string.find(") && s.contains("string.format("), "\(s)")
        try t.press("C-u", "C-d")
        try expectCleanExit(t)
    }

    @Test func historyAcrossTwoRuns() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let history = dir.appendingPathComponent("hist")
        do {
            let t = try start(history: history, directory: dir)
            try t.type("x = 41")
            try t.press("Enter")
            try t.wait { Self.atPrompt($0) }
            for line in ["function g()", "  return x + 1", "end"] {
                try t.type(line)
                try t.press("Enter")
            }
            try t.wait { Self.atPrompt($0) }
            try t.press("C-d")
            try expectCleanExit(t)
        }
        let saved = try String(contentsOf: history, encoding: .utf8)
        #expect(saved.contains("\nx = 41\n#"))
        #expect(saved.hasSuffix("\nfunction g()\n  return x + 1\nend\n"))
        let t = try start(history: history, directory: dir)
        try t.press("Up")
        var s = try t.wait { $0.hasSuffix("> function g()\n  return x + 1\nend") }
        #expect(s.hasSuffix("> function g()\n  return x + 1\nend"), "the multi-line entry is one entry:\n\(s)")
        try t.press("Enter")
        try t.wait { Self.atPrompt($0) }
        try t.press("Up", "Up", "Up")
        s = try t.wait(forEnding: "> x = 41")
        #expect(s.hasSuffix("> x = 41"), "\(s)")
        try t.press("Enter")
        try t.type("g()")
        try t.press("Enter")
        s = try t.wait { $0.hasSuffix("42\n>") }
        #expect(s.hasSuffix("> g()\n42\n>"), "\(s)")
        try t.press("C-d")
        try expectCleanExit(t)
    }

    @Test func ctrlCAtThePromptDiscardsTheLine() throws {
        let t = try start()
        // keys typed before the line editor is reading are not echoed: wait for the prompt,
        // and for the line to show before interrupting it (a busy machine is slow at both)
        try t.wait { Self.atPrompt($0) }
        try t.type("abc")
        try t.wait(forEnding: "> abc")
        try t.press("C-c")
        var s = try t.wait { $0.hasSuffix("> abc\n>") }
        #expect(s.hasSuffix("> abc\n>"), "\(s)\n\(s.hasSuffix("> abc\n>") ? "" : t.diagnosis())")
        // at a continuation prompt it cancels the pending chunk
        try t.type("x = {")
        try t.press("Enter")
        try t.wait(forEnding: ">>")
        try t.press("C-c")
        s = try t.wait { $0.hasSuffix(">>\n>") }
        #expect(s.hasSuffix("> x = {\n>>\n>"), "\(s)\n\(s.hasSuffix("> x = {\n>>\n>") ? "" : t.diagnosis())")
        try t.type("= 'alive'")
        try t.press("Enter")
        s = try t.wait { $0.hasSuffix("alive\n>") }
        #expect(s.hasSuffix("> = 'alive'\nalive\n>"), "\(s)")
        #expect(t.exitStatus() == nil)  // still running
        try t.press("C-d")
        let status = try t.waitForExit()
        let screen = try t.screen()
        #expect(status == 0, "\(screen)")
    }

    @Test func ctrlCStopsRunningCode() throws {
        let t = try start()
        for code in ["while true do end", "string.gsub('aaa', 'a', function() while true do end end)"] {
            try t.press("C-l")
            try t.wait { Self.atPrompt($0) }
            try t.type(code)
            try t.press("Enter")
            usleep(300_000)
            try t.press("C-c")
            let s = try t.wait { $0.contains("interrupted!") && Self.atPrompt($0) }
            #expect(s.contains("interrupted!\nstack traceback:"), "\(s)")
            #expect(Self.atPrompt(s), "\(s)")
        }
        try t.type("= 'back'")
        try t.press("Enter")
        let s = try t.wait { $0.hasSuffix("back\n>") }
        #expect(s.hasSuffix("back\n>"), "\(s)")
        try t.press("C-d")
        try expectCleanExit(t)
    }

    @Test func ctrlDExitsCleanlyAndPromptsAreConfigurable() throws {
        let t = try start()
        try t.type("_PROMPT = 'flow> '")
        try t.press("Enter")
        var s = try t.wait { Self.atPrompt($0, "flow>") }
        #expect(Self.atPrompt(s, "flow>"), "\(s)")
        try t.type("_PROMPT2 = '... '")
        try t.press("Enter")
        try t.type("if true then")
        try t.press("Enter")
        s = try t.wait { Self.atPrompt($0, "...") }
        #expect(Self.atPrompt(s, "..."), "\(s)")
        try t.type("end")
        try t.press("Enter")
        try t.wait { Self.atPrompt($0, "flow>") }
        try t.press("C-d")
        try expectCleanExit(t)
    }
}
