import FlowCore

extension LayoutOptions {
    /// The options a layout of a diagram starts from: the defaults, with the spacing and
    /// direction its document keeps (`DiagramLook.nodeSpacing`, `layerSpacing`,
    /// `equalLayerSpacing`, `direction`: a DOT file's `nodesep`, `ranksep` and `rankdir`, a
    /// Mermaid file's header direction). `direction`, when given, wins over the document's.
    /// The node spacing is the components' spacing too, as dot sets unconnected parts side
    /// by side in its ranks, `nodesep` apart; the layer spacing is at least
    /// `curveLayerSpacing`, where the curves between layers bend without turning back.
    public init(diagram look: DiagramLook, direction: LayoutDirection? = nil) {
        self.init(
            direction: direction ?? look.direction.map(LayoutDirection.init) ?? .TB,
            equalLayerSpacing: look.equalLayerSpacing)
        if let s = look.nodeSpacing {
            nodeSpacing = s
            edgeSpacing = s / 2
            componentSpacing = s
        }
        if let s = look.layerSpacing { layerSpacing = max(s, LayoutOptions.curveLayerSpacing) }
    }
}

extension LayoutDirection {
    /// The layout direction of a document's (`DiagramLook.direction`), by the same name.
    public init(_ d: DiagramLook.Direction) {
        switch d {
        case .TB: self = .TB
        case .BT: self = .BT
        case .LR: self = .LR
        case .RL: self = .RL
        }
    }
}

extension DiagramLook.Direction {
    /// A layout direction as a document keeps it, by the same name.
    public init(_ d: LayoutDirection) {
        switch d {
        case .TB: self = .TB
        case .BT: self = .BT
        case .LR: self = .LR
        case .RL: self = .RL
        }
    }
}

extension LayoutRequest {
    /// A request with the options a layout of a diagram starts from
    /// (`LayoutOptions(diagram:)`: its document's spacing and direction), the rest as
    /// `LayoutRequest()` has it; what `FlowStore.layout()` with no request and Lua's
    /// `store:layout{}` lay out by.
    public init(diagram look: DiagramLook) {
        self.init(options: LayoutOptions(diagram: look))
    }
}
