import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `<TABLE>` of an HTML-like label laid out as Graphviz lays one out (docs/formats.md,
/// "HTML-like labels"): its cells on a grid where a cell spans `COLSPAN` columns and
/// `ROWSPAN` rows, each column as wide as its widest cell, a spanning cell's lack shared
/// evenly by its columns. Stored in the node's data as `table` (`json`).
struct DOTHTMLTable {
    /// What a table and a cell both have: colours, alignment (of a cell's contents, of a
    /// table in its cell), `WIDTH` and `HEIGHT` (minimums, border and padding included).
    struct Look {
        var fill: FlowColor?, stroke: FlowColor?
        var align: String?, valign: String?
        var width = 0.0, height = 0.0
        /// `STYLE`'s words that are drawn: rounded, dashed, dotted, invis (solid is the default).
        var style: [String] = []
        /// A cell's `SIDES`: the sides of its border drawn (of `LTRB`, in that order); nil: all.
        var sides: String?
        /// A `BGCOLOR` list's gradient (`fill` its first colour), `STYLE` radial and
        /// `GRADIENTANGLE` with it.
        var gradient: FillGradient?
    }

    /// A `<FONT>` around a cell's text (or its table): colour, size in points, face.
    struct Font: Equatable {
        var color: FlowColor?, size: Double?, face: String?

        /// `inner` (a `<FONT>` inside this one) over this one: what it gives wins.
        func with(_ inner: Font) -> Font {
            Font(color: inner.color ?? color, size: inner.size ?? size, face: inner.face ?? face)
        }

        var isEmpty: Bool { color == nil && size == nil && face == nil }

        /// `font` at this size (when given).
        func applied(to font: TextFont) -> TextFont {
            var f = font
            if let size { f.size = size }
            return f
        }
    }

    struct Cell {
        var row = 0, column = 0, rows = 1, columns = 1
        var lines: [String] = []
        var port: String?
        var table: DOTHTMLTable?
        var look = Look()
        /// The `<FONT>` in effect for the cell's text.
        var font = Font()
        /// The cell's text as lines of runs when its look changes part of the way
        /// (`DOTTextRun`); nil when all of it is in `font`.
        var spans: [[DOTTextRun]]?
        /// Its `<IMG>`, read from its file; its own size sizes the cell.
        var image: DOTImage?
        /// A `<VR/>` before the cell: a line between it and the cell before it in its row.
        var ruleBefore = false
        /// nil: the table's `CELLBORDER` (`CELLPADDING`).
        var border: Double?, padding: Double?
        /// The cell's box from the outermost table's top left corner (`layout`).
        var frame = Rect.zero
    }

    var cells: [Cell] = []
    var border = 1.0, spacing = 2.0, padding = 2.0
    var cellBorder: Double?
    var look = Look()
    /// The rows with an `<HR/>` above them: a line across the table between them and the
    /// row before.
    var rulesAbove: Set<Int> = []
    /// The table's box from the outermost table's top left corner (`layout`).
    var frame = Rect.zero

    /// The most columns (rows) a cell spans: larger spans are cut to it.
    static let maximumSpan = 256
    /// The most grid places the cells of one table may cover.
    static let maximumPlaces = 100_000

    /// Places the cells on the grid, in row order, each at the first free column of its row.
    /// Returns false when spans were cut (`maximumSpan`, `maximumPlaces`).
    mutating func place(rowsOfCells: [[Int]]) -> Bool {
        var taken = Set<Int64>()
        var whole = true
        for (r, row) in rowsOfCells.enumerated() {
            var c = 0
            for i in row {
                if cells[i].rows > Self.maximumSpan || cells[i].columns > Self.maximumSpan
                    || taken.count + cells[i].rows * cells[i].columns > Self.maximumPlaces
                {
                    whole = false
                    cells[i].rows = min(cells[i].rows, Self.maximumSpan)
                    cells[i].columns = min(cells[i].columns, Self.maximumSpan)
                    if taken.count + cells[i].rows * cells[i].columns > Self.maximumPlaces {
                        (cells[i].rows, cells[i].columns) = (1, 1)
                    }
                }
                while taken.contains(Int64(r) << 32 | Int64(c)) { c += 1 }
                cells[i].row = r
                cells[i].column = c
                for dr in 0..<cells[i].rows {
                    for dc in 0..<cells[i].columns { taken.insert(Int64(r + dr) << 32 | Int64(c + dc)) }
                }
                c += cells[i].columns
            }
        }
        return whole
    }

    /// The smallest size of the table's contents: each cell's text in `font`, nested tables
    /// at their sizes.
    mutating func size(font: TextFont) -> Size {
        for i in cells.indices {
            var content = Size(0, 0)
            if cells[i].table != nil {
                content = cells[i].table!.size(font: cells[i].font.applied(to: font))
            } else if let image = cells[i].image {
                content = Size(image.width, image.height)
            } else if let spans = cells[i].spans {
                content = DOTTextRun.size(spans, base: font)
            } else if !cells[i].lines.isEmpty {
                let f = cells[i].font.applied(to: font)
                let w = cells[i].lines.map { TextMetrics.width(of: $0, font: f) }.max() ?? 0
                content = Size(w, Double(cells[i].lines.count) * f.lineHeight)
            }
            let inset = 2 * (cellPadding(i) + cellBorderWidth(i))
            cells[i].frame.size = Size(
                max(content.width + inset, cells[i].look.width), max(content.height + inset, cells[i].look.height))
        }
        let columns = lengths(span: { ($0.column, $0.columns) }, length: { $0.frame.width })
        let rows = lengths(span: { ($0.row, $0.rows) }, length: { $0.frame.height })
        func total(_ lengths: [Double]) -> Double {
            lengths.reduce(0, +) + gap * Double(max(lengths.count - 1, 0)) + 2 * (spacing + border)
        }
        let w = total(columns), h = total(rows)
        frame.size = Size(max(w, look.width), max(h, look.height))
        // the cells' places from the table's top left corner; room a WIDTH or HEIGHT adds
        // is shared by the columns (rows)
        let grow = (
            x: columns.isEmpty ? 0 : (frame.width - w) / Double(columns.count),
            y: rows.isEmpty ? 0 : (frame.height - h) / Double(rows.count))
        let xs = starts(columns.map { $0 + grow.x }), ys = starts(rows.map { $0 + grow.y })
        for i in cells.indices {
            let c = cells[i]
            cells[i].frame = Rect(
                xs[c.column], ys[c.row],
                xs[c.column + c.columns] - xs[c.column] - gap, ys[c.row + c.rows] - ys[c.row] - gap)
        }
        return frame.size
    }

    /// The size of a node of DOT shape `shape` holding the table (sized here): the table with
    /// Graphviz's margin around it (none for `plain`), grown as Graphviz grows a label's box
    /// for a shape that is not a box (`outlineRoom`), at least `width` by `height` (54 by 36
    /// when neither is given), or exactly that when `fixed`; as wide as high for a circle.
    mutating func nodeSize(shape: String, font: TextFont, width: Double?, height: Double?, fixed: Bool) -> Size {
        let t = size(font: font)
        let minimum = width == nil && height == nil ? Size(54, 36) : Size(width ?? 0, height ?? 0)
        if fixed { return Size(width ?? t.width, height ?? t.height) }
        if shape == "plain" { return t }
        let room = Self.outlineRoom(Size(t.width + 16, t.height + 8), shape: shape, height: height)
        var out = Size(max(room.width, minimum.width), max(room.height, minimum.height))
        if Self.roundShapes.contains(shape) { out = Size(max(out.width, out.height), max(out.width, out.height)) }
        // to 1/500, so that the node's middle (where DOT writes it) is a whole thousandth
        return Size((out.width * 500).rounded() / 500, (out.height * 500).rounded() / 500)
    }

    /// The DOT shapes drawn as a circle: a table in one makes it as wide as it is high.
    static let roundShapes: Set<String> = ["circle", "doublecircle", "mcircle"]

    /// The box a node of DOT shape `shape` needs round a label of size `label` (its margin
    /// included), as Graphviz sizes one: the label's box itself for a box (any shape of four
    /// sides at right angles, a record, a note, a cylinder, …); for an ellipse the ellipse
    /// through the box's corners, √2 larger each way (only wider when the node's `height`
    /// leaves room above and below), and for another polygon of `n` sides that again over
    /// cos(π/n).
    static func outlineRoom(_ label: Size, shape: String, height: Double?) -> Size {
        let sides: Int
        switch shape {
        case "ellipse", "oval", "circle", "doublecircle", "mcircle": sides = 0
        case "triangle", "invtriangle": sides = 3
        case "diamond", "mdiamond", "parallelogram", "trapezium", "invtrapezium": sides = 4
        case "pentagon", "house", "invhouse": sides = 5
        case "hexagon": sides = 6
        case "septagon": sides = 7
        case "octagon", "doubleoctagon", "tripleoctagon": sides = 8
        default: return label
        }
        var out = label
        let root2 = 2.0.squareRoot()
        if let height, height > label.height * root2 {
            // room above and below: only wider
            out.width *= (1 / (1 - (label.height / height) * (label.height / height))).squareRoot()
        } else {
            out = Size(label.width * root2, label.height * root2)
        }
        if sides > 2 {
            let c = cos(Double.pi / Double(sides))
            out = Size(out.width / c, out.height / c)
        }
        return out
    }

    /// Where each column (row) starts, and after the last where one more would.
    private func starts(_ lengths: [Double]) -> [Double] {
        var out = [border + spacing]
        for l in lengths { out.append(out[out.count - 1] + l + gap) }
        return out
    }

    /// The widths of the columns (heights of the rows): the largest of the cells in one,
    /// then what spanning cells lack shared evenly among theirs, smaller spans first.
    private func lengths(span: (Cell) -> (Int, Int), length: (Cell) -> Double) -> [Double] {
        let count = cells.map { span($0).0 + span($0).1 }.max() ?? 0
        var out = [Double](repeating: 0, count: count)
        for c in cells where span(c).1 == 1 { out[span(c).0] = max(out[span(c).0], length(c)) }
        for c in cells.filter({ span($0).1 > 1 }).sorted(by: { span($0).1 < span($1).1 }) {
            let (at, n) = span(c)
            let have = out[at..<at + n].reduce(0, +) + gap * Double(n - 1)
            guard length(c) > have else { continue }
            let more = (length(c) - have) / Double(n)
            for k in at..<at + n { out[k] += more }
        }
        return out
    }

    /// The room between two neighbouring cells: `CELLSPACING`, or, when that is 0, minus the
    /// cell border, so that neighbours share one border line (as in Graphviz).
    var gap: Double { spacing > 0 ? spacing : -(cellBorder ?? border) }

    func cellPadding(_ i: Int) -> Double { cells[i].padding ?? padding }
    func cellBorderWidth(_ i: Int) -> Double { cells[i].border ?? cellBorder ?? border }

    /// The table moved to `origin` (its top left corner), its cells and nested tables
    /// with it; a nested table is placed in its cell by the cell's `ALIGN` and `VALIGN`.
    mutating func move(to origin: Point) {
        let dx = origin.x - frame.x, dy = origin.y - frame.y
        frame.origin = origin
        for i in cells.indices {
            cells[i].frame.origin = Point(cells[i].frame.x + dx, cells[i].frame.y + dy)
            guard let t = cells[i].table else { continue }
            let inset = cellPadding(i) + cellBorderWidth(i)
            let inner = cells[i].frame.insetBy(dx: inset, dy: inset)
            let free = Size(max(0, inner.width - t.frame.width), max(0, inner.height - t.frame.height))
            let fx: Double = switch t.look.align ?? cells[i].look.align { case "left"?: 0; case "right"?: 1; default: 0.5 }
            let fy: Double = switch t.look.valign ?? cells[i].look.valign { case "top"?: 0; case "bottom"?: 1; default: 0.5 }
            cells[i].table!.move(to: Point(inner.x + free.width * fx, inner.y + free.height * fy))
        }
    }

    /// The cells with a port, nested tables' included, as record fields with their frames
    /// (what an edge's port attaches to).
    func portFields() -> [RecordField] {
        cells.flatMap { c -> [RecordField] in
            var out: [RecordField] = []
            if let p = c.port {
                var f = RecordField(lines: c.lines, port: p)
                f.frame = c.frame
                out.append(f)
            }
            return out + (c.table?.portFields() ?? [])
        }
    }

    /// The table as JSON: its box, border width and colours, its cell spacing, the rows
    /// with a rule above (`hr`), and its cells (box, place on the grid, border, padding,
    /// colours, alignment, font, sides, style, port, text or nested table), numbers to a
    /// thousandth. What the label gave that the layout made (spans, minimum sizes, spacing)
    /// is kept too, so the DOT writer can write the label back (`DOTHTMLWriter`).
    var json: JSONValue {
        var o = JSONObject(box(frame))
        o["border"] = .number(round(border))
        o["spacing"] = .number(round(spacing))
        // the cells' border unless they give their own, and so the room between them
        // without spacing (`gap`)
        if let c = cellBorder { o["cellborder"] = .number(round(c)) }
        if let fill = look.fill { o["fill"] = .string(fill.description) }
        if let stroke = look.stroke { o["stroke"] = .string(stroke.description) }
        // where the table sits in its cell (a nested table)
        if let a = look.align { o["align"] = .string(a) }
        if let v = look.valign { o["valign"] = .string(v) }
        Self.write(look, to: &o)
        if !rulesAbove.isEmpty { o["hr"] = .array(rulesAbove.sorted().map { .number(Double($0)) }) }
        o["cells"] = .array(cells.indices.map { i in
            let c = cells[i]
            var e = JSONObject(box(c.frame))
            e["row"] = .number(Double(c.row))
            e["column"] = .number(Double(c.column))
            if c.rows != 1 { e["rows"] = .number(Double(c.rows)) }
            if c.columns != 1 { e["columns"] = .number(Double(c.columns)) }
            e["border"] = .number(round(cellBorderWidth(i)))
            e["padding"] = .number(round(cellPadding(i)))
            if let f = c.look.fill { e["fill"] = .string(f.description) }
            if let s = c.look.stroke ?? look.stroke { e["stroke"] = .string(s.description) }
            if let a = c.look.align, a != "center" { e["align"] = .string(a) }
            if let v = c.look.valign, v != "middle" { e["valign"] = .string(v) }
            Self.write(c.look, to: &e)
            if let s = c.look.sides { e["sides"] = .string(s) }
            if !c.font.isEmpty {
                var f = JSONObject()
                if let color = c.font.color { f["color"] = .string(color.description) }
                if let size = c.font.size { f["size"] = .number(round(size)) }
                if let face = c.font.face { f["face"] = .string(face) }
                e["font"] = .object(f)
            }
            if c.ruleBefore { e["vr"] = .bool(true) }
            if let p = c.port { e["port"] = .string(p) }
            if let t = c.table { e["table"] = t.json } else if !c.lines.isEmpty { e["text"] = .string(c.lines.joined(separator: "\n")) }
            if let spans = c.spans { e["spans"] = DOTTextRun.json(spans) }
            if let image = c.image { e["image"] = image.json }
            return .object(e)
        })
        return .object(o)
    }

    /// The minimum size (`minWidth`, `minHeight`) and `style` words `look` gives.
    private static func write(_ look: Look, to o: inout JSONObject) {
        if look.width > 0 { o["minWidth"] = .number((look.width * 1000).rounded() / 1000) }
        if look.height > 0 { o["minHeight"] = .number((look.height * 1000).rounded() / 1000) }
        if !look.style.isEmpty { o["style"] = .string(look.style.joined(separator: ",")) }
        if let g = look.gradient { o["gradient"] = g.jsonValue }
    }

    private func box(_ r: Rect) -> [(String, JSONValue)] {
        [("x", .number(round(r.x))), ("y", .number(round(r.y))),
         ("width", .number(round(r.width))), ("height", .number(round(r.height)))]
    }

    private func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
