import CLua
import CLuaShims
import Testing

@testable import FlowLua

/// docs/sandbox.md: what a sandboxed host allows, and that every way past a limit is
/// contained: the run fails with a clear error and the host goes on running scripts.
@Suite struct SandboxTests {
    static let small = SandboxLimits(memory: 4 << 20, instructions: 2_000_000, seconds: 60, patternSteps: 1e7)

    /// A sandboxed host whose errors are collected.
    final class Sandboxed {
        let host: LuaHost
        var errors: [String] = []
        init(_ limits: SandboxLimits = SandboxTests.small) {
            host = LuaHost(LuaHost.Options(capturePrint: true), sandbox: limits)
            host.output = { _ in }
            host.errorOutput = { [unowned self] in self.errors.append($0) }
        }

        /// Runs `code`; nil and the first line of the error when it fails.
        func run(_ code: String) -> (results: [String]?, error: String?) {
            let r = host.run(string: code, chunkName: "=test")
            let e = r == nil ? host.lastError?.split(separator: "\n").first.map(String.init) : nil
            return (r, e)
        }

        /// The host still runs scripts, and after a collection it holds less than its cap.
        func stillWorks() -> Bool {
            let ok = host.run(string: "collectgarbage() local t = {} for i = 1, 1000 do t[i] = i end return #t") == ["1000"]
            guard let memory = host.sandboxMemory else { return false }
            return ok && (memory.limit == 0 || memory.used < memory.limit)
        }

        /// `code` fails with an error that `matches`, and the host goes on afterwards.
        func expectContained(
            _ code: String, _ matches: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let r = run(code)
            #expect(r.results == nil, sourceLocation: sourceLocation)
            #expect(r.error.map(matches) == true, "\(r.error ?? "-")", sourceLocation: sourceLocation)
            #expect(stillWorks(), sourceLocation: sourceLocation)
        }
    }

    /// A DOT text a sandboxed script loads reads no file its labels' `<IMG>` name (#38).
    @Test func imagesAreNotReadInTheSandbox() {
        let code = """
            local ok, w = flow.newStore():load('digraph { t [shape=plaintext, label=<<TABLE><TR><TD><IMG SRC="x.png"/></TD></TR></TABLE>>] }', {format = "dot"})
            return tostring(ok), w[1]
            """
        #expect(Sandboxed().run(code).results == [
            "true", "HTML label <IMG SRC=\"x.png\"> (files are not read in a sandbox) is not drawn (1 node)",
        ])
        let host = LuaHost(LuaHost.Options(capturePrint: true))
        #expect(host.run(string: code, chunkName: "=test") == [
            "true", "HTML label <IMG SRC=\"x.png\"> (no such file, or it cannot be read) is not drawn (1 node)",
        ])
    }

    @Test func theLibrariesAreCutDown() {
        let s = Sandboxed()
        #expect(
            s.run("return io, package, require, debug, dofile, loadfile, os.execute, os.getenv, os.remove").results
                == ["nil", "nil", "nil", "nil", "nil", "nil", "nil", "nil", "nil"])
        #expect(s.run("local n = 0 for k in pairs(os) do n = n + 1 end return n, type(os.clock), type(os.time), type(os.date)").results
            == ["3", "function", "function", "function"])
        // flow without the file system and without a sandbox of its own
        #expect(s.run("return flow.open, flow.sandbox").results == ["nil", "nil"])
        // an allowlist: whatever else flow has (or gets later) is not there
        #expect(s.run("local k = {} for n in pairs(flow) do k[#k + 1] = n end table.sort(k) return table.concat(k, ' ')").results
            == ["decode newStore null observe type version"])
        #expect(s.run("return select(2, pcall(function() return flow.newStore().save end))").results?.first?.hasSuffix("Store has no field 'save'") == true)
        #expect(s.run("return select(2, pcall(function() return flow.decode(flow.newStore():export()).save end))").results?.first?.hasSuffix("Store has no field 'save'") == true)
        #expect(s.run("return flow.newStore():addNode{id = 'a'}.id").results == ["a"])
        // text chunks only, also through the host itself
        let dumped = "return select(2, load(string.dump(function() return 1 end)))"
        #expect(s.run(dumped).results == ["attempt to load a binary chunk (mode is 't')"])
        #expect(s.run("return select(2, load(string.dump(function() end), 'x', 'b'))").results
            == ["attempt to load a binary chunk (mode is 't')"])
        #expect(s.host.load([0x1B, 0x4C, 0x75, 0x61], chunkName: "=bin") != LUA_OK)
        lua_settop(s.host.L, 0)
        #expect(s.run("return load('return 1 + 1')()").results == ["2"])
        // the collector cannot be stopped or tuned
        for option in ["stop", "setpause", "setstepmul", "incremental", "generational", "restart"] {
            #expect(s.run("collectgarbage('\(option)')").error == "test:1: collectgarbage: option '\(option)' is not allowed in the sandbox")
        }
        #expect(s.run("return collectgarbage('isrunning'), collectgarbage('count') > 0, collectgarbage()").results == ["true", "true", "0"])
        // an ordinary host has all of it
        let plain = LuaHost()
        #expect(plain.run(string: "return type(io), type(require), type(flow.open), type(flow.sandbox)") == ["table", "function", "function", "function"])
    }

    @Test(arguments: [
        "local s = 'x' while true do s = s .. s end",
        "local t = {} for i = 1, 1e9 do t[i] = i end",
        "local t = {} for i = 1, 1e9 do t[i] = {} end",
        "return #string.rep('x', 1e8)",
        "return #string.rep('ab', 1e6, string.rep('c', 1e3))",
        "local p = {} for i = 1, 64 do p[i] = string.rep('y', 1e5) end return #table.concat(p)",
        "return #string.format('%s%s', string.rep('z', 3e6), string.rep('z', 3e6))",
        "return #(('x'):rep(100):gsub('.', function(c) return c:rep(1e5) end))",
        // strings and tables the binding makes in Swift frames count too (refused once the
        // call has returned, see SandboxHostileTests)
        "local f = flow.newStore() for i = 1, 100 do f:addNode{id = 'n' .. i} end local t = {} while true do t[#t + 1] = f:export() end",
        "local f = flow.newStore() for i = 1, 100 do f:addNode{id = 'n' .. i} end local t = {} while true do t[#t + 1] = f:nodes() end",
    ])
    func memoryBombsHitTheCap(code: String) {
        let s = Sandboxed(SandboxLimits(memory: 4 << 20, instructions: 0, seconds: 0, patternSteps: 0))
        s.expectContained(code) { $0 == "sandbox: memory limit exceeded (4194304 bytes)" }
    }

    @Test func caughtMemoryErrorsDoNotLiftTheCap() {
        let s = Sandboxed()
        let r = s.run("local ok, e = pcall(function() local s = 'x' while true do s = s .. s end end) return ok, e")
        #expect(r.results == ["false", "not enough memory"])
        #expect(s.stillWorks())
    }

    @Test(arguments: [
        "while true do end",
        "local function f() return f() end f()",  // a tail call loops without growing the stack
        "while true do pcall(function() while true do end end) end",  // catching does not help
        "coroutine.wrap(function() while true do end end)()",
        "table.sort({3, 2, 1, 5, 4}, function(a, b) while true do end end)",
        "local s = flow.newStore() s.onNodesChange = function() while true do end end s:addNode{id = 'a'} while true do end",
    ])
    func loopsHitTheInstructionLimit(code: String) {
        Sandboxed().expectContained(code) { $0.hasSuffix("sandbox: instruction limit exceeded (2000000 instructions)") }
    }

    @Test func aLoopHitsTheTimeLimit() {
        let s = Sandboxed(SandboxLimits(memory: 0, instructions: 0, seconds: 0.05, patternSteps: 0))
        #expect(s.run("while true do end").error == "test:1: sandbox: time limit exceeded (0.05 s)")
        #expect(s.run("return 1 + 1").results == ["2"])  // each run has a budget of its own
    }

    @Test(arguments: [
        ("local function f(n) return 1 + f(n + 1) end return f(1)", "memory"),
        ("local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x", "stack overflow"),
        ("local function g(s) return (s:gsub('.', g)) end return g('abc')", "stack overflow"),
        ("local function h() return tostring(setmetatable({}, {__tostring = h})) end return h()", "stack overflow"),
        ("local co co = function() return coroutine.wrap(co)() end return co()", "stack overflow"),
    ])
    func deepRecursionIsContained(code: String, expected: String) {
        let s = Sandboxed(SandboxLimits(memory: 16 << 20, instructions: 0, seconds: 0, patternSteps: 0))
        s.expectContained(code) { $0.contains(expected) }
    }

    @Test(arguments: [
        "return string.rep('a', 1e6):find('.-.-.-.-b')",
        "return string.rep('a', 1e6):match('.-.-.-.-b')",
        "return string.rep('a', 1e6):gsub('.-.-.-.-b', '')",
        "for m in string.rep('a', 1e6):gmatch('.-.-.-.-b') do end",
        "return string.find(string.rep('a', 1e5), '(.*)*%1b')",
        "return string.rep('a', 1e4):find('^' .. string.rep('a?', 40) .. string.rep('a', 40))",
        "return (string.rep('(', 1e4) .. 'x'):find('%b()%b()%b()')",
    ])
    func patternBlowupsAreRefused(code: String) {
        Sandboxed().expectContained(code) { $0.contains("pattern too costly for the sandbox") }
    }

    @Test func everydayPatternsStillWork() {
        let s = Sandboxed()
        #expect(s.run("return ('  hello world  '):match('^%s*(.-)%s*$')").results == ["hello world"])
        #expect(s.run("return ('x = 1, y = 22'):gsub('(%w+)%s*=%s*(%w+)', '%2=%1')").results == ["1=x, 22=y", "2"])
        #expect(s.run("local n = 0 for w in string.rep('word ', 1e4):gmatch('%a+') do n = n + 1 end return n").results == ["10000"])
        #expect(s.run("return string.rep('ab', 1e5):find('ba', 1, true), ('a.b'):find('.', 1, true)").results == ["2", "2", "2"])
        #expect(s.run("return ('key: value'):find('(%w+): (%w+)', -10)").results == ["1", "10", "key", "value"])
        // argument errors are still the function's own
        #expect(s.run("return ('x'):find({})").error == "test:1: bad argument #1 to 'find' (string expected, got table)")
    }

    @Test func thePatternCostBound() {
        func cost(_ s: String, _ p: String, from: Int = 0, plain: Bool = false) -> Double {
            flua_pattern_cost(s, s.utf8.count, from, p, p.utf8.count, plain ? 1 : 0)
        }
        let a = String(repeating: "a", count: 100)
        // every start, no quantifier: 101 starts x 2 items
        #expect(cost(a, "b") == 202)
        // anchored: one start; '.*' can take 100 lengths + 1, plus the run scan (100)
        #expect(cost(a, "^.*b") == 100 + 1 * 3 * 101)
        // a class that never occurs in the subject gives its quantifier one choice
        #expect(cost(a, "^%d*b") == 100 + 1 * 3 * 1)
        // '?' doubles
        #expect(cost(a, "^a?b") == 1 * 3 * 2)
        // from init on
        #expect(cost(a, "b", from: 90) == 11 * 2)
        #expect(cost(a, "b", from: 101) == 1)
        let plainSearch: Double = 100 + 303.0 / 32  // memchr over the subject, memcmp at 101 starts
        #expect(cost(a, "aab", plain: true) == plainSearch)
    }

    @Test func escapesThroughMetatablesAndStringsStayInside() {
        let s = Sandboxed()
        // the strings' metatable is the sandbox's own string table, with the sandbox's find
        #expect(s.run("return getmetatable('').__index == string, rawequal(('').find, string.find)").results == ["true", "true"])
        #expect(s.run("return ('a'):rep(1e6):find('.-.-.-.-b')").error?.contains("pattern too costly") == true)
        #expect(s.run("return getmetatable('').__index.io, getmetatable('').__index.os, getmetatable(_G)").results == ["nil", "nil", "nil"])
        #expect(s.run("return rawget(_G, 'io'), rawget(_G, 'debug'), load('return io', 'x', 't', _G)()").results == ["nil", "nil", "nil"])
        // what a sandbox does to its own metatables stays in it
        let outer = LuaHost()
        outer.output = { _ in }
        let code = """
            return flow.sandbox[[getmetatable('').__index = function() return os.exit end
              string.upper = nil  _G.flow = nil  return ('x').upper]]
            """
        #expect(outer.run(string: code) == ["true", "nil"])  // os.exit is no function of the sandbox
        #expect(outer.run(string: "return ('x'):upper(), type(flow), type(os.exit), type(io.open)") == ["X", "table", "function", "function"])
    }

    @Test func flowSandboxRunsCodeAndReturnsCopies() {
        let outer = LuaHost(LuaHost.Options(capturePrint: true))
        var printed = ""
        outer.output = { printed += $0 }
        #expect(outer.run(string: "return flow.sandbox('secret = 1 print(\"hi\", 2) return 1, 2.5, \"s\", nil, true')")
            == ["true", "1", "2.5", "s", "nil", "true"])
        #expect(printed == "hi\t2\n")
        #expect(outer.run(string: "return secret") == ["nil"])  // its globals are its own
        #expect(outer.run(string: "return flow.sandbox('return {}')")
            == ["nil", "flow.sandbox: result #1 is a table (only nil, booleans, numbers and strings come out of a sandbox)"])
        #expect(outer.run(string: "return flow.sandbox('error(\"boom\")')") == ["nil", "(sandbox):1: boom"])
        #expect(outer.run(string: "return flow.sandbox('while true do end', {instructions = 1e5})")
            == ["nil", "(sandbox):1: sandbox: instruction limit exceeded (100000 instructions)"])
        #expect(outer.run(string: "return flow.sandbox('local s = \"x\" while true do s = s .. s end', {memory = 1e5})")
            == ["nil", "sandbox: memory limit exceeded (100000 bytes)"])
        #expect(outer.run(string: "return select(2, pcall(flow.sandbox, 'return 1', {memry = 1}))")
            == ["bad argument #2 to 'flow.sandbox' (unknown field 'memry'; did you mean 'memory'?)"])
        #expect(outer.run(string: "return select(2, pcall(flow.sandbox))")
            == ["bad argument #1 to 'flow.sandbox' (string expected, got no value)"])
    }
}
