@preconcurrency import Glibc

/// The diagrams section of flowbench's table: one row per case, as the reference scorer's
/// `run.py` prints it (FlowScript/dot crossings and ink, then the figures that should be 0).
extension Report {
    func printDiagrams() {
        let rows = DiagramBench.rows
        guard !rows.isEmpty else { return }
        print("== Diagrams (defects a reader sees; crossings and ink: FlowScript/dot on the same graph)")
        let short = ["overlaps", "through", "sharedRuns", "mergedHead", "labelOverN", "labelOverL", "labelCross"]
        for set in ["corpus", "graphviz"] {
            let part = rows.filter { $0.set == set }
            guard !part.isEmpty else { continue }
            print("-- \(set)")
            print(col("case", 15) + col("cross", 10, right: true) + col("ink", 12, right: true) + short.map { col($0, 10, right: true) }.joined())
            for r in part {
                guard let f = r.figures else {
                    print(col(r.name, 15) + "FAIL: " + (r.failure ?? ""))
                    continue
                }
                let dotCross = r.dot.map { "\($0.crossings)" } ?? "—"
                let dotInk = r.dot.map { ink($0.ink) } ?? "—"
                let fails = r.fails
                print(
                    col(r.name, 15) + col("\(f.crossings)/\(dotCross)", 10, right: true)
                        + col("\(ink(f.ink))/\(dotInk)", 12, right: true)
                        + DiagramDefects.zeroFigures.map { col("\(f.value($0))", 10, right: true) }.joined()
                        + (fails.isEmpty ? "" : "  FAIL " + fails.joined(separator: ",")))
            }
            let drawn = part.compactMap(\.figures)
            let total = DiagramDefects.zeroFigures.map { fig in col("\(drawn.reduce(0) { $0 + $1.value(fig) })", 10, right: true) }
            let cross = "\(drawn.reduce(0) { $0 + $1.crossings })/\(part.compactMap(\.dot).reduce(0) { $0 + $1.crossings })"
            print(col("total", 15) + col(cross, 10, right: true) + col("", 12, right: true) + total.joined())
            let slowest = part.max { $0.countTime < $1.countTime }
            print("counting took \(formatTime(part.reduce(0) { $0 + $1.countTime } * 1e9)) in all; slowest \(slowest?.name ?? ""): \(formatTime((slowest?.countTime ?? 0) * 1e9))")
            print("\(set): \(part.filter { $0.fails.isEmpty }.count) of \(part.count) drawn without defects, crossings <= dot's, ink >= 0.9x dot's")
        }
        print()
    }

    /// `v` with three decimals, rounded as printf (and the scorer's Python) rounds.
    private func ink(_ v: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 32)
        _ = buffer.withUnsafeMutableBufferPointer { p in withVaList([v]) { vsnprintf(p.baseAddress, 32, "%.3f", $0) } }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
