import FlowCore

/// The diagram's title (`FlowStore.diagramLook`, DOT's graph `label`): its lines, font and
/// place, centred above or below the content.
struct DiagramTitle {
    var layout: TextLayout
    var atTop: Bool
    /// Where the block of lines lies (canvas units); set by `place`.
    var frame = Rect.zero

    /// The room between the content and the title.
    static let gap = 8.0

    /// Centres the title on `content` (the nodes, edges and labels), above or below it.
    mutating func place(around content: Rect?) {
        let c = content ?? .zero
        let x = c.x + c.width / 2 - layout.width / 2
        let y = atTop ? c.y - Self.gap - layout.height : c.maxY + Self.gap
        frame = Rect(x, y, layout.width, layout.height)
    }
}

extension SVGRenderer {
    /// The title to draw, if the diagram has one: Graphviz's default size 14 and place at
    /// the bottom.
    func diagramTitleLayout() -> DiagramTitle? {
        let look = store.diagramLook
        guard let title = look.title, !title.isEmpty else { return nil }
        let font = TextFont(size: look.fontSize ?? 14)
        return DiagramTitle(layout: TextLayout(lines: TextMetrics.paragraphs(title), font: font), atTop: look.titlePlace == .top)
    }

    /// `<text class="title diagram">`, a line each, in the look's font and colour.
    func writeDiagramTitle(_ w: inout ByteWriter, _ t: DiagramTitle) {
        let look = store.diagramLook
        let lh = t.layout.font.lineHeight
        w.raw("<text class=\"title diagram\" style=\"font-size:")
        w.number(t.layout.font.size * zoom)
        w.raw("px")
        if let f = look.fontName {
            // a family name in quotes: the CSS of the attribute stays one declaration
            w.raw(";font-family:'")
            w.escaped(String(f.unicodeScalars.filter { $0 != "'" && $0 != "\\" && $0 != ";" }))
            w.raw("',sans-serif")
        }
        if let c = look.textColor {
            w.raw(";")
            colourProperty(&w, "fill", c)
            if w.bytes.last == UInt8(ascii: ";") { w.bytes.removeLast() }
        }
        w.raw("\">")
        writeLines(
            &w, t.layout.lines, x: t.frame.x + t.frame.width / 2,
            firstBaseline: t.frame.y + lh / 2 + t.layout.font.baselineOffset, lineHeight: lh)
        w.raw("</text>\n")
    }
}
