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
            let store = Fixture.build(nodes: n, edges: n, undo: undo, batch: false)  // a step per add
            let after = flowbench_heap_bytes()
            withExtendedLifetime(store) {}
            report.add(
                Metric(
                    name: "memory.swift.history_\(undo ? "on" : "off")", size: n,
                    value: Double(after &- before) / items, unit: "B", baseline: table))
        }
        report.add(Metric(name: "memory.swift.add_remove_cycle", size: n, value: addRemoveCycleBytes(n), unit: "B"))
        report.add(Metric(name: "memory.lua.dropped_store", size: 2000, value: droppedStoreBytes(2000), unit: "B"))
    }

    /// Heap kept per add/remove cycle of one node, undo off, no query between (issue #25:
    /// was 4 bytes, an entry of the list of nodes to index, never reclaimed).
    private static func addRemoveCycleBytes(_ n: Int) -> Double {
        let store = FlowStore<JSONValue>()
        store.isUndoEnabled = false
        let node = FlowNode<JSONValue>(id: "a", position: .zero, size: Size(10, 10), data: .null)
        for _ in 0..<1000 {  // warm up: the arrays reach their working size
            try! store.addNode(node)
            try! store.removeNode("a")
        }
        let before = flowbench_heap_bytes()
        for _ in 0..<n {
            try! store.addNode(node)
            try! store.removeNode("a")
        }
        let after = flowbench_heap_bytes()
        withExtendedLifetime(store) {}
        return Double(Int(after) - Int(before)) / Double(n)
    }

    /// Heap kept per store made and dropped in a Lua loop, without a full collection
    /// (issue #25: the collector did not see what a store costs, so it ran late).
    private static func droppedStoreBytes(_ count: Int) -> Double? {
        let host = LuaHost(LuaHost.Options(preloadFlow: true))
        defer { host.close() }
        host.run(string: "collectgarbage(); collectgarbage()")
        let before = flowbench_heap_bytes()
        guard host.run(string: "for i = 1, \(count) do local s = flow.newStore(); s:addNode{id = 'a'} end") != nil else {
            return nil
        }
        let after = flowbench_heap_bytes()
        return Double(Int(after) - Int(before)) / Double(count)
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
