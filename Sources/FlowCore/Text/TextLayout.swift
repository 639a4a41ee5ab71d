/// Lines of text laid out for a width: explicit line breaks kept, long lines wrapped at
/// spaces (and between wide characters), a word too long for a line broken between its
/// characters. Measured with `TextMetrics`, so the store, which sizes nodes to their
/// titles, and the renderer, which draws them, agree.
public struct TextLayout: Hashable, Sendable {
    public var lines: [String]
    public var font: TextFont
    /// The width of the widest line.
    public var width: Double
    /// Whether text was left out (the last line then ends in "…").
    public var isTruncated: Bool

    /// The width at which the title of a node sized to its text wraps, unless its style
    /// gives another (`FlowStyle.wrapWidth`).
    public static let defaultWrapWidth = 200.0

    public init(lines: [String], font: TextFont, isTruncated: Bool = false) {
        self.lines = lines
        self.font = font
        self.isTruncated = isTruncated
        width = lines.map { TextMetrics.width(of: $0, font: font) }.max() ?? 0
    }

    /// The height of the block of lines.
    public var height: Double { Double(lines.count) * font.lineHeight }

    /// `text` wrapped at `maxWidth` (every line, as written or wrapped, no wider than
    /// `maxWidth` unless it is a single character that is wider).
    public static func wrapped(_ text: String, maxWidth: Double, font: TextFont = .standard) -> TextLayout {
        var lines: [String] = []
        for p in TextMetrics.paragraphs(text) { wrap(p, maxWidth, font, into: &lines) }
        return TextLayout(lines: lines, font: font)
    }

    /// `text` wrapped at `maxWidth` and cut to `maxLines` lines, the last one shown ending
    /// in "…" when text was left out. Nil when `maxLines` is below 1, the text is empty, or
    /// not even "…" fits.
    public static func fitted(
        _ text: String, maxWidth: Double, maxLines: Int, font: TextFont = .standard
    ) -> TextLayout? {
        guard maxLines >= 1 else { return nil }
        let all = wrapped(text, maxWidth: maxWidth, font: font)
        if all.lines.allSatisfy(\.isEmpty) { return nil }
        if all.lines.count <= maxLines && all.width <= maxWidth { return all }
        var lines = Array(all.lines.prefix(maxLines))
        // A character wider than the whole line is cut too.
        var lastIsCut = false
        for k in lines.indices where TextMetrics.width(of: lines[k], font: font) > maxWidth {
            guard let cut = TextMetrics.ellipsized(lines[k][...], maxWidth: maxWidth, font: font) else { return nil }
            lines[k] = cut.text
            lastIsCut = k == lines.count - 1
        }
        if all.lines.count > maxLines && !lastIsCut {
            let last = trimmingTrailingSpaces(lines[maxLines - 1][...])
            if TextMetrics.width(of: last + TextMetrics.ellipsis, font: font) <= maxWidth {
                lines[maxLines - 1] = last + TextMetrics.ellipsis
            } else {
                guard let cut = TextMetrics.ellipsized(last[...], maxWidth: maxWidth, font: font) else { return nil }
                lines[maxLines - 1] = cut.text
            }
        }
        return TextLayout(lines: lines, font: font, isTruncated: true)
    }

    /// Whether a line may break between `a` and `b`: after spaces, and next to a wide
    /// character (CJK text has no spaces between words).
    @inline(__always)
    static func canBreak(_ a: Character, _ b: Character) -> Bool {
        if b == " " { return false }
        return a == " " || TextMetrics.isWide(a) || TextMetrics.isWide(b)
    }

    /// Greedy line breaking of one paragraph.
    private static func wrap(_ paragraph: String, _ maxWidth: Double, _ font: TextFont, into lines: inout [String]) {
        if TextMetrics.width(of: paragraph, font: font) <= maxWidth {
            lines.append(trimmingTrailingSpaces(paragraph[...]))
            return
        }
        let chars = Array(paragraph)
        let widths = chars.map { TextMetrics.width(of: $0, font: font) }
        var start = 0
        while start < chars.count {
            var used = 0.0
            var i = start
            var breakAt = -1
            while i < chars.count {
                if i > start && used + widths[i] > maxWidth {
                    if chars[i] == " " { breakAt = i }  // the spaces at a break are dropped
                    break
                }
                used += widths[i]
                i += 1
                if i < chars.count && canBreak(chars[i - 1], chars[i]) { breakAt = i }
            }
            let end = i >= chars.count ? chars.count : (breakAt > start ? breakAt : i)
            lines.append(trimmingTrailingSpaces(String(chars[start..<end])[...]))
            start = end
            while start < chars.count && chars[start] == " " { start += 1 }
        }
    }

    private static func trimmingTrailingSpaces(_ s: Substring) -> String {
        var t = s
        while t.last == " " { t.removeLast() }
        return String(t)
    }
}
