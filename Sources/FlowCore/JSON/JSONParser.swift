/// Strict RFC 8259 parsing of JSON text into `JSONValue`.
///
/// Accepted: exactly one value surrounded by optional whitespace (space, tab, LF, CR). Not
/// accepted: comments, trailing commas, single quotes, `NaN`/`Infinity`, leading zeros, a
/// byte order mark, unescaped control characters in strings, lone UTF-16 surrogates in
/// `\u` escapes, numbers too large for a `Double`, and arrays or objects nested deeper than
/// `JSONValue.maximumNestingDepth`. Numbers are rounded correctly to the nearest `Double`
/// (a number too small for a `Double` reads as zero of its sign).

extension JSONValue {
    /// The deepest nesting of arrays and objects `parse` accepts (the outermost counts 1).
    public static let maximumNestingDepth = 512

    /// Parses `text` as one JSON value. Objects keep their keys in document order; a key
    /// that appears twice keeps its first position and its last value.
    ///
    /// Throws `invalidDocument` under `operation`, with a message of the form
    /// `invalid JSON at line 3, column 7: expected ',' or '}'`. Lines and columns count
    /// from 1; a column counts Unicode scalars.
    public static func parse(_ text: String, operation: String = "decode") throws(FlowError)
        -> JSONValue
    {
        var text = text
        let outcome: Result<JSONValue, JSONSyntaxError> = text.withUTF8 { bytes in
            var parser = JSONParser(bytes)
            do throws(JSONSyntaxError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(
                    JSONSyntaxError(offset: error.offset, message: parser.describe(error)))
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let failure): throw .invalidDocument(operation, failure.message)
        }
    }
}

/// Where parsing stopped and what was expected there.
struct JSONSyntaxError: Error {
    var offset: Int
    var message: String
}

/// A recursive-descent parser over UTF-8 bytes. Recursion is bounded by the nesting limit.
struct JSONParser {
    // Internal (not private) so that readers of a known format can build on the parser.
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    /// Elements of the arrays and objects still open, innermost last.
    private var pendingValues: [JSONValue] = []
    /// Keys of the objects still open, innermost last (parallel to their values). The keys
    /// of one object are kept unique.
    private var pendingKeys: [String] = []
    /// Unescaped bytes of the string being read (only for strings with escapes).
    private var scratch: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("expected end of input") }
        return value
    }

    /// The full message for `error`: line, column and what was expected.
    func describe(_ error: JSONSyntaxError) -> String {
        let end = min(error.offset, bytes.count)
        var line = 1
        var column = 1
        for i in 0..<end {
            let b = bytes[i]
            if b == ASCII.newline {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
                column += 1
            }
        }
        let what =
            error.offset >= bytes.count
            ? "unexpected end of input, \(error.message)" : error.message
        return "invalid JSON at line \(line), column \(column): \(what)"
    }

    // MARK: Values

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw failure("expected a value") }
        switch bytes[index] {
        case ASCII.openBrace: return try parseObject()
        case ASCII.openBracket: return try parseArray()
        case ASCII.quote: return .string(try parseString())
        case ASCII.t:
            try literal("true")
            return .bool(true)
        case ASCII.f:
            try literal("false")
            return .bool(false)
        case ASCII.n:
            try literal("null")
            return .null
        case ASCII.minus, ASCII.zero...ASCII.nine: return .number(try parseNumber())
        default: throw failure("expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        for k in 0..<count {
            guard index + k < bytes.count, bytes[index + k] == start[k] else {
                throw failure("expected a value")
            }
        }
        index += count
    }

    mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONValue.maximumNestingDepth {
            throw failure("nesting deeper than \(JSONValue.maximumNestingDepth) levels")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1  // '['
        skipWhitespace()
        if index < bytes.count, bytes[index] == ASCII.closeBracket {
            index += 1
            depth -= 1
            return .array([])
        }
        let base = pendingValues.count
        while true {
            let element = try parseValue()
            pendingValues.append(element)
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected ',' or ']'") }
            let c = bytes[index]
            if c == ASCII.comma {
                index += 1
                skipWhitespace()
            } else if c == ASCII.closeBracket {
                index += 1
                break
            } else {
                throw failure("expected ',' or ']'")
            }
        }
        let elements = moveTail(of: &pendingValues, from: base)
        depth -= 1
        return .array(elements)
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1  // '{'
        skipWhitespace()
        if index < bytes.count, bytes[index] == ASCII.closeBrace {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        let valueBase = pendingValues.count
        let keyBase = pendingKeys.count
        // Duplicate keys are found without comparing strings in the common case: a bit per
        // signature of the short ASCII keys seen so far, a flag for any other key, and a
        // dictionary once the object has many keys.
        var signatures: UInt64 = 0
        var hasOtherKeys = false
        var positions: [String: Int]?
        while true {
            guard index < bytes.count, bytes[index] == ASCII.quote else {
                throw failure("expected a string key")
            }
            let (key, signature) = try parseKey()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == ASCII.colon else {
                throw failure("expected ':'")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            // A repeated key keeps its first position and takes the last value.
            var repeated: Int?
            if let known = positions {
                repeated = known[key]
            } else if let signature, !hasOtherKeys, signatures & (1 << signature) == 0 {
                repeated = nil  // a short ASCII key unlike all the keys before it
            } else {
                repeated = pendingKeys[keyBase...].firstIndex(of: key)
            }
            if let signature {
                signatures |= 1 << signature
            } else {
                hasOtherKeys = true
            }
            if let k = repeated {
                pendingValues[valueBase + (k - keyBase)] = value
            } else {
                pendingKeys.append(key)
                pendingValues.append(value)
                if positions != nil {
                    positions?[key] = pendingKeys.count - 1
                } else if pendingKeys.count - keyBase > JSONObject.indexThreshold {
                    var known = [String: Int](minimumCapacity: 2 * (pendingKeys.count - keyBase))
                    for k in keyBase..<pendingKeys.count { known[pendingKeys[k]] = k }
                    positions = known
                }
            }
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected ',' or '}'") }
            let c = bytes[index]
            if c == ASCII.comma {
                index += 1
                skipWhitespace()
            } else if c == ASCII.closeBrace {
                index += 1
                break
            } else {
                throw failure("expected ',' or '}'")
            }
        }
        let keys = moveTail(of: &pendingKeys, from: keyBase)
        let values = moveTail(of: &pendingValues, from: valueBase)
        depth -= 1
        return .object(JSONObject(uniqueKeys: keys, values: values))
    }

    /// Removes `array[base...]` and returns it. (Copying a slice is the cheapest way to
    /// make the new array: `Array(unsafeUninitializedCapacity:)` and `reserveCapacity` go
    /// through unspecialized code in the standard library.)
    @inline(__always)
    private func moveTail<T>(of array: inout [T], from base: Int) -> [T] {
        guard base < array.count else { return [] }
        let tail = Array(array[base...])
        array.removeSubrange(base...)
        return tail
    }

    // MARK: Keys

    /// A short key seen before, by its bytes.
    private struct CachedKey {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length = -1
        var key = ""
    }

    /// Recently read short keys, by signature (documents repeat the same keys).
    private var keyCache = [CachedKey](repeating: CachedKey(), count: 64)

    /// Reads an object key. Keys of at most 16 ASCII bytes without escapes come from
    /// `keyCache` when seen before and have a signature (0..<64, equal for equal keys);
    /// other keys have none.
    private mutating func parseKey() throws(JSONSyntaxError) -> (String, Int?) {
        let start = index + 1
        guard start + 16 < bytes.count, let base = bytes.baseAddress else {
            return (try parseString(), nil)
        }
        let raw = UnsafeRawPointer(base + start)
        var low = raw.loadUnaligned(as: UInt64.self)
        var high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        // The key ends at the first special byte, which must be its closing quote.
        let length: Int
        let lowSpecial = JSONParser.specialBytes(low)
        let highSpecial = JSONParser.specialBytes(high)
        if lowSpecial != 0 {
            length = lowSpecial.trailingZeroBitCount / 8
        } else if highSpecial != 0 {
            length = 8 + highSpecial.trailingZeroBitCount / 8
        } else {
            length = 16
        }
        let end = start + length  // <= start + 16 < bytes.count
        guard bytes[end] == ASCII.quote else { return (try parseString(), nil) }
        if length < 8 {
            low &= (1 << (8 * UInt64(length))) &- 1
            high = 0
        } else if length < 16 {
            high &= (1 << (8 * UInt64(length - 8))) &- 1
        }
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return (try parseString(), nil) }
        let mixed =
            (low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        let signature = Int(mixed >> 58)
        index = end + 1
        let cached = keyCache[signature]
        if cached.length == length && cached.low == low && cached.high == high {
            return (cached.key, signature)
        }
        let key = String(
            decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
        keyCache[signature] = CachedKey(low: low, high: high, length: length, key: key)
        return (key, signature)
    }

    // MARK: Strings

    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes, copy the bytes as they are (the text is valid UTF-8).
        index = JSONParser.firstSpecialByte(in: bytes, from: index)
        while index < bytes.count {
            let c = bytes[index]
            if c == ASCII.quote {
                let s = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if c == ASCII.backslash || c < 0x20 { break }
            index += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard index < bytes.count else { throw failure("expected '\"' to close the string") }
            let c = bytes[index]
            if c == ASCII.quote {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if c == ASCII.backslash {
                try parseEscape()
            } else if c < 0x20 {
                throw failure("control character U+00\(hexDigits(c)) in a string must be escaped")
            } else {
                scratch.append(c)
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1  // '\'
        guard index < bytes.count else { throw failure("expected an escape character after '\\'") }
        let c = bytes[index]
        index += 1
        switch c {
        case ASCII.quote, ASCII.backslash, ASCII.slash: scratch.append(c)
        case ASCII.b: scratch.append(0x08)
        case ASCII.f: scratch.append(0x0C)
        case ASCII.n: scratch.append(0x0A)
        case ASCII.r: scratch.append(0x0D)
        case ASCII.t: scratch.append(0x09)
        case ASCII.u:
            var scalar = try hex4()
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                let lowStart = index
                guard index + 1 < bytes.count, bytes[index] == ASCII.backslash,
                    bytes[index + 1] == ASCII.u
                else {
                    throw failure(
                        at: escapeStart,
                        "lone high surrogate, expected a \\uDC00-\\uDFFF escape to follow")
                }
                index += 2
                let low = try hex4()
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw failure(at: lowStart, "expected a low surrogate \\uDC00-\\uDFFF")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw failure(
                    at: escapeStart, "lone low surrogate, expected a high surrogate before it")
            }
            appendUTF8(scalar)
        default:
            index -= 1
            throw failure("invalid escape, expected one of \" \\ / b f n r t u after '\\'")
        }
    }

    /// Reads four hex digits as a UTF-16 code unit.
    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let d = hexValue(bytes[index]) else {
                throw failure("expected a hex digit")
            }
            value = value << 4 | d
            index += 1
        }
        return value
    }

    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case ASCII.zero...ASCII.nine: return UInt32(c - ASCII.zero)
        case 0x61...0x66: return UInt32(c - 0x61 + 10)  // a-f
        case 0x41...0x46: return UInt32(c - 0x41 + 10)  // A-F
        default: return nil
        }
    }

    /// Appends the UTF-8 encoding of a scalar value (never a surrogate here).
    private mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | v >> 6))
            scratch.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | v >> 12))
            scratch.append(UInt8(0x80 | v >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | v >> 18))
            scratch.append(UInt8(0x80 | v >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | v >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        }
    }

    // MARK: Numbers

    /// Exact powers of ten representable in a `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        // The significant digits as an integer while they fit (leading zeros skipped).
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0

        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        if bytes[index] == ASCII.zero {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw failure("expected '.', 'e' or the end of the number (no leading zeros)")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                accumulate(bytes[index], &mantissa, &significantDigits)
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == ASCII.dot {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw failure("expected a digit after '.'")
            }
            while index < bytes.count, isDigit(bytes[index]) {
                accumulate(bytes[index], &mantissa, &significantDigits)
                fractionDigits += 1
                index += 1
            }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == ASCII.e {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus {
                exponentNegative = bytes[index] == ASCII.minus
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw failure("expected a digit in the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) {
                if exponent < 1_000_000 {
                    exponent = exponent * 10 + Int(bytes[index] - ASCII.zero)
                }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        // Clinger's fast path: an exact integer times or divided by an exact power of ten
        // is rounded once, so the result is correctly rounded.
        let scale = exponent - fractionDigits
        if significantDigits <= 15, scale >= -22, scale <= 22 {
            var value = Double(mantissa)
            if scale >= 0 {
                value *= Self.powersOfTen[scale]
            } else {
                value /= Self.powersOfTen[-scale]
            }
            return negative ? -value : value
        }
        let lexeme = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(lexeme), value.isFinite else {
            throw failure(at: start, "number out of range")
        }
        return value
    }

    @inline(__always)
    private func accumulate(_ digit: UInt8, _ mantissa: inout UInt64, _ significant: inout Int) {
        if mantissa == 0 && digit == ASCII.zero { return }  // a leading zero
        significant += 1
        if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(digit - ASCII.zero) }
    }

    // MARK: Helpers

    @inline(__always)
    private func isDigit(_ c: UInt8) -> Bool { c >= ASCII.zero && c <= ASCII.nine }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            let c = bytes[index]
            if c > ASCII.space { return }
            if c == ASCII.space || c == ASCII.tab || c == 0x0D {
                index += 1
            } else if c == ASCII.newline {
                index += 1
                skipIndentation()
            } else {
                return
            }
        }
    }

    /// Skips spaces 8 at a time (the indentation of pretty-printed text).
    @inline(__always)
    private mutating func skipIndentation() {
        guard let base = bytes.baseAddress else { return }
        while index + 8 <= bytes.count {
            // Zero bytes in `others` are spaces; the low bytes come first in the text.
            let others =
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                ^ 0x2020_2020_2020_2020
            index += others.trailingZeroBitCount / 8
            if others != 0 { return }
        }
    }

    func failure(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: message)
    }

    private func failure(at offset: Int, _ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, message: message)
    }

    private func hexDigits(_ c: UInt8) -> String {
        let digits: [Character] = [
            "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F",
        ]
        return String([digits[Int(c >> 4)], digits[Int(c & 0xF)]])
    }
}
