import Foundation
import Testing

/// The command line, as lua.c's (plus --quiet and --help).
@Suite struct CommandLineTests {
    static let version = "flowrepl 0.1.0 -- Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio\n"

    @Test func executeAndExitStatus() throws {
        #expect(try ReplProcess.run(["-e", "print(1 + 1)"]) == .init(stdout: "2\n", stderr: "", status: 0))
        #expect(try ReplProcess.run(["-eprint('glued')"]).stdout == "glued\n")
        let failed = try ReplProcess.run(["-e", "error('x')", "-e", "print('not reached')"])
        #expect(failed.status == 1)
        #expect(failed.stdout == "")
        #expect(failed.stderr.hasPrefix("\(ReplProcess.progname): (command line):1: x\nstack traceback:\n"))
        let syntax = try ReplProcess.run(["-e", "x ="])
        #expect(syntax == .init(stdout: "", stderr: "\(ReplProcess.progname): (command line):1: unexpected symbol near <eof>\n", status: 1))
    }

    @Test func optionsRunInOrderThenTheScript() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "return { name = 'mymod' }".write(to: dir.appendingPathComponent("mymod.lua"), atomically: true, encoding: .utf8)
        try "print('script', #arg, arg[0], arg[-1] ~= nil, ...) return 1".write(
            to: dir.appendingPathComponent("s.lua"), atomically: true, encoding: .utf8)
        let out = try ReplProcess.run(
            ["-e", "print('first')", "-l", "mymod", "-l", "m=mymod", "-e", "print(mymod.name, m.name)", "s.lua", "a", "b"],
            env: ["LUA_PATH": "./?.lua"], cwd: dir)
        #expect(out == .init(stdout: "first\nmymod\tmymod\nscript\t2\ts.lua\ttrue\ta\tb\n", stderr: "", status: 0))
        let missing = try ReplProcess.run(["nosuchfile.lua"], cwd: dir)
        #expect(missing == .init(stdout: "", stderr: "\(ReplProcess.progname): cannot open nosuchfile.lua: No such file or directory\n", status: 1))
        let failing = try ReplProcess.run(["-l", "nosuchmodule"], cwd: dir)
        #expect(failing.status == 1)
        #expect(failing.stderr.hasPrefix("\(ReplProcess.progname): module 'nosuchmodule' not found:"))
    }

    @Test func stdinAsScriptAndDoubleDash() throws {
        #expect(try ReplProcess.run(["-"], stdin: "x = 1\nprint(x + 1, ...)\n") == .init(stdout: "2\n", stderr: "", status: 0))
        #expect(try ReplProcess.run(["-", "a"], stdin: "print(...)").stdout == "a\n")
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "print('file named -e')".write(to: dir.appendingPathComponent("-e"), atomically: true, encoding: .utf8)
        #expect(try ReplProcess.run(["--", "-e"], cwd: dir).stdout == "file named -e\n")
    }

    @Test func versionInteractiveAndHelp() throws {
        #expect(try ReplProcess.run(["-v"]) == .init(stdout: Self.version, stderr: "", status: 0))
        // -i implies -v; with stdin piped the REPL reads plain lines and prints the prompts
        // (no echo), and a newline at the end, as lua.c
        #expect(try ReplProcess.run(["-i", "-e", "x = 5"], stdin: "x + 1\n") == .init(stdout: Self.version + "> 6\n> \n", stderr: "", status: 0))
        let help = try ReplProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: \(ReplProcess.progname) [options] [script [args]]\n"))
        #expect(help.stdout.contains("--quiet"))
        #expect(try ReplProcess.run(["--quiet", "-e", "print('q')"]).stdout == "q\n")
    }

    /// A node path as a deep link: `-e` opens a document, reveals the node a path names and
    /// saves what the viewport shows.
    @Test func revealByPathFromTheCommandLine() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let make = try ReplProcess.run(
            ["--quiet", "-e", """
            store:addNode{id="checkout", width=600, height=400, acceptsChildren=true}
            store:addNode{id="payment", parentID="checkout", x=20, y=40, width=500, height=300, acceptsChildren=true}
            store:addNode{id="card", parentID="payment", x=400, y=300}
            assert(save("shop.json"))
            """], cwd: dir)
        #expect(make == .init(stdout: "", stderr: "", status: 0))
        let reveal = try ReplProcess.run(
            ["-e", "open('shop.json')", "-e", "print(store:reveal(store:find('checkout/payment/card')))",
             "-e", "local v = store.viewport print(v.x, v.y, v.zoom)", "-e", "assert(save('card.svg', {fit = false}))"],
            cwd: dir)
        #expect(reveal == .init(stdout: "node* card selected\ntrue\n-75\t-30\t1\n", stderr: "", status: 0))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("card.svg").path))
    }

    @Test func badOptions() throws {
        for (args, message) in [(["-x"], "unrecognized option '-x'"), (["-e"], "'-e' needs argument"),
                                (["-l"], "'-l' needs argument"), (["-e", "-i"], "'-e' needs argument"),
                                (["--bogus"], "unrecognized option '--bogus'"), (["-vx"], "unrecognized option '-vx'"),
                                (["--serve"], "'--serve' needs an address: [host:]port"),
                                (["--serve", "localhost:http"], "'--serve' needs an address: [host:]port"),
                                (["--watch"], "'--watch' needs argument")] {
            let out = try ReplProcess.run(args)
            #expect(out.status == 1)
            #expect(out.stdout == "")
            #expect(out.stderr.hasPrefix("\(ReplProcess.progname): \(message)\nusage: \(ReplProcess.progname) [options] [script [args]]\n"), "\(args)")
        }
    }

    @Test func serveFailsClearlyWhenTheAddressIsTaken() throws {
        // a port already listened on (by a socket of this test), so nothing else is disturbed
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let out = try ReplProcess.run(["--serve", "127.0.0.1:\(port)", "-e", "print('ran')"])
        #expect(out.status == 1)
        #expect(out.stdout == "")
        #expect(out.stderr.hasPrefix("\(ReplProcess.progname): cannot listen on 127.0.0.1:\(port): "), "\(out.stderr)")
    }

    /// The live preview and workspaces are modules beside flowrepl (scripts/build-flowrepl),
    /// mapped only once asked for: a plain start has neither, nor SQLite.
    @Test func modulesAreMappedOnFirstUse() throws {
        let mapped = """
            function mapped(name)
              for line in io.lines("/proc/self/maps") do
                if line:find(name, 1, true) then return true end
              end
              return false
            end
            """
        let plain = try ReplProcess.run([
            "-e", mapped, "-e", "print(mapped('flowrepl-preview.so'), mapped('flowrepl-workspace.so'), mapped('libsqlite3'))",
            "-e", "require 'flow.workspace'", "-e", "print(mapped('flowrepl-workspace.so'), mapped('libsqlite3'))",
        ])
        #expect(plain == .init(stdout: "false\tfalse\tfalse\ntrue\ttrue\n", stderr: "", status: 0))
        // --token (checked by the preview's module) loads the preview, and only it
        let token = try ReplProcess.run([
            "--token", "modules-on-first-use", "-e", mapped,
            "-e", "print(mapped('flowrepl-preview.so'), mapped('flowrepl-workspace.so'))",
        ])
        #expect(token == .init(stdout: "true\tfalse\n", stderr: "", status: 0))
    }

    @Test func luaInitAndIgnoringTheEnvironment() throws {
        #expect(try ReplProcess.run(["-e", "print(X)"], env: ["LUA_INIT": "X = 'init'"]).stdout == "init\n")
        #expect(try ReplProcess.run(["-e", "print(X)"], env: ["LUA_INIT": "X = 1", "LUA_INIT_5_4": "X = 54"]).stdout == "54\n")
        #expect(try ReplProcess.run(["-E", "-e", "print(X)"], env: ["LUA_INIT": "X = 1"]).stdout == "nil\n")
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = dir.appendingPathComponent("init.lua")
        try "X = 'from file'".write(to: f, atomically: true, encoding: .utf8)
        #expect(try ReplProcess.run(["-e", "print(X)"], env: ["LUA_INIT": "@" + f.path]).stdout == "from file\n")
        let bad = try ReplProcess.run(["-e", "print('not reached')"], env: ["LUA_INIT": "error('init failed')"])
        #expect(bad.status == 1)
        #expect(bad.stdout == "")
        #expect(bad.stderr.hasPrefix("\(ReplProcess.progname): LUA_INIT:1: init failed\n"))
    }

    /// Messages start with argv[0] as the program was started, as lua.c's.
    @Test func messagesNameTheProgramAsStarted() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("myrepl")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: ReplProcess.binary)
        let out = try ReplProcess.run(["nosuchfile.lua"], cwd: dir, executable: link.path)
        #expect(out == .init(stdout: "", stderr: "\(link.path): cannot open nosuchfile.lua: No such file or directory\n", status: 1))
        let bad = try ReplProcess.run(["-x"], executable: link.path)
        #expect(bad.stderr.hasPrefix("\(link.path): unrecognized option '-x'\nusage: \(link.path) [options]"))
        // errors inside the REPL have no prefix (lua.c's doREPL)
        #expect(try ReplProcess.run(["-i"], stdin: "error('x')\n", executable: link.path).stderr.hasPrefix("stdin:1: x\n"))
    }

    /// `-i` with piped input prints the prompts, `_PROMPT`/`_PROMPT2` converted as `tostring`
    /// converts them (lua.c's get_prompt): strings, numbers, `__tostring`.
    @Test func promptsWithDashIOnPipedInput() throws {
        let input = """
            _PROMPT = setmetatable({}, {__tostring = function() return "flow> " end})
            _PROMPT2 = 2
            function f()
            end
            _PROMPT = setmetatable({}, {__tostring = function() error("no prompt") end})
            _PROMPT = nil

            """
        let out = try ReplProcess.run(["-i"], stdin: input)
        // a __tostring that raises: the error is reported, the default prompt shown
        #expect(out.stdout == Self.version + "> flow> flow> 2flow> > > \n")
        #expect(out.stderr == "stdin:1: no prompt\n")
        #expect(out.status == 0)
    }

    @Test func warnings() throws {
        #expect(try ReplProcess.run(["-W", "-e", "warn('careful')"]).stderr == "Lua warning: careful\n")
        #expect(try ReplProcess.run(["-e", "warn('careful')"]).stderr == "")
    }

    @Test func interruptWhileRunningPiped() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ReplProcess.binary)
        p.environment = ReplProcess.environment([:])
        let input = Pipe(), output = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
        try p.run()
        let watchdog = Watchdog(p, seconds: 20)
        defer { watchdog.cancel() }
        input.fileHandleForWriting.write(Data("print('before')\nwhile true do end\n".utf8))
        usleep(400_000)
        kill(p.processIdentifier, SIGINT)
        usleep(100_000)
        input.fileHandleForWriting.write(Data("print('after')\n".utf8))
        try input.fileHandleForWriting.close()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(out == "before\nafter\n")
        #expect(err.hasPrefix("interrupted!\nstack traceback:\n"))
    }
}
