import FlowCore
import Testing

import FlowLua  // the embedding API is public: no @testable

/// What docs/embedding.md promises a Swift host: its own functions next to `flow`, the
/// FlowStore behind a Lua Store, change events in Swift.
@Suite struct EmbeddingTests {
    enum Host {
        static let double: LuaFunction = { L in
            luaGuarded(L) { args in
                args.push(2 * (try args.number(1)))
                return 1
            }
        }
        static let greet: LuaFunction = { L in
            luaGuarded(L) { args in
                args.push("hello, \(try args.string(1))")
                return 1
            }
        }
    }

    @Test func hostFunctionsAsAGlobalAndAsATable() {
        let host = LuaHost()
        host.setGlobal("double", function: Host.double)
        host.setGlobal("app", functions: [LuaMethod("greet", Host.greet), LuaMethod("double", Host.double)])
        #expect(host.run(string: "return double(21), app.greet('lua'), app.double(1.5)") == ["42", "hello, lua", "3"])
        // argument errors are Lua's, with the name the host gave
        #expect(host.run(string: "return select(2, pcall(app.greet))") == ["bad argument #1 to 'app.greet' (string expected, got no value)"])
        #expect(host.run(string: "return select(2, pcall(double, {}))") == ["bad argument #1 to 'double' (number expected, got table)"])
        // a raised error inside a chunk carries the position
        var errors: [String] = []
        host.errorOutput = { errors.append($0) }
        #expect(host.run(string: "app.greet(nil)", chunkName: "=script") == nil)
        #expect(errors.first?.hasPrefix("script:1: bad argument #1 to 'greet' (string expected, got nil)") == true)
    }

    @Test func theStoreBehindALuaStoreAndItsChanges() throws {
        let host = LuaHost()
        #expect(host.store(global: "store") == nil)
        host.run(string: "store = flow.newStore() other = {}")
        #expect(host.store(global: "other") == nil)
        let store = try #require(host.store(global: "store"))
        var nodes: [NodeChange<JSONValue>] = []
        var edges: [EdgeChange] = []
        store.addBatchObserver { n, e in
            nodes += n
            edges += e
        }
        host.run(string: """
            store:addNode{id = "a", data = {label = "A"}}
            store:addNode{id = "b", x = 0, y = 100}
            store:connect("a", "b")
            store:moveNode("b", 10, 100)
            """)
        #expect(nodes.map(\.id) == ["a", "b", "b"])
        #expect(nodes.last == .position("b", Point(10, 100)))
        #expect(edges.map(\.id) == ["e1"])
        guard case .object(let data)? = store.node("a")?.data else { Issue.record("no data"); return }
        #expect(data["label"] == .string("A"))
        // Swift changes are seen from Lua
        try store.moveNode("a", to: Point(5, 5))
        #expect(host.run(string: "return store:node('a').x") == ["5"])
        // a closed store is no store
        host.run(string: "do local s <close> = store end")
        #expect(host.store(global: "store") == nil)
    }
}
