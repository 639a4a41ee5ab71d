import FlowCore

// What the Mermaid writer cannot write of a node the renderer draws from its data
// (docs/formats.md, "Mermaid"): Mermaid has no tables and no polygons but its own shapes.
// A table is written as its text, a row a line; a polygon as the node's shape (the
// nearest); what is lost is said in a `%%` comment at the top.

extension MermaidWriter {
    /// The text of node `n`'s table (its data's `table`), the nearest Mermaid has: a line
    /// for each row, its cells' text side by side between ` | `, a nested table's rows
    /// joined by ` / `; nil when the node has no table.
    static func tableText(_ n: FlowNode<JSONValue>) -> String? {
        guard case .object(let data) = n.data, case .object(let t)? = data["table"],
            let rows = rows(t, depth: 0), !rows.isEmpty
        else { return nil }
        return rows.joined(separator: "\n")
    }

    /// The rows of table `t` as lines of text; nil when it has no cells.
    private static func rows(_ t: JSONObject, depth: Int) -> [String]? {
        guard case .array(let cells)? = t["cells"], depth < DOTHTMLLabel.maximumDrawnDepth else { return nil }
        var lines: [String] = []
        var row: Double?
        for case .object(let c) in cells {
            var text = ""
            if case .object(let nested)? = c["table"] {
                text = (rows(nested, depth: depth + 1) ?? []).joined(separator: " / ")
            } else if case .string(let s)? = c["text"] {
                text = s.split(separator: "\n").joined(separator: " ")
            }
            var r: Double?
            if case .number(let v)? = c["row"] { r = v }
            if lines.isEmpty || r == nil || r != row {
                lines.append(text)
            } else {
                lines[lines.count - 1] += " | " + text
            }
            row = r
        }
        return lines.isEmpty ? nil : lines
    }

    /// Comments' texts saying what of node `n` (written as `name`, in `shape`) Mermaid does
    /// not draw: its gradient, its text's looks, its table's grid, or its polygon; empty when
    /// nothing is lost.
    static func lost(_ n: FlowNode<JSONValue>, name: String, shape: NodeShape) -> [String] {
        guard case .object(let data) = n.data else { return [] }
        var out: [String] = []
        if let g = FillGradient.stored(in: n.data) {
            let kind = n.acceptsChildren ? "subgraph" : "node"
            out.append("\(kind) \(name): a gradient from \(g.from) to \(g.to), filled with its first colour")
        }
        guard !n.acceptsChildren else { return out }
        if DOTTextRun.lines(json: data["spans"]) != nil {
            out.append("node \(name): text in several looks (fonts, bold, underline, …), written plain")
        }
        if tableText(n) != nil {
            return out + ["node \(name): a table, written as its text a row a line (its grid, spans, ports, borders, colours, fonts and rules are not drawn)"]
        }
        guard case .object(let p)? = data["polygon"], case .number(let sides)? = p["sides"], sides.isFinite else { return out }
        var what: [String] = []
        what.append(sides >= 3 ? "\(formatNumber(sides.rounded())) sides" : "an ellipse")
        for key in ["orientation", "skew", "distortion", "peripheries"] {
            if case .number(let v)? = p[key], v.isFinite { what.append(key + " " + formatNumber(v)) }
        }
        return out + ["node \(name): a polygon (" + what.joined(separator: ", ") + "), written as its nearest shape (\(shape.rawValue))"]
    }
}
