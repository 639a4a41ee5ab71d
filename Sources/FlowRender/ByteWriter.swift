/// An append-only UTF-8 buffer that SVG is written into. Numbers and text are encoded
/// straight into the bytes, without intermediate `String`s.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        bytes.append(b)
    }

    /// Appends literal markup.
    @inline(__always)
    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string that is known to need no escaping (ids built from hex digits, numbers).
    mutating func raw(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    /// Appends a number with at most two decimals, rounded half away from zero, trailing
    /// zeros trimmed and never `-0`. Non-finite values are written as `0` (they cannot come
    /// from a store, whose coordinates are finite, but a mapping could overflow).
    mutating func number(_ v: Double) {
        let hundredths = (v * 100).rounded()
        guard hundredths.isFinite else {
            byte(UInt8(ascii: "0"))
            return
        }
        guard hundredths.magnitude < 9e17 else {
            // Beyond Int64 range: the shortest round-trip form ("1e+20") is a valid SVG number.
            raw(v.rounded().description)
            return
        }
        let h = Int64(hundredths)
        if h == 0 {
            byte(UInt8(ascii: "0"))
            return
        }
        if h < 0 { byte(UInt8(ascii: "-")) }
        let m = h.magnitude
        integer(m / 100)
        let fraction = Int(m % 100)
        if fraction != 0 {
            byte(UInt8(ascii: "."))
            byte(UInt8(ascii: "0") &+ UInt8(fraction / 10))
            if fraction % 10 != 0 { byte(UInt8(ascii: "0") &+ UInt8(fraction % 10)) }
        }
    }

    /// Appends the decimal digits of a non-negative integer.
    mutating func integer(_ value: UInt64) {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        rest = value
        bytes.withUnsafeMutableBufferPointer { buffer in
            var i = start + count - 1
            while rest >= 10 {
                buffer[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                i -= 1
            }
            buffer[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
    }

    /// Appends `s` escaped for XML text and attribute values: `& < > " '` become entities,
    /// characters XML 1.0 forbids (C0 controls other than tab, newline and carriage
    /// return; U+FFFE and U+FFFF) are dropped, and tab, newline and carriage return become
    /// spaces. Everything else, non-ASCII included, is copied as UTF-8.
    mutating func escaped(_ s: Substring.UTF8View) {
        var it = s.makeIterator()
        while let b = it.next() {
            switch b {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "'"): raw("&apos;")
            case 0x09, 0x0A, 0x0D: byte(UInt8(ascii: " "))
            case 0x00..<0x20: continue
            case 0xEF:
                // A three-byte sequence; U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                guard let b2 = it.next(), let b3 = it.next() else { continue }
                if b2 == 0xBF && (b3 == 0xBE || b3 == 0xBF) { continue }
                byte(b)
                byte(b2)
                byte(b3)
            default: byte(b)
            }
        }
    }

    mutating func escaped(_ s: String) {
        escaped(Substring(s).utf8)
    }
}
