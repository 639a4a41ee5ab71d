import CBenchShims
import FlowCore
import FlowLua

/// Live heap bytes (mallinfo2) per stored item for `n` nodes + `n` edges: FlowCore with the
/// undo history off and on (every addNode/addEdge one recorded step), against the pure-Lua
/// table store built in a Lua state.
enum MemoryBench {
    static func run(size n: Int, into report: Report) {
        let items = Double(2 * n)
        let table = luaTableStoreBytes(n).map { $0 / items }
        report.add(Metric(name: "memory.lua.table", size: n, value: table, unit: "B"))
        for undo in [false, true] {
            let before = flowbench_heap_bytes()
            let store = Fixture.build(nodes: n, edges: n, undo: undo)
            let after = flowbench_heap_bytes()
            withExtendedLifetime(store) {}
            report.add(
                Metric(
                    name: "memory.swift.history_\(undo ? "on" : "off")", size: n,
                    value: Double(after &- before) / items, unit: "B", baseline: table))
        }
    }

    /// Heap growth from building the pure-Lua store (garbage collected before and after).
    private static func luaTableStoreBytes(_ n: Int) -> Double? {
        let host = LuaHost(LuaHost.Options(preloadFlow: false))
        defer { host.close() }
        guard host.run(string: tableStoreSource, chunkName: "=tablestore") != nil,
            host.run(string: fixtureSource, chunkName: "=fixture") != nil
        else { return nil }
        host.run(string: "collectgarbage(); collectgarbage()")
        let before = flowbench_heap_bytes()
        let built = host.run(
            string: """
                local s, n = TableStore.new(), \(n)
                local cols = math.ceil(math.sqrt(n))
                for i = 1, n do
                  local x, y = fixturePosition(i, cols)
                  s:addNode{id = "n" .. i, x = x, y = y, width = 150, height = 60}
                end
                for i = 1, n do
                  s:addEdge{id = "e" .. i, sourceNodeID = "n" .. i, targetNodeID = "n" .. fixtureEdgeTarget(i, n, cols)}
                end
                STORE = s
                collectgarbage(); collectgarbage()
                """)
        let after = flowbench_heap_bytes()
        return built == nil ? nil : Double(after &- before)
    }
}
