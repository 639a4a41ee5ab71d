@preconcurrency import CReadline
import CLua
import CLuaShims
import FlowLua
import FlowSession
import Glibc

enum ReadResult {
    case line([UInt8])
    case endOfInput
    case interrupted  // Ctrl-C at the prompt
}

protocol LineReader: AnyObject {
    /// True for the terminal editor (prompts, history, completion).
    var isInteractive: Bool { get }
    /// True when prompts are printed (the terminal editor, and `-i` on other input).
    var showsPrompts: Bool { get }
    /// How many lines have been read.
    var linesRead: Int { get }
    func read(prompt: String) -> ReadResult
    /// Records a whole chunk (multi-line chunks are one entry).
    func addHistory(_ entry: [UInt8])
    /// Called once when the REPL ends.
    func finish()
}

/// Standard input is not a terminal: plain lines, no echo, no history, and no prompt unless
/// asked for (`-i`, as lua.c's `fgets` reader prints them), so piped transcripts are clean.
/// SIGINT keeps its default action while reading (as lua.c).
final class PlainLineReader: LineReader {
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    let showsPrompts: Bool
    private(set) var linesRead = 0

    init(prompts: Bool) { showsPrompts = prompts }

    var isInteractive: Bool { false }

    deinit { free(buffer) }

    func read(prompt: String) -> ReadResult {
        if showsPrompts {
            LuaContext.writeStdout(prompt)
            fflush(flua_stdout())
        }
        waitForInput()
        let n = getline(&buffer, &capacity, flua_stdin())
        guard n >= 0, let buffer else { return .endOfInput }
        linesRead += 1
        var bytes = Array(UnsafeRawBufferPointer(start: buffer, count: n))
        if bytes.last == 10 { bytes.removeLast() }
        return .line(bytes)
    }

    func addHistory(_ entry: [UInt8]) {}
    func finish() {}

    /// With the live preview running or a shared workspace open, waits until standard input
    /// has something to read, meanwhile applying the pages' requests (and drawing for pages
    /// that connect) and taking what other sessions commit to a shared workspace (its change
    /// events print, the pages redraw): an editor or a script feeding the REPL may leave it
    /// waiting for a long time. Otherwise (a plain start) it returns at once.
    private func waitForInput() {
        while !PlainLineReader.hasBufferedInput() {
            let preview = PreviewLoader.running
            let shared = FlowHooks.sharedWorkspaceSockets?() ?? []
            let offline = FlowHooks.sharedWorkspacesOffline?() ?? false
            if preview == nil && shared.isEmpty && !offline { return }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
            if let preview { fds.append(pollfd(fd: preview.wakeFD, events: Int16(POLLIN), revents: 0)) }
            let firstShared = fds.count
            fds += shared.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), offline ? 1000 : -1)  // offline: retry once a second
            guard ready >= 0 else {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 || fds[firstShared...].contains(where: { $0.revents != 0 }) { _ = FlowHooks.syncSharedWorkspaces?() }
            if ready == 0 || fds.dropFirst().contains(where: { $0.revents != 0 }) {
                preview?.serviceRequests()
                fflush(flua_stdout())
            }
            if fds[0].revents != 0 { return }  // a line, the end of input or an error: getline tells
        }
    }

    /// Whether C's `stdin` holds bytes it has read but not handed out (then poll would not
    /// see them).
    static func hasBufferedInput() -> Bool {
        let f = flua_stdin().pointee
        guard let next = f._IO_read_ptr, let end = f._IO_read_end else { return false }
        return next < end
    }
}

/// GNU readline through its callback interface and poll(), so that Ctrl-C at the prompt
/// abandons the line instead of killing the process (the stock lua dies there).
final class ReadlineReader: LineReader {
    static let maxHistory: Int32 = 1000
    let historyPath: String?

    var isInteractive: Bool { true }
    var showsPrompts: Bool { true }
    private(set) var linesRead = 0

    init(L: OpaquePointer) {
        ReadlineState.L = L
        rl_readline_name = UnsafePointer(strdup("flowrepl"))
        rl_catch_signals = 0  // SIGINT is ours
        rl_basic_word_break_characters = UnsafePointer(strdup(LuaCompletion.wordBreakCharacters))
        rl_completer_quote_characters = UnsafePointer(strdup("\"'"))
        rl_attempted_completion_function = ReadlineState.complete
        // History: multi-line chunks stay one entry in the file (timestamps separate entries).
        using_history()
        stifle_history(ReadlineReader.maxHistory)
        history_comment_char = CChar(UInt8(ascii: "#"))
        history_write_timestamps = 1
        history_multiline_entries = 1
        historyPath = ReadlineReader.defaultHistoryPath()
        if let path = historyPath {
            if read_history(path) != 0 {
                _ = write_history(path)  // create it, so entries can be appended
            }
        }
    }

    /// FLOWREPL_HISTORY (empty: no history file), else ~/.flowrepl_history.
    static func defaultHistoryPath() -> String? {
        if let v = getenv("FLOWREPL_HISTORY") {
            let s = String(cString: v)
            return s.isEmpty ? nil : s
        }
        guard let home = getenv("HOME") else { return nil }
        return String(cString: home) + "/.flowrepl_history"
    }

    func read(prompt: String) -> ReadResult {
        fflush(flua_stdout())
        ReadlineState.done = false
        ReadlineState.line = nil
        // SIGINT is held except inside flua_wait_input_or_wake, so a Ctrl-C that arrives while the
        // prompt is being drawn or a key is being handled is not lost.
        flua_sigint_hold()
        defer { flua_sigint_release() }
        flua_sigint_prompt()
        rl_callback_handler_install(prompt, ReadlineState.lineHandler)
        while !ReadlineState.done {
            // every open shared workspace's connection too: what other sessions commit prints
            // above the prompt (and the pages redraw) with no key pressed
            let shared = FlowHooks.sharedWorkspaceSockets?() ?? []
            let offline = FlowHooks.sharedWorkspacesOffline?() == true  // retry once a second
            let wake = PreviewLoader.running?.wakeFD ?? -1
            let woken = shared.withUnsafeBufferPointer {
                flua_wait_input_wake_or(STDIN_FILENO, wake, $0.baseAddress, Int32($0.count), offline ? 1000 : -1)
            }
            switch woken {
            case 1:
                rl_callback_read_char()
            case 2, 3:  // a preview page sent requests, or another session committed: above the prompt
                LuaContext.writeStdout("\r\u{1B}[K")
                if woken == 3 { _ = FlowHooks.syncSharedWorkspaces?() }
                PreviewLoader.running?.serviceRequests()
                fflush(flua_stdout())
                rl_on_new_line()
                rl_redisplay()
            case 0:  // Ctrl-C: abandon the line
                rl_free_line_state()
                rl_callback_sigcleanup()
                rl_cleanup_after_signal()
                rl_callback_handler_remove()
                LuaContext.writeStdout("\n")
                fflush(flua_stdout())
                return .interrupted
            default:
                rl_callback_handler_remove()
                return .endOfInput
            }
        }
        guard let line = ReadlineState.line else { return .endOfInput }
        defer { free(line) }
        linesRead += 1
        return .line(Array(UnsafeRawBufferPointer(start: line, count: strlen(line))))
    }

    func addHistory(_ entry: [UInt8]) {
        let text = String(decoding: entry, as: UTF8.self)
        add_history(text)
        if let path = historyPath { _ = append_history(1, path) }
    }

    func finish() {
        if let path = historyPath { _ = history_truncate_file(path, ReadlineReader.maxHistory) }
    }
}

/// Global state for readline's C callbacks (they cannot capture context).
enum ReadlineState {
    nonisolated(unsafe) static var L: OpaquePointer?
    nonisolated(unsafe) static var done = false
    nonisolated(unsafe) static var line: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) static var candidates: [String] = []
    nonisolated(unsafe) static var next = 0

    static let lineHandler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
        ReadlineState.line = line
        ReadlineState.done = true
        rl_callback_handler_remove()
    }

    static let complete: @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<
        UnsafeMutablePointer<CChar>?
    >? = { text, start, end in
        rl_attempted_completion_over = 1  // never fall back to file names
        rl_completion_append_character = 0
        guard let L = ReadlineState.L, let buffer = rl_line_buffer else { return nil }
        let line = Array(UnsafeRawBufferPointer(start: buffer, count: Int(end)))
        ReadlineState.candidates = LuaCompletion.candidates(L, line: line, wordStart: Int(start), cursor: Int(end))
        ReadlineState.next = 0
        guard !ReadlineState.candidates.isEmpty else { return nil }
        return rl_completion_matches(text, ReadlineState.generator)
    }

    static let generator: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { _, _ in
        guard ReadlineState.next < ReadlineState.candidates.count else { return nil }
        defer { ReadlineState.next += 1 }
        return strdup(ReadlineState.candidates[ReadlineState.next])  // readline frees it
    }
}
