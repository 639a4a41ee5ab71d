import FlowCore

// Graphviz's gradient fills (docs/formats.md, "Gradients"): a colour list
// (`fillcolor="red:blue"`, `red;0.3:blue`) on a filled node or cluster, or as the graph's
// `bgcolor`, blends its first two colours, linearly at `gradientangle` or, with
// `style=radial`, from the middle out.

extension DOTReader {
    /// The gradient `list` (a colour list) gives, `radial` or linear at `angle`
    /// (`gradientangle`'s value), nil when the list has fewer than two colours or one that
    /// cannot be read; and what is not drawn: colours that cannot be read, colours past the
    /// second (which Graphviz ignores too), a weight that is not a fraction, an angle that is
    /// not a number.
    static func gradient(_ list: String, radial: Bool, angle: String?) -> (FillGradient?, problems: [String]) {
        let items = list.split(separator: ":", omittingEmptySubsequences: true)
        guard items.count >= 2 else { return (nil, []) }
        var colors: [FlowColor] = [], problems: [String] = []
        var split: Double?
        func number(_ s: Substring) -> Double? { Double(String(s).trimmingSpaces()).flatMap { $0.isFinite ? $0 : nil } }
        for (i, item) in items.prefix(2).enumerated() {
            let parts = item.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            guard let c = parseColor(String(parts[0])) else { return (nil, ["colour '\(list)' is not mapped"]) }
            colors.append(c)
            if i == 0, parts.count == 2 {
                if let f = number(parts[1]), f >= 0, f <= 1 {
                    split = f
                } else {
                    problems.append("colour weight '\(parts[1])' is not a fraction (0 to 1)")
                }
            }
        }
        if items.count > 2 { problems.append("gradient: colours after the second are not drawn (as in Graphviz)") }
        var degrees = 0.0
        if let angle {
            if let a = number(Substring(angle)) {
                // Graphviz reads a whole number of degrees, at least 0
                degrees = max(0, a.rounded(.towardZero)).truncatingRemainder(dividingBy: 360)
            } else {
                problems.append("gradientangle '\(angle)' is not an angle")
            }
        }
        return (FillGradient(from: colors[0], to: colors[1], split: split, radial: radial, angle: degrees), problems)
    }
}

extension DOTReader.Builder {
    /// The colour a DOT colour list starts with (`red;0.3:blue` gives red), nil when it is
    /// not a colour.
    static func firstColor(_ value: String) -> FlowColor? {
        let first = value.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
        return parseColor(String(first.split(separator: ";", omittingEmptySubsequences: false).first ?? ""))
    }

    /// The gradient `list` (a colour list) gives an element of `kind` drawn filled, `radial`
    /// or linear at `angle` (`gradientangle`'s value): nil when the list has one colour.
    /// Colours that cannot be read and colours past the second (which Graphviz ignores too)
    /// are reported.
    mutating func gradient(_ list: String, radial: Bool, angle: String?, kind: String) -> FillGradient? {
        let unit = kind == "graph" ? "" : kind
        let (g, problems) = DOTReader.gradient(list, radial: radial, angle: angle)
        for p in problems { tally.add("\(kind) " + p, unit: unit) }
        return g
    }

    /// The gradient of a node or cluster drawn filled (`filled`: `style=filled` or
    /// `radial`): its `fillcolor` list, else its `color` list (then, for a cluster, its
    /// `bgcolor` list, which fills it unfilled too); nil for a plain fill.
    mutating func elementGradient(_ attributes: DOTAttributes, filled: Bool, kind: String) -> FillGradient? {
        let radial = attributes["style"].map { styleParts($0).contains("radial") } ?? false
        let lists = filled ? [attributes["fillcolor"], attributes["color"], attributes["bgcolor"]] : [attributes["bgcolor"]]
        guard let list = lists.compactMap({ $0 }).first, list.contains(":") else { return nil }
        return gradient(list, radial: radial, angle: attributes["gradientangle"], kind: kind)
    }
}
