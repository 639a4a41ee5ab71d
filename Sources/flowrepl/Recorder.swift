import CLuaShims
@preconcurrency import Glibc

/// `flowrepl --record name.lua`: appends every successfully evaluated input to `name.lua`
/// (flushed at once, so nothing is lost if the session dies) and, when the session ends,
/// writes `name.out` by replaying the file as a fixture — an exploratory session becomes a
/// regression fixture in one step.
final class Recorder {
    let path: String
    let progname: String
    private let file: UnsafeMutablePointer<FILE>

    /// Opens `path` for appending; nil (with a message on stderr) when it cannot be opened.
    init?(path: String, progname: String) {
        guard path.hasSuffix(".lua") else {
            fputs("\(progname): --record needs a file name ending in .lua (got '\(path)')\n", flua_stderr())
            return nil
        }
        guard let f = fopen(path, "ab") else {
            fputs("\(progname): cannot open '\(path)' for recording: \(String(cString: strerror(errno)))\n", flua_stderr())
            return nil
        }
        self.path = path
        self.progname = progname
        file = f
    }

    /// Appends one evaluated input (a line or a multi-line chunk).
    func append(_ source: [UInt8]) {
        guard !source.isEmpty else { return }
        _ = fwrite(source, 1, source.count, file)
        _ = fputc(10, file)
        fflush(file)
    }

    /// Closes the file and writes the transcript next to it. Returns false on failure.
    func finish() -> Bool {
        fclose(file)
        let out = String(path.dropLast(4)) + ".out"
        guard let exe = FixtureRunner.selfExecutable(),
            let transcript = FixtureRunner.transcript(of: path, executable: exe),
            FixtureRunner.writeFile(out, transcript)
        else {
            fputs("\(progname): could not write the transcript \(out)\n", flua_stderr())
            return false
        }
        fputs("recorded \(path) and \(out)\n", flua_stderr())
        return true
    }
}
