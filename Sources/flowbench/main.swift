// flowbench: every measurement against a baseline measured in the same run (only same-run
// ratios are trusted on shared machines). Run through scripts/bench; see docs/performance.md.
//
//   flowbench [--sizes 1000,10000,100000] [--quick] [--only lua,swift,corners,memory,startup,render,layout,routing,graph,formats,parsers,growth,workspace,shared,diagrams,stability]
//             [--graphs DIR] [--graphs-only NAMES] [--diagrams DIR] [--no-dot] [--no-thorough] [--layout-out DIR]
//             [--ops moveNode,addNode,...] [--json] [--json-out FILE] [--compare FILE] [--flowrepl PATH]
//             [--module CPATH]   (the Lua module's LUA_CPATH; default: scripts/build-module's)
@preconcurrency import Glibc

let areas = ["lua", "swift", "corners", "memory", "startup", "render", "layout", "routing", "graph", "formats", "parsers", "growth", "workspace", "shared", "diagrams", "stability"]
var sizes = [1000, 10_000, 100_000]
var budget = Budget.normal
var only = Set(areas)
/// The store operations to measure (lua and swift areas); nil: all of them.
nonisolated(unsafe) var selectedOps: Set<String>?
var jsonOnly = false
/// `--json-out`: where the JSON lines are written too (a run to compare with later).
var jsonOut: String?
/// `--compare`: the saved run's metrics, printed next to today's.
var compareWith: [String: Metric]?
var flowrepl = StartupBench.defaultFlowrepl()
var luaModule = StartupBench.defaultModulePath()

func usage(_ message: String) -> Never {
    fputs("flowbench: \(message)\n", stderr)
    fputs(
        "usage: flowbench [--sizes N,N,...] [--quick] [--only \(areas.joined(separator: ","))] [--ops OP,...] [--diagrams DIR] [--json] [--json-out FILE] [--compare FILE] [--flowrepl PATH] [--module CPATH]\n",
        stderr)
    exit(2)
}

var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--sizes":
        guard let v = args.popFirst() else { usage("--sizes needs a value") }
        let parsed = v.split(separator: ",").map { Int($0) }
        guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 10 }) else { usage("bad --sizes '\(v)' (numbers >= 10)") }
        sizes = parsed.map { $0! }.sorted()
    case "--quick": budget = .quick
    case "--only":
        guard let v = args.popFirst() else { usage("--only needs a value") }
        only = Set(v.split(separator: ",").map(String.init))
        guard only.isSubset(of: areas) else { usage("bad --only '\(v)'") }
    case "--ops":
        guard let v = args.popFirst() else { usage("--ops needs a value") }
        let ops = Set(v.split(separator: ",").map(String.init))
        guard !ops.isEmpty, ops.isSubset(of: LuaBench.operations) else {
            usage("bad --ops '\(v)' (one or more of \(LuaBench.operations.joined(separator: ",")))")
        }
        selectedOps = ops
    case "--graphs":
        guard let v = args.popFirst() else { usage("--graphs needs a folder") }
        LayoutBench.directory = v
    case "--graphs-only":
        guard let v = args.popFirst() else { usage("--graphs-only needs names") }
        LayoutBench.selected = Set(v.split(separator: ",").map(String.init))
    case "--diagrams":
        guard let v = args.popFirst() else { usage("--diagrams needs a folder") }
        DiagramBench.directory = v
    case "--no-dot": LayoutBench.withDot = false
    case "--no-thorough": LayoutBench.withThorough = false
    case "--layout-out":
        guard let v = args.popFirst() else { usage("--layout-out needs a folder") }
        LayoutBench.outDirectory = v
    case "--json": jsonOnly = true
    case "--json-out":
        guard let v = args.popFirst() else { usage("--json-out needs a file") }
        jsonOut = v
    case "--compare":
        guard let v = args.popFirst() else { usage("--compare needs a file") }
        guard let text = readText(v) else { usage("cannot read '\(v)'") }
        switch Compare.load(text) {
        case .success(let saved): compareWith = saved
        case .failure(let e): usage("--compare '\(v)': \(e.message)")
        }
    case "--module":
        guard let v = args.popFirst() else { usage("--module needs a LUA_CPATH (DIR/?.so)") }
        luaModule = v
    case "--flowrepl":
        guard let v = args.popFirst() else { usage("--flowrepl needs a path") }
        flowrepl = v
    case "-h", "--help": usage("measures FlowScript against same-run baselines")
    default: usage("unknown argument '\(a)'")
    }
}

func progress(_ s: String) { fputs("flowbench: \(s)\n", stderr) }

let report = Report()
let started = now()
for n in sizes {
    if only.contains("lua") {
        progress("Lua, \(n) nodes")
        LuaBench.run(size: n, budget: budget, into: report)
    }
    if only.contains("swift") {
        progress("FlowCore, \(n) nodes")
        SwiftBench.run(size: n, budget: budget, into: report)
    }
    if only.contains("corners") {
        progress("corners, \(n) nodes")
        CornerBench.run(size: n, flowrepl: flowrepl, into: report)
    }
}
Scaling.add(sizes: sizes, into: report)
if only.contains("memory") {
    progress("memory, \(sizes.last!) nodes + edges")
    MemoryBench.run(size: sizes.last!, into: report)
}
if only.contains("startup") {
    progress("start-up, \(budget.spawns) spawns each")
    StartupBench.run(flowrepl: flowrepl, module: luaModule, budget: budget, into: report)
}
if only.contains("render") {
    progress("rendering")
    RenderBench.run(largeSize: sizes.last!, budget: budget, into: report)
}
if only.contains("layout") {
    LayoutBench.run(budget: budget, into: report)
}
if only.contains("routing") {
    RoutingBench.run(budget: budget, into: report)
}
if only.contains("formats") {
    FormatsBench.run(budget: budget, into: report)
    RenderDOTBench.run(into: report)
}
if only.contains("parsers") {
    ParserScalingBench.run(into: report)
}
if only.contains("growth") {
    GrowthBench.run(into: report)
}
if only.contains("stability") {
    StabilityBench.run(into: report)
}
if only.contains("graph") {
    progress("graph queries, \(sizes.last!) nodes + edges")
    QueryBench.run(size: sizes.last!, budget: budget, into: report)
}
if only.contains("workspace") {
    progress("workspace, \(sizes.first!) nodes; open \(sizes.last!) nodes + edges")
    WorkspaceBench.run(size: sizes.first!, openSize: sizes.last!, budget: budget, into: report)
}
if only.contains("shared") {
    progress("shared workspace (PostgreSQL), \(sizes.first!) nodes")
    SharedBench.run(size: sizes.first!, into: report)
}
if only.contains("diagrams") {
    DiagramBench.run(flowrepl: flowrepl, into: report)
}
progress("done in \(Int(now() - started)) s")

if !jsonOnly {
    report.printTable(budget: budget)
    print()
    if let saved = compareWith {
        Compare.printTable(today: report.metrics, saved: saved)
        print()
    }
}
report.printJSON()
if let path = jsonOut, !report.writeJSON(to: path) {
    fputs("flowbench: cannot write '\(path)'\n", stderr)
    exit(1)
}
