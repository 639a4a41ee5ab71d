/// Deterministic text measurement: no font is consulted, so a picture is the same on every
/// machine. At the 12 px font, a character (grapheme cluster) counts 7 px, or 12 px when it
/// is wide (CJK, Hangul, full-width forms, emoji).
enum TextMetrics {
    static let fontSize = 12.0
    static let narrowWidth = 7.0
    static let wideWidth = 12.0
    static let ellipsis = "\u{2026}"

    /// The estimated width of one character.
    static func width(of c: Character) -> Double {
        guard let v = c.unicodeScalars.first?.value, v >= 0x1100 else { return narrowWidth }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return wideWidth
        default:
            return narrowWidth
        }
    }

    /// The estimated width of a whole string.
    static func width(of s: some StringProtocol) -> Double {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return Double(s.utf8.count) * narrowWidth }
        var w = 0.0
        for c in s { w += width(of: c) }
        return w
    }

    /// `s` as it can be written into XML: the characters XML 1.0 forbids (C0 controls
    /// other than tab, newline and carriage return; U+FFFE, U+FFFF) removed, and tab,
    /// newline and carriage return turned into spaces. Returns `s` itself when it is clean.
    static func sanitized(_ s: String) -> String {
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

    private static func isSpecial(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF
    }

    /// The lines of `text`: split at each newline (a carriage return before one is
    /// dropped). Text without a newline is one line.
    static func lines(of text: String) -> [String] {
        guard text.utf8.contains(UInt8(ascii: "\n")) else { return [text] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
    }

    /// The sanitized `s` shortened to fit `maxWidth`: unchanged when it fits, else the longest prefix that
    /// fits together with "…" (trailing spaces dropped) followed by "…". Nil when the text
    /// is empty or not even "…" fits.
    static func fitted(_ text: String, maxWidth: Double) -> (text: String, width: Double)? {
        let s = sanitized(text)
        if s.isEmpty || maxWidth < narrowWidth { return nil }
        // Every character counts at most 7 px per UTF-8 byte, so this is an upper bound.
        if Double(s.utf8.count) * narrowWidth <= maxWidth { return (s, width(of: s)) }
        let total = width(of: s)
        if total <= maxWidth { return (s, total) }
        let budget = maxWidth - narrowWidth
        var used = 0.0
        var end = s.startIndex
        for i in s.indices {
            let w = width(of: s[i])
            if used + w > budget { break }
            used += w
            end = s.index(after: i)
        }
        var prefix = s[..<end]
        while let last = prefix.last, last == " " {
            prefix.removeLast()
            used -= narrowWidth
        }
        return (prefix + ellipsis, used + narrowWidth)
    }
}
