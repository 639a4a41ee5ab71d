/// Growth of the per-call cost from the smallest to the largest size, for the operations
/// that should be O(1) or O(log n), and of the per-item cost of the corners that should be
/// linear (CornerBench). A constant-time operation, or a linear corner, stays near 1×.
enum Scaling {
    static let operations = ["moveNode", "addNode", "addEdge", "removeNode", "hitTest", "nodeBounds", "fitToContent"]

    static func add(sizes: [Int], into report: Report) {
        guard let small = sizes.first, let large = sizes.last, large > small else { return }
        var names: [String] = []
        for side in ["lua.flow", "swift"] { names += operations.map { "\(side).\($0)" } }
        names += CornerBench.operations.map { "corner.\($0)" }
        for name in names {
            guard let big = report.find(name, size: large) else { continue }
            report.add(
                Metric(
                    name: "scaling.\(name)", size: large, value: big.value, unit: "ns",
                    baseline: report.value(name, size: small), note: big.note))
        }
    }
}
