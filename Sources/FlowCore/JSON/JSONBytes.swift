/// The bytes of JSON text that the parser and the writer both look for: ASCII values and a
/// scan, eight bytes at a time, for the characters a string literal must escape.

/// ASCII byte values used by the parser and the writer.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let b: UInt8 = 0x62
    static let e: UInt8 = 0x65
    static let f: UInt8 = 0x66
    static let n: UInt8 = 0x6E
    static let r: UInt8 = 0x72
    static let t: UInt8 = 0x74
    static let u: UInt8 = 0x75
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
}

extension JSONParser {
    /// The position, from `start` on, of the first `"`, `\` or control character (or where
    /// 8-byte steps stop short of one: the caller goes on byte by byte).
    @inline(__always)
    static func firstSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var i = start
        while i + 8 <= bytes.count {
            let special = specialBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if special != 0 { return i + special.trailingZeroBitCount / 8 }
            i += 8
        }
        return i
    }

    /// For 8 bytes of text (the first in the low byte): the high bit of each byte that is
    /// `"`, `\` or below 0x20. Bytes after a true match may be marked wrongly, so only the
    /// lowest set bit is exact.
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = w ^ (ones &* 0x22)
        let backslashes = w ^ (ones &* 0x5C)
        return ((quotes &- ones) & ~quotes & highs) | ((backslashes &- ones) & ~backslashes & highs)
            | ((w &- ones &* 0x20) & ~w & highs)
    }
}
