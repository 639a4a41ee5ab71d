import CLuaShims
@preconcurrency import Glibc

/// `flowrepl test [--update] [paths…]`: runs script fixtures and compares their
/// transcripts.
///
/// A fixture is `<name>.lua` with its expected transcript `<name>.out` beside it. The
/// transcript is what `flowrepl < name.lua` prints (standard output and standard error
/// merged, in order): the results of expressions, change-event lines, errors. Each fixture
/// runs in a fresh flowrepl process, so fixtures cannot affect each other.
enum FixtureRunner {
    static func main(_ args: [String]) -> Int32 {
        var update = false
        var paths: [String] = []
        for a in args {
            if a == "--update" { update = true } else if a == "--help" {
                print("usage: flowrepl test [--update] [paths…]   (default path: scripts/fixtures)")
                return 0
            } else { paths.append(a) }
        }
        if paths.isEmpty { paths = ["scripts/fixtures"] }
        var files: [String] = []
        for p in paths {
            guard let found = findFixtures(p) else {
                fputs("flowrepl test: cannot read '\(p)'\n", stderr)
                return 1
            }
            files += found
        }
        guard let exe = selfExecutable() else {
            fputs("flowrepl test: cannot find the flowrepl executable\n", stderr)
            return 1
        }
        var passed = 0, failed = 0
        for file in files {
            let expectedPath = String(file.dropLast(4)) + ".out"
            guard let actual = transcript(of: file, executable: exe) else {
                print("FAIL \(file): could not run it")
                failed += 1
                continue
            }
            if update {
                if readFile(expectedPath) != actual {
                    if writeFile(expectedPath, actual) { print("updated \(expectedPath)") } else {
                        print("FAIL \(file): cannot write \(expectedPath)")
                        failed += 1
                        continue
                    }
                }
                passed += 1
                continue
            }
            guard let expected = readFile(expectedPath) else {
                print("FAIL \(file): no expected transcript \(expectedPath) (run with --update to create it)")
                failed += 1
                continue
            }
            if expected == actual {
                passed += 1
            } else {
                failed += 1
                print("FAIL \(file)")
                print(unifiedDiff(expected, actual, from: expectedPath, to: "actual"), terminator: "")
            }
        }
        print("\(passed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    /// The `.lua` files under `path` (or `path` itself), sorted.
    static func findFixtures(_ path: String) -> [String]? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        if (st.st_mode & S_IFMT) != S_IFDIR { return [path] }
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            var s = stat()
            guard stat(full, &s) == 0 else { continue }
            if (s.st_mode & S_IFMT) == S_IFDIR {
                out += findFixtures(full) ?? []
            } else if name.hasSuffix(".lua") {
                out.append(full)
            }
        }
        return out.sorted()
    }

    static func selfExecutable() -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `flowrepl < file` with stdout and stderr into one pipe; returns what it printed.
    static func transcript(of file: String, executable: String) -> String? {
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
        // A fixed environment: no user init code, no history file, a stable locale.
        let env = ["LANG=C", "FLOWREPL_HISTORY=/dev/null", "PATH=/usr/bin:/bin"]
        var cenv = env.map { strdup($0) } + [nil]
        defer { for p in cenv { free(p) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, nil, &cargs, &cenv)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            return nil
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fds[0], &chunk, chunk.count)
            if n > 0 { bytes += chunk.prefix(n) } else if n == 0 || errno != EINTR { break }
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: bytes, as: UTF8.self)
    }

    static func readFile(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n == 0 { break }
            bytes += chunk.prefix(n)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func writeFile(_ path: String, _ text: String) -> Bool {
        guard let f = fopen(path, "wb") else { return false }
        let bytes = Array(text.utf8)
        let ok = fwrite(bytes, 1, bytes.count, f) == bytes.count
        return fclose(f) == 0 && ok
    }

    /// A unified diff of two texts (3 lines of context), from a longest common subsequence
    /// of their lines.
    static func unifiedDiff(_ a: String, _ b: String, from: String, to: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let n = x.count, m = y.count
        var lcs = [[Int32]](repeating: [Int32](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        // Edit script: (kind, line, oldIndex, newIndex)
        var ops: [(Character, String, Int, Int)] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n && j < m && x[i] == y[j] {
                ops.append((" ", x[i], i, j)); i += 1; j += 1
            } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
                ops.append(("-", x[i], i, j)); i += 1
            } else {
                ops.append(("+", y[j], i, j)); j += 1
            }
        }
        var out = "--- \(from)\n+++ \(to)\n"
        var k = 0
        while k < ops.count {
            guard ops[k].0 != " " else { k += 1; continue }
            let start = max(0, k - 3)
            var end = k
            var lastChange = k
            while end < ops.count && (ops[end].0 != " " || end - lastChange <= 6) {
                if ops[end].0 != " " { lastChange = end }
                end += 1
            }
            end = min(ops.count, lastChange + 4)
            let hunk = ops[start..<end]
            let oldCount = hunk.filter { $0.0 != "+" }.count
            let newCount = hunk.filter { $0.0 != "-" }.count
            out += "@@ -\(hunk.first!.2 + 1),\(oldCount) +\(hunk.first!.3 + 1),\(newCount) @@\n"  // invariant: hunk not empty
            for op in hunk { out += "\(op.0)\(op.1)\n" }
            k = end
        }
        return out
    }
}
