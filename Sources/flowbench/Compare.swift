import FlowCore

/// `--compare FILE`: today's run next to a saved one. The file holds the JSON lines of an
/// earlier run (what `--json` prints, or `--json-out FILE` writes); other lines (a saved
/// table) are skipped. Each metric of today's run is matched by name and size.
enum Compare {
    /// The saved metrics by "name@size", or an error message.
    static func load(_ text: String) -> Result<[String: Metric], CompareError> {
        var saved: [String: Metric] = [:]
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where line.hasPrefix("{") {
            guard case .object(let o)? = try? JSONValue.parse(String(line)),
                case .string(let name)? = o["name"], case .string(let unit)? = o["unit"]
            else {
                return .failure(CompareError(message: "line \(n + 1) is not a flowbench metric"))
            }
            let m = Metric(
                name: name, size: o["size"]?.number.map { Int($0) }, value: o["value"]?.number, unit: unit,
                baseline: o["baseline"]?.number)
            saved[key(m)] = m
        }
        guard !saved.isEmpty else { return .failure(CompareError(message: "no metrics in the file")) }
        return .success(saved)
    }

    static func key(_ m: Metric) -> String { "\(m.name)@\(m.size.map(String.init) ?? "")" }

    /// One row per metric of today's run that the saved run has too: both values, their
    /// ratio (today / saved) and both runs' ratios to their same-run baselines, which are
    /// what compares across runs on a shared machine. Metrics only one run has are counted.
    static func printTable(today: [Metric], saved: [String: Metric]) {
        print("== Compared with the saved run (today / saved; ratio: to the same run's baseline)")
        print(
            col("metric", 30) + col("size", 8, right: true) + col("saved", 12, right: true)
                + col("today", 12, right: true) + col("change", 9, right: true) + col("ratio", 10, right: true)
                + col("was", 10, right: true))
        var matched = Set<String>()
        for m in today {
            guard let s = saved[key(m)] else { continue }
            matched.insert(key(m))
            let change = m.value.flatMap { v in s.value.flatMap { $0 > 0 ? v / $0 : nil } }
            print(
                col(m.name, 30) + col(m.size.map(String.init) ?? "", 8, right: true)
                    + col(shown(s), 12, right: true) + col(shown(m), 12, right: true)
                    + col(formatRatio(change), 9, right: true) + col(formatRatio(m.ratio), 10, right: true)
                    + col(formatRatio(s.ratio), 10, right: true))
        }
        let onlyToday = today.count - matched.count
        let onlySaved = saved.count - matched.count
        print("   \(matched.count) compared; \(onlyToday) only in today's run, \(onlySaved) only in the saved one")
    }

    private static func shown(_ m: Metric) -> String {
        m.unit == "ns" ? formatTime(m.value) : m.value.map { "\(short($0)) \(m.unit)" } ?? "—"
    }
}

struct CompareError: Error {
    var message: String
}

extension JSONValue {
    fileprivate var number: Double? {
        if case .number(let d) = self { return d }
        return nil
    }
}
