@preconcurrency import Glibc
import FlowCore
import FlowFormats
import FlowRender

/// A DOT file to a picture, as `flowrepl render -Tsvg FILE` does it (read, size the nodes,
/// lay out, route, write SVG), beside `dot -Tsvg FILE` on the same file: issue #38's
/// rendering speed, for the benchmark graphs of 1,000 and 5,000 nodes (`LayoutBench`'s
/// files). Ours is timed in this process (no start-up), dot's as a whole process; best of
/// two runs, one at 5,000. The dot column is skipped when dot is missing.
enum RenderDOTBench {
    static func run(into report: Report) {
        let directory = LayoutBench.directory
        guard access(directory, R_OK) == 0 else { return }
        let hasDot = LayoutBench.withDot && system("command -v dot >/dev/null 2>&1") == 0
        for (family, n, name) in LayoutBench.graphs(from: 1000) {
            let path = "\(directory)/\(name).dot"
            guard let text = readText(path) else { continue }
            progress("formats render \(name)")
            let reps = n >= 5000 ? 1 : 2
            var best = Double.infinity
            var bytes = 0
            for _ in 0..<reps {
                let t = time {
                    let store = FlowStore<JSONValue>()
                    var picture = SVGOptions()
                    picture.handles = .none
                    guard (try? store.load(text, format: .dot)) != nil, let svg = try? renderSVG(store, options: picture)
                    else { return }
                    bytes = svg.utf8.count
                }
                best = min(best, t)
            }
            guard bytes > 0 else {
                report.add(Metric(name: "formats.\(family).render", size: n, value: nil, unit: "", note: "\(name) did not render"))
                continue
            }
            var dotTime: Double?
            if hasDot {
                dotTime = .infinity
                for _ in 0..<reps {
                    let t0 = now()
                    guard system("dot -Tsvg '\(path)' >/dev/null 2>&1") == 0 else { dotTime = nil; break }
                    dotTime = min(dotTime!, now() - t0)
                }
            }
            report.add(Metric(
                name: "formats.\(family).render", size: n, value: best * 1e9, unit: "ns",
                baseline: dotTime.map { $0 * 1e9 }))
        }
    }
}
