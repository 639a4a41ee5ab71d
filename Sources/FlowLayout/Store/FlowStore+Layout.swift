import FlowCore

extension FlowStore {
    /// Lays the diagram out as `layout(_:)` does, with the options its document keeps (a
    /// DOT file's `nodesep`, `ranksep` and `rankdir`, a Mermaid file's direction:
    /// `LayoutRequest(diagram: diagramLook)`), the layout's own defaults for the rest.
    @discardableResult
    public func layout() throws(FlowError) -> LayoutStats {
        try layout(LayoutRequest(diagram: diagramLook))
    }

    /// Lays the diagram out (docs/layout.md): positions for the laid-out nodes, sizes for
    /// their groups, default handles turned to face the flow, and a route (`points`) for
    /// every edge between laid-out nodes, except that orthogonal edges are routed by the
    /// store's `edgeRouter`, when it has one, at the end of the same step. One undo step "Layout"; node changes, then edge
    /// changes, each in store order. Throws, changing nothing, for an unknown id in the
    /// request or a pinned node inside a laid-out group, when the graph needs more bend
    /// points than `request.maximumBendPoints` or more memory than the store's
    /// `memoryBudget` has left (`LayoutLimits`), or when the current `WorkLimit` stopped it.
    ///
    /// With `request.options.stable`, the nodes that were placed (`LayoutRequest.placed`;
    /// by default those the store held at its last layout, `lastLayoutNodeIDs`) keep their
    /// layers and their order in them and stay near where they were; the others are
    /// fitted in (docs/layout.md, "Stable layout").
    ///
    /// The request is taken as given: `LayoutRequest()` holds the layout's own defaults.
    /// `layout()` with none, like Lua's `store:layout{}`, starts from the document's
    /// spacing and direction (`LayoutRequest(diagram: diagramLook)`).
    @discardableResult
    public func layout(_ request: LayoutRequest) throws(FlowError) -> LayoutStats {
        // A node sized to its title is laid out at the size the update below gives it (a
        // loaded document may hold another).
        let sized = nodes.map { n in
            guard n.autoSize else { return n }
            var m = n
            m.size = fittedSize(n)
            return m
        }
        var placed: [Bool]? = nil
        if request.options.stable {
            placed = request.placed.map { p in sized.map { p.contains($0.id) } } ?? placedForLayout()
        }
        let plan = try LayoutPlan(
            nodes: sized, edges: edges, request: request, routerOwnsOrthogonal: edgeRouter != nil,
            shapes: nodes.map(resolvedShape(of:)), placed: placed, memory: memoryBudget, ranks: diagramLook.ranks,
            edgeRanks: diagramLook.edgeRanks)
        // a layout cut short by the work limit (`WorkLimit`) is not applied
        try WorkLimit.check("layout")
        try transaction("Layout") { () throws(FlowError) in
            for n in nodes {
                let p = plan.positions[n.id], s = plan.sizes[n.id], h = plan.handles[n.id]
                if p == nil && s == nil && h == nil { continue }
                try updateNode(n.id) { (node: inout Node) throws(FlowError) in
                    if let p { node.position = p }
                    if let s { node.size = s }
                    if let h { node.handles = h }
                }
            }
            for e in edges {
                guard let r = plan.routes[e.id], r != e.points else { continue }
                try updateEdge(e.id) { (edge: inout FlowEdge) throws(FlowError) in edge.points = r }
            }
        }
        lastLayoutNodeIDs = Set(nodes.lazy.map(\.id))
        return plan.stats
    }
}
