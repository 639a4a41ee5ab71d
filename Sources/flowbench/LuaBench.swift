@preconcurrency import Glibc
import CLua
import CBenchShims
import CLuaShims
import FlowLua

/// Runs the Lua benchmarks (LuaBenchScript.swift) in-process: one fresh LuaHost per size,
/// the same loops against the flow store and the pure-Lua table store.
enum LuaBench {
    /// The store operations measured, in report order (the Swift side uses the same names).
    static let operations = [
        "moveNode", "addNode", "addEdge", "removeNode", "hitTest", "nodeBounds", "fitToContent", "export",
        "selectInRect", "addNodes", "addEdges", "addNodesList", "addEdgesList",
    ]

    /// The batch adds: measured per item, adding as many items as the store has nodes in one
    /// call (flow) against one call per item (the pure-Lua store). `addNodes`/`addEdges`
    /// pass columns, the faster form; `addNodesList`/`addEdgesList` the same items as a
    /// list of entry tables.
    static let batchOperations: Set<String> = ["addNodes", "addEdges", "addNodesList", "addEdgesList"]

    /// The list forms: the same call of FlowCore as the column forms, so no Swift figure.
    static let listForms: Set<String> = ["addNodesList", "addEdgesList"]

    static func run(size n: Int, budget: Budget, into report: Report) {
        let host = LuaHost()
        var errors: [String] = []
        host.errorOutput = { errors.append($0) }
        lua_pushcclosure(host.L, flowbench_clock, 0)
        host.setGlobal("bench_clock")
        lua_pushcclosure(host.L, flowbench_noop, 0)
        host.setGlobal("bench_cnoop")
        lua_pushcclosure(host.L, flowbench_evict, 0)
        host.setGlobal("bench_evict")
        host.run(string: tableStoreSource, chunkName: "=tablestore")
        host.run(string: fixtureSource, chunkName: "=fixture")
        let ops = (selectedOps ?? Set(operations)).sorted().map { "\($0) = true" }.joined(separator: ", ")
        host.run(
            string: "BENCH = {size = \(n), reps = \(budget.reps), budget = \(budget.batch), "
                + "maxMutations = \(budget.maxMutations), ops = {\(ops)}}")
        guard let output = host.run(string: luaBenchSource, chunkName: "=luabench")?.first else {
            fputs("flowbench: the Lua benchmark failed:\n\(errors.joined(separator: "\n"))\n", flua_stderr())
            exit(1)
        }
        host.close()

        // "impl op" -> median, lo, hi per call or item (nil: not bound)
        var seconds: [String: [Double]?] = [:]
        for line in output.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count >= 3 else { continue }
            seconds["\(f[0]) \(f[1])"] = f[2] == "unbound" ? [Double]?.none : f[2...].compactMap { Double($0) }
        }
        func ns(_ key: String, _ i: Int = 0) -> Double? {
            guard let v = seconds[key] ?? nil, i < v.count else { return nil }
            return v[i] * 1e9
        }

        let lcall = ns("floor call.lua")
        report.add(Metric(name: "floor.call.lua", size: n, value: lcall, unit: "ns"))
        report.add(Metric(name: "floor.call.c", size: n, value: ns("floor call.c"), unit: "ns", baseline: lcall))
        for op in operations where selectedOps?.contains(op) ?? true {
            let table = ns("table \(op)")
            report.add(
                Metric(
                    name: "lua.table.\(op)", size: n, value: table, unit: "ns", baseline: lcall,
                    lo: ns("table \(op)", 1), hi: ns("table \(op)", 2)))
            let bound = seconds["flow \(op)"].map { $0 != nil } ?? false
            report.add(
                Metric(
                    name: "lua.flow.\(op)", size: n, value: ns("flow \(op)"), unit: "ns", baseline: table,
                    note: bound ? nil : "not bound", lo: ns("flow \(op)", 1), hi: ns("flow \(op)", 2)))
        }
    }
}
