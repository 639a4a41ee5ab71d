import CLuaShims
@preconcurrency import Glibc

/// `flowrepl test [--update] [--timeout SECONDS] [paths…]`: runs script fixtures and
/// compares their transcripts.
///
/// A fixture is `<name>.lua` with its expected transcript `<name>.out` beside it. The
/// transcript is what `flowrepl < name.lua` prints (standard output and standard error
/// merged, in order): the results of expressions, change-event lines, errors. Each fixture
/// runs in a fresh flowrepl process, so fixtures cannot affect each other. A fixture also
/// fails when its process does not exit with status 0 (a crash, `os.exit(1)`) or runs
/// longer than the time limit; transcripts are compared byte for byte.
enum FixtureRunner {
    /// The time limit of one fixture unless `--timeout` says otherwise, in seconds.
    static let defaultTimeout = 60.0

    static func main(_ args: [String]) -> Int32 {
        var update = false
        var timeout = defaultTimeout
        var paths: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            if a == "--update" { update = true } else if a == "--timeout" {
                guard i < args.count, let t = Double(args[i]), t > 0, t.isFinite else {
                    fputs("flowrepl test: --timeout needs a positive number of seconds\n", flua_stderr())
                    return 1
                }
                timeout = t
                i += 1
            } else if a == "--help" {
                print("usage: flowrepl test [--update] [--timeout SECONDS] [paths…]   (default path: scripts/fixtures, time limit \(Int(defaultTimeout)) s)")
                return 0
            } else { paths.append(a) }
        }
        if paths.isEmpty { paths = ["scripts/fixtures"] }
        var files: [String] = []
        for p in paths {
            guard let found = findFixtures(p) else {
                fputs("flowrepl test: cannot read '\(p)'\n", flua_stderr())
                return 1
            }
            files += found
        }
        guard let exe = selfExecutable() else {
            fputs("flowrepl test: cannot find the flowrepl executable\n", flua_stderr())
            return 1
        }
        var passed = 0, failed = 0
        for file in files {
            let expectedPath = String(file.dropLast(4)) + ".out"
            guard let actual = annotatedTranscript(of: file, executable: exe, timeout: timeout) else {
                print("FAIL \(file): could not run it")
                failed += 1
                continue
            }
            if let failure = actual.ending.failure {
                // never recorded, even with --update: a transcript cut short is no truth
                print("FAIL \(file): \(failure)")
                failed += 1
                if update { continue }
                if let expected = readBytes(expectedPath), expected != actual.bytes {
                    print(diff(expected, actual, file: file, expectedPath: expectedPath), terminator: "")
                }
                continue
            }
            if update {
                if readBytes(expectedPath) != actual.bytes {
                    if writeFile(expectedPath, actual.bytes) { print("updated \(expectedPath)") } else {
                        print("FAIL \(file): cannot write \(expectedPath)")
                        failed += 1
                        continue
                    }
                }
                passed += 1
                continue
            }
            guard let expected = readBytes(expectedPath) else {
                print("FAIL \(file): no expected transcript \(expectedPath) (run with --update to create it)")
                failed += 1
                continue
            }
            if expected == actual.bytes {
                passed += 1
            } else {
                failed += 1
                print("FAIL \(file)")
                print(diff(expected, actual, file: file, expectedPath: expectedPath), terminator: "")
            }
        }
        print("\(passed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    /// The unified diff of an expected transcript and an actual one, hunks labelled with the
    /// input lines that printed them. Bytes that are not UTF-8 show as `\xNN`.
    static func diff(_ expected: [UInt8], _ actual: Transcript, file: String, expectedPath: String) -> String {
        let input = (readFile(file) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return unifiedDiff(displayText(expected), actual.text, from: expectedPath, to: "actual") { line in
            // the input line that printed line `line` of the actual transcript
            let lines = actual.inputLines
            guard !lines.isEmpty, let n = lines[min(line, lines.count - 1)], n >= 1, n <= input.count else {
                return nil
            }
            return "\(name):\(n): \(input[n - 1])"
        }
    }

    /// `bytes` as text for a diff: a line that is valid UTF-8 as it is, any other line with
    /// every byte from 0x80 up written `\xNN` (so two transcripts that differ only in such
    /// bytes show the difference).
    static func displayText(_ bytes: [UInt8]) -> String {
        bytes.split(separator: 10, omittingEmptySubsequences: false).map { line -> String in
            if let s = String(validating: line, as: UTF8.self) { return s }
            return line.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + hex($0) }.joined()
        }.joined(separator: "\n")
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
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

    /// What a fixture printed, and for each of its lines the input line of the chunk that
    /// printed it (that ended it, when several did; nil before the first chunk).
    struct Transcript {
        /// What it printed, byte for byte.
        var bytes: [UInt8]
        /// `bytes` for display (see `displayText`).
        var text: String
        var inputLines: [Int?]
        var ending: FixtureProcess.Ending
    }

    /// Runs `flowrepl < file` with stdout and stderr into one pipe; returns what it printed,
    /// nil when it could not run or did not exit with status 0.
    static func transcript(of file: String, executable: String) -> [UInt8]? {
        guard let t = annotatedTranscript(of: file, executable: executable, timeout: defaultTimeout),
            t.ending.failure == nil
        else { return nil }
        return t.bytes
    }

    /// `transcript(of:executable:)` with the input line of every printed line: the child
    /// marks where each chunk's output starts (`FLOWREPL_INPUT_MARKS`, see REPL), and the
    /// marks are taken out of the text here.
    static func annotatedTranscript(of file: String, executable: String, timeout: Double) -> Transcript? {
        guard let process = FixtureProcess.run(file, executable: executable, timeout: timeout) else { return nil }
        let bytes = process.bytes
        var text: [UInt8] = []
        var lines: [Int?] = []  // a line belongs to the chunk that ended it
        var current: Int?
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1E {  // "\u{1E}<n>\n": the chunk starting at input line n runs
                var n = 0, j = i + 1
                while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 {
                    n = n * 10 + Int(bytes[j] - 0x30)
                    j += 1
                }
                if j < bytes.count, bytes[j] == 10, j > i + 1 {
                    current = n
                    i = j + 1
                    continue
                }
            }
            text.append(bytes[i])
            if bytes[i] == 10 { lines.append(current) }
            i += 1
        }
        lines.append(current)  // the line after the last newline (usually empty)
        return Transcript(bytes: text, text: displayText(text), inputLines: lines, ending: process.ending)
    }

    static func readFile(_ path: String) -> String? {
        readBytes(path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func readBytes(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        return readAll(f)
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard let f = fopen(path, "wb") else { return false }
        let ok = fwrite(bytes, 1, bytes.count, f) == bytes.count
        return fclose(f) == 0 && ok
    }

    /// A unified diff of two texts (3 lines of context), from a longest common subsequence
    /// of their lines. `source(j)` labels a change at line j (0-based) of `b`: the input
    /// that printed it. It follows the hunk's line numbers in its header, and changes with
    /// different labels get hunks of their own.
    static func unifiedDiff(
        _ a: String, _ b: String, from: String, to: String, source: ((Int) -> String?)? = nil
    ) -> String {
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
        // A block of deletions followed by insertions is listed line by line (-x1 +y1 -x2 +y2
        // ...; still a valid diff): a deleted line is labelled where the line replacing it is.
        var paired: [(Character, String, Int, Int)] = []
        var k = 0
        while k < ops.count {
            guard ops[k].0 == "-" else { paired.append(ops[k]); k += 1; continue }
            var d = k
            while d < ops.count && ops[d].0 == "-" { d += 1 }
            var e = d
            while e < ops.count && ops[e].0 == "+" { e += 1 }
            for t in 0..<max(d - k, e - d) {
                if k + t < d { paired.append(("-", ops[k + t].1, ops[k + t].2, d + t < e ? ops[d + t].3 : ops[k + t].3)) }
                if d + t < e { paired.append(ops[d + t]) }
            }
            k = e
        }
        ops = paired
        var out = "--- \(from)\n+++ \(to)\n"
        k = 0
        var previousEnd = 0
        while k < ops.count {
            guard ops[k].0 != " " else { k += 1; continue }
            let label = source?(ops[k].3)
            let start = max(previousEnd, k - 3)
            var end = k
            var lastChange = k
            while end < ops.count {
                if ops[end].0 != " " {
                    if source?(ops[end].3) != label { break }  // another input: a hunk of its own
                    lastChange = end
                } else if end - lastChange > 6 {
                    break
                }
                end += 1
            }
            end = lastChange + 1  // then up to 3 lines of context, up to the next change
            while end < ops.count && end - lastChange <= 3 && ops[end].0 == " " { end += 1 }
            let hunk = ops[start..<end]
            let oldCount = hunk.filter { $0.0 != "+" }.count
            let newCount = hunk.filter { $0.0 != "-" }.count
            let header = "@@ -\(hunk.first!.2 + 1),\(oldCount) +\(hunk.first!.3 + 1),\(newCount) @@"  // invariant: hunk not empty
            out += header + (label.map { " " + $0 } ?? "") + "\n"
            for op in hunk { out += "\(op.0)\(op.1)\n" }
            previousEnd = end
            k = end
        }
        return out
    }
}
