import FlowCore

// Where a group's title is drawn (docs/rendering.md, "Groups"): at the top left of its
// frame, or at the top right when edges run through the top left and fewer through the
// top right (an edge coming into the group from above often crosses its title band).
extension SVGRenderer {
    /// The box of container `n`'s title `t`: at the top left of its frame, or at the top
    /// right when `n` is one of `rightTitles`.
    func containerTitleBox(_ n: FlowNode<Data>, _ t: TextLayout) -> Rect {
        let inset = TitleLayout.containerInset
        let right = rightTitles.contains(n.id)
        let x = right ? n.frame.x + n.frame.width - inset.x - t.width : n.frame.x + inset.x
        return Rect(x, n.frame.y + inset.y, t.width, Double(t.lines.count) * t.font.lineHeight)
    }

    /// The containers among `nodes` whose title goes to the top right: those with an edge
    /// of `edges` through the title at the top left, and fewer through the same box at the
    /// top right.
    func titlesAtRight(
        _ edges: [EdgeItem], _ nodes: [FlowNode<Data>], _ shapes: [NodeShape], title: (FlowNode<Data>) -> String
    ) -> Set<String> {
        var parents = Set<String>()
        for n in nodes { if let p = n.parentID { parents.insert(p) } }
        guard !parents.isEmpty || nodes.contains(where: \.acceptsChildren), !edges.isEmpty else { return [] }
        var paths = PathGrid()
        for i in edges.indices { paths.add(edges[i].geometry.path.segments, edge: Int32(i)) }
        var right = Set<String>()
        let inset = TitleLayout.containerInset
        for (i, n) in nodes.enumerated() where n.acceptsChildren || parents.contains(n.id) {
            guard let t = titleLayout(n, shapes[i], isContainer: true, title(n)) else { continue }
            let height = Double(t.lines.count) * t.font.lineHeight
            let left = Rect(n.frame.x + inset.x, n.frame.y + inset.y, t.width, height)
            let through = paths.edges(through: left, except: -1)
            guard through > 0 else { continue }
            let atRight = Rect(n.frame.x + n.frame.width - inset.x - t.width, left.y, t.width, height)
            if paths.edges(through: atRight, except: -1) < through { right.insert(n.id) }
        }
        return right
    }
}
