import FlowCore

// What the DOT writer writes for a node the renderer draws from its data (docs/formats.md,
// "HTML-like tables", "Polygons"): a table as the HTML-like label it was read from (in its
// node's shape), a
// polygon as `shape=polygon` with its sides, skew, distortion, orientation, peripheries and
// regularity, so that dot draws what we draw and the reader reads back the same node.

extension DOTWriter {
    /// The attributes that draw node `n` as its data's table or polygon: the label (an HTML
    /// label's inside, for a table), the shape's attributes and style words, and the size to
    /// write (a polygon's innermost outline, as dot sizes one: the node's less its `room`).
    /// Nil for other nodes.
    struct DrawnShape {
        var label: String?
        var attributes: [String] = []
        var styles: [String] = []
        var size: Size?
    }

    static func drawnShape(_ n: FlowNode<JSONValue>) -> DrawnShape? {
        guard case .object(let data) = n.data, !n.acceptsChildren else { return nil }
        let shape = n.shape ?? .rounded
        if let table = data["table"],
            let html = DOTHTMLWriter.label(table, bold: n.style.bold == true, italic: n.style.italic == true)
        {
            var d = DrawnShape(label: html)
            if case .object(let t) = table, case .bool(false)? = t["outline"] {
                // `plain` has no margin round the table: the node is the table
                let plain = number(t["width"]) == n.size.width && number(t["height"]) == n.size.height
                d.attributes = ["shape=" + (plain ? "plain" : "plaintext")]
            } else if shape.isRecord {
                d.attributes = ["shape=box"]
                if shape == .mrecord { d.styles = ["rounded"] }
            } else {
                // drawn in its shape (an ellipse, a diamond, …), which dot draws round it
                d.attributes = shapeAttributes(n, &d.styles)
            }
            return d
        }
        guard case .object(let p)? = data["polygon"], let sides = number(p["sides"]),
            sides == sides.rounded(), sides >= 0, sides <= Double(DOTPolygon.maximumSides)
        else { return nil }
        let peripheries = number(p["peripheries"]) ?? 1
        guard peripheries == peripheries.rounded(), peripheries >= 0, peripheries <= Double(DOTPolygon.maximumPeripheries)
        else { return nil }
        var points: [Point] = []
        if case .array(let list)? = p["points"] {
            for i in stride(from: 0, to: list.count - 1, by: 2) {
                guard let x = number(list[i]), let y = number(list[i + 1]) else { return nil }
                points.append(Point(x, y))
            }
        }
        var d = DrawnShape()
        if sides < 3 {
            d.attributes = ["shape=ellipse"]
        } else {
            guard points.count == Int(sides) else { return nil }
            d.attributes = ["shape=polygon", "sides=" + formatNumber(sides)]
        }
        for key in ["skew", "distortion", "orientation"] {
            if let v = number(p[key]), v != 0 { d.attributes.append(key + "=" + value(formatNumber(v))) }
        }
        if peripheries != 1 { d.attributes.append("peripheries=" + formatNumber(peripheries)) }
        if case .bool(true)? = p["regular"] { d.attributes.append("regular=true") }
        // the innermost outline's size: dot puts the outer ones round it
        if case .array(let room)? = p["room"], room.count == 2, let w = number(room[0]), let h = number(room[1]) {
            d.size = Size(max(n.size.width - w, 0), max(n.size.height - h, 0))
        }
        return d
    }

    /// A finite number, else nil.
    private static func number(_ v: JSONValue?) -> Double? {
        if case .number(let x)? = v, x.isFinite { return x }
        return nil
    }
}
