import CLua
import Testing

@testable import FlowLua
@testable import FlowSession

/// LuaCompletion: the candidates the REPL offers (readline itself is tested under tmux).
@Suite(.serialized) struct CompletionTests {
    func complete(_ t: TestHost, _ text: String) -> [String] {
        let bytes = Array(text.utf8)
        // the word starts after the last word-break character, as readline computes it
        let breaks = Set(LuaCompletion.wordBreakCharacters.utf8)
        let start = (bytes.lastIndex { breaks.contains($0) }).map { $0 + 1 } ?? 0
        return LuaCompletion.candidates(t.host.L, line: bytes, wordStart: start, cursor: bytes.count)
    }

    @Test func globalsFieldsAndKeywords() {
        let t = TestHost()
        #expect(complete(t, "fl") == ["flow."])
        #expect(complete(t, "flow.ty") == ["flow.type("])
        #expect(complete(t, "flow.") == ["flow.decode(", "flow.newStore(", "flow.null", "flow.observe(", "flow.open(", "flow.sandbox(", "flow.type(", "flow.version", "flow.workspace("])
        #expect(complete(t, "x = pri") == ["print("])
        #expect(complete(t, "whi") == ["while"])
        #expect(complete(t, "string.fo") == ["string.format("])
        #expect(complete(t, "nothing.x") == [])
        #expect(lua_gettop(t.host.L) == 0)
    }

    @Test func methodsThroughMetatables() {
        let t = TestHost()
        t.eval("o = toy.new(); s = 'text'; obj = setmetatable({own = 1}, {__index = {inherited = function() end}})")
        #expect(complete(t, "io.stdout:wr") == ["io.stdout:write("])
        #expect(complete(t, "o:mo") == ["o:move("])
        #expect(complete(t, "o:c") == ["o:close(", "o:config(", "o:count("])
        #expect(complete(t, "o.va") == ["o.value"])  // a getter-backed field
        #expect(complete(t, "o:va") == [])  // fields are not methods
        #expect(complete(t, "s:up") == ["s:upper("])
        #expect(complete(t, "obj.") == ["obj.inherited(", "obj.own"])
        #expect(complete(t, "obj:") == ["obj:inherited("])
    }

    @Test func idCompletionHook() {
        let t = TestHost()
        t.eval("o = toy.new()")
        let saved = LuaCompletion.idCompletion
        defer { LuaCompletion.idCompletion = saved }
        nonisolated(unsafe) var seen: [String] = []
        LuaCompletion.idCompletion = { r in
            let type = r.receiver == 0 ? "-" : (LuaTypes.name(r.L, r.receiver) ?? "?")
            seen.append("\(type) \(r.receiverExpression) \(r.function) \(r.argument) \(r.prefix)")
            return ["alpha", "beta", "alpine"]
        }
        #expect(complete(t, "o:move(\"al") == ["alpha", "alpine"])
        #expect(complete(t, "o:move('x', \"") == ["alpha", "beta", "alpine"])
        #expect(complete(t, "toy.move(o, \"b") == ["beta"])
        #expect(complete(t, "x = \"al") == [])  // not a call argument
        #expect(complete(t, "o:move(f(\"a\"), \"") == ["alpha", "beta", "alpine"])
        #expect(seen == ["Toy o move 1 al", "Toy o move 2 ", "-  toy.move 2 b", "Toy o move 2 "])
        #expect(lua_gettop(t.host.L) == 0)
    }
}
