import CLua
import CBenchShims
import CLuaShims
import FlowCore
import FlowLua

/// The graph queries (docs/queries.md) at the largest size, on the fixture store made
/// acyclic (its few backwards edges, in the last column, removed), each against listing
/// the diagram (`nodes` and `edges`, the arrays of every node and edge in store order). Plus
/// `store:topologicalOrder()` from Lua against `store:nodes()`, which makes the same
/// Node handles.
enum QueryBench {
    static func run(size n: Int, budget: Budget, into report: Report) {
        let store = Fixture.build(nodes: n, edges: n, undo: false)
        for e in store.edges where number(e.targetNodeID) < number(e.sourceNodeID) { try! store.removeEdge(e.id) }
        var few = budget
        few.reps = min(budget.reps, 5)
        func measure(_ body: () -> Void) -> Double { perCall(few) { k in time { for _ in 0..<k { body() } } } * 1e9 }
        let listing = measure {
            consume(store.nodes)
            consume(store.edges)
        }
        let queries: [(String, () -> Void)] = [
            ("topologicalOrder", { consume(try! store.topologicalOrder()) }),
            ("cycles", { consume(store.cycles()) }),
            ("components", { consume(store.components()) }),
            ("reachable", { consume(try! store.reachable("n1")) }),
            ("path", { consume(try! store.path(from: "n1", to: "n\(n)")) }),
            ("sources", { consume(store.sourceNodeIDs()) }),
        ]
        for (name, query) in queries {
            report.add(Metric(name: "graph.\(name)", size: n, value: measure(query), unit: "ns", baseline: listing))
        }
        let (order, nodes) = fromLua(n, reps: few.reps)
        report.add(Metric(name: "graph.lua.topologicalOrder", size: n, value: order, unit: "ns", baseline: nodes))
    }

    /// k of the fixture's node id "n<k>".
    private static func number(_ id: String) -> Int { Int(id.dropFirst())! }

    /// Medians of `s:topologicalOrder()` and `s:nodes()` on the same DAG built in Lua.
    private static func fromLua(_ n: Int, reps: Int) -> (Double?, Double?) {
        let host = LuaHost()
        lua_pushcclosure(host.L, flowbench_clock, 0)
        host.setGlobal("bench_clock")
        host.run(string: fixtureSource, chunkName: "=fixture")
        let out = host.run(
            string: """
                local n, cols = \(n), math.ceil(math.sqrt(\(n)))
                local s = flow.newStore{undo = false}
                local id, xs, ys, from, to = {}, {}, {}, {}, {}
                for i = 1, n do
                  id[i] = "n" .. i
                  xs[i], ys[i] = fixturePosition(i, cols)
                end
                for i = 1, n do
                  local t = fixtureEdgeTarget(i, n, cols)
                  if t > i then from[#from + 1], to[#from + 1] = id[i], id[t] end
                end
                s:addNodes{id = id, x = xs, y = ys}
                s:addEdges{sourceNodeID = from, targetNodeID = to}
                local function median(f)
                  local t = {}
                  for r = 1, \(reps) do
                    collectgarbage()
                    local t0 = bench_clock(); f(); t[r] = bench_clock() - t0
                  end
                  table.sort(t)
                  return t[(#t + 1) // 2]
                end
                return median(function() s:topologicalOrder() end) .. " " .. median(function() s:nodes() end)
                """, chunkName: "=querybench")?.first
        host.close()
        let f = out?.split(separator: " ").compactMap { Double($0) } ?? []
        guard f.count == 2 else { return (nil, nil) }
        return (f[0] * 1e9, f[1] * 1e9)
    }
}
