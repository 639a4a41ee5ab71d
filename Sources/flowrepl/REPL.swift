import CLua
import CLuaShims
import FlowLua
import Glibc

/// lua.c's doREPL: read a chunk (trying `return <line>` first, continuing while the chunk
/// is incomplete), run it, print its results, report its error, repeat until end of input.
final class REPL {
    let host: LuaHost
    let reader: LineReader
    var L: OpaquePointer { host.L }

    /// `--record`: every successfully evaluated input is appended to this file.
    let recorder: Recorder?
    /// `FLOWREPL_INPUT_MARKS` is set (by `flowrepl test`): before running each chunk, a line
    /// `"\u{1E}<n>"` on stdout says that what follows comes from the chunk starting at input
    /// line n (FixtureRunner shows that line next to a mismatch).
    let marksInput = getenv("FLOWREPL_INPUT_MARKS") != nil
    /// Why a `local` of an earlier line is nil now (`LocalHint`).
    var localHint = LocalHint()

    /// `prompts`: print the prompts also when standard input is not a terminal (`-i`).
    init(host: LuaHost, recorder: Recorder? = nil, prompts: Bool = false) {
        self.host = host
        self.recorder = recorder
        if isatty(STDIN_FILENO) != 0 {
            reader = ReadlineReader(L: host.L)
        } else {
            reader = PlainLineReader(prompts: prompts)
        }
    }

    enum Chunk {
        case loaded(Int32, source: [UInt8])  // luaL_loadbuffer status (the function or the message is on top) and the input as typed
        case cancelled  // Ctrl-C at a prompt
        case endOfInput
    }

    func run(banner: Bool) {
        if banner && reader.isInteractive {
            LuaContext.writeStdoutLine("Type help() for help, Ctrl-D to leave.")
        }
        loop: while true {
            lua_settop(L, 0)
            // shared workspaces: what other sessions committed, as change events (and a frame)
            if (FlowHooks.syncSharedWorkspaces?() ?? 0) > 0 { PreviewLoader.running?.serviceRequests() }
            let firstLine = reader.linesRead + 1
            switch readChunk() {
            case .endOfInput: break loop
            case .cancelled: continue
            case .loaded(var status, let source):
                if marksInput {
                    LuaContext.writeStdoutLine("\u{1E}\(firstLine)")
                    fflush(flua_stdout())
                }
                // shared workspaces: what others committed while this line was typed
                if status == LUA_OK { _ = FlowHooks.syncSharedWorkspaces?() }
                if status == LUA_OK { status = host.call(arguments: 0, results: LUA_MULTRET) }
                // on a terminal, Ctrl-C outside running code never kills (call() left SIG_DFL)
                if reader.isInteractive { flua_sigint_prompt() }
                if status == LUA_OK {
                    recorder?.append(source)
                    localHint.ran(source)
                    printResults()
                } else {
                    host.report()
                    if let hint = localHint.hint(for: host.lastError ?? "") { host.context.reportError(hint) }
                }
            }
            // the live preview: requests that came while the chunk ran, then one frame
            PreviewLoader.running?.serviceRequests()
            fflush(flua_stdout())
        }
        lua_settop(L, 0)
        if reader.showsPrompts { LuaContext.writeStdout("\n") }
        fflush(flua_stdout())
        reader.finish()
    }

    /// Prints the results on the stack (tab-separated, pretty-printed) and stores the first
    /// one in the global `_`.
    func printResults() {
        let n = lua_gettop(L)
        guard n > 0 else { return }
        LuaContext.writeStdoutLine(host.pretty.render(L, from: 1, to: n))
        lua_pushvalue(L, 1)
        host.setGlobal("_")
    }

    /// `_PROMPT` / `_PROMPT2` converted by `tostring`'s rules, as lua.c does, else "> " /
    /// ">> ". An error while converting (a `__tostring` that raises) is reported and the
    /// default is used.
    func prompt(first: Bool) -> String {
        let fallback = first ? "> " : ">> "
        guard flua_getprompt(L, first ? 1 : 0) == LUA_OK else {
            host.report()
            return fallback
        }
        defer { LuaStack(L).pop() }
        return LuaStack(L).string(at: -1) ?? fallback
    }

    /// loadline + addreturn + multiline.
    func readChunk() -> Chunk {
        let typed: [UInt8]
        switch reader.read(prompt: prompt(first: true)) {
        case .endOfInput: return .endOfInput
        case .interrupted: return .cancelled
        case .line(let l): typed = l
        }
        // a leading '=' means 'return ' (history keeps what was typed)
        var line = typed
        if line.first == UInt8(ascii: "=") { line = Array("return ".utf8) + line.dropFirst() }
        // `return <line>;` first, so expressions print
        let status = host.load(Array("return ".utf8) + line + [UInt8(ascii: ";")], chunkName: "=stdin")
        if status == LUA_OK {
            if !typed.isEmpty { reader.addHistory(typed) }
            return .loaded(status, source: typed)
        }
        LuaStack(L).pop()
        // as a statement, with continuation lines while it is incomplete; a line inside a
        // long string or comment that stays open cannot complete it and is not parsed again
        var buffer = line
        var brackets = LongBrackets()
        _ = brackets.scan(line)
        var stale = false  // the message on the stack is from a shorter buffer
        var chunkStatus = host.load(buffer, chunkName: "=stdin")
        while true {
            guard incomplete(chunkStatus) else {
                if !buffer.isEmpty { reader.addHistory(buffer) }
                return .loaded(chunkStatus, source: buffer)
            }
            switch reader.read(prompt: prompt(first: false)) {
            case .line(let more):
                buffer += [10] + more
                stale = brackets.scan(more)
                if !stale {
                    LuaStack(L).pop()
                    chunkStatus = host.load(buffer, chunkName: "=stdin")
                }
            case .interrupted:
                LuaStack(L).pop()
                if !buffer.isEmpty { reader.addHistory(buffer) }
                return .cancelled
            case .endOfInput:
                // report the incomplete chunk's syntax error; the next read ends the REPL
                if stale {
                    LuaStack(L).pop()
                    chunkStatus = host.load(buffer, chunkName: "=stdin")
                }
                if !buffer.isEmpty { reader.addHistory(buffer) }
                return .loaded(chunkStatus, source: buffer)
            }
        }
    }

    /// A syntax error at the end of the chunk: more input may complete it.
    func incomplete(_ status: Int32) -> Bool {
        guard status == LUA_ERRSYNTAX, let message = LuaStack(L).bytes(at: -1) else { return false }
        return message.count >= 5 && Array(message.suffix(5)) == Array("<eof>".utf8)
    }
}
