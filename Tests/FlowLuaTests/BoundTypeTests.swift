import Testing

@testable import FlowLua

/// LuaClass: metatables, identity cache, fields, lifetime.
@Suite(.serialized) struct BoundTypeTests {
    @Test func identityTostringAndType() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.eval("return tostring(o)") == "Toy (2 ids, value 0)")
        #expect(t.eval("return flow.type(o), flow.type({}), flow.type(nil), type(o)") == "Toy\tnil\tnil\tuserdata")
        #expect(t.eval("return o == o, o == toy.new(), rawequal(o, o)") == "true\tfalse\ttrue")
        #expect(t.eval("return o") == "Toy (2 ids, value 0)")
    }

    @Test func strictFieldsGettersSetters() {
        let t = TestHost()
        t.eval("o = toy.new()")
        #expect(t.errorOf("return o.nope") == "chunk:1: Toy has no field 'nope'")
        #expect(t.errorOf("o.value = 3") == "chunk:1: field 'value' is read-only")
        #expect(t.errorOf("o.count = 3") == "chunk:1: field 'count' is read-only")
        #expect(t.errorOf("o.path = 'straight'") == "chunk:1: field 'path' is read-only (use toy:setPath)")
        #expect(t.errorOf("o.typo = 1") == "chunk:1: Toy has no field 'typo'")
        // a likely misspelling of a getter, method or setter is answered with its name
        #expect(t.errorOf("return o.vaule") == "chunk:1: Toy has no field 'vaule' (did you mean 'value'?)")
        #expect(t.errorOf("o.onchange = print") == "chunk:1: Toy has no field 'onchange' (did you mean 'onChange'?)")
        #expect(t.eval("return o:count(), o.value, o.onChange") == "2\t0\tnil")
        t.eval("o.onChange = function(v) return v * 2 end")
        #expect(t.eval("return type(o.onChange)") == "function")
        t.eval("o:move('a', 2, 3)")
        #expect(t.eval("return o:notify()") == "10")
        #expect(t.errorOf("o.onChange = 5") == "chunk:1: bad value for field 'onChange' (function expected, got number)")
        t.eval("o.onChange = nil")
        #expect(t.eval("return o.onChange") == "nil")
        // getters run in the dispatcher's frame: their errors carry the Lua line's position
        t.eval("o:close()")
        #expect(t.errorOf("local x = o.value") == "chunk:1: attempt to use a closed Toy")
        #expect(t.errorOf("o.onChange = print") == "chunk:1: attempt to use a closed Toy")
    }

    @Test func garbageCollectionAndClose() {
        let t = TestHost()
        func object(_ global: String) -> Toy? {
            t.host.pushGlobal(global)
            defer { t.host.run(string: "return") }
            let o = toyClass.test(t.host.L, -1)
            LuaStack(t.host.L).pop()
            return o
        }
        t.eval("a = toy.new(); b = toy.new(); c = toy.new()")
        weak let a = object("a"), b = object("b"), c = object("c")
        #expect(a != nil && b != nil && c != nil)
        t.eval("a = nil; b = nil; collectgarbage(); collectgarbage()")
        #expect(a == nil && b == nil && c != nil)
        t.eval("c:close()")
        #expect(c == nil)
        #expect(t.errorOf("c:count()") == "chunk:1: attempt to use a closed Toy")
        #expect(t.eval("return tostring(c)") == "Toy (closed)")
        t.eval("do local d <close> = toy.new(); d:count(); dd = d end")
        #expect(t.eval("return tostring(dd)") == "Toy (closed)")
        t.eval("keep = toy.new()")
        weak let keep = object("keep")
        #expect(keep != nil)
        t.host.close()
        #expect(keep == nil)
    }

    @Test func callbackOutlivingTheStateIsHarmless() {
        var kept: Toy?
        do {
            let t = TestHost()
            t.eval("o = toy.new(); o.onChange = print")
            t.host.pushGlobal("o")
            kept = toyClass.test(t.host.L, -1)
            t.host.close()
        }
        #expect(kept?.onChange?.isValid == false)
        kept = nil  // the callback's deinit must not touch the closed state
    }
}
