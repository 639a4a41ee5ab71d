import CLua
import CLuaShims
import FlowCore
import Testing

@testable import FlowLua

/// Lua values <-> JSONValue, lua-api §0.
@Suite struct JSONConversionTests {
    /// Reads the value returned by `code` as JSON.
    func read(_ code: String) -> Result<JSONValue, LuaJSONError> {
        let host = LuaHost()
        defer { host.close() }
        let L = host.L
        guard host.run(string: "_V = (function() \(code) end)()") != nil else {
            return .failure(LuaJSONError(reason: "run failed: \(host.lastError ?? "")", path: ""))
        }
        host.pushGlobal("_V")
        defer { flua_pop(L, 1) }
        do { return .success(try LuaJSON.read(L, -1)) } catch { return .failure(error) }
    }

    func failure(_ code: String) -> String {
        switch read(code) {
        case .success(let v): return "unexpected success: \(v)"
        case .failure(let e): return e.description
        }
    }

    @Test func scalars() throws {
        #expect(try read("return nil").get() == .null)
        #expect(try read("return true").get() == .bool(true))
        #expect(try read("return 42").get() == .number(42))
        #expect(try read("return 0.25").get() == .number(0.25))
        #expect(try read("return 'héllo'").get() == .string("héllo"))
        #expect(try read("return flow.null").get() == .null)
    }

    @Test func arraysObjectsAndNesting() throws {
        #expect(try read("return {1, 'two', true}").get() == .array([.number(1), .string("two"), .bool(true)]))
        #expect(try read("return {}").get() == .object(JSONObject()))
        let v = try read("return {b = 1, a = {x = {1, 2}}, c = {}, n = flow.null}").get()
        guard case .object(let o) = v else { Issue.record("not an object"); return }
        #expect(o.keys == ["a", "b", "c", "n"])  // sorted for determinism
        #expect(o["a"] == .object(JSONObject([("x", .array([.number(1), .number(2)]))])))
        #expect(o["n"] == .null)
        #expect(try read("return {1, flow.null, 3}").get() == .array([.number(1), .null, .number(3)]))
    }

    @Test func rejections() {
        #expect(failure("return print") == "cannot convert a function to JSON")
        #expect(failure("return {f = print}") == "field 'f': cannot convert a function to JSON")
        #expect(failure("return {list = {1, {g = io.stdout}}}") == "field 'list[2].g': cannot convert a userdata to JSON")
        #expect(failure("return coroutine.create(print)") == "cannot convert a thread to JSON")
        #expect(failure("return {0/0}") == "field '[1]': cannot convert nan to JSON")
        #expect(failure("return {x = 1/0}") == "field 'x': cannot convert inf to JSON")
        #expect(failure("return {x = -1/0}") == "field 'x': cannot convert -inf to JSON")
        #expect(failure("return {1, 2, x = 3}") == "table mixes array and string keys")
        #expect(failure("return {[1] = 1, [3] = 3}") == "sparse array (keys must be exactly 1..n)")
        #expect(failure("return {[0] = 1}") == "sparse array (keys must be exactly 1..n)")
        #expect(failure("return {[1.5] = 1}") == "table key 1.5 is neither a string nor an array index")
        #expect(failure("return {[true] = 1}") == "table key of type boolean is neither a string nor an array index")
        #expect(failure("local t = {} t.self = t return t") == "field 'self': table contains a cycle")
        #expect(failure("local t = {a = {}} t.a.b = {t} return t") == "field 'a.b[1]': table contains a cycle")
        #expect(failure("return {s = '\\xff'}") == "field 's': string is not valid UTF-8")
        #expect(failure("return {['\\xff'] = 1}") == "table key is not valid UTF-8")
        #expect(failure("local t = {} for i = 1, 300 do t = {t} end return t").hasSuffix("nesting too deep for JSON"))
    }

    @Test func sharedButAcyclicTablesAreFine() throws {
        let v = try read("local s = {1} return {a = s, b = s}").get()
        #expect(v == .object(JSONObject([("a", .array([.number(1)])), ("b", .array([.number(1)]))])))
    }

    @Test func pushBack() {
        let host = LuaHost()
        defer { host.close() }
        let value = JSONValue.object(JSONObject([
            ("name", .string("a")), ("n", .number(3)), ("f", .number(2.5)), ("big", .number(1e300)),
            ("neg0", .number(-0.0)), ("list", .array([.number(1), .null, .bool(false)])),
            ("obj", .object(JSONObject())), ("nothing", .null),
        ]))
        LuaJSON.push(host.L, value)
        host.setGlobal("v")
        #expect(host.run(string: "return math.type(v.n), math.type(v.f), math.type(v.big), math.type(v.neg0), 1/v.neg0")
            == ["integer", "float", "float", "float", "-inf"])
        #expect(host.run(string: "return #v.list, v.list[2] == flow.null, v.nothing == flow.null, next(v.obj)")
            == ["3", "true", "true", "nil"])
        LuaJSON.push(host.L, .null)
        #expect(lua_type(host.L, -1) == LUA_TNIL)
        flua_pop(host.L, 1)
    }

    @Test func roundTripThroughABoundFunction() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.eval("return o:json({b = {1, 2.5, 'x'}, a = true})") == "{a = true, b = {1, 2.5, \"x\"}}")
        #expect(t.eval("return o:json(3.0), math.type(o:json(3.0))") == "3\tinteger")
        #expect(t.errorOf("o:json({1, print})") == "chunk:1: bad argument #1 to 'json' (field '[2]': cannot convert a function to JSON)")
        #expect(t.errorOf("o:json({x = {y = coroutine.create(print)}})")
            == "chunk:1: bad argument #1 to 'json' (field 'x.y': cannot convert a thread to JSON)")
    }
}
