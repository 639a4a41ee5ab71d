import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Files and the external rasteriser, through libc only (no Foundation in this module).

/// The text of the current `errno`.
private func errorText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// Writes `bytes` to `path`, creating or truncating the file.
func writeFile(_ path: String, _ bytes: [UInt8], _ op: String) throws(FlowError) {
    guard !path.utf8.contains(0) else {
        throw FlowError(.invalidValue, operation: op, message: "the path contains a NUL byte")
    }
    guard let file = fopen(path, "wb") else {
        throw FlowError(.io, operation: op, message: "cannot write '\(path)': \(errorText())")
    }
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    let failure = written != bytes.count ? errorText() : nil
    if fclose(file) != 0 || failure != nil {
        throw FlowError(
            .io, operation: op, message: "cannot write '\(path)': \(failure ?? errorText())")
    }
}

/// The executable `name` resolves to: itself when it contains a slash, else the first
/// executable file of that name in `PATH`. Nil when there is none.
func findExecutable(_ name: String) -> String? {
    func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }
    if name.isEmpty { return nil }
    if name.contains("/") { return isExecutableFile(name) ? name : nil }
    let searchPath = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
        let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
        if isExecutableFile(candidate) { return candidate }
    }
    return nil
}

/// Writes `svg` to a temporary file and runs `converter` on it to produce a `format` file
/// (`png` or `pdf`) of exactly `width` × `height` pixels at `path`. The temporary file is
/// always removed.
func rasterize(
    _ svg: [UInt8], width: Int, height: Int, format: String = "png", to path: String, converter: String,
    _ op: String
) throws(FlowError) {
    let name = converter.split(separator: "/").last.map(String.init) ?? converter
    guard let executable = findExecutable(converter) else {
        throw FlowError(.io, operation: op, message: "\(name) not found (apt-get install librsvg2-bin)")
    }
    let input = try temporaryFile(containing: svg, op)
    defer { unlink(input) }
    let arguments = [
        executable, "--format", format, "--unlimited",
        "--width", String(width), "--height", String(height),
        "--output", path, input,
    ]
    let (status, stderrText) = try run(executable, arguments, op)
    guard status != 0 else { return }
    var message = "\(name) failed (\(status > 0 ? "exit status \(status)" : "signal \(-status)"))"
    let detail = stderrText.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
        .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: "; ")
    if !detail.isEmpty { message += ": " + detail }
    throw FlowError(.io, operation: op, message: message)
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}

/// Creates a temporary `.svg` file holding `bytes` and returns its path.
private func temporaryFile(containing bytes: [UInt8], _ op: String) throws(FlowError) -> String {
    var directory = getenv("TMPDIR").map { String(cString: $0) } ?? ""
    if directory.isEmpty { directory = "/tmp" }
    var template = Array((directory + "/flowrender-XXXXXX.svg").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }  // invariant: non-empty array
    guard fd >= 0 else {
        throw FlowError(.io, operation: op, message: "cannot create a temporary file: \(errorText())")
    }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var offset = 0
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)  // invariant: count > 0
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += n
        }
    }
    if close(fd) != 0, failure == 0 { failure = errno }
    if failure != 0 {
        unlink(path)
        throw FlowError(.io, operation: op, message: "cannot write a temporary file: \(errorText(failure))")
    }
    return path
}

/// Runs `executable` with `arguments` (argv, including argv[0]), stdin and stdout on
/// /dev/null, and returns its exit status (the negated signal number when it was killed)
/// and the first 4 KiB of its standard error.
private func run(_ executable: String, _ arguments: [String], _ op: String) throws(FlowError) -> (
    status: Int32, stderr: String
) {
    var pipeFDs: [Int32] = [-1, -1]
    guard pipe(&pipeFDs) == 0 else {
        throw FlowError(.io, operation: op, message: "cannot create a pipe: \(errorText())")
    }
    // Neither end may leak into the child (or into other children): only the copy on fd 2.
    _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)

    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    argv.append(nil)
    defer { for p in argv { free(p) } }

    var pid: pid_t = 0
    let spawnError = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(pipeFDs[1])
    guard spawnError == 0 else {
        close(pipeFDs[0])
        throw FlowError(
            .io, operation: op, message: "cannot run '\(executable)': \(errorText(spawnError))")
    }

    // Drain standard error until the child closes it, keeping the start of it.
    var captured: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
        if n > 0 {
            if captured.count < 4096 { captured += chunk[0..<min(n, 4096 - captured.count)] }
        } else if n == 0 || errno != EINTR {
            break
        }
    }
    close(pipeFDs[0])

    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else {
            throw FlowError(.io, operation: op, message: "cannot wait for '\(executable)': \(errorText())")
        }
    }
    // The <sys/wait.h> macros are not imported: low 7 bits = signal, bits 8-15 = exit code.
    let signal = status & 0x7f
    let code = signal == 0 ? (status >> 8) & 0xff : -signal
    return (code, String(decoding: captured, as: UTF8.self))
}
