import CLua
import CLuaShims
import FlowCore
import FlowLayout
import Testing

@testable import FlowLua

/// Hostile scripts against the sandbox's limits (docs/sandbox.md): finalizers, message
/// handlers and to-be-closed variables that would run past a limit, pattern calls in every
/// argument form, memory the binding makes, and long Swift calls. Each of these hung or went
/// past its limit before the sandbox covered it; run them with a timeout, as a hang is the
/// failure.
@Suite(.timeLimit(.minutes(2))) struct SandboxHostileTests {
    typealias Sandboxed = SandboxTests.Sandboxed

    static let instructionsOnly = SandboxLimits(memory: 16 << 20, instructions: 2_000_000, seconds: 0, patternSteps: 1e7)

    // MARK: Finalizers

    @Test func metatablesWithFinalizersAreRefused() {
        let s = Sandboxed(Self.instructionsOnly)
        let refused = "bad argument #2 to 'setmetatable' (a metatable without __gc expected (finalizers run outside the sandbox's limits))"
        s.expectContained("setmetatable({}, {__gc = function() while true do end end})") { $0 == "test:1: " + refused }
        // a finalizer that would allocate at close, past the cap
        s.expectContained("setmetatable({}, {__gc = function() local t = {} for i = 1, 1e8 do t[i] = i end end})") {
            $0 == "test:1: " + refused
        }
        #expect(s.run("return select(2, pcall(setmetatable, {}, {__gc = false}))").results == [refused])
        // metatables without __gc still work; __gc added later marks nothing (Lua 5.4)
        #expect(s.run("local mt = {} local t = setmetatable({}, mt) mt.__gc = function() while true do end end t = nil collectgarbage() return getmetatable(setmetatable({}, {__index = {a = 1}})).__index.a").results == ["1"])
        s.host.close()  // no finalizer of the script runs here
    }

    @Test func bindingMetatablesAreOutOfReach() {
        let s = Sandboxed(Self.instructionsOnly)
        #expect(s.run("return getmetatable(flow.newStore()), getmetatable(flow.newStore():addNode{id = 'a'}), getmetatable(flow.null)").results
            == ["nil", "nil", "false"])
        #expect(s.run("return getmetatable('').__index == string, getmetatable(setmetatable({}, {x = 1})).x").results == ["true", "1"])
        // an ordinary host still gives them
        #expect(LuaHost().run(string: "return type(getmetatable(flow.newStore()))") == ["table"])
    }

    // MARK: Code that would run once a limit is hit

    @Test(arguments: [
        "xpcall(function() while true do end end, function() while true do end end)",
        "xpcall(function() while true do end end, function(m) local t = {} for i = 1, 1e7 do t[i] = m end end)",
        // a coroutine whose to-be-closed variable loops, closed after the limit stopped it
        """
        local co = coroutine.create(function()
          local x <close> = setmetatable({}, {__close = function() while true do end end})
          while true do end
        end)
        coroutine.resume(co)
        coroutine.close(co)
        """,
        """
        coroutine.wrap(function()
          local x <close> = setmetatable({}, {__close = function() while true do end end})
          while true do end
        end)()
        """,
    ])
    func nothingRunsUncheckedAfterALimit(code: String) {
        Sandboxed(Self.instructionsOnly).expectContained(code) {
            $0.hasSuffix("sandbox: instruction limit exceeded (2000000 instructions)")
        }
    }

    @Test func aStoppedCoroutineStaysUnclosedInLaterRuns() {
        let s = Sandboxed(Self.instructionsOnly)
        _ = s.run("""
            co = coroutine.create(function()
              local x <close> = setmetatable({}, {__close = function() while true do end end})
              while true do end
            end)
            return coroutine.resume(co)
            """)
        #expect(s.run("return coroutine.status(co)").results == ["dead"])
        s.expectContained("return coroutine.close(co)") { $0.hasSuffix("sandbox: instruction limit exceeded (2000000 instructions)") }
    }

    /// A run that caught the limit error and ended before the hook looked again (the error
    /// came from a coroutine, whose hook is its own, or the catching call was the chunk's
    /// tail call) still fails with the limit error: its results do not come out.
    @Test(arguments: [
        "return xpcall(function() while true do end end, function(m) return m end)",
        "return pcall(function() while true do end end)",
        "local ok = pcall(coroutine.wrap(function() while true do end end)) return 'escaped'",
        "local co = coroutine.create(function() while true do end end) coroutine.resume(co) return 'escaped'",
    ])
    func aRunPastALimitFailsEvenWhenItCaughtTheError(code: String) {
        Sandboxed(Self.instructionsOnly).expectContained(code) {
            $0 == "sandbox: instruction limit exceeded (2000000 instructions)"
        }
    }

    @Test func handlersAndCoroutinesStillWork() {
        let code = """
            local closed = 0
            local f = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
            local r1, r2 = f(1), f(5)
            local g = coroutine.wrap(function()
              local x <close> = setmetatable({}, {__close = function() closed = closed + 1 end})
              error('boom')
            end)
            local ok, e = pcall(g)
            local co = coroutine.create(function()
              local x <close> = setmetatable({}, {__close = function() closed = closed + 1 end})
              coroutine.yield()
            end)
            coroutine.resume(co)
            local closedOk = coroutine.close(co)
            local dead = select(2, pcall(f))
            return r1, r2, ok, e, closed, closedOk, dead,
              select(2, xpcall(error, function(m) return 'handled: ' .. m end, 'x', 0)),
              select(2, pcall(xpcall, print, 1)), select(2, pcall(coroutine.wrap, 1))
            """
        let sandboxed = Sandboxed(Self.instructionsOnly).run(code).results
        let plain = LuaHost().run(string: code, chunkName: "=test")
        #expect(sandboxed == plain)
        #expect(sandboxed?.prefix(7) == ["2", "10", "false", "test:6: boom", "2", "true", "cannot resume dead coroutine"])
    }

    // MARK: Pattern costs, every argument form

    @Test(arguments: [
        "return string.rep('a', 500):find('.-.-.-.-.-.-.-b', 1.0)",
        "return string.rep('a', 500):find('.-.-.-.-.-.-.-b', '1')",
        "return string.rep('a', 500):match('.-.-.-.-.-.-.-b', 1.0)",
        "return string.rep('a', 500):match('.-.-.-.-.-.-.-b', '-500')",
        "for m in string.rep('a', 500):gmatch('.-.-.-.-.-.-.-b', 1.0) do end",
        "return string.find(1234567890123, string.rep('.-', 30) .. 'x')",
        "return string.rep('1', 500):find(string.rep('.-', 10) .. '2', 1.0)",
    ])
    func patternCostsCoverEveryArgumentForm(code: String) {
        Sandboxed(Self.instructionsOnly).expectContained(code) { $0.contains("pattern too costly for the sandbox") }
    }

    @Test func patternArgumentFormsStillWork() {
        let code = """
            return ('abc'):find('b', 1.0), ('abc'):find('b', '2'), ('abc'):match('(c)', 2.0),
              string.find(12345, 3), select(2, pcall(string.find, 'abc', 'b', 1.5)),
              select(2, pcall(string.find, 'abc', 'b', 'x'))
            """
        let sandboxed = Sandboxed(Self.instructionsOnly).run(code).results
        #expect(sandboxed == LuaHost().run(string: code, chunkName: "=test"))
        #expect(sandboxed?.prefix(4) == ["2", "2", "c", "3"])
    }

    // MARK: Memory the binding makes

    @Test func stringsTheBindingMakesAreRefusedPastTheCap() {
        let s = Sandboxed(SandboxLimits(memory: 16 << 20, instructions: 0, seconds: 0, patternSteps: 0))
        // the table is made first, so no allocation of the loop itself is refused
        s.expectContained("""
            local s = flow.newStore()
            for i = 1, 2000 do s:addNode{id = 'n' .. i, data = {label = ('x'):rep(400)}} end
            local t = {} for i = 1, 100 do t[i] = false end
            for i = 1, 100 do t[i] = s:export() end
            """) { $0 == "sandbox: memory limit exceeded (16777216 bytes)" }
        let peak = s.host.sandboxMemory?.peak ?? .max
        #expect(peak < 24 << 20, "peak \(peak)")
    }

    @Test func nodeDataCountsAgainstTheCap() {
        let s = Sandboxed(SandboxLimits(memory: 16 << 20, instructions: 0, seconds: 0, patternSteps: 0))
        let r = s.run("""
            s = flow.newStore()
            big = ('x'):rep(1e6)
            n = 0
            local ok, e = pcall(function() for i = 1, 200 do s:addNode{id = 'n' .. i, data = {blob = big}} n = i end end)
            return ok, e, s.nodeCount == n
            """)
        #expect(r.results?[0] == "false")
        #expect(r.results?[1] == "test:4: addNode: the nodes and edges would pass the memory limit of 16777216 bytes; nothing was changed")
        #expect(r.results?[2] == "true")
        // removing gives the bytes back, and so does a store that is collected
        #expect(s.run("for i = 1, n do s:removeNode('n' .. i) end s:addNode{id = 'x', data = {blob = big}} return s.nodeCount").results == ["1"])
        #expect(s.run("""
            for k = 1, 3 do
              s = flow.newStore()
              for i = 1, 10 do s:addNode{id = 'n' .. i, data = {blob = big}} end
            end
            return s.nodeCount
            """).results == ["10"])
        #expect(s.run("s = nil big = nil collectgarbage() return 1").results == ["1"])
        #expect(s.host.sandboxState.map { $0.pointer.pointee.externalUsed } == 0)
        // updates count what they change
        let update = s.run("""
            local s, y = flow.newStore(), ('y'):rep(5e6)
            s:addNode{id = 'a'}
            local ok, e = pcall(s.updateNode, s, 'a', {data = {y, y, y}})
            return ok, e
            """)
        #expect(update.error == nil)
        #expect(update.results == ["false", "updateNode: the nodes and edges would pass the memory limit of 16777216 bytes; nothing was changed"])
    }

    @Test func theUndoHistoryCountsAgainstTheCap() {
        let s = Sandboxed(SandboxLimits(memory: 16 << 20, instructions: 0, seconds: 0, patternSteps: 0))
        // each update keeps the old data in the history: past the cap the history is dropped
        let r = s.run("""
            local s = flow.newStore() s:addNode{id = 'a'}
            local big = ('x'):rep(1e6)
            for i = 1, 100 do s:updateNode('a', {data = {blob = big, i = i}}) end
            return s:node('a').data.i, s.canUndo
            """)
        #expect(r.results == ["100", "true"], "\(r.error ?? "")")
        let peak = s.host.sandboxMemory?.peak ?? .max
        let held = s.host.sandboxState.map { $0.pointer.pointee.externalUsed } ?? .max
        #expect(peak < 16 << 20 && held < 16 << 20, "peak \(peak), held \(held)")
        // undo still works within what is kept
        #expect(s.run("""
            local s = flow.newStore() s:addNode{id = 'a', data = {v = 1}}
            s:updateNode('a', {data = {v = 2}}) s:undo()
            return s:node('a').data.v
            """).results == ["1"])
    }

    // MARK: Long Swift calls

    /// A sandbox whose runs may take no time at all: only chunks of fewer than 1000
    /// instructions (which the hook never looks at) get anywhere, so a limit error can come
    /// from the Swift call alone.
    static func noTime() -> Sandboxed {
        Sandboxed(SandboxLimits(memory: 0, instructions: 0, seconds: 1e-9, patternSteps: 0))
    }

    /// A JSON document of a layered graph of `n` nodes and about 2n edges (made outside
    /// the sandbox).
    static func graphJSON(_ n: Int) -> String {
        let code = """
            local s = flow.newStore()
            for i = 1, \(n) do s:addNode{id = 'n' .. i} end
            for i = 1, \(n) do
              for _, k in ipairs{1, 7, 31} do
                if i + k <= \(n) and (i * k) % 3 ~= 1 then s:addEdge{sourceNodeID = 'n' .. i, targetNodeID = 'n' .. (i + k)} end
              end
            end
            return s:export()
            """
        return LuaHost().run(string: code)?.first ?? ""
    }

    @Test func aLongLayoutEndsAtTheTimeLimit() {
        let s = Self.noTime()
        s.host.pushGlobals()
        LuaStack(s.host.L).push(Self.graphJSON(300))
        lua_setfield(s.host.L, -2, "text")
        lua_settop(s.host.L, 0)
        // (the export of 300 nodes, 218 kB, would stop at the limit too: a few places instead)
        let place = "local a, b = s:node('n1'), s:node('n300') return a.x, a.y, b.x, b.y"
        let decoded = s.run("local m s, m = flow.decode(text) assert(s, m) return s.nodeCount")
        #expect(decoded.results == ["300"], "\(decoded.error ?? "")")
        let before = s.run(place).results
        #expect(s.run("s:layout()").error == "test:1: sandbox: time limit exceeded (1e-09 s)")
        #expect(s.run(place).results == before)  // nothing was changed
    }

    /// The export, the drawing, the DOT and Mermaid writers and the routing of orthogonal
    /// edges end at the time limit too; the routing call changes nothing.
    @Test func longWritersAndRoutingEndAtTheTimeLimit() {
        let s = Self.noTime()
        s.host.pushGlobals()
        LuaStack(s.host.L).push(Self.graphJSON(300))
        lua_setfield(s.host.L, -2, "text")
        lua_settop(s.host.L, 0)
        #expect(s.run("local m s, m = flow.decode(text) assert(s, m) return s.edgeCount").error == nil)
        let edges = s.run("return s.edgeCount").results
        let spent = "test:1: sandbox: time limit exceeded (1e-09 s)"
        for call in ["s:export()", "s:svg()", "s:dot()", "s:mermaid()"] {
            #expect(s.run("local t = \(call) return #t").error == spent, "\(call)")
        }
        // fewer than 1000 instructions: the hook never looks, so only the routing can stop it
        #expect(s.run("""
            list = {}
            for i = 1, 40 do list[i] = {sourceNodeID = 'n' .. i, targetNodeID = 'n' .. (301 - i), pathType = 'orthogonal'} end
            """).error == nil)
        #expect(s.run("s:addEdges(list)").error == spent)
        #expect(s.run("return s.edgeCount").results == edges)
    }

    static func names(_ prefix: String, _ n: Int, _ separator: String) -> String {
        (1...n).map { (i: Int) -> String in prefix + String(i) }.joined(separator: separator)
    }
    static let crossDOT: String = "digraph { {" + names("a", 300, " ") + "} -> {" + names("b", 300, " ") + "} }"
    static let longMermaid: String = "flowchart TD\n" + (1...3000).map { (i: Int) -> String in "a\(i) --> b\(i)" }.joined(separator: "\n")

    @Test(arguments: [("dot", crossDOT), ("mermaid", longMermaid)])
    func aLongDecodeEndsAtTheTimeLimit(format: String, text: String) {
        let s = Self.noTime()
        s.host.pushGlobals()
        LuaStack(s.host.L).push(text)
        lua_setfield(s.host.L, -2, "text")
        lua_settop(s.host.L, 0)
        #expect(s.run("return flow.decode(text, {format = '\(format)'})").error == "test:1: sandbox: time limit exceeded (1e-09 s)")
    }

    /// `text` set as a global of the sandbox.
    static func withText(_ s: Sandboxed, _ text: String) {
        s.host.pushGlobals()
        LuaStack(s.host.L).push(text)
        lua_setfield(s.host.L, -2, "text")
        lua_settop(s.host.L, 0)
    }

    static func everyToEvery(_ n: Int) -> String {
        let set = "{" + names("a", n, " ") + "}"
        return "digraph { \(set) -> \(set) }"
    }

    /// The layout of a dense graph counts against the memory cap before it allocates: the
    /// decode of 2 kB of DOT grew to 4.8 GB under a 2 s limit.
    @Test func aDenseDecodeKeepsToTheMemoryCap() {
        let s = Sandboxed(SandboxLimits(memory: 16 << 20, instructions: 0, seconds: 60, patternSteps: 0))
        Self.withText(s, Self.everyToEvery(60))
        let r = s.run("local st, m = flow.decode(text, {format = 'dot'}) return st == nil, m")
        #expect(r.results?.first == "true", "\(r)")
        #expect(r.results?.last?.hasPrefix("layout: the graph needs ") == true, "\(r)")
        #expect(r.results?.last?.hasSuffix("that passes the memory limit of 16,777,216 bytes") == true, "\(r)")
        #expect(s.stillWorks())
    }

    @Test func aDenseDecodeEndsInTime() {
        let s = Sandboxed(SandboxLimits(memory: 64 << 20, instructions: 0, seconds: 2, patternSteps: 0))
        Self.withText(s, Self.everyToEvery(300))
        let start = ContinuousClock.now
        let r = s.run("local st, m = flow.decode(text, {format = 'dot'}) return st == nil, m")
        #expect(ContinuousClock.now - start < .seconds(10))
        if let m = r.error {
            #expect(m == "test:1: sandbox: time limit exceeded (2 s)")
        } else {
            #expect(r.results?.first == "true")
            #expect(r.results?.last?.hasSuffix("; the limit is 1,000,000") == true, "\(r)")
        }
        #expect(s.stillWorks())
    }

    @Test func theWorkLimitStopsALayoutInSwift() throws {
        let store = FlowStore<JSONValue>()
        for i in 0..<50 { _ = try store.addNode(FlowNode(id: "n\(i)", position: Point(0, 0), data: .null)) }
        for i in 0..<49 { _ = try store.addEdge(FlowEdge(id: "e\(i)", sourceNodeID: "n\(i)", targetNodeID: "n\(i + 1)")) }
        let before = store.nodes
        let spent = WorkLimit(seconds: 0)
        #expect(throws: WorkLimit.stoppedError("layout")) {
            try WorkLimit.$current.withValue(spent) { try store.layout() }
        }
        #expect(store.nodes == before)
        let cancelled = WorkLimit(seconds: nil)
        #expect(!cancelled.isStopped)
        cancelled.cancel()
        #expect(cancelled.isStopped)
        try WorkLimit.$current.withValue(WorkLimit(seconds: 100)) { try store.layout() }
        #expect(store.nodes != before)
    }
}
