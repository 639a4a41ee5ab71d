import FlowCore
import FlowLayout
import TestSupport
import Testing

/// Coordinates within layers (docs/layout.md, step 5): drawings stay about as wide as their
/// widest layer, on graphs small enough for the Brandes–Köpf start and on ones big enough
/// for the packed start.
@Suite struct CoordinateTests {
    /// `layers` layers of `width` nodes; each node below the first gets a parent on the layer
    /// above and one more edge from `reach` layers up or fewer.
    private func layeredGraph(layers: Int, width: Int, reach: Int, seed: UInt64) -> LayoutGraph {
        var r = SplitMix64(seed: seed)
        return LayoutGraph(
            nodes: Array(repeating: .init(width: 72, height: 36), count: layers * width),
            edges: LayeredTestGraphs.edges(layers: layers, width: width, reach: reach, &r).map {
                .init(source: $0.source, target: $0.target)
            })
    }

    /// The extent of the drawing across the layers, and of its widest layer packed tight.
    private func widths(_ g: LayoutGraph, _ options: LayoutOptions) -> (drawing: Double, widestLayer: Double) {
        let result = LayeredLayout.layout(g, options: options)
        let xs = result.positions.map(\.x)
        let drawing = xs.max()! + 72 - xs.min()!
        var perLayer: [Double: Int] = [:]
        for p in result.positions { perLayer[p.y, default: 0] += 1 }
        let widest = Double(perLayer.values.max()!)
        return (drawing, widest * 72 + (widest - 1) * options.nodeSpacing)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func smallGraphsAreAboutAsWideAsTheirWidestLayer(seed: UInt64) {
        let g = layeredGraph(layers: 12, width: 20, reach: 2, seed: seed)
        let w = widths(g, LayoutOptions(nodeSpacing: 18, layerSpacing: 36))
        // Brandes–Köpf alone drew these three to five times as wide
        #expect(w.drawing <= 1.6 * w.widestLayer, "\(w)")
    }

    @Test func bigGraphsStartPackedAndStayCompact() {
        // long edges make many dummies: past the size where Brandes–Köpf starts the method
        let g = layeredGraph(layers: 30, width: 60, reach: 6, seed: 9)
        let w = widths(g, LayoutOptions(nodeSpacing: 18, layerSpacing: 36))
        #expect(w.drawing <= 1.6 * w.widestLayer, "\(w)")
    }
}
