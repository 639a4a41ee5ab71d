import FlowCore

// Where a group's title is drawn (docs/rendering.md, "Groups"): at the top left of its
// frame, or at the top right when edges run through the top left and fewer through the
// top right (an edge coming into the group from above often crosses its title band).
extension SVGRenderer {
    /// Which of `nodes` are drawn as containers, by index: those that accept children or
    /// that another node names its parent.
    static func containerFlags(_ nodes: [FlowNode<Data>]) -> [Bool] {
        var parents = Set<String>()
        for n in nodes { if let p = n.parentID { parents.insert(p) } }
        return nodes.map { $0.acceptsChildren || parents.contains($0.id) }
    }

    /// The box of container `n`'s title `t`: at the top left of its frame, or at the top
    /// right when `n` is one of `rightTitles`.
    func containerTitleBox(_ n: FlowNode<Data>, _ t: TextLayout) -> Rect {
        titleBox(n, t, right: rightTitles.contains(n.id))
    }

    private func titleBox(_ n: FlowNode<Data>, _ t: TextLayout, right: Bool) -> Rect {
        let inset = TitleLayout.containerInset
        let x = right ? n.frame.x + n.frame.width - inset.x - t.width : n.frame.x + inset.x
        return Rect(x, n.frame.y + inset.y, t.width, Double(t.lines.count) * t.font.lineHeight)
    }

    /// The containers among `nodes` (`containers[i]`) whose title goes to the top right:
    /// those with an edge of `paths` through the title at the top left, and fewer through
    /// the same box at the top right.
    func titlesAtRight(
        _ nodes: [FlowNode<Data>], _ shapes: [NodeShape], containers: [Bool], paths: PathGrid,
        title: (FlowNode<Data>) -> String
    ) -> Set<String> {
        var right = Set<String>()
        for (i, n) in nodes.enumerated() where containers[i] {
            guard let t = titleLayout(n, shapes[i], isContainer: true, title(n)) else { continue }
            let through = paths.edges(through: titleBox(n, t, right: false), except: -1)
            guard through > 0 else { continue }
            if paths.edges(through: titleBox(n, t, right: true), except: -1) < through { right.insert(n.id) }
        }
        return right
    }
}
