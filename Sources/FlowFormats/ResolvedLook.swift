import FlowCore

/// What a document's class sheet gives its elements, resolved as `FlowStore` resolves it
/// (`resolvedShape`, `resolvedStyle`), for the writers: DOT has no class sheet, and
/// Mermaid's `classDef` carries no shapes and links have no classes.
extension FlowDocument where Data == JSONValue {
    /// A node's shape: its own, else the last of its classes that names one, else `rounded`.
    func resolvedShape(of n: FlowNode<JSONValue>) -> NodeShape { n.shape ?? classShape(of: n) ?? .rounded }

    /// The shape the last of a node's classes that names one gives it.
    func classShape(of n: FlowNode<JSONValue>) -> NodeShape? {
        for c in n.classes.reversed() {
            if let s = classes[c]?.shape { return s }
        }
        return nil
    }

    /// An element's style: its classes' in order, then its own over them.
    func resolvedStyle(_ own: FlowStyle, classes names: [String]) -> FlowStyle {
        var s = FlowStyle()
        for c in names {
            if let k = classes[c] { s = s.merged(with: k.style) }
        }
        return s.merged(with: own)
    }

    /// The document with every node's shape and every element's style resolved from the
    /// class sheet (the classes kept by name).
    func resolvingClasses() -> FlowDocument<JSONValue> {
        guard !classes.isEmpty else { return self }
        var d = self
        for i in d.nodes.indices {
            if nodes[i].shape == nil, let s = classShape(of: nodes[i]) { d.nodes[i].shape = s }
            d.nodes[i].style = resolvedStyle(nodes[i].style, classes: nodes[i].classes)
        }
        for i in d.edges.indices { d.edges[i].style = resolvedStyle(edges[i].style, classes: edges[i].classes) }
        return d
    }
}
