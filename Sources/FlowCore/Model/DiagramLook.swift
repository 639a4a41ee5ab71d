/// What a diagram shows as a whole: a title, where it goes, its font, and the page's colour
/// (DOT's graph `label`, `labelloc`, `fontname`, `fontsize`, `fontcolor`, `bgcolor`). Part
/// of the document (`"diagram"`), replaced by a load; the picture draws it. It also holds the
/// diagram's rank constraints (DOT's `rank=same`, …), which the layered layout honours, and
/// the spacing and direction a layout of it starts from (DOT's `nodesep`, `ranksep` and
/// `rankdir`, Mermaid's `flowchart LR`).
public struct DiagramLook: Hashable, Sendable {
    /// Where a layout of the diagram sends its layers: top to bottom, bottom to top, left to
    /// right, right to left (FlowLayout's `LayoutDirection`, by the same names).
    public enum Direction: String, Sendable, CaseIterable, FlowEnum {
        case TB, BT, LR, RL
        public static var valueName: String { "direction" }
    }

    /// Where the title goes.
    public enum TitlePlace: String, Sendable, CaseIterable, FlowEnum {
        case top, bottom
        public static var valueName: String { "title place" }
    }

    public var title: String?
    /// Default: bottom, as Graphviz places a graph's label.
    public var titlePlace: TitlePlace?
    /// A font family name, written into the picture as it is.
    public var fontName: String?
    /// The title's font size (finite, positive).
    public var fontSize: Double?
    public var textColor: FlowColor?
    /// The page's colour, over the configuration's background colour.
    public var background: FlowColor?
    /// The page's fill when it blends two colours (DOT's `bgcolor="yellow:white"`), over
    /// `background` (its first colour); written as `"backgroundGradient"`.
    public var backgroundGradient: FillGradient?
    /// Rank constraints for the layered layout (`RankSet`), in the order given; written as
    /// `"ranks"`. Ids of nodes not in the store are ignored by a layout and not saved.
    public var ranks: [RankSet]
    /// How single edges take part in the layering (`EdgeRank`, DOT's `minlen` and
    /// `constraint`), in the order given; written as `"edgeRanks"`. Ids of edges not in the
    /// store are ignored by a layout and not saved.
    public var edgeRanks: [EdgeRank]
    /// Free space between neighbours in a layer and between layers, in points, that a layout
    /// of the diagram takes when its call gives none (DOT's `nodesep` and `ranksep`, kept as
    /// read; `LayoutOptions(diagram:)`); nil: the layout's own. From 0 to
    /// `maximumSpacing`; written as `"nodeSpacing"` and `"layerSpacing"`.
    public var nodeSpacing: Double?
    public var layerSpacing: Double?
    /// Layers' centres equally spaced, the largest step between two of them taken for all
    /// (DOT's `ranksep=equally`); written as `"equalLayerSpacing": true` when set.
    public var equalLayerSpacing: Bool
    /// The direction a layout of the diagram takes when its call gives none (DOT's
    /// `rankdir`, Mermaid's header direction, kept as read); nil: the layout's own (top to
    /// bottom). Written as `"direction"`.
    public var direction: Direction?
    /// The largest spacing a document keeps, as the layout's options allow.
    public static let maximumSpacing = 1e6

    public init(
        title: String? = nil, titlePlace: TitlePlace? = nil, fontName: String? = nil, fontSize: Double? = nil,
        textColor: FlowColor? = nil, background: FlowColor? = nil, ranks: [RankSet] = [],
        edgeRanks: [EdgeRank] = [], nodeSpacing: Double? = nil, layerSpacing: Double? = nil,
        equalLayerSpacing: Bool = false, direction: Direction? = nil
    ) {
        self.direction = direction
        self.nodeSpacing = nodeSpacing
        self.layerSpacing = layerSpacing
        self.equalLayerSpacing = equalLayerSpacing
        self.ranks = ranks
        self.edgeRanks = edgeRanks
        self.title = title
        self.titlePlace = titlePlace
        self.fontName = fontName
        self.fontSize = fontSize
        self.textColor = textColor
        self.background = background
    }

    public var isEmpty: Bool {
        title == nil && titlePlace == nil && fontName == nil && fontSize == nil && textColor == nil && background == nil
            && backgroundGradient == nil
            && ranks.isEmpty && edgeRanks.isEmpty && nodeSpacing == nil && layerSpacing == nil && !equalLayerSpacing
            && direction == nil
    }

    /// Whether `v` is a spacing a document may keep: finite, from 0 to `maximumSpacing`.
    public static func isSpacing(_ v: Double) -> Bool { v.isFinite && v >= 0 && v <= maximumSpacing }

    /// As a document writes it: an object of the set fields.
    public var jsonValue: JSONValue {
        var o: [(String, JSONValue)] = []
        if let c = background { o.append(("background", .string(c.description))) }
        if let g = backgroundGradient { o.append(("backgroundGradient", g.jsonValue)) }
        if let d = direction { o.append(("direction", .string(d.rawValue))) }
        if let f = fontName { o.append(("fontName", .string(f))) }
        if !edgeRanks.isEmpty { o.append(("edgeRanks", .array(edgeRanks.map(\.jsonValue)))) }
        if equalLayerSpacing { o.append(("equalLayerSpacing", .bool(true))) }
        if let s = fontSize { o.append(("fontSize", .number(s))) }
        if let s = layerSpacing { o.append(("layerSpacing", .number(s))) }
        if let s = nodeSpacing { o.append(("nodeSpacing", .number(s))) }
        if !ranks.isEmpty { o.append(("ranks", .array(ranks.map(\.jsonValue)))) }
        if let c = textColor { o.append(("textColor", .string(c.description))) }
        if let t = title { o.append(("title", .string(t))) }
        if let p = titlePlace { o.append(("titlePlace", .string(p.rawValue))) }
        return .object(JSONObject(o))
    }

    /// Reads `jsonValue`'s form; unknown keys are ignored, as everywhere in a document.
    public init(json v: JSONValue?, operation: String, path: String = "diagram") throws(FlowError) {
        self.init()
        guard let v, v != .null else { return }
        func fail(_ key: String, _ message: String) -> FlowError { .invalidDocument(operation, "\(path).\(key): \(message)") }
        guard case .object(let o) = v else { throw .invalidDocument(operation, "\(path): expected an object") }
        func string(_ key: String) throws(FlowError) -> String? {
            guard let x = o[key], x != .null else { return nil }
            guard case .string(let s) = x else { throw fail(key, "expected a string") }
            return s
        }
        func colour(_ key: String) throws(FlowError) -> FlowColor? {
            guard let s = try string(key) else { return nil }
            guard let c = FlowColor(s) else { throw fail(key, "invalid colour '\(s)' (expected #rrggbb or #rrggbbaa)") }
            return c
        }
        title = try string("title")
        if let p = try string("titlePlace") {
            guard let place = TitlePlace(rawValue: p) else { throw fail("titlePlace", "expected top or bottom, found '\(p)'") }
            titlePlace = place
        }
        fontName = try string("fontName")
        if let x = o["fontSize"], x != .null {
            guard case .number(let n) = x, n > 0, n <= FlowLimits.fontSize else {
                throw fail("fontSize", "expected a positive number up to \(formatNumber(FlowLimits.fontSize))")
            }
            fontSize = n
        }
        for key in ["nodeSpacing", "layerSpacing"] {
            guard let x = o[key], x != .null else { continue }
            guard case .number(let n) = x, Self.isSpacing(n) else { throw fail(key, "expected a number from 0 to 1e6") }
            if key == "nodeSpacing" { nodeSpacing = n } else { layerSpacing = n }
        }
        if let x = o["equalLayerSpacing"], x != .null {
            guard case .bool(let b) = x else { throw fail("equalLayerSpacing", "expected a boolean") }
            equalLayerSpacing = b
        }
        if let d = try string("direction") {
            guard let dir = Direction(rawValue: d) else { throw fail("direction", "expected TB, BT, LR or RL, found '\(d)'") }
            direction = dir
        }
        textColor = try colour("textColor")
        background = try colour("background")
        if let x = o["backgroundGradient"], x != .null {
            backgroundGradient = try FillGradient(json: x, operation: operation, path: "\(path).backgroundGradient")
        }
        if let x = o["ranks"], x != .null {
            guard case .array(let list) = x else { throw fail("ranks", "expected an array of rank sets") }
            for (i, r) in list.enumerated() { ranks.append(try RankSet(json: r, operation: operation, path: "\(path).ranks[\(i)]")) }
        }
        if let x = o["edgeRanks"], x != .null {
            guard case .array(let list) = x else { throw fail("edgeRanks", "expected an array of edge ranks") }
            for (i, r) in list.enumerated() {
                edgeRanks.append(try EdgeRank(json: r, operation: operation, path: "\(path).edgeRanks[\(i)]"))
            }
        }
    }

    /// The look with its rank sets cut to the nodes `keeps` accepts (sets left empty dropped)
    /// and its edge ranks to the edges `keepsEdge` accepts.
    public func keepingRankNodes(_ keeps: (String) -> Bool, edges keepsEdge: (String) -> Bool = { _ in true }) -> DiagramLook {
        guard !ranks.isEmpty || !edgeRanks.isEmpty else { return self }
        var look = self
        look.edgeRanks = edgeRanks.filter { keepsEdge($0.edge) }
        look.ranks = ranks.compactMap { r in
            let ids = r.nodes.filter(keeps)
            return ids.isEmpty ? nil : RankSet(r.kind, ids)
        }
        return look
    }
}
