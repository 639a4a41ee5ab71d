/// Reads the usual form of a document straight from its bytes, without building a
/// `JSONValue` tree for the nodes and edges.
///
/// It gives up (throws) on anything unusual: invalid JSON, a wrong shape, `null`, an
/// escaped key, a hit area or phase with extra keys, data that `Data` rejects. `decode`
/// then reads the text the general way, which gives the same document or the precise
/// error. So this reader only has to be right when it succeeds, and there it agrees with
/// the general one: a repeated key takes its last value, unknown keys are skipped, and
/// keys are compared by their bytes (an escaped key gives up; a non-ASCII key never equals
/// a field name, see `DocumentReader`).
struct FastDocumentReader<Data: FlowNodeData> {
    private var p: JSONParser

    /// Where a key's bytes are in the text.
    private struct Key {
        var start: Int
        var count: Int
    }

    init(_ parser: JSONParser) {
        p = parser
    }

    mutating func document() throws(JSONSyntaxError) -> FlowDocument<Data> {
        var nodes: [FlowNode<Data>]?
        var edges: [FlowEdge]?
        var viewport: Viewport?
        p.skipWhitespace()
        var more = try beginObject()
        while more {
            let key = try readKey()
            if matches(key, "nodes") {
                var list: [FlowNode<Data>] = []
                var element = try beginArray()
                while element {
                    list.append(try node())
                    element = try nextElement()
                }
                nodes = list
            } else if matches(key, "classes") || matches(key, "diagram") {
                throw giveUp()  // a style sheet, a diagram's look: the general reader reads them
            } else if matches(key, "edges") {
                var list: [FlowEdge] = []
                var element = try beginArray()
                while element {
                    list.append(try edge())
                    element = try nextElement()
                }
                edges = list
            } else if matches(key, "viewport") {
                viewport = try self.viewport()
            } else if matches(key, "version") {
                guard try number() == Double(FlowDocument<Data>.formatVersion) else {
                    throw giveUp()
                }
            } else {
                try skipValue()
            }
            more = try nextMember()
        }
        p.skipWhitespace()
        guard p.index == p.bytes.count, let nodes, let edges, let viewport else { throw giveUp() }
        return FlowDocument(nodes: nodes, edges: edges, viewport: viewport)
    }

    // MARK: Document parts

    private mutating func node() throws(JSONSyntaxError) -> FlowNode<Data> {
        var id: String?
        var position: (Double, Double)?
        var size: (Double, Double)?
        var data: JSONValue?
        var parentID: String?
        var phase = FlowNodePhase.normal
        var persistence = NodePersistence.persistent
        var isDraggable = true
        var acceptsChildren = false
        var zIndex = 0
        var handles = HandleDeclaration.defaults
        var more = try beginObject()
        while more {
            let key = try readKey()
            switch key.count {
            case 2 where matches(key, "id"): id = try string()
            case 4 where matches(key, "data"): data = try p.parseValue()
            case 4 where matches(key, "size"): size = try pair()
            case 5 where matches(key, "phase"): phase = try self.phase()
            case 6 where matches(key, "zIndex"): zIndex = try integer()
            case 7 where matches(key, "handles"): handles = try self.handles()
            case 8 where matches(key, "position"): position = try pair()
            case 8 where matches(key, "parentID"): parentID = try string()
            case 11 where matches(key, "isDraggable"): isDraggable = try bool()
            case 11 where matches(key, "persistence"):
                persistence = try enumValue(FastEnumNames.persistences)
            case 15 where matches(key, "acceptsChildren"): acceptsChildren = try bool()
            // shapes, styles and classes: the general reader reads them
            case 5 where matches(key, "shape") || matches(key, "style"): throw giveUp()
            case 7 where matches(key, "classes"): throw giveUp()
            case 8 where matches(key, "autoSize"): throw giveUp()
            default: try skipValue()
            }
            more = try nextMember()
        }
        guard let id, let position, let size else { throw giveUp() }
        let value: Data
        do throws(FlowError) {
            value = try Data(jsonValue: data ?? .null)
        } catch {
            throw giveUp()
        }
        return FlowNode(
            id: id, position: Point(position.0, position.1), size: Size(size.0, size.1),
            data: value,
            parentID: parentID, phase: phase, persistence: persistence, isDraggable: isDraggable,
            acceptsChildren: acceptsChildren, zIndex: zIndex, handles: handles,
            autoSize: size.0 == FlowNode<Data>.defaultSize.width && size.1 == FlowNode<Data>.defaultSize.height)
    }

    private mutating func handles() throws(JSONSyntaxError) -> [HandleDeclaration] {
        var list: [HandleDeclaration] = []
        var more = try beginArray()
        while more {
            list.append(try handle())
            more = try nextElement()
        }
        // Nodes with the default handles share one array.
        return list == HandleDeclaration.defaults ? HandleDeclaration.defaults : list
    }

    private mutating func handle() throws(JSONSyntaxError) -> HandleDeclaration {
        var id: String?
        var type: HandleType?
        var position: HandlePosition?
        var offset = 0.0
        var startArea: HandleHitArea?
        var targetArea: HandleHitArea?
        var more = try beginObject()
        while more {
            let key = try readKey()
            switch key.count {
            case 2 where matches(key, "id"): id = try string()
            case 6 where matches(key, "offset"): offset = try number()
            case 4 where matches(key, "type"): type = try enumValue(FastEnumNames.handleTypes)
            case 8 where matches(key, "position"):
                position = try enumValue(FastEnumNames.handlePositions)
            case 19 where matches(key, "connectionStartArea"): startArea = try hitArea()
            case 20 where matches(key, "connectionTargetArea"): targetArea = try hitArea()
            default: try skipValue()
            }
            more = try nextMember()
        }
        guard let id, let type, let position else { throw giveUp() }
        return HandleDeclaration(
            id: id, type: type, position: position, connectionStartArea: startArea,
            connectionTargetArea: targetArea, offset: offset)
    }

    /// `{"normal": {}}` or `{"draft": {"_0": state}}`, exactly.
    private mutating func phase() throws(JSONSyntaxError) -> FlowNodePhase {
        guard try beginObject() else { throw giveUp() }
        let key = try readKey()
        let phase: FlowNodePhase
        if matches(key, "normal") {
            try emptyObject()
            phase = .normal
        } else if matches(key, "draft") {
            guard try beginObject(), matches(try readKey(), "_0") else { throw giveUp() }
            phase = .draft(try enumValue(FastEnumNames.draftStates))
            guard try !nextMember() else { throw giveUp() }
        } else {
            throw giveUp()
        }
        guard try !nextMember() else { throw giveUp() }
        return phase
    }

    /// `{"disabled": {}}`, `{"point": {"radius": r}}`, `{"node": {}}` or
    /// `{"nodeBorder": {"width": w}}`, exactly.
    private mutating func hitArea() throws(JSONSyntaxError) -> HandleHitArea {
        guard try beginObject() else { throw giveUp() }
        let key = try readKey()
        let area: HandleHitArea
        if matches(key, "disabled") {
            try emptyObject()
            area = .disabled
        } else if matches(key, "point") {
            area = .point(radius: try onlyNumber("radius"))
        } else if matches(key, "node") {
            try emptyObject()
            area = .node
        } else if matches(key, "nodeBorder") {
            area = .nodeBorder(width: try onlyNumber("width"))
        } else {
            throw giveUp()
        }
        guard try !nextMember() else { throw giveUp() }
        return area
    }

    private mutating func edge() throws(JSONSyntaxError) -> FlowEdge {
        var id: String?
        var source: String?
        var sourceHandle: String?
        var target: String?
        var targetHandle: String?
        var parentID: String?
        var pathType = EdgePathType.bezier
        var label: String?
        var points: [Point] = []
        var more = try beginObject()
        while more {
            let key = try readKey()
            switch key.count {
            case 2 where matches(key, "id"): id = try string()
            case 5 where matches(key, "label"): label = try string()
            case 6 where matches(key, "points"): points = try pointList()
            case 8 where matches(key, "pathType"): pathType = try enumValue(FastEnumNames.pathTypes)
            case 8 where matches(key, "parentID"): parentID = try string()
            case 12 where matches(key, "sourceNodeID"): source = try string()
            case 12 where matches(key, "targetNodeID"): target = try string()
            case 14 where matches(key, "sourceHandleID"): sourceHandle = try string()
            case 14 where matches(key, "targetHandleID"): targetHandle = try string()
            // styles and classes: the general reader reads them
            case 5 where matches(key, "style"): throw giveUp()
            case 7 where matches(key, "classes"): throw giveUp()
            default: try skipValue()
            }
            more = try nextMember()
        }
        guard let id, let source, let target else { throw giveUp() }
        return FlowEdge(
            id: id, sourceNodeID: source, sourceHandleID: sourceHandle, targetNodeID: target,
            targetHandleID: targetHandle, parentID: parentID, pathType: pathType, label: label,
            points: points)
    }

    /// `[[x, y], …]`.
    private mutating func pointList() throws(JSONSyntaxError) -> [Point] {
        var points: [Point] = []
        var more = try beginArray()
        while more {
            let (x, y) = try pair()
            points.append(Point(x, y))
            more = try nextElement()
        }
        return points
    }

    private mutating func viewport() throws(JSONSyntaxError) -> Viewport {
        var offset: (Double, Double)?
        var zoom: Double?
        var more = try beginObject()
        while more {
            let key = try readKey()
            if matches(key, "offset") {
                offset = try pair()
            } else if matches(key, "zoom") {
                zoom = try number()
            } else {
                try skipValue()
            }
            more = try nextMember()
        }
        guard let offset, let zoom else { throw giveUp() }
        return Viewport(offset: Point(offset.0, offset.1), zoom: zoom)
    }

    // MARK: Values (each starts at its first byte and ends just after its last)

    private func giveUp() -> JSONSyntaxError { p.failure("not the usual document form") }

    private func at(_ c: UInt8) -> Bool { p.index < p.bytes.count && p.bytes[p.index] == c }

    private mutating func string() throws(JSONSyntaxError) -> String {
        guard at(ASCII.quote) else { throw giveUp() }
        return try p.parseString()
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        guard p.index < p.bytes.count else { throw giveUp() }
        let c = p.bytes[p.index]
        guard c == ASCII.minus || (c >= ASCII.zero && c <= ASCII.nine) else { throw giveUp() }
        return try p.parseNumber()
    }

    private mutating func integer() throws(JSONSyntaxError) -> Int {
        let n = try number()
        guard n.magnitude <= 9_007_199_254_740_992, let i = Int(exactly: n) else { throw giveUp() }
        return i
    }

    private mutating func bool() throws(JSONSyntaxError) -> Bool {
        if at(ASCII.t) {
            try p.literal("true")
            return true
        }
        if at(ASCII.f) {
            try p.literal("false")
            return false
        }
        throw giveUp()
    }

    /// A string that is one of `cases`, compared by bytes (no string is made).
    private mutating func enumValue<E>(_ cases: [(StaticString, E)]) throws(JSONSyntaxError) -> E {
        guard at(ASCII.quote), let base = p.bytes.baseAddress else { throw giveUp() }
        let start = p.index + 1
        let end = JSONParser.firstSpecialByte(in: p.bytes, from: start)
        for (name, value) in cases where name.utf8CodeUnitCount == end - start {
            if end < p.bytes.count, p.bytes[end] == ASCII.quote,
                JSONByteBuffer.equal(base + start, name.utf8Start, end - start)
            {
                p.index = end + 1
                return value
            }
        }
        throw giveUp()  // escaped, unknown or not a string: the general path decides
    }

    /// `[x, y]`.
    private mutating func pair() throws(JSONSyntaxError) -> (Double, Double) {
        guard try beginArray() else { throw giveUp() }
        let x = try number()
        guard try nextElement() else { throw giveUp() }
        let y = try number()
        guard try !nextElement() else { throw giveUp() }
        return (x, y)
    }

    /// `{}`.
    private mutating func emptyObject() throws(JSONSyntaxError) {
        guard try !beginObject() else { throw giveUp() }
    }

    /// `{"name": number}`.
    private mutating func onlyNumber(_ name: StaticString) throws(JSONSyntaxError) -> Double {
        guard try beginObject(), matches(try readKey(), name) else { throw giveUp() }
        let value = try number()
        guard try !nextMember() else { throw giveUp() }
        return value
    }

    private mutating func skipValue() throws(JSONSyntaxError) {
        _ = try p.parseValue()
    }

    // MARK: Structure

    /// Consumes `{`; true when a member follows, false when `}` closed the object.
    private mutating func beginObject() throws(JSONSyntaxError) -> Bool {
        try begin(ASCII.openBrace, closer: ASCII.closeBrace)
    }

    /// After a member: consumes `,` (true: another member follows) or `}` (false).
    private mutating func nextMember() throws(JSONSyntaxError) -> Bool {
        try next(closer: ASCII.closeBrace)
    }

    /// Consumes `[`; true when an element follows, false when `]` closed the array.
    private mutating func beginArray() throws(JSONSyntaxError) -> Bool {
        try begin(ASCII.openBracket, closer: ASCII.closeBracket)
    }

    /// Consumes `opener`; true when an item follows, false when `closer` ends the container.
    private mutating func begin(_ opener: UInt8, closer: UInt8) throws(JSONSyntaxError) -> Bool {
        guard at(opener) else { throw giveUp() }
        try p.enterContainer()
        p.index += 1
        p.skipWhitespace()
        if at(closer) {
            p.index += 1
            p.depth -= 1
            return false
        }
        return true
    }

    /// After an element: consumes `,` (true: another element follows) or `]` (false).
    private mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        try next(closer: ASCII.closeBracket)
    }

    private mutating func next(closer: UInt8) throws(JSONSyntaxError) -> Bool {
        p.skipWhitespace()
        if at(ASCII.comma) {
            p.index += 1
            p.skipWhitespace()
            return true
        }
        guard at(closer) else { throw giveUp() }
        p.index += 1
        p.depth -= 1
        return false
    }

    /// Reads `"key":` and leaves the index at the value.
    private mutating func readKey() throws(JSONSyntaxError) -> Key {
        guard at(ASCII.quote) else { throw giveUp() }
        let start = p.index + 1
        var end = JSONParser.firstSpecialByte(in: p.bytes, from: start)
        while end < p.bytes.count {
            let c = p.bytes[end]
            if c == ASCII.quote { break }
            if c == ASCII.backslash || c < 0x20 { throw giveUp() }
            end += 1
        }
        guard end < p.bytes.count else { throw giveUp() }
        p.index = end + 1
        p.skipWhitespace()
        guard at(ASCII.colon) else { throw giveUp() }
        p.index += 1
        p.skipWhitespace()
        return Key(start: start, count: end - start)
    }

    private func matches(_ key: Key, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount, let base = p.bytes.baseAddress else {
            return false
        }
        return JSONByteBuffer.equal(base + key.start, name.utf8Start, key.count)
    }
}

/// The raw values of the document's enums, for matching by bytes (a test checks them
/// against `allCases`).
enum FastEnumNames {
    static let persistences: [(StaticString, NodePersistence)] = [
        ("persistent", .persistent), ("transient", .transient),
    ]
    static let handleTypes: [(StaticString, HandleType)] = [
        ("source", .source), ("target", .target),
    ]
    static let handlePositions: [(StaticString, HandlePosition)] = [
        ("center", .center), ("top", .top), ("bottom", .bottom), ("left", .left), ("right", .right),
    ]
    static let draftStates: [(StaticString, DraftPresentationState)] = [
        ("neutral", .neutral), ("valid", .valid), ("invalid", .invalid),
    ]
    static let pathTypes: [(StaticString, EdgePathType)] = [
        ("bezier", .bezier), ("straight", .straight), ("smoothStep", .smoothStep),
        ("simpleBezier", .simpleBezier), ("orthogonal", .orthogonal),
    ]
}
