/// A font as the text metrics see it: a size in canvas units and whether it is bold.
/// Italic text is measured like upright text.
public struct TextFont: Hashable, Sendable {
    public var size: Double
    public var bold: Bool

    /// The size of titles and labels without a style.
    public static let defaultSize = 12.0
    public static let standard = TextFont(size: defaultSize, bold: false)

    public init(size: Double, bold: Bool = false) {
        self.size = size
        self.bold = bold
    }

    /// How much wider than the 12 px regular font each character is.
    var scale: Double { size / TextFont.defaultSize * (bold ? TextMetrics.boldFactor : 1) }

    /// The distance between the baselines of two lines.
    public var lineHeight: Double { size * 1.25 }

    /// How far a line's baseline sits below the line's vertical centre.
    public var baselineOffset: Double { size * 0.35 }
}

/// Deterministic text measurement: no font is consulted, so a picture, and the size of a
/// node sized to its text, is the same on every machine. At the 12 px font a character
/// (grapheme cluster) counts 7 px, or 12 px when it is wide (CJK, Hangul, full-width
/// forms, emoji); other sizes scale that, and bold text is 10 % wider.
///
/// The store uses these metrics to size nodes to their titles, the renderer to lay the
/// titles out: both see the same widths.
public enum TextMetrics {
    public static let fontSize = TextFont.defaultSize
    public static let narrowWidth = 7.0
    public static let wideWidth = 12.0
    public static let boldFactor = 1.1
    public static let ellipsis = "\u{2026}"

    /// Whether a character counts as wide.
    public static func isWide(_ c: Character) -> Bool {
        guard let v = c.unicodeScalars.first?.value, v >= 0x1100 else { return false }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The estimated width of one character.
    public static func width(of c: Character, font: TextFont = .standard) -> Double {
        (isWide(c) ? wideWidth : narrowWidth) * font.scale
    }

    /// The estimated width of a whole string.
    public static func width(of s: some StringProtocol, font: TextFont = .standard) -> Double {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return Double(s.utf8.count) * narrowWidth * font.scale }
        var w = 0.0
        for c in s { w += width(of: c, font: font) }
        return w
    }

    /// `s` as it can be written into XML on one line: the characters XML 1.0 forbids (C0
    /// controls other than tab, newline and carriage return; U+FFFE, U+FFFF) removed, and
    /// tab, newline and carriage return turned into spaces. Returns `s` itself when it is
    /// clean.
    public static func sanitized(_ s: String) -> String {
        let clean = s.utf8.allSatisfy { $0 >= 0x20 && $0 != 0xEF }
        if clean || !s.unicodeScalars.contains(where: isSpecial) { return s }
        var result = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            switch u.value {
            case 0x09, 0x0A, 0x0D: result.append(" ")
            case 0x00..<0x20, 0xFFFE, 0xFFFF: continue
            default: result.append(u)
            }
        }
        return String(result)
    }

    /// The lines of `s` as written: split at `\n`, `\r\n` and `\r`, each line sanitized as
    /// `sanitized` does (tabs become spaces).
    public static func paragraphs(_ s: String) -> [String] {
        guard s.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return [sanitized(s)] }
        var out: [String] = []
        var line = String.UnicodeScalarView()
        var afterCR = false
        for u in s.unicodeScalars {
            defer { afterCR = u == "\r" }
            if u == "\n" && afterCR { continue }
            if u == "\n" || u == "\r" {
                out.append(sanitized(String(line)))
                line = String.UnicodeScalarView()
            } else {
                line.append(u)
            }
        }
        out.append(sanitized(String(line)))
        return out
    }

    static func isSpecial(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF
    }

    /// The sanitized `s` shortened to fit `maxWidth` on one line: unchanged when it fits,
    /// else the longest prefix that fits together with "…" (trailing spaces dropped)
    /// followed by "…". Nil when the text is empty or not even "…" fits.
    public static func fitted(
        _ text: String, maxWidth: Double, font: TextFont = .standard
    ) -> (text: String, width: Double)? {
        let s = sanitized(text)
        let narrow = narrowWidth * font.scale
        if s.isEmpty || maxWidth < narrow { return nil }
        // Every character counts at most 7 px (scaled) per UTF-8 byte, so this is an upper bound.
        if Double(s.utf8.count) * narrow <= maxWidth { return (s, width(of: s, font: font)) }
        let total = width(of: s, font: font)
        if total <= maxWidth { return (s, total) }
        return ellipsized(s[...], maxWidth: maxWidth, font: font)
    }

    /// `s` cut so that it fits `maxWidth` followed by "…" (trailing spaces dropped), with
    /// its width; nil when not even "…" fits.
    static func ellipsized(_ s: Substring, maxWidth: Double, font: TextFont) -> (text: String, width: Double)? {
        let mark = width(of: Character(ellipsis), font: font)
        if maxWidth < mark { return nil }
        let budget = maxWidth - mark
        var used = 0.0
        var end = s.startIndex
        for i in s.indices {
            let w = width(of: s[i], font: font)
            if used + w > budget { break }
            used += w
            end = s.index(after: i)
        }
        var prefix = s[..<end]
        while let last = prefix.last, last == " " {
            prefix.removeLast()
            used -= width(of: last, font: font)
        }
        return (prefix + ellipsis, used + mark)
    }
}
