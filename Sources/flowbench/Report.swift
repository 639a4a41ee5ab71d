@preconcurrency import Glibc

/// One measured number. Times are in ns (per call unless the name says otherwise), memory
/// in bytes. `value` nil means not measured (`note` says why, e.g. "not bound").
struct Metric {
    var name: String
    var size: Int?
    var value: Double?
    var unit: String
    var baseline: Double?
    var note: String?
    /// The fastest and slowest of the timed batches the median is taken from (nil: not kept).
    var lo: Double? = nil
    var hi: Double? = nil

    var ratio: Double? {
        guard let v = value, let b = baseline, b > 0 else { return nil }
        return v / b
    }

    /// `{"name":…,"size":…,"value":…,"unit":…,"baseline":…,"ratio":…}` (+ `"note"` when set).
    var json: String {
        func num(_ d: Double?) -> String {
            guard let d, d.isFinite else { return "null" }
            // counts are exact; measurements keep three significant digits
            let v = unit == "count" && d == d.rounded() ? d : format3(d)
            return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
        }
        var s = "{\"name\":\"\(name)\",\"size\":\(size.map(String.init) ?? "null"),"
        s += "\"value\":\(num(value)),\"unit\":\"\(unit)\",\"baseline\":\(num(baseline)),"
        s += "\"ratio\":\(num(ratio))"
        if let note { s += ",\"note\":\"\(note)\"" }
        if lo != nil || hi != nil { s += ",\"lo\":\(num(lo)),\"hi\":\(num(hi))" }
        return s + "}"
    }
}

/// Three significant decimals is all these machines can resolve.
func format3(_ d: Double) -> Double {
    guard d != 0, d.isFinite else { return d }
    let scale = pow10(3 - Int((abs(d)).log10Floor) - 1)
    return (d * scale).rounded() / scale
}

private func pow10(_ e: Int) -> Double {
    var r = 1.0
    for _ in 0..<abs(e) { r *= 10 }
    return e < 0 ? 1 / r : r
}

extension Double {
    fileprivate var log10Floor: Double {
        var e = 0.0, v = self
        while v >= 10 { v /= 10; e += 1 }
        while v < 1 { v *= 10; e -= 1 }
        return e
    }
}

/// "12.3 µs" style.
func formatTime(_ ns: Double?) -> String {
    guard let ns else { return "—" }
    if ns < 0 { return "−" + formatTime(-ns) }
    switch ns {
    case ..<1_000: return "\(short(ns)) ns"
    case ..<1_000_000: return "\(short(ns / 1_000)) µs"
    case ..<1_000_000_000: return "\(short(ns / 1_000_000)) ms"
    default: return "\(short(ns / 1_000_000_000)) s"
    }
}

func formatRatio(_ r: Double?) -> String { r.map { "\(short($0))×" } ?? "—" }

/// At most 3 significant digits, no exponent.
func short(_ d: Double) -> String {
    let v = format3(d)
    if v >= 100 || v == v.rounded() { return String(Int64(v.rounded())) }
    if v >= 10 { return String(Double(Int64((v * 10).rounded())) / 10) }
    // below 1 the digits start later: 0.101, not 0.1 (a ratio at a target's edge shows
    // which side it is on)
    let digits = abs(v) >= 1 ? 2 : 2 - Int(abs(v).log10Floor)
    let scale = pow10(digits)
    return String(Double(Int64((v * scale).rounded())) / scale)
}

/// Pads or cuts to a column.
func col(_ s: String, _ width: Int, right: Bool = false) -> String {
    let n = s.count
    guard n < width else { return s + " " }
    let pad = String(repeating: " ", count: width - n)
    return right ? pad + s + " " : s + pad
}

/// All metrics of a run, printed as a table and as JSON lines.
final class Report {
    private(set) var metrics: [Metric] = []

    func add(_ m: Metric) { metrics.append(m) }

    func find(_ name: String, size: Int? = nil) -> Metric? {
        metrics.first { $0.name == name && (size == nil || $0.size == size) }
    }

    func value(_ name: String, size: Int? = nil) -> Double? { find(name, size: size)?.value }

    var sizes: [Int] {
        Array(Set(metrics.filter { $0.name.hasPrefix("lua.") || $0.name.hasPrefix("swift.") }
            .compactMap(\.size))).sorted()
    }

    func printJSON() {
        for m in metrics { print(m.json) }
    }

    /// Writes the JSON lines to `path` (replacing it); false when it cannot.
    func writeJSON(to path: String) -> Bool {
        guard let f = fopen(path, "w") else { return false }
        for m in metrics { fputs(m.json + "\n", f) }
        return fclose(f) == 0
    }

    // MARK: Human table

    func printTable(budget: Budget) {
        printOperations(budget)
        printScaling()
        printSection("Memory (heap delta / (nodes + edges); baseline: the pure-Lua store)", "memory.")
        printSection("Start-up (median wall time and peak RSS of a spawn; baseline: lua5.4 -e ''; require: lua5.4 -e 'require \"flow\"')", "startup.")
        printSection("Rendering (FlowRender renderSVG; baseline: export of the same store)", "render.")
        printSection("Graph queries (a DAG; baseline: store.nodes + store.edges; lua: s:nodes())", "graph.")
        printSection("Orthogonal routing (dag_1000 laid out; baseline: Graphviz neato -n2 -Gsplines=ortho)", "routing.")
        printLayout()
        printSection("Workspaces (per call; baseline: a bare GRDB one-row insert in its own transaction; open: baseline load of the same JSON)", "workspace.")
        printSection("Formats (DOT read: parse + map, no layout; baseline: dot -Tcanon, a process that lays out too; nop: Graphviz's nop -p, a process that only parses)", "formats.")
        printSection("Growth (best time of one run; .exponent: log(t_large / t_small) / log(large / small))", "growth.")
        printSection("Stability (issue #41: stable layout after each of 100 seeded edits; baseline: a fresh layout; still: share of untouched nodes moved < 1 node spacing, displacement: mean move in spacings, flips: share of same-layer pairs reordered, crossings: drawn, summed; time per edit)", "stability.")
        printDiagrams()
        printTargets()
    }

    private func printOperations(_ budget: Budget) {
        guard !sizes.isEmpty else { return }
        print("== Operations: median time per call (\(budget.reps) batches)")
        print("   flow = flow module from Lua; table = pure-Lua table store; FlowCore = Swift, no Lua")
        print(
            col("op", 14) + col("size", 8, right: true) + col("flow", 11, right: true)
                + col("table", 11, right: true) + col("flow/table", 11, right: true)
                + col("FlowCore", 11, right: true) + col("binding", 11, right: true)
                + col("flow lo–hi", 20, right: true) + col("table lo–hi", 20, right: true))
        for op in LuaBench.operations {
            for n in sizes {
                let flow = find("lua.flow.\(op)", size: n)
                let table = find("lua.table.\(op)", size: n)
                let swift = find("swift.\(op)", size: n)
                guard flow != nil || table != nil || swift != nil else { continue }
                let overhead = (flow?.value).flatMap { f in swift?.value.map { f - $0 } }
                print(
                    col(op, 14) + col("\(n)", 8, right: true)
                        + col(flow?.note ?? formatTime(flow?.value), 11, right: true)
                        + col(formatTime(table?.value), 11, right: true)
                        + col(formatRatio(flow?.ratio), 11, right: true)
                        + col(formatTime(swift?.value), 11, right: true)
                        + col(formatTime(overhead), 11, right: true)
                        + col(spread(flow), 20, right: true) + col(spread(table), 20, right: true))
            }
        }
        print("   addNodes, addEdges: per item, as many items as the store has nodes, one call passing the")
        print("   columns of ids and numbers (flow) against one call per item (table); addNodesList, addEdgesList:")
        print("   the same, the call building its list of entry tables; lo–hi: fastest and slowest timed batches")
        for n in sizes {
            guard let l = value("floor.call.lua", size: n), let c = value("floor.call.c", size: n) else { continue }
            print("   floor at \(n): trivial Lua call \(formatTime(l)), trivial C call \(formatTime(c))")
        }
        print("   binding = flow − FlowCore: what the Lua call and conversions add")
        print()
    }

    /// "lo–hi" of a metric's batches.
    private func spread(_ m: Metric?) -> String {
        guard let lo = m?.lo, let hi = m?.hi else { return "" }
        return "\(formatTime(lo))–\(formatTime(hi))"
    }

    private func printScaling() {
        let rows = metrics.filter { $0.name.hasPrefix("scaling.") }
        guard let first = rows.first else { return }
        print("== Scaling: per call at \(first.size ?? 0) / per call at the smallest size")
        print(col("op", 26) + col("small", 11, right: true) + col("large", 11, right: true) + col("growth", 9, right: true))
        for m in rows {
            print(
                col(String(m.name.dropFirst("scaling.".count)), 26) + col(formatTime(m.baseline), 11, right: true)
                    + col(m.note ?? formatTime(m.value), 11, right: true) + col(formatRatio(m.ratio), 9, right: true))
        }
        print()
    }

    private func printSection(_ title: String, _ prefix: String) {
        let rows = metrics.filter { $0.name.hasPrefix(prefix) }
        guard !rows.isEmpty else { return }
        print("== \(title)")
        for m in rows {
            let v = m.unit == "ns" ? formatTime(m.value) : m.value.map { "\(short($0)) \(m.unit)" } ?? "—"
            let b = m.unit == "ns" ? formatTime(m.baseline) : m.baseline.map { "\(short($0)) \(m.unit)" } ?? "—"
            print(
                col(m.name, 30) + col(m.size.map(String.init) ?? "", 8, right: true)
                    + col(m.note ?? v, 13, right: true) + col("base " + b, 17, right: true)
                    + col(formatRatio(m.ratio), 9, right: true))
        }
        print()
    }

    private func printLayout() {
        let graphs = LayoutBench.families.flatMap { f in LayoutBench.sizes.map { (f, $0) } }
            .filter { find("layout.\($0.0).time", size: $0.1) != nil }
        guard !graphs.isEmpty else { return }
        print("== Layout (layered, 72×36 boxes, spacing 18/36; baseline: Graphviz dot -Tjson on the same graph)")
        print(
            col("graph", 14) + col("time", 10, right: true) + col("dot", 10, right: true)
                + col("ratio", 8, right: true) + col("crossings", 11, right: true) + col("dot", 11, right: true)
                + col("best peer", 11, right: true) + col("thorough", 10, right: true) + col("time", 9, right: true)
                + col("under", 7, right: true) + col("dot", 7, right: true)
                + col("overlaps", 9, right: true) + col("width", 9, right: true) + col("dot", 9, right: true))
        for (family, n) in graphs {
            let t = find("layout.\(family).time", size: n), c = find("layout.\(family).crossings", size: n)
            let w = find("layout.\(family).width", size: n), u = find("layout.\(family).underNodes", size: n)
            let best = LayoutBench.bestPeer["\(family)_\(n)"]
            let tc = value("layout.\(family).thorough.crossings", size: n)
            let tt = value("layout.\(family).thorough.time", size: n)
            print(
                col("\(family)_\(n)", 14) + col(formatTime(t?.value), 10, right: true)
                    + col(formatTime(t?.baseline), 10, right: true) + col(formatRatio(t?.ratio), 8, right: true)
                    + col(c?.value.map { String(Int($0)) } ?? "—", 11, right: true)
                    + col(c?.baseline.map { String(Int($0)) } ?? "—", 11, right: true)
                    + col(best.map(String.init) ?? "—", 11, right: true)
                    + col(tc.map { String(Int($0)) } ?? "—", 10, right: true) + col(formatTime(tt), 9, right: true)
                    + col(u?.value.map { String(Int($0)) } ?? "—", 7, right: true)
                    + col(u?.baseline.map { String(Int($0)) } ?? "—", 7, right: true)
                    + col(value("layout.\(family).overlaps", size: n).map { String(Int($0)) } ?? "—", 9, right: true)
                    + col(w?.value.map { String(Int($0)) } ?? "—", 9, right: true)
                    + col(w?.baseline.map { String(Int($0)) } ?? "—", 9, right: true))
        }
        print("   crossings: drawn crossings by one counter on both drawings; best peer: the best of nine layered")
        print("   layouts on that graph (the graphs' README); thorough, time: crossings and time of one layout with")
        print("   effort = thorough; under: edges drawn under a node other than their ends")
        print("   (crossings there are hidden by the box); width: the drawing's extent along the layers, px")
        print()
    }

    /// The layout targets: crossings at most the best peer's, time at most a tenth of dot's
    /// at 1,000 nodes and at most a second at 5,000.
    private func printLayoutTargets() {
        for (effort, metric) in [("", "crossings"), (", thorough", "thorough.crossings")] {
            let rows = LayoutBench.bestPeer.keys.sorted().compactMap { key -> (String, Double, Int)? in
                let parts = key.split(separator: "_")
                guard let n = Int(parts[1]), let v = value("layout.\(parts[0]).\(metric)", size: n) else { return nil }
                return (key, v, LayoutBench.bestPeer[key]!)
            }
            if rows.isEmpty { continue }
            // the graphs that miss first, then those that meet it
            let missed = rows.filter { $0.1 > Double($0.2) }, kept = rows.filter { $0.1 <= Double($0.2) }
            func list(_ rows: [(String, Double, Int)]) -> String {
                rows.map { "\($0.0): \(Int($0.1))/\($0.2)" }.joined(separator: ", ")
            }
            let shown = missed.isEmpty ? list(kept) : list(missed) + (kept.isEmpty ? "" : "; met: " + list(kept))
            print("   \(col("layout crossings ≤ best peer\(effort)", 42)) \(missed.isEmpty ? "MET   " : "MISSED") \(shown)")
        }
        let at1k = LayoutBench.families.compactMap { f in find("layout.\(f).time", size: 1000).flatMap { m in m.ratio.map { (f, $0) } } }
        if !at1k.isEmpty {
            let met = at1k.allSatisfy { $0.1 <= 0.1 }
            print("   \(col("layout at 1k ≤ 0.1× dot", 42)) \(met ? "MET   " : "MISSED") \(at1k.map { "\($0.0): \(formatRatio($0.1))" }.joined(separator: ", "))")
        }
        let at5k = LayoutBench.families.compactMap { f in value("layout.\(f).time", size: 5000).map { (f, $0) } }
        if !at5k.isEmpty {
            let met = at5k.allSatisfy { $0.1 <= 1e9 }
            print("   \(col("layout at 5k ≤ 1 s", 42)) \(met ? "MET   " : "MISSED") \(at5k.map { "\($0.0): \(formatTime($0.1))" }.joined(separator: ", "))")
        }
    }

    /// The readers' and writers' worst cases grow at most as n^1.3 from 1k to 4k items.
    private func printParserTargets() {
        let rows = metrics.filter { $0.name.hasPrefix("parsers.") && $0.name.hasSuffix(".exponent") }
        guard !rows.isEmpty else { return }
        let limit = ParserScalingBench.exponentLimit
        let missed = rows.filter { ($0.value ?? .infinity) > limit }
        func list(_ rows: [Metric]) -> String {
            rows.map { "\($0.name.dropFirst(8).dropLast(9)): \($0.value.map(short) ?? "—")" }.joined(separator: ", ")
        }
        let shown = missed.isEmpty ? list(rows) : list(missed) + "; met: " + list(rows.filter { ($0.value ?? .infinity) <= limit })
        print("   \(col("parser growth 1k→4k ≤ n^\(short(limit))", 42)) \(missed.isEmpty ? "MET   " : "MISSED") \(shown)")
    }

    // MARK: Targets

    /// A target: the metric, at which sizes (nil: every size measured), ratio or value, limit.
    private struct Target {
        var label: String
        var name: String
        var size: Int?
        var useRatio: Bool
        var limit: Double
    }

    private let targets: [Target] = [
        Target(label: "moveNode ≤ 1.5× pure-Lua store", name: "lua.flow.moveNode", useRatio: true, limit: 1.5),
        Target(label: "addNode ≤ 1.0× pure-Lua store", name: "lua.flow.addNode", useRatio: true, limit: 1.0),
        Target(label: "addEdge ≤ 1.0× pure-Lua store", name: "lua.flow.addEdge", useRatio: true, limit: 1.0),
        Target(label: "addNodes (columns) ≤ 0.5× pure-Lua adds", name: "lua.flow.addNodes", useRatio: true, limit: 0.5),
        Target(label: "addEdges (columns) ≤ 0.5× pure-Lua adds", name: "lua.flow.addEdges", useRatio: true, limit: 0.5),
        Target(
            label: "addNodes (list form) ≤ 0.5× pure-Lua adds", name: "lua.flow.addNodesList", useRatio: true,
            limit: 0.5),
        Target(
            label: "addEdges (list form) ≤ 0.5× pure-Lua adds", name: "lua.flow.addEdgesList", useRatio: true,
            limit: 0.5),
        Target(label: "hitTest at 100k ≤ 2 µs", name: "lua.flow.hitTest", size: 100_000, useRatio: false, limit: 2_000),
        Target(
            label: "fitToContent at 100k ≤ 50 µs", name: "lua.flow.fitToContent", size: 100_000, useRatio: false,
            limit: 50_000),
        Target(
            label: "export 100k nodes + 100k edges ≤ 100 ms", name: "lua.flow.export", size: 100_000,
            useRatio: false, limit: 100_000_000),
        Target(
            label: "≤ 400 B per node+edge, history off", name: "memory.swift.history_off", useRatio: false,
            limit: 400),
        Target(
            label: "≤ 400 B per node+edge, history on", name: "memory.swift.history_on", useRatio: false,
            limit: 400),
        Target(label: "flowrepl start-up ≤ 5 ms", name: "startup.flowrepl", useRatio: false, limit: 5_000_000),
        Target(label: "require \"flow\" ≤ 5 ms", name: "startup.require", useRatio: false, limit: 5_000_000),
        Target(label: "resident after require \"flow\" ≤ 8 MB", name: "startup.require.rss", useRatio: false, limit: 8_388_608),
        Target(label: "re-route after moveNode (1k/1.5k) ≤ 5 ms", name: "routing.moveNode", useRatio: false, limit: 5_000_000),
        Target(label: "route 1k nodes / 1.5k edges ≤ 200 ms", name: "routing.scratch", useRatio: false, limit: 200_000_000),
        Target(
            label: "parent chain growth 1k→4k ≤ n^1.3", name: "growth.store.parentChain.exponent", useRatio: false,
            limit: 1.3),
        Target(
            label: "cyclic layout, 1k nodes ≤ 2 s", name: "growth.layout.cyclic", size: 1_000, useRatio: false,
            limit: 2_000_000_000),
        Target(
            label: "change to another session, p95 ≤ 50 ms", name: "shared.latency.p95", size: 1_000, useRatio: false,
            limit: 50_000_000),
    ]

    private func printTargets() {
        print("== Targets (reported, not enforced)")
        printLayoutTargets()
        printParserTargets()
        for t in targets {
            let rows = metrics.filter { $0.name == t.name && (t.size == nil || $0.size == t.size) }
            guard !rows.isEmpty else {
                print("   \(col(t.label, 42)) not measured in this run")
                continue
            }
            var parts: [String] = []
            var met = true
            for m in rows {
                let v = t.useRatio ? m.ratio : m.value
                let shown =
                    m.note ?? (t.useRatio ? formatRatio(v) : (m.unit == "ns" ? formatTime(v) : v.map { "\(short($0)) \(m.unit)" } ?? "—"))
                parts.append(rows.count > 1 || t.size == nil ? "\(m.size.map { "\($0): " } ?? "")\(shown)" : shown)
                if let v { met = met && v <= t.limit } else { met = false }
            }
            print("   \(col(t.label, 42)) \(met ? "MET   " : "MISSED") \(parts.joined(separator: ", "))")
        }
    }
}
