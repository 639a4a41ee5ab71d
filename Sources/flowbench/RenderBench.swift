import FlowCore
import FlowRender

/// SVG rendering of a 1k-node / 1.5k-edge store and of a large one, each against the
/// export of the same store (both serialize every node and edge once).
enum RenderBench {
    static func run(largeSize: Int, budget: Budget, into report: Report) {
        measure(nodes: 1000, edges: 1500, budget: budget, into: report)
        if largeSize > 1000 {
            var few = budget
            few.reps = min(budget.reps, 5)
            measure(nodes: largeSize, edges: largeSize, budget: few, into: report)
        }
    }

    private static func measure(nodes: Int, edges: Int, budget: Budget, into report: Report) {
        let store = Fixture.build(nodes: nodes, edges: edges, undo: false)
        let export = perCall(budget) { k in time { for _ in 0..<k { consume(try! store.export()) } } } * 1e9
        let svg = perCall(budget) { k in time { for _ in 0..<k { consume(try! renderSVG(store)) } } } * 1e9
        report.add(Metric(name: "render.export", size: nodes, value: export, unit: "ns"))
        report.add(Metric(name: "render.svg", size: nodes, value: svg, unit: "ns", baseline: export))
    }
}
