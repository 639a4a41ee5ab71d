// Shapes, styles and classes (docs/store.md, "Styles and classes"): the style sheet, how an
// element's look is resolved from it, and nodes sized to their titles.

extension FlowStore {
    // MARK: The style sheet

    /// Replaces the style sheet: what elements with each class look like. Class names must
    /// be valid (`FlowClass.validateName`) and styles valid (`FlowStyle.validate`). Nodes
    /// sized to their titles are re-sized for their new look (`dimensions` events). Returns
    /// false when the sheet is the same. Undo step "Classes".
    @discardableResult
    public func setClassStyles(_ sheet: [String: FlowClass]) throws(FlowError) -> Bool {
        try perform("Classes") { () throws(FlowError) -> Bool in
            let op = "configure"
            for name in sheet.keys.sorted() {
                try FlowClass.validateName(name, op, "classes")
                try sheet[name]!.style.validate(op, "classes.\(name)")  // invariant: a key of the sheet
            }
            if sheet == classStyles { return false }
            let old = classStyles
            pSetClassStyles(sheet)
            // Nodes whose classes changed meaning may change size.
            var changed: Set<String> = []
            for name in Set(old.keys).union(sheet.keys) where old[name] != sheet[name] { changed.insert(name) }
            var resized: [Node] = []
            nodeTable.forEach { n in
                guard n.autoSize, let look = n.look, look.classes.contains(where: changed.contains) else { return }
                let size = fittedSize(n)
                if size != n.size {
                    var m = n
                    m.size = size
                    resized.append(m)
                }
            }
            for n in resized { pReplaceNode(n, event: .dimensions) }
            return true
        }
    }

    /// Sets the sheet and journals the change. Nodes with classes may have changed shape:
    /// their handles and outlines are re-indexed at the next query.
    func pSetClassStyles(_ sheet: [String: FlowClass]) {
        let old = classStyles
        classStyles = sheet
        log.journal.append(.setClassStyles(old: old))
        nodeTable.forEachSlot { s in
            guard let look = nodeTable[slot: s].look, !look.classes.isEmpty else { return }
            markDirty(s)
            markEdgesStale(ofNode: s)
        }
    }

    // MARK: Resolving

    /// The shape a node is drawn with: its own, else the last of its classes that names
    /// one, else `rounded`.
    public func resolvedShape(of node: Node) -> NodeShape {
        guard let look = node.look else { return .rounded }
        if let s = look.shape { return s }
        if classStyles.isEmpty { return .rounded }
        for c in look.classes.reversed() {
            if let s = classStyles[c]?.shape { return s }
        }
        return .rounded
    }

    /// A node's style: its classes' in order, then its own over them. Unset properties come
    /// from the theme.
    public func resolvedStyle(of node: Node) -> FlowStyle {
        guard let look = node.look else { return FlowStyle() }
        return resolved(look.classes, look.style)
    }

    /// An edge's style: its classes' in order, then its own over them.
    public func resolvedStyle(of edge: FlowEdge) -> FlowStyle {
        guard let look = edge.look else { return FlowStyle() }
        return resolved(look.classes, look.style)
    }

    private func resolved(_ classes: [String], _ own: FlowStyle) -> FlowStyle {
        if classStyles.isEmpty { return own }
        var s = FlowStyle()
        for c in classes {
            if let k = classStyles[c] { s = s.merged(with: k.style) }
        }
        return s.merged(with: own)
    }

    /// Where a handle of `node` sits: on its shape's outline.
    @inline(__always)
    func handlePoint(_ position: HandlePosition, of node: Node) -> Point {
        if node.look == nil { return position.point(in: node.frame) }
        return resolvedShape(of: node).handlePoint(position, in: node.frame)
    }

    /// Where handle `h` of `node` sits: `handlePoint` moved along its side by its offset.
    func handlePoint(_ h: HandleDeclaration, of node: Node) -> Point {
        if h.offset == 0 { return handlePoint(h.position, of: node) }
        return h.point(on: node.look == nil ? .rectangle : resolvedShape(of: node), in: node.frame)
    }

    // MARK: Sizing to the title

    /// The size of node `n` sized to its title (`autoSize`), with this store's style sheet:
    /// at least `FlowNode.defaultSize`, grown to show the whole title
    /// (TitleLayout.fittingSize); what an update of such a node gives it.
    @inline(__always)
    public func fittedSize(_ n: Node) -> Size {
        let title = n.data.title(nodeID: n.id)
        if n.look == nil {
            // The common case, on the path of every add: a short one-line title fits the
            // default frame (134 px: 19 characters of 7 px).
            if !n.acceptsChildren, title.utf8.count <= 19, title.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 }) {
                return Node.defaultSize
            }
            return TitleLayout.fittingSize(
                title, font: .standard, shape: .rounded, isContainer: n.acceptsChildren,
                wrapWidth: TextLayout.defaultWrapWidth, minimum: Node.defaultSize)
        }
        let style = resolvedStyle(of: n)
        return TitleLayout.fittingSize(
            title, font: style.font, shape: resolvedShape(of: n), isContainer: n.acceptsChildren,
            wrapWidth: style.wrapWidth ?? TextLayout.defaultWrapWidth, minimum: Node.defaultSize)
    }

    /// `new` as an update leaves it: a node sized to its title is re-sized for its new
    /// title and look, unless the update changed its size (which ends the sizing).
    func sizedForUpdate(_ new: Node, from old: Node) -> Node {
        guard new.autoSize else { return new }
        var n = new
        if old.autoSize && n.size != old.size {
            n.autoSize = false
        } else {
            n.size = fittedSize(n)
        }
        return n
    }

    // MARK: Validation

    /// Checks a node's classes and style.
    func validateLook(_ n: Node, _ op: String) throws(FlowError) {
        guard let look = n.look else { return }
        for c in look.classes { try FlowClass.validateName(c, op, "class") }
        try look.style.validate(op, "style")
    }

    /// Checks an edge's classes and style.
    func validateLook(_ e: FlowEdge, _ op: String) throws(FlowError) {
        guard let look = e.look else { return }
        for c in look.classes { try FlowClass.validateName(c, op, "class") }
        try look.style.validate(op, "style")
    }
}
