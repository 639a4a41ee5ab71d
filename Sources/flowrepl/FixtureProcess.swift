@preconcurrency import Glibc

/// One fixture's flowrepl process: its output, how it ended, and a time limit.
struct FixtureProcess {
    /// How the process ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut(seconds: Double)

        /// Nil for a clean exit (status 0), else why the fixture fails.
        var failure: String? {
            switch self {
            case .exited(0): return nil
            case .exited(let status): return "flowrepl exited with status \(status)"
            case .signalled(let sig): return "flowrepl was killed by signal \(sig) (\(signalName(sig)))"
            case .timedOut(let s): return "flowrepl ran longer than the time limit (\(formatSeconds(s)) s) and was killed"
            }
        }
    }

    /// Standard output and standard error, merged in order, as bytes.
    var bytes: [UInt8]
    var ending: Ending

    /// Runs `executable` with stdin from `file`, stdout and stderr into one pipe, in a fixed
    /// environment; kills it (SIGKILL) when it runs longer than `timeout` seconds. Nil when
    /// it cannot be started.
    static func run(_ file: String, executable: String, timeout: Double) -> FixtureProcess? {
        let input = open(file, O_RDONLY)
        guard input >= 0 else { return nil }
        defer { close(input) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        let argv = ["flowrepl"]  // argv[0]: messages outside the REPL start with it, whatever the path
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        // A fixed environment: no user init code, no history file, a stable locale; a crash
        // ends the process by its signal, without the Swift runtime's crash report.
        let env = [
            "LANG=C", "FLOWREPL_HISTORY=/dev/null", "PATH=/usr/bin:/bin", "FLOWREPL_INPUT_MARKS=1",
            "SWIFT_BACKTRACE=enable=no",
        ]
        var cenv = env.map { strdup($0) } + [nil]
        defer { for p in cenv { free(p) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, nil, &cargs, &cenv)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            return nil
        }
        let deadline = now() + timeout
        var timedOut = false
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline - now()
            if left <= 0 {
                timedOut = true
                break
            }
            var p = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left * 1000, 1000)) + 1)
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }
            let n = read(fds[0], &chunk, chunk.count)
            if n > 0 { bytes += chunk.prefix(n) } else if n == 0 || errno != EINTR { break }
        }
        if timedOut { kill(pid, SIGKILL) }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let ending: Ending
        if timedOut {
            ending = .timedOut(seconds: timeout)
        } else if status & 0x7f == 0 {
            ending = .exited((status >> 8) & 0xff)  // WIFEXITED, WEXITSTATUS
        } else {
            ending = .signalled(status & 0x7f)  // WTERMSIG
        }
        return FixtureProcess(bytes: bytes, ending: ending)
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func signalName(_ sig: Int32) -> String {
        guard let s = strsignal(sig) else { return "signal \(sig)" }
        return String(cString: s)
    }

    static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() && abs(s) < 1e15 ? String(Int(s)) : String(s)
    }
}
