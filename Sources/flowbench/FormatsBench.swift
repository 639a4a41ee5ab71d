@preconcurrency import Glibc
import FlowCore
import FlowFormats

/// The formats section: reading the benchmark graphs' DOT files (`LayoutBench.directory`)
/// into a document with FlowFormats' DOT reader (parse and map, no layout), beside
/// `dot -Tcanon` on the same file (a whole process: start-up, parse, write canonical DOT),
/// and writing the document back as DOT. The dot column is skipped when dot is missing.
enum FormatsBench {
    static func run(budget: Budget, into report: Report) {
        let directory = LayoutBench.directory
        guard access(directory, R_OK) == 0 else {
            report.add(Metric(name: "formats", size: nil, value: nil, unit: "", note: "no graphs at \(directory)"))
            return
        }
        let hasDot = LayoutBench.withDot && system("command -v dot >/dev/null 2>&1") == 0
        for (family, n, name) in LayoutBench.graphs() {
            let path = "\(directory)/\(name).dot"
            guard let text = readText(path) else { continue }
            progress("formats \(name)")
            let reps = n >= 5000 ? 5 : 10
            var best = Double.infinity
            var imported: FormatImport?
            for _ in 0..<reps {
                let t = time { imported = try? DOTReader.read(text) }
                best = min(best, t)
            }
            guard let doc = imported?.document else {
                report.add(Metric(name: "formats.dot.read", size: n, value: nil, unit: "", note: "\(name) did not read"))
                continue
            }
            var dotTime: Double?
            if hasDot {
                dotTime = .infinity
                for _ in 0..<(n >= 5000 ? 2 : 3) {
                    let t0 = now()
                    guard system("dot -Tcanon '\(path)' >/dev/null 2>&1") == 0 else { dotTime = nil; break }
                    dotTime = min(dotTime!, now() - t0)
                }
            }
            var nopTime: Double?
            if hasDot && system("command -v nop >/dev/null 2>&1") == 0 {
                nopTime = .infinity
                for _ in 0..<3 {
                    let t0 = now()
                    guard system("nop -p '\(path)' >/dev/null 2>&1") == 0 else { nopTime = nil; break }
                    nopTime = min(nopTime!, now() - t0)
                }
            }
            var writeBest = Double.infinity
            for _ in 0..<reps {
                writeBest = min(writeBest, time { _ = DOTWriter.write(doc) })
            }
            report.add(Metric(name: "formats.\(family).dotRead", size: n, value: best * 1e9, unit: "ns", baseline: dotTime.map { $0 * 1e9 }))
            if let nopTime {
                report.add(Metric(name: "formats.\(family).nopParse", size: n, value: nopTime * 1e9, unit: "ns"))
            }
            report.add(Metric(name: "formats.\(family).dotWrite", size: n, value: writeBest * 1e9, unit: "ns"))
        }
        if !hasDot {
            report.add(Metric(name: "formats.dot", size: nil, value: nil, unit: "", note: "dot not installed"))
        }
    }
}
