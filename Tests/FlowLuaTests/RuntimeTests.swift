import CLua
import CLuaShims
import Foundation
import Testing

@testable import FlowLua
@testable import FlowSession

/// Trampoline stress, callbacks, interrupts, host behaviour.
@Suite(.serialized) struct RuntimeTests {
    /// Resident set size of this process in bytes.
    static func residentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = s.split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test func hundredThousandRaisedErrorsKeepMemoryFlat() {
        let t = TestHost()
        t.eval("o = toy.new()")
        func loop(_ iterations: Int) -> String {
            """
            local n = 0
            for i = 1, \(iterations) do
              if not pcall(o.fail, o, 'flow') then n = n + 1 end
              if not pcall(o.fail, o, 'arg') then n = n + 1 end
            end
            collectgarbage() collectgarbage()
            return n
            """
        }
        #expect(t.eval(loop(20000)) == "40000")  // warm-up: caches, string interning
        let luaBefore = t.eval("return math.floor(collectgarbage('count'))")
        let rssBefore = Self.residentBytes()
        #expect(t.eval(loop(100_000)) == "200000")
        let rssAfter = Self.residentBytes()
        let luaAfter = t.eval("return math.floor(collectgarbage('count'))")
        t.host.pushGlobal("o")
        let toy = toyClass.test(t.host.L, -1)
        LuaStack(t.host.L).pop()
        #expect(toy?.liveTrackers == 0)  // every Swift object of the failing frames was released
        #expect(Int(luaAfter)! - Int(luaBefore)! < 64)  // KB
        // The process's RSS is shared with the tests running in parallel, so it is only
        // reported here; FlowReplTests checks it in a process of its own.
        _ = rssAfter - rssBefore
    }

    @Test func callbackErrorsGoToTheSinkWithTraceback() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.eval("return o:each(function(id) if id == 'a' then error('boom ' .. id) end end)") == "1")
        #expect(t.errors.count == 1)
        let report = t.errors.first ?? ""
        #expect(report.hasPrefix("error in each: chunk:1: boom a\nstack traceback:\n"))
        #expect(report.contains("in method 'each'"))
        // non-string error values
        t.errors = []
        #expect(t.eval("return o:each(function() error({}) end)") == "0")
        #expect(t.errors.first?.hasPrefix("error in each: (error object is a table value)") == true)
        // the state is still usable
        #expect(t.eval("return 1 + 1") == "2")
    }

    @Test func interruptFromAnotherThread() {
        let t = TestHost()
        let host = t.host
        nonisolated(unsafe) let unsafeHost = host
        let stopper = Thread {
            usleep(150_000)
            unsafeHost.interrupt()
        }
        stopper.start()
        #expect(host.run(string: "while true do end", chunkName: "=chunk") == nil)
        #expect(host.lastError?.contains("interrupted!") == true)
        #expect(t.eval("return 'still alive'") == "still alive")
    }

    @Test func interruptInsideACallbackStopsEverything() {
        let t = TestHost()
        t.eval("o = toy.new()")
        nonisolated(unsafe) let unsafeHost = t.host
        let stopper = Thread {
            usleep(150_000)
            unsafeHost.interrupt()
        }
        stopper.start()
        let r = t.eval("local calls = 0; o:each(function() calls = calls + 1; while true do end end); return calls")
        #expect(r.hasPrefix("error: ") && r.hasSuffix("interrupted!"))
        #expect(t.errors.count == 1)  // reported once, by the host, not as a callback error
        #expect(t.errors.first?.contains("error in each") == false)
        #expect(t.host.lastError?.contains("in method 'each'") == true)
        #expect(t.eval("return 'still alive'") == "still alive")
    }

    @Test func interruptBeforeRunStopsImmediately() {
        let t = TestHost()
        t.host.interrupt()
        #expect(t.eval("local x = 0 for i = 1, 1e9 do x = x + i end return x").hasSuffix("interrupted!"))
    }

    @Test func printCaptureResultsAndRequire() {
        let t = TestHost()
        t.eval("print('a', 1, 2.5, nil, true, flow.null)")
        #expect(t.out == "a\t1\t2.5\tnil\ttrue\tflow.null\n")
        #expect(t.eval("return require('flow') == flow, flow.version") == "true\t0.1.0")
        #expect(t.eval("return 1, 'two', {3}") == "1\ttwo\t{3}")
        #expect(t.eval("syntax error here").hasPrefix("error: [string \"=chunk\"]") == false)
        #expect(t.eval("syntax error here") == "error: chunk:1: syntax error near 'error'")
    }

    @Test func prettyPrinter() {
        let t = TestHost()
        #expect(t.eval("return {b = 2, a = 1, 10, 20, [5] = 'x', ['key two'] = true, [false] = 0}")
            == "{10, 20, [5] = \"x\", a = 1, b = 2, [\"key two\"] = true, [false] = 0}")
        #expect(t.eval("local t = {name = 'loop'} t.self = t return t") == "{name = \"loop\", self = <cycle>}")
        #expect(t.eval("return {f = print, co = coroutine.create(print), n = flow.null, e = {}}")
            == "{co = <thread>, e = {}, f = <function: print>, n = flow.null}")
        #expect(t.eval("return string.format, flow.type, function() end") == "<function: string.format>\t<function: flow.type>\t<function>")
        #expect(t.eval("return {s = 'a\\nb\\\"c\\0'}") == "{s = \"a\\nb\\\"c\\000\"}")
        #expect(t.eval("return {1.0, 2^53, -0.0, 1/0, ['end'] = 1}") == "{1.0, 9.007199254741e+15, -0.0, inf, [\"end\"] = 1}")
        #expect(t.eval("return setmetatable({}, {__tostring = function() return 'custom' end})") == "custom")
        #expect(t.eval("return setmetatable({}, {__tostring = function() error('bad') end})").hasPrefix("<error in __tostring: "))
        let long = t.eval("local t = {} for i = 1, 3 do t['field' .. i] = {x = i * 100, y = i * 200, label = 'node number ' .. i} end return t")
        #expect(long == """
            {
              field1 = {label = "node number 1", x = 100, y = 200},
              field2 = {label = "node number 2", x = 200, y = 400},
              field3 = {label = "node number 3", x = 300, y = 600}
            }
            """)
    }

    @Test func help() {
        let t = TestHost()
        FlowHelp.install(t.host.L)
        t.eval("help('flow.type')")
        #expect(t.out.hasPrefix("flow.type(x)  -> string or nil\n"))
        t.out = ""
        t.eval("help(flow.type)")
        #expect(t.out.hasPrefix("flow.type(x)  -> string or nil\n"))
        t.out = ""
        t.eval("help('type')")
        #expect(t.out.hasPrefix("flow.type(x)"))
        t.out = ""
        t.eval("help(flow)")
        #expect(t.out.hasPrefix("flow  (module)"))
        t.out = ""
        t.eval("help()")
        #expect(t.out.contains("\nmodule: flow flow.decode flow.newStore flow.null flow.observe flow.open\n"))
        #expect(t.out.contains("\nStore methods: accessories accessoryPosition addEdge addEdges addNode addNodes"))
        #expect(t.out.split(separator: "\n").allSatisfy { $0.count <= 80 })
        t.out = ""
        t.eval("help('nothing')")
        #expect(t.out == "no help for 'nothing'\n")
        t.out = ""
        t.eval("help('BOUNDS')")  // no entry: topics containing it, ignoring case
        #expect(t.out == "no help for 'BOUNDS'; related: Store:nodeBounds\n")
        t.out = ""
        t.eval("help(print)")
        #expect(t.out == "no help for this function value\n")
        t.out = ""
        t.eval("help(toy.new():count())")
        #expect(t.out == "no help for this number value\n")
    }

    @Test func eventLinesGoThroughTheContext() {
        let t = TestHost()
        var lines: [String] = []
        let context = LuaContext.of(t.host.L)
        context.emitEvent("dropped")
        #expect(context.eventsEnabled == false)
        t.host.eventOutput = { lines.append($0) }
        context.emitEvent("node add a")
        #expect(lines == ["node add a"])
    }
}

/// `decodeUTF8` (the binding's string reader) against `String(decoding:as:)`, which it
/// replaces: the same string for valid and invalid bytes, at every length around the
/// 15-byte small-string limit.
@Suite struct DecodeUTF8Tests {
    static let samples: [[UInt8]] = [
        [], Array("a".utf8), Array("n1".utf8), Array("abcdefghijklmno".utf8),
        Array("abcdefghijklmnop".utf8), Array(String(repeating: "x", count: 300).utf8),
        Array("añb".utf8), Array("日本語のノード".utf8), Array("e\u{301}".utf8), Array("🙂🙃".utf8),
        [0xFF], [0x61, 0x80, 0x62], [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x99],
        [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x00, 0x61, 0x00],
        Array("abcdefghijklmn".utf8) + [0xC3], Array("abcdefghijklmno".utf8) + [0xFE, 0x41],
    ]

    @Test(arguments: DecodeUTF8Tests.samples)
    func matchesStringDecoding(bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            let want = String(decoding: raw, as: UTF8.self)
            let got = decodeUTF8(raw)
            #expect(got == want)
            #expect(Array(got.utf8) == Array(want.utf8), "bytes \(bytes)")
        }
    }

    @Test func everyPrefixOfMixedText() {
        let text = Array("id-ñ-日-🙂-".utf8) + [0xFF, 0x41] + Array("tail".utf8)
        for n in 0...text.count {
            text[..<n].withUnsafeBytes { raw in
                #expect(Array(decodeUTF8(raw).utf8) == Array(String(decoding: raw, as: UTF8.self).utf8), "prefix \(n)")
            }
        }
    }
}
