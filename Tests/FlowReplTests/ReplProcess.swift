import Foundation

/// Runs the built `flowrepl` as a child process.
///
/// Locating the binary: `FLOWREPL_BIN` when set (e.g. by a CI script testing another
/// build), else `flowrepl` next to the test bundle (`.build/<triple>/<config>/`), which is
/// where `swift build` / `swift test` put every product of the package.
enum ReplProcess {
    static var binary: String {
        if let b = ProcessInfo.processInfo.environment["FLOWREPL_BIN"], !b.isEmpty { return b }
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        return dir.appendingPathComponent("flowrepl").path
    }

    struct Output: Equatable, CustomStringConvertible {
        var stdout: String
        var stderr: String
        var status: Int32

        var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---" }
    }

    /// A scratch directory for one test (removed by the caller when it wants).
    static func scratch() -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flowrepl-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The environment children get: no LUA_INIT/LUA_PATH/HOME history from the developer.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for k in ["LUA_INIT", "LUA_INIT_5_4", "LUA_PATH", "LUA_CPATH", "LUA_PATH_5_4", "LUA_CPATH_5_4"] {
            env[k] = nil
        }
        env["FLOWREPL_HISTORY"] = ""
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// What flowrepl's messages start with when `run` starts it: argv[0], which Process sets
    /// to the executable's path.
    static var progname: String { binary }

    /// Runs flowrepl (or `executable`, e.g. a link to it) with `arguments`, `stdin` piped in,
    /// and returns what it wrote.
    static func run(
        _ arguments: [String] = [], stdin: String = "", env: [String: String] = [:], cwd: URL? = nil,
        executable: String? = nil
    ) throws -> Output {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("stdin"), outURL = dir.appendingPathComponent("stdout"),
            errURL = dir.appendingPathComponent("stderr")
        try Data(stdin.utf8).write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable ?? binary)
        p.arguments = arguments
        p.environment = environment(env)
        if let cwd { p.currentDirectoryURL = cwd }
        p.standardInput = try FileHandle(forReadingFrom: inURL)
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        try p.run()
        let watchdog = Watchdog(p, seconds: 30)
        p.waitUntilExit()
        watchdog.cancel()
        return Output(
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
            status: p.terminationStatus)
    }
}

/// Kills a child that runs longer than a test can wait, so a hang fails instead of blocking.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    init(_ process: Process, seconds: Double) {
        let pid = process.processIdentifier
        Thread.detachNewThread { [self] in
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                usleep(50_000)
                if lock.withLock({ cancelled }) { return }
            }
            kill(pid, SIGKILL)
        }
    }

    func cancel() { lock.withLock { cancelled = true } }
}
