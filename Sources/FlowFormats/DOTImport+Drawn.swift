import FlowCore

// What the DOT reader lays out for the renderer to draw: an HTML-like table's cells
// (`DOTHTMLTable`) and a polygon's size around its title (`DOTPolygon`).

extension DOTReader.Builder {
    /// `table`, the HTML-like label of node `id` of DOT shape `shape`, laid out and centred
    /// in the node: its size returned, the table put in `data` (`table`), its cells' ports
    /// recorded for the edges that name them.
    mutating func placeTable(
        _ table: DOTHTMLTable, node id: String, shape: String, font: TextFont, _ width: Double?, _ height: Double?,
        fixed: Bool, _ data: inout JSONValue
    ) -> Size {
        var table = table
        let size = table.nodeSize(shape: shape, font: font, width: width, height: height, fixed: fixed)
        table.move(to: Point(milli((size.width - table.frame.width) / 2), milli((size.height - table.frame.height) / 2)))
        var fields = RecordField(children: table.portFields())
        fields.frame = Rect(origin: .zero, size: size)
        records[id] = fields
        var json = table.json
        if ["plaintext", "plain", "none"].contains(shape) { json = json.setting("outline", to: .bool(false)) }
        data = data.setting("table", to: json)
        return size
    }

    /// The size of a node drawn as `polygon`: `size` (else its title's fitting size in
    /// `shape`, at least 54 by 36) grown until the title with its margin lies inside the
    /// polygon, as Graphviz sizes one; square when `regular`.
    func polygonSize(_ polygon: DOTPolygon, title: String, style: FlowStyle, shape: NodeShape, from size: Size?) -> Size {
        let lines = title.split(separator: "\n", omittingEmptySubsequences: false)
        let text = Size(
            (lines.map { TextMetrics.width(of: $0, font: style.font) }.max() ?? 0) + 16,
            Double(lines.count) * style.font.lineHeight + 8)
        let base = size ?? TitleLayout.fittingSize(
            title, font: style.font, shape: shape, isContainer: false,
            wrapWidth: style.wrapWidth ?? TextLayout.defaultWrapWidth, minimum: Size(54, 36))
        let s = polygon.grown(base, toHold: text)
        return polygon.regular ? Size(max(s.width, s.height), max(s.width, s.height)) : s
    }
}
