/// Where a node's title goes: the lines that fit the node's shape, and the size a node
/// sized to its text needs. The renderer draws `layout(...)`; the store sizes nodes with
/// `fittingSize(...)`, which always gives a frame `layout` fits the whole title in.
///
/// A normal node's title is centred in the shape's text area (`NodeShape.textCenter`),
/// its lines wrapped to the width the shape leaves for a block that tall. A container's
/// title sits at the top left, `containerInset` in, wrapped to the frame's width less
/// twice that inset.
public enum TitleLayout {
    /// The inset of a container's title from the frame's top left corner.
    public static let containerInset = Point(10, 6)

    /// The title of a node in frame `f`, wrapped and, when it does not fit, cut with "…".
    /// Lines wrap at the width the shape leaves, and at `wrapWidth` when that is narrower
    /// (a node sized to its title: its lines wrap where the store wrapped them). Nil when
    /// there is nothing to show: an empty title, or a frame lower than the font.
    public static func layout(
        _ title: String, font: TextFont, shape: NodeShape, frame f: Rect, isContainer: Bool,
        wrapWidth: Double? = nil
    ) -> TextLayout? {
        guard f.height >= font.size else { return nil }
        let lh = font.lineHeight
        let limit = wrapWidth ?? .infinity
        if isContainer {
            let maxLines = max(1, Int(((f.height - 2 * containerInset.y) / lh + 1e-9).rounded(.down)))
            return TextLayout.fitted(
                title, maxWidth: min(f.width - 2 * containerInset.x, limit), maxLines: maxLines, font: font)
        }
        let maxLines = max(1, Int((shape.maxTextHeight(in: f) / lh + 1e-9).rounded(.down)))
        let widest = min(shape.textWidth(forBlockHeight: lh, in: f), limit)
        let narrowest = min(shape.textWidth(forBlockHeight: Double(maxLines) * lh, in: f), limit)
        if widest == narrowest {
            return TextLayout.fitted(title, maxWidth: widest, maxLines: maxLines, font: font)
        }
        // The more lines, the narrower the block may be: the fewest lines that hold the
        // title wrapped to the width for that many lines.
        for n in 1...maxLines {
            let width = min(shape.textWidth(forBlockHeight: Double(n) * lh, in: f), limit)
            let wrapped = TextLayout.wrapped(title, maxWidth: width, font: font)
            if wrapped.lines.count <= n && wrapped.width <= width + 1e-9 {
                return wrapped.lines.allSatisfy(\.isEmpty) ? nil : wrapped
            }
        }
        return TextLayout.fitted(title, maxWidth: narrowest, maxLines: maxLines, font: font)
    }

    /// The smallest frame size, at least `minimum` (a circle: a square of the smaller side
    /// of `minimum`) and in whole units, that shows all of `title`, its lines wrapped at
    /// `wrapWidth`.
    public static func fittingSize(
        _ title: String, font: TextFont, shape: NodeShape, isContainer: Bool, wrapWidth: Double,
        minimum: Size
    ) -> Size {
        if shape.isRecord && !isContainer {
            // a record's fields are not wrapped: each shows its whole text
            let s = RecordLabel.naturalSize(RecordLabel.parse(title), font: font)
            return Size(max(minimum.width, whole(s.width)), max(minimum.height, whole(s.height)))
        }
        let side = min(minimum.width, minimum.height)
        let round = shape == .circle || shape == .doublecircle
        let base = round && !isContainer ? Size(side, side) : minimum
        // The common case: a short single-line title in a plain node.
        if !isContainer, title.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 }) {
            let f = Rect(0, 0, base.width, base.height)
            if shape.maxTextHeight(in: f) >= font.lineHeight,
                Double(title.utf8.count) * TextMetrics.narrowWidth * font.scale
                    <= min(shape.textWidth(forBlockHeight: font.lineHeight, in: f), wrapWidth)
            {
                return base
            }
        }
        let block = TextLayout.wrapped(title, maxWidth: wrapWidth, font: font)
        if block.lines.allSatisfy(\.isEmpty) { return base }
        let bw = block.width, bh = block.height
        if isContainer {
            return Size(
                max(base.width, whole(bw + 2 * containerInset.x)), max(base.height, whole(bh + 2 * containerInset.y)))
        }
        func holds(_ w: Double, _ h: Double) -> Bool {
            let f = Rect(0, 0, w, h)
            return shape.maxTextHeight(in: f) + 1e-9 >= bh && shape.textWidth(forBlockHeight: bh, in: f) + 1e-9 >= bw
        }
        if holds(base.width, base.height) { return base }
        if round {
            let d = smallest(from: base.width) { holds($0, $0) }
            return Size(d, d)
        }
        let wide = max(base.width, whole(bw + 2 * NodeShape.textPadding.x))
        let h = smallest(from: base.height) { shape.maxTextHeight(in: Rect(0, 0, wide, $0)) + 1e-9 >= bh }
        let w = smallest(from: base.width) { holds($0, h) }
        return Size(w, h)
    }

    /// `v` rounded up to a whole unit (float noise below a millionth ignored).
    static func whole(_ v: Double) -> Double { (v - 1e-6).rounded(.up) }

    /// The smallest whole number from `start` (rounded up) on for which `holds` is true;
    /// `holds` must stay true once it is.
    static func smallest(from start: Double, _ holds: (Double) -> Bool) -> Double {
        var lo = whole(start)
        if holds(lo) { return lo }
        var hi = max(lo * 2, lo + 16)
        var steps = 0
        while !holds(hi) && steps < 60 {
            lo = hi
            hi *= 2
            steps += 1
        }
        // holds(hi), not holds(lo)
        while hi - lo > 1 {
            let mid = ((lo + hi) / 2).rounded(.down)
            if holds(mid) { hi = mid } else { lo = mid }
        }
        return hi
    }
}
