import CLua
import CLuaShims
import FlowLua
import FlowSession
import Glibc

/// lua.c's `pmain` and its helpers: the steps run for one command line.
struct Interpreter {
    /// The name messages start with: `argv[0]` as given, as lua.c's `progname`
    /// ("flowrepl" when it is empty).
    static func programName(_ argv: [String]) -> String {
        guard let first = argv.first, !first.isEmpty else { return "flowrepl" }
        return first
    }

    let argv: [String]
    let progname: String
    let options: Options
    let host: LuaHost
    var L: OpaquePointer { host.L }

    /// Runs the command line; returns the process exit status (0 or 1, as lua.c).
    static func main(_ argv: [String]) -> Int32 {
        if argv.count >= 2 && argv[1] == "test" {
            return FixtureRunner.main(Array(argv.dropFirst(2)))
        }
        if argv.count >= 2 && argv[1] == "render" {
            return RenderCommand.main(Array(argv.dropFirst(2)))
        }
        flua_sigint_unblock()
        let progname = programName(argv)
        let options = Options(argv)
        if options.badOption == nil, let refused = options.sandboxConflict {
            LuaContext.writeStderrLine("\(progname): --sandbox cannot be combined with \(refused)")
            return 1
        }
        if let bad = options.badOption ?? loadPreview(options, progname: progname) {
            printUsage(badOption: bad, progname: progname)
            return 1
        }
        if options.help {
            LuaContext.writeStdoutLine(Options.usage(progname))
            fflush(flua_stdout())
            return 0
        }
        if options.version { printVersion() }
        if let script = options.watch, let preview = try? PreviewLoader.load() {
            return preview.watch(script: script, progname: progname, quiet: options.quiet) ? 0 : 1
        }
        let host = LuaHost(
            LuaHost.Options(ignoreEnvironment: options.ignoreEnvironment), sandbox: options.sandbox ? .defaults : nil)
        let interpreter = Interpreter(argv: argv, progname: progname, options: options, host: host)
        let ok = interpreter.run()
        host.close()
        fflush(flua_stdout())
        return ok ? 0 : 1
    }

    /// The body of lua.c's pmain. Returns false when a step failed.
    func run() -> Bool {
        flua_gc_stop(L)
        host.handlesSIGINT = true
        // Change events are printed in sessions (interactive or piped), not when a script
        // file runs on its own: generators in builds stay quiet.
        let session = options.interactive || options.script == argv.count
        if !options.quiet && session { host.eventOutput = { line in LuaContext.writeStdoutLine(line) } }
        FlowHelp.install(L)
        SessionGlobals.setUp(host)
        if let ws = options.workspace, !openWorkspace(ws.path, ws.name) { return false }
        PreviewLoader.install(host)
        createArgTable()
        flua_gc_restart(L)
        flua_gc_generational(L)
        if options.serve != nil && !startPreview() { return false }
        if !options.ignoreEnvironment && !handleLuaInit() { return false }
        if !runArguments() { return false }
        if options.script < argv.count && !handleScript() { return false }
        // the script's stores, local ones too, stay on the pages
        PreviewLoader.running?.keepStores()
        var recorder: Recorder?
        if let path = options.record {
            guard let r = Recorder(path: path, progname: progname) else { return false }
            recorder = r
        }
        if options.interactive {
            // -i: prompts also when standard input is not a terminal, as lua.c
            REPL(host: host, recorder: recorder, prompts: true).run(banner: false)
        } else if options.script == argv.count && !options.execute && !options.version {
            let tty = isatty(STDIN_FILENO) != 0
            if tty { Interpreter.printVersion() }
            REPL(host: host, recorder: recorder).run(banner: tty)
        } else if let preview = PreviewLoader.running {
            preview.serveUntilInterrupted()
        }
        if let recorder, !recorder.finish() { return false }
        return true
    }

    // MARK: Messages

    static func printUsage(badOption: String, progname: String) {
        let b = Array(badOption.utf8)
        let what =
            badOption == "--serve"
            ? "'--serve' needs an address: [host:]port"
            : badOption == "--token"
            ? "'--token' needs a token of 16 or more letters, digits, '-', '_', '.' or '~'"
            : badOption == "--watch" || (b.count >= 2 && (b[1] == UInt8(ascii: "e") || b[1] == UInt8(ascii: "l")))
            ? "'\(badOption)' needs argument" : "unrecognized option '\(badOption)'"
        LuaContext.writeStderrLine("\(progname): \(what)\n\(Options.usage(progname))")
    }

    static func printVersion() {
        LuaContext.writeStdoutLine(Options.versionLine)
        fflush(flua_stdout())
    }

    /// `--serve`, `--token`, `--watch`: loads the live preview's module (it checks the
    /// address and the token) and sets where it listens. Returns the option to report as
    /// invalid; a module that cannot be loaded is reported here and exits.
    static func loadPreview(_ options: Options, progname: String) -> String? {
        guard options.serve != nil || options.token != nil || options.watch != nil else { return nil }
        let preview: ReplPreview
        do throws(ReplPreviewError) { preview = try PreviewLoader.load() } catch {
            LuaContext.writeStderrLine("\(progname): \(error.message)")
            exit(1)
        }
        if let s = options.serve, !preview.isAddress(s) { return "--serve" }
        if let t = options.token, !preview.isToken(t) { return "--token" }
        preview.configure(address: options.serve, token: options.token)
        return nil
    }

    /// `--serve`: starts the preview server before anything runs and prints its address.
    func startPreview() -> Bool {
        do throws(ReplPreviewError) {
            let url = try PreviewLoader.load().start(host: host)
            LuaContext.writeStdoutLine("preview: \(url)")
            fflush(flua_stdout())
            return true
        } catch {
            host.errorOutput("\(progname): \(error.message)")
            return false
        }
    }

    /// lua.c's `report` outside the REPL: "<progname>: <message>" on stderr.
    func report(_ status: Int32) -> Bool {
        guard status != LUA_OK else { return true }
        let s = LuaStack(L)
        let message = s.string(at: -1) ?? "(error object is a \(s.typeName(at: -1)) value)"
        s.pop()
        host.errorOutput("\(progname): \(message)")
        return false
    }

    // MARK: Steps

    /// `--workspace`: the globals `workspace` and `store` (the diagram, bound), and a line
    /// saying where the session saves (on stderr, so scripts' output stays their own).
    func openWorkspace(_ path: String, _ name: String) -> Bool {
        let code = """
            local path, name = ...
            local ws, err = flow.workspace(path)
            if not ws then error(err, 0) end
            local found = false
            for _, n in ipairs(ws:list()) do found = found or n == name end
            workspace = ws
            store = found and ws:open(name) or ws:create(name)
            store.name = "store"
            return store.nodeCount, ws.path
            """
        guard host.load(Array(code.utf8), chunkName: "=(workspace)") == LUA_OK else { return report(LUA_ERRSYNTAX) }
        LuaStack(L).push(path)
        LuaStack(L).push(name)
        let status = host.call(arguments: 2, results: 2)
        guard report(status) else { return false }
        let count = lua_tointegerx(L, -2, nil)
        let shown = LuaStack(L).string(at: -1) ?? path  // a database URL without its password
        lua_settop(L, -3)
        LuaContext.writeStderrLine("saving diagram '\(name)' to workspace \(shown) (\(count) \(count == 1 ? "node" : "nodes"))")
        return true
    }

    /// The global `arg`: the script name at 0, its arguments at 1..n, the interpreter and
    /// options at negative indices.
    func createArgTable() {
        let script = options.script == argv.count ? 0 : options.script
        let s = LuaStack(L)
        lua_createtable(L, Int32(argv.count - script - 1), Int32(script + 1))
        for (i, a) in argv.enumerated() {
            s.push(a)
            lua_rawseti(L, -2, lua_Integer(i - script))
        }
        host.setGlobal("arg")
    }

    func doString(_ code: String, name: String) -> Bool {
        let status = host.load(Array(code.utf8), chunkName: name)
        return report(status == LUA_OK ? host.call(arguments: 0, results: 0) : status)
    }

    func doFile(_ path: String?) -> Bool {
        let status = host.loadFile(path)
        return report(status == LUA_OK ? host.call(arguments: 0, results: 0) : status)
    }

    /// LUA_INIT_5_4, else LUA_INIT: "@file" runs the file, anything else is a chunk.
    func handleLuaInit() -> Bool {
        var name = "LUA_INIT_5_4"
        var value = getenv(name)
        if value == nil {
            name = "LUA_INIT"
            value = getenv(name)
        }
        guard let value else { return true }
        let text = String(cString: value)
        if text.hasPrefix("@") { return doFile(String(text.dropFirst())) }
        return doString(text, name: "=" + name)
    }

    /// -e, -l and -W, in order.
    func runArguments() -> Bool {
        var i = 1
        while i < options.script {
            let a = argv[i]
            let b = Array(a.utf8)
            defer { i += 1 }
            guard b.count >= 2, b[0] == UInt8(ascii: "-"), b[1] != UInt8(ascii: "-") else { continue }
            switch b[1] {
            case UInt8(ascii: "e"), UInt8(ascii: "l"):
                var extra = String(decoding: b[2...], as: UTF8.self)
                if extra.isEmpty {
                    i += 1
                    extra = argv[i]
                }
                let ok = b[1] == UInt8(ascii: "e") ? doString(extra, name: "=(command line)") : doLibrary(extra)
                if !ok { return false }
            case UInt8(ascii: "W"):
                lua_warning(L, "@on", 0)
            default:
                break
            }
        }
        return true
    }

    /// `-l mod` / `-l g=mod`: global g = require(mod).
    func doLibrary(_ spec: String) -> Bool {
        var global = spec, module = spec
        if let eq = spec.firstIndex(of: "=") {
            global = String(spec[..<eq])
            module = String(spec[spec.index(after: eq)...])
        }
        host.pushGlobal("require")
        LuaStack(L).push(module)
        let status = host.call(arguments: 1, results: 1)
        if status == LUA_OK { host.setGlobal(global) }
        return report(status)
    }

    /// Loads the script ("-" is stdin unless it follows "--"), passes it arg[1..n].
    func handleScript() -> Bool {
        var path: String? = argv[options.script]
        if path == "-" && argv[options.script - 1] != "--" { path = nil }
        var status = host.loadFile(path)
        if status == LUA_OK {
            if host.pushGlobal("arg") != LUA_TTABLE {
                LuaStack(L).pop(2)
                LuaStack(L).push("'arg' is not a table")
                return report(LUA_ERRRUN)
            }
            let n = Int32(lua_rawlen(L, -1))
            guard lua_checkstack(L, n + 3) != 0 else {
                LuaStack(L).pop(2)
                LuaStack(L).push("too many arguments to script")
                return report(LUA_ERRRUN)
            }
            for k in 0..<n { lua_rawgeti(L, -1 - k, lua_Integer(k + 1)) }
            flua_remove(L, -1 - n)  // the arg table
            status = host.call(arguments: n, results: LUA_MULTRET)
        }
        return report(status)
    }
}
