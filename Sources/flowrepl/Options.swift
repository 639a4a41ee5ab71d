import CLuaShims
import FlowLua

/// The command line, parsed like lua.c's `collectargs`: options come first, the first
/// argument that is not an option is the script, everything after it belongs to the script.
struct Options {
    var interactive = false  // -i (implies -v)
    var version = false  // -v
    var execute = false  // some -e
    var ignoreEnvironment = false  // -E
    var quiet = false  // --quiet
    var help = false  // --help
    var record: String?  // --record FILE
    /// --workspace PATH [NAME]: the session's `store` is diagram NAME (default "main").
    var workspace: (path: String, name: String)?
    /// --serve [HOST:]PORT and --token TOKEN, as given: the live preview's module checks
    /// them (Interpreter.loadPreview).
    var serve: String?
    var token: String?
    var watch: String?  // --watch FILE
    var sandbox = false  // --sandbox
    /// Index in argv of the script ("-" is stdin), or argv.count when there is none.
    var script: Int
    /// The offending argument when the command line is invalid.
    var badOption: String?

    /// With `--sandbox`, the first option that would reach outside it, and why (a sandbox
    /// has no network and no files: docs/sandbox.md); nil when there is none.
    var sandboxConflict: String? {
        guard sandbox else { return nil }
        if serve != nil { return "--serve (a sandbox has no network)" }
        if token != nil { return "--token (a sandbox has no network)" }
        if watch != nil { return "--watch (a sandbox has no network)" }
        if workspace != nil { return "--workspace (a sandbox has no files and no network)" }
        return nil
    }

    init(_ argv: [String]) {
        script = argv.count
        var i = 1
        while i < argv.count {
            let a = argv[i]
            script = i
            let b = Array(a.utf8)
            guard b.first == UInt8(ascii: "-") else { return }  // the script
            if a == "--quiet" { quiet = true; i += 1; continue }
            if a == "--help" { help = true; i += 1; continue }
            if a == "--workspace" {
                guard i + 1 < argv.count else { badOption = a; return }
                let path = argv[i + 1]
                var name = "main"
                i += 2
                // A name follows unless the next word is an option or a script.
                if i < argv.count, argv[i].utf8.first != UInt8(ascii: "-"), !argv[i].hasSuffix(".lua") {
                    name = argv[i]
                    i += 1
                }
                workspace = (path, name)
                continue
            }
            if a == "--sandbox" { sandbox = true; i += 1; continue }
            if a == "--record" {
                guard i + 1 < argv.count else { badOption = a; return }
                record = argv[i + 1]
                i += 2
                continue
            }
            if a == "--serve" {
                guard i + 1 < argv.count else { badOption = a; return }
                serve = argv[i + 1]
                i += 2
                continue
            }
            if a == "--token" {
                guard i + 1 < argv.count else { badOption = a; return }
                token = argv[i + 1]
                i += 2
                continue
            }
            if a == "--watch" {
                guard i + 1 < argv.count else { badOption = a; return }
                watch = argv[i + 1]
                i += 2
                continue
            }
            if b.count == 1 { return }  // "-": stdin is the script
            let extra = b.count > 2
            switch b[1] {
            case UInt8(ascii: "-"):  // "--"
                if extra { badOption = a; return }
                script = i + 1
                return
            case UInt8(ascii: "E"):
                if extra { badOption = a; return }
                ignoreEnvironment = true
            case UInt8(ascii: "W"):
                if extra { badOption = a; return }
            case UInt8(ascii: "i"), UInt8(ascii: "v"):
                if extra { badOption = a; return }
                if b[1] == UInt8(ascii: "i") { interactive = true }
                version = true
            case UInt8(ascii: "e"), UInt8(ascii: "l"):
                if b[1] == UInt8(ascii: "e") { execute = true }
                if !extra {  // the argument is the next word
                    i += 1
                    if i >= argv.count || argv[i].utf8.first == UInt8(ascii: "-") {
                        badOption = a
                        return
                    }
                }
            default:
                badOption = a
                return
            }
            i += 1
        }
        script = argv.count
    }

    /// The usage text; `progname` as in lua.c's.
    static func usage(_ progname: String) -> String {
        """
        usage: \(progname) [options] [script [args]]
        Options:
          -e stat   run the Lua statement 'stat'
          -i        enter interactive mode after running the script
          -l mod    require module 'mod' and store it in global 'mod'
          -l g=mod  require module 'mod' and store it in global 'g'
          -v        print version information
          -E        ignore the environment (LUA_INIT, LUA_PATH, LUA_CPATH)
          -W        turn warnings on
          --quiet   do not print store change events
          --record f.lua  append every successfully evaluated input to f.lua and
                    write its transcript f.out when the session ends
          --workspace path [name]  make the session's store diagram 'name' (default
                    main) of the workspace 'path', created if missing: every change is
                    saved as it happens (docs/workspaces.md)
          --serve [host:]port  show the diagrams live in a browser (default host 127.0.0.1;
                    with a script, keep serving after it; see docs/preview.md)
          --token t the preview's pages need ?token=t (16+ letters, digits, - _ . ~);
                    beyond loopback one is made up when not given
          --watch f.lua  run f.lua again whenever it is saved and show its stores live
                    (with --serve's address, default 127.0.0.1:8080)
          --sandbox run everything in a sandbox: no files, no processes, limits on
                    memory, instructions, time and patterns (docs/sandbox.md)
          --help    print this help and exit
        flowrepl test [--update] [--timeout s] [paths]  run script fixtures (default
          scripts/fixtures; each may run 60 s)
        flowrepl render [-Tsvg|png|pdf|dot] [-o file|-O] [-Gn=v -Nn=v -En=v] [files]
          draw DOT or Mermaid as dot does (flowrepl render --help)
          --        stop handling options
          -         stop handling options and run standard input as a script
        With no script and no -e or -v, flowrepl reads commands from standard input: with a
        line editor on a terminal, line by line otherwise (prompts only with -i). See
        docs/repl.md.
        """
    }

    static var versionLine: String {
        "flowrepl \(flowVersion) -- \(String(cString: flua_copyright()))"
    }
}
