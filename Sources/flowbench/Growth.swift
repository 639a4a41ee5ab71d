@preconcurrency import Glibc

/// A growth series: one case timed at a few sizes, the sizes taking turns (so a busy moment
/// of the machine slows each of them alike), each time the best of `rounds` after a warm-up
/// run. Adds `name` at each size and `name.exponent`, the growth exponent from the smallest
/// to the largest size: log(t_large / t_small) / log(large / small). Linear work gives 1.
enum Growth {
    static func measure(
        _ name: String, sizes: [Int], rounds: Int, into report: Report, _ make: (Int) -> () -> Void
    ) {
        let bodies = sizes.map(make)
        var best = [Double](repeating: .infinity, count: sizes.count)
        for body in bodies { body() }  // warm-up: first-touch page faults and caches
        for _ in 0..<rounds {
            for (k, body) in bodies.enumerated() { best[k] = min(best[k], time(body)) }
        }
        for (k, n) in sizes.enumerated() {
            report.add(Metric(name: name, size: n, value: best[k] * 1e9, unit: "ns"))
        }
        guard let small = sizes.first, let large = sizes.last, large > small else { return }
        let exponent = log(best[sizes.count - 1] / best[0]) / log(Double(large) / Double(small))
        report.add(Metric(name: "\(name).exponent", size: large, value: exponent, unit: "exponent"))
    }
}
