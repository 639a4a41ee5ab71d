/// Growth of the per-call cost from the smallest to the largest size, for the operations
/// that should be O(1) or O(log n). A constant-time operation stays near 1×.
enum Scaling {
    static let operations = ["moveNode", "addNode", "addEdge", "removeNode", "hitTest", "nodeBounds", "fitToContent"]

    static func add(sizes: [Int], into report: Report) {
        guard let small = sizes.first, let large = sizes.last, large > small else { return }
        for side in ["lua.flow", "swift"] {
            for op in operations {
                let name = "\(side).\(op)"
                guard let big = report.find(name, size: large) else { continue }
                report.add(
                    Metric(
                        name: "scaling.\(name)", size: large, value: big.value, unit: "ns",
                        baseline: report.value(name, size: small), note: big.note))
            }
        }
    }
}
