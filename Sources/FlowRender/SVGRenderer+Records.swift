import FlowCore

// Record nodes: the fields of a `record` or `mrecord` title drawn in their boxes, with a
// line between each two neighbours (docs/formats.md, "Records").

extension SVGRenderer {
    /// The fields of record node `n` (its title in record syntax): one `path` of class
    /// `fields` with the separators, then each field's text centred in its box.
    func writeRecord(_ w: inout ByteWriter, _ n: FlowNode<Data>, _ title: String, _ inline: FlowStyle) {
        let style = n.hasLook ? store.resolvedStyle(of: n) : FlowStyle()
        let font = style.font
        let record = RecordLabel.layout(RecordLabel.parse(title), in: n.frame, font: font)
        let lines = RecordLabel.separators(record)
        if !lines.isEmpty {
            w.raw("<path class=\"shape fields\" fill=\"none\"")
            writeInline(&w, inline, .nodeShape)
            w.raw(" d=\"")
            for (a, b) in lines {
                w.byte(UInt8(ascii: "M"))
                w.number(mapX(a.x))
                w.byte(32)
                w.number(mapY(a.y))
                w.byte(UInt8(ascii: "L"))
                w.number(mapX(b.x))
                w.byte(32)
                w.number(mapY(b.y))
            }
            w.raw("\"/>\n")
        }
        for field in RecordLabel.leaves(record) where field.lines.contains(where: { !$0.isEmpty }) {
            let f = field.frame
            // cut to the field's width, as a title is cut to its node's
            guard let layout = TextLayout.fitted(
                field.lines.joined(separator: "\n"), maxWidth: max(0, f.width - 2 * RecordLabel.padding.x),
                maxLines: max(1, field.lines.count), font: font)
            else { continue }
            writeTitle(&w, layout, .rectangle, f, inline)
        }
    }
}
