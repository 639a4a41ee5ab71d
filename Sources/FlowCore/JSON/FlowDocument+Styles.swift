// The JSON form of shapes, styles and classes in a document: a style is an object of the
// properties it sets (`{"fill": "#eeeeff", "strokeWidth": 2}`), a class entry the same with
// `shape`, a class list an array of names. Keys are written in sorted order.

extension FlowStyle {
    /// The style as a JSON object, keys sorted (with `shape` for a class entry).
    func jsonValue(shape: NodeShape? = nil) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let v = bold { pairs.append(("bold", .bool(v))) }
        if let v = dash { pairs.append(("dash", .array(v.map { .number($0) }))) }
        if let v = fill { pairs.append(("fill", .string(v.description))) }
        if let v = fontSize { pairs.append(("fontSize", .number(v))) }
        if let v = italic { pairs.append(("italic", .bool(v))) }
        if let v = opacity { pairs.append(("opacity", .number(v))) }
        if let v = shape { pairs.append(("shape", .string(v.rawValue))) }
        if let v = sourceArrow { pairs.append(("sourceArrow", .string(v.rawValue))) }
        if let v = stroke { pairs.append(("stroke", .string(v.description))) }
        if let v = strokeWidth { pairs.append(("strokeWidth", .number(v))) }
        if let v = targetArrow { pairs.append(("targetArrow", .string(v.rawValue))) }
        if let v = textColor { pairs.append(("textColor", .string(v.description))) }
        if let v = wrapWidth { pairs.append(("wrapWidth", .number(v))) }
        return .object(JSONObject(pairs))
    }

    /// Whether a number of the style cannot be written as JSON.
    var hasNonFiniteNumber: Bool {
        [strokeWidth, opacity, fontSize, wrapWidth].contains { $0.map { !$0.isFinite } ?? false }
            || (dash ?? []).contains { !$0.isFinite }
    }
}

extension FlowClass {
    /// The style sheet as a JSON object, class names sorted.
    static func jsonValue(_ sheet: [String: FlowClass]) -> JSONValue {
        .object(JSONObject(sheet.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { name in
            (name, sheet[name]!.style.jsonValue(shape: sheet[name]!.shape))  // invariant: a key of the sheet
        }))
    }
}

/// Reads the style parts of a document (see `DocumentReader`), naming the place of an error.
struct StyleReader {
    let operation: String

    func error(_ path: String, _ message: String) -> FlowError {
        .invalidDocument(operation, "\(path): \(message)")
    }

    /// A style object; unknown keys are ignored, as everywhere in a document. With
    /// `shape`, a class entry's shape is read too.
    func style(_ v: JSONValue?, _ path: String) throws(FlowError) -> (style: FlowStyle, shape: NodeShape?) {
        guard let v, v != .null else { return (FlowStyle(), nil) }
        guard case .object(let o) = v else { throw error(path, "expected an object") }
        var s = FlowStyle()
        var shape: NodeShape?
        for (key, value) in o {
            let p = "\(path).\(key)"
            switch key {
            case "fill": s.fill = try colour(value, p)
            case "stroke": s.stroke = try colour(value, p)
            case "textColor": s.textColor = try colour(value, p)
            case "strokeWidth": s.strokeWidth = try number(value, p)
            case "opacity": s.opacity = try number(value, p)
            case "fontSize": s.fontSize = try number(value, p)
            case "wrapWidth": s.wrapWidth = try number(value, p)
            case "bold": s.bold = try bool(value, p)
            case "italic": s.italic = try bool(value, p)
            case "dash":
                guard case .array(let a) = value else { throw error(p, "expected an array of numbers") }
                var d: [Double] = []
                for (i, x) in a.enumerated() { d.append(try number(x, "\(p)[\(i)]")) }
                s.dash = d
            case "sourceArrow": s.sourceArrow = try enumValue(value, ArrowHead.self, p)
            case "targetArrow": s.targetArrow = try enumValue(value, ArrowHead.self, p)
            case "shape": shape = try enumValue(value, NodeShape.self, p)
            default: continue
            }
        }
        return (s, shape)
    }

    /// A list of class names.
    func classes(_ v: JSONValue?, _ path: String) throws(FlowError) -> [String] {
        guard let v, v != .null else { return [] }
        guard case .array(let a) = v else { throw error(path, "expected an array of strings") }
        var out: [String] = []
        for (i, x) in a.enumerated() {
            guard case .string(let s) = x else { throw error("\(path)[\(i)]", "expected a string") }
            out.append(s)
        }
        return out
    }

    /// The style sheet: an object of class entries.
    func sheet(_ v: JSONValue?, _ path: String) throws(FlowError) -> [String: FlowClass] {
        guard let v, v != .null else { return [:] }
        guard case .object(let o) = v else { throw error(path, "expected an object") }
        var out: [String: FlowClass] = [:]
        for (name, entry) in o {
            let (style, shape) = try style(entry, "\(path).\(name)")
            out[name] = FlowClass(shape: shape, style: style)
        }
        return out
    }

    func shape(_ v: JSONValue?, _ path: String) throws(FlowError) -> NodeShape? {
        guard let v, v != .null else { return nil }
        return try enumValue(v, NodeShape.self, path)
    }

    private func colour(_ v: JSONValue, _ path: String) throws(FlowError) -> FlowColor {
        guard case .string(let s) = v else { throw error(path, "expected a colour string") }
        guard let c = FlowColor(s) else { throw error(path, "invalid colour '\(s)' (expected #rrggbb or #rrggbbaa)") }
        return c
    }

    private func number(_ v: JSONValue, _ path: String) throws(FlowError) -> Double {
        guard case .number(let n) = v, n.isFinite else { throw error(path, "expected a number") }
        return n
    }

    private func bool(_ v: JSONValue, _ path: String) throws(FlowError) -> Bool {
        guard case .bool(let b) = v else { throw error(path, "expected true or false") }
        return b
    }

    private func enumValue<E: FlowEnum>(_ v: JSONValue, _ type: E.Type, _ path: String) throws(FlowError) -> E {
        guard case .string(let raw) = v else { throw error(path, "expected a string") }
        do throws(FlowError) {
            return try E.parse(raw, in: operation)
        } catch {
            throw self.error(path, error.message)
        }
    }
}
