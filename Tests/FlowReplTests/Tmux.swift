import Foundation

/// Drives flowrepl in a real terminal: a tmux server on a private socket (`tmux -L`), one
/// session per test, keys sent with `send-keys` (`-l` for text, so words like "end" are not
/// read as key names), the screen read with `capture-pane`. The pane stays after the
/// program exits (`remain-on-exit`), so a crash or an exit status can still be inspected.
final class Tmux {
    /// tmux found on PATH, or nil (the interactive tests are then skipped).
    static let path: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
    static var isAvailable: Bool { path != nil }

    let socket = "flowrepl-test-\(UUID().uuidString.prefix(8))"
    let directory: URL
    private let ownsDirectory: Bool
    var statusFile: URL { directory.appendingPathComponent("exit-status-\(socket)") }

    /// Starts `flowrepl arguments` with HOME and the history file in a scratch directory
    /// (or `history` if given) and an empty inputrc.
    init(arguments: [String] = [], history: URL? = nil, directory: URL? = nil) throws {
        self.directory = directory ?? ReplProcess.scratch()
        ownsDirectory = directory == nil
        let historyFile = history ?? self.directory.appendingPathComponent("history")
        let env = [
            "HOME=\(self.directory.path)", "FLOWREPL_HISTORY=\(historyFile.path)", "INPUTRC=/dev/null",
            "TERM=xterm", "LANG=C.UTF-8",
        ]
        // The shell records the exit status in a file: tmux 3.3a sometimes misses the child's
        // SIGCHLD (it stays a zombie and #{pane_dead_status} stays empty). The shell ignores
        // SIGINT so that a Ctrl-C reaching the whole foreground group cannot end it;
        // flowrepl installs its own SIGINT handlers.
        let program = (["env", "-u", "LUA_INIT", "-u", "LUA_INIT_5_4"] + env + [ReplProcess.binary] + arguments)
            .map(Tmux.quote).joined(separator: " ")
        let command = "trap '' INT; \(program); echo $? > \(Tmux.quote(statusFile.path))"
        try run(["new-session", "-d", "-s", "main", "-x", "100", "-y", "30", command])
        try run(["set-option", "-t", "main", "remain-on-exit", "on"])
        socketPath = try run(["display-message", "-p", "#{socket_path}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's socket file (tmux leaves it behind after kill-server).
    private var socketPath = ""

    deinit {
        _ = try? run(["kill-server"])
        if socketPath.hasSuffix(socket) { unlink(socketPath) }
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs one tmux command and returns its output (see `Spawn` for why not `Process`).
    @discardableResult
    func run(_ args: [String]) throws -> String {
        let outURL = directory.appendingPathComponent("tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outURL) }
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm"
        env["TMUX"] = nil
        _ = Spawn.run(Tmux.path!, ["-L", socket, "-f", "/dev/null"] + args, environment: env, output: outURL)
        return (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    }

    /// Types text literally.
    func type(_ text: String) throws { try run(["send-keys", "-t", "main", "-l", text]) }

    /// Presses keys by name: "Enter", "Tab", "Up", "C-c", "C-d", "C-u".
    func press(_ keys: String...) throws { try run(["send-keys", "-t", "main"] + keys) }

    /// The visible screen, trailing blank lines removed.
    func screen() throws -> String {
        var lines = try run(["capture-pane", "-p", "-t", "main"]).split(separator: "\n", omittingEmptySubsequences: false)
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        return lines.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n")
    }

    /// Waits until the screen satisfies `condition` (polling); returns the last screen.
    @discardableResult
    func wait(timeout: Double = 8, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var s = try screen()
        while !condition(s) && Date() < deadline {
            usleep(50_000)
            s = try screen()
        }
        return s
    }

    /// Waits for the screen to end with `suffix` (e.g. a fresh prompt "> ").
    @discardableResult
    func wait(forEnding suffix: String, timeout: Double = 8) throws -> String {
        try wait(timeout: timeout) { $0.hasSuffix(suffix) }
    }

    /// What the terminal and the program were doing, for a failure message: the pane's
    /// terminal modes (`stty -a`) and, for each process in the pane, its state, the signals
    /// it blocks, has pending and catches, and its threads.
    func diagnosis() -> String {
        let tty = (try? run(["display-message", "-p", "-t", "main", "#{pane_tty}"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let shell = (try? run(["display-message", "-p", "-t", "main", "#{pane_pid}"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var lines = ["pane tty \(tty), shell pid \(shell)"]
        let sttyOut = directory.appendingPathComponent("stty-\(socket)")
        if !tty.isEmpty {
            _ = Spawn.run("/bin/sh", ["-c", "stty -a < \(Tmux.quote(tty))"], environment: [:], output: sttyOut)
            lines.append((try? String(contentsOf: sttyOut, encoding: .utf8)) ?? "(no stty)")
            try? FileManager.default.removeItem(at: sttyOut)
        }
        // the shell's children: the processes whose stat names it as parent (field 4)
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let children = all.filter { pid in
            guard pid.allSatisfy(\.isNumber),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            return stat[stat.index(after: close)...].split(separator: " ").dropFirst().first.map(String.init) == shell
        }
        for pid in [shell] + children where !pid.isEmpty {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let keep = status.split(separator: "\n").filter {
                ["Name", "State", "SigQ", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt", "Threads"]
                    .contains(String($0.prefix { $0 != ":" }))
            }
            let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            lines.append("pid \(pid) wchan \(wchan): " + keep.joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    /// The program's exit status once it has exited (128+n after signal n), else nil.
    func exitStatus() -> Int? {
        guard let text = try? String(contentsOf: statusFile, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits for the program to exit; returns its status (nil if it did not exit in time).
    func waitForExit(timeout: Double = 8) throws -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = exitStatus() { return status }
            usleep(50_000)
        }
        return nil
    }
}
