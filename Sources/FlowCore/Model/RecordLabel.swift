// The fields of a `record` or `mrecord` node: its title in Graphviz's record syntax
// (docs/formats.md, "Records"). `a | b | c` are fields side by side, `{ … }` flips the
// direction inside it, `<port>` names a field that edges may attach to; `\{`, `\}`, `\|`,
// `\<`, `\>` and `\ ` stand for themselves, `\n`, `\l`, `\r` end a line.

/// One field of a record, or a row or column of fields, with its place in the node.
public struct RecordField: Hashable, Sendable {
    /// The field's text, its lines split (empty for a row or column of fields).
    public var lines: [String]
    /// The port name given as `<name>`, or nil.
    public var port: String?
    /// The fields inside a `{ … }` (or the whole record); empty for a text field.
    public var children: [RecordField]
    /// Whether the children lie side by side (left to right) rather than stacked.
    public var horizontal: Bool
    /// The field's box in the node's frame (after `RecordLabel.layout`).
    public var frame: Rect = .zero

    public init(lines: [String] = [], port: String? = nil, children: [RecordField] = [], horizontal: Bool = true) {
        self.lines = lines
        self.port = port
        self.children = children
        self.horizontal = horizontal
    }

    /// Whether this field holds other fields.
    public var isGroup: Bool { !children.isEmpty }
}

public enum RecordLabel {
    /// The space around a field's text: 8 on each side, 4 above and below (Graphviz's).
    public static let padding = Point(8, 4)

    /// The fields of `label`, the top level side by side (stacked when `vertical`). Never
    /// fails: an unmatched `}` ends the group it is in, a missing one is supplied.
    public static func parse(_ label: String, vertical: Bool = false) -> RecordField {
        var it = Array(label)[...]
        return group(&it, horizontal: !vertical, depth: 0)
    }

    private static func group(_ it: inout ArraySlice<Character>, horizontal: Bool, depth: Int) -> RecordField {
        var children: [RecordField] = []
        var text = ""
        var port: String?
        var inPort = false
        var portText = ""
        var nested: RecordField?
        func finish() {
            if let n = nested {
                children.append(n)
            } else {
                children.append(RecordField(lines: lines(text), port: port))
            }
            text = ""
            port = nil
            nested = nil
        }
        while let c = it.first {
            it = it.dropFirst()
            if c == "\\", let d = it.first {
                it = it.dropFirst()
                switch d {
                case "n", "l", "r": text.append("\n")
                case "{", "}", "|", "<", ">", " ", "\\": if inPort { portText.append(d) } else { text.append(d) }
                default: text.append(c); text.append(d)
                }
                continue
            }
            if inPort {
                if c == ">" {
                    inPort = false
                    port = trimmed(portText)
                    portText = ""
                } else {
                    portText.append(c)
                }
                continue
            }
            switch c {
            case "<": inPort = true
            case "|": finish()
            case "{" where depth < 64:
                nested = group(&it, horizontal: !horizontal, depth: depth + 1)
            case "}" where depth > 0:
                finish()
                return RecordField(children: children, horizontal: horizontal)
            default: text.append(c)
            }
        }
        finish()
        return RecordField(children: children, horizontal: horizontal)
    }

    /// `text` trimmed of spaces at its ends, split into lines (a final line break adds no
    /// empty line).
    private static func lines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map { trimmed($0) }
        if parts.count > 1, parts.last == "" { parts.removeLast() }
        return parts
    }

    private static func trimmed(_ s: some StringProtocol) -> String {
        String(s.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// The smallest size that shows every field's text in `font`.
    public static func naturalSize(_ field: RecordField, font: TextFont) -> Size {
        if !field.isGroup {
            let w = field.lines.map { TextMetrics.width(of: $0, font: font) }.max() ?? 0
            let h = Double(max(field.lines.count, 1)) * font.lineHeight
            return Size(w + 2 * padding.x, h + 2 * padding.y)
        }
        var total = Size(0, 0)
        for c in field.children {
            let s = naturalSize(c, font: font)
            if field.horizontal {
                total = Size(total.width + s.width, max(total.height, s.height))
            } else {
                total = Size(max(total.width, s.width), total.height + s.height)
            }
        }
        return total
    }

    /// `field` laid out in `frame`: each field gets at least its natural size, the room left
    /// over shared evenly among the fields of a row or column (as Graphviz does).
    public static func layout(_ field: RecordField, in frame: Rect, font: TextFont) -> RecordField {
        var out = field
        out.frame = frame
        guard field.isGroup else { return out }
        let sizes = field.children.map { naturalSize($0, font: font) }
        let natural = sizes.reduce(0) { $0 + (field.horizontal ? $1.width : $1.height) }
        let room = field.horizontal ? frame.width : frame.height
        let extra = (room - natural) / Double(sizes.count)
        var at = field.horizontal ? frame.x : frame.y
        for (i, c) in field.children.enumerated() {
            let length = max(0, (field.horizontal ? sizes[i].width : sizes[i].height) + extra)
            let r = field.horizontal
                ? Rect(at, frame.y, length, frame.height) : Rect(frame.x, at, frame.width, length)
            out.children[i] = layout(c, in: r, font: font)
            at += length
        }
        return out
    }

    /// The fields with a port named `name` (the first found, depth first), or nil.
    public static func field(named name: String, in field: RecordField) -> RecordField? {
        if field.port == name { return field }
        for c in field.children {
            if let f = self.field(named: name, in: c) { return f }
        }
        return nil
    }

    /// Every text field, depth first.
    public static func leaves(_ field: RecordField) -> [RecordField] {
        field.isGroup ? field.children.flatMap { leaves($0) } : [field]
    }

    /// The separators between the fields: one segment between each two neighbours in a row
    /// or column.
    public static func separators(_ field: RecordField) -> [(Point, Point)] {
        guard field.isGroup else { return [] }
        var out: [(Point, Point)] = []
        for (i, c) in field.children.enumerated() {
            if i > 0 {
                let f = c.frame
                out.append(field.horizontal ? (Point(f.x, f.y), Point(f.x, f.maxY)) : (Point(f.x, f.y), Point(f.maxX, f.y)))
            }
            out += separators(c)
        }
        return out
    }
}

extension NodeShape {
    /// Whether the title is a record label whose fields are drawn (`record`, `mrecord`).
    public var isRecord: Bool { self == .record || self == .mrecord }
}
