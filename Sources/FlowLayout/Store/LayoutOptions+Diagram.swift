import FlowCore

extension LayoutOptions {
    /// The options a layout of a diagram starts from: the defaults, with the spacing its
    /// document keeps (`DiagramLook.nodeSpacing`, `layerSpacing`, `equalLayerSpacing`: a
    /// DOT file's `nodesep` and `ranksep`). The node spacing is the components' spacing too,
    /// as dot sets unconnected parts side by side in its ranks, `nodesep` apart; the layer
    /// spacing is at least `curveLayerSpacing`, where the curves between layers bend
    /// without turning back.
    public init(diagram look: DiagramLook, direction: LayoutDirection = .TB) {
        self.init(direction: direction, equalLayerSpacing: look.equalLayerSpacing)
        if let s = look.nodeSpacing {
            nodeSpacing = s
            edgeSpacing = s / 2
            componentSpacing = s
        }
        if let s = look.layerSpacing { layerSpacing = max(s, LayoutOptions.curveLayerSpacing) }
    }
}
