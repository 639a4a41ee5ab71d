/// Follows the lexical state of a pending chunk line by line, for one question: did a long
/// string or long comment (`[[ … ]]`, `--[==[ … ]==]`) stay open through a whole line? Then
/// parsing the chunk again would stop at the same unfinished long bracket, so the REPL
/// need not parse it again: a chunk of n lines inside one long string is parsed a fixed
/// number of times instead of n times (linear instead of quadratic).
struct LongBrackets {
    /// The level (number of `=`) of the open long bracket, or nil outside one.
    private(set) var openLevel: Int?
    /// A short string continues on the next line (its line ended in a backslash).
    private var shortQuote: UInt8?

    /// Scans the next line of the chunk (without its newline). Returns true when the line
    /// lay wholly inside a long bracket that was open before it and still is.
    mutating func scan(_ line: [UInt8]) -> Bool {
        if let level = openLevel, Self.closingEnd(line, from: 0, level: level) == nil { return true }
        var i = 0
        while i < line.count {
            if let level = openLevel {
                guard let end = Self.closingEnd(line, from: i, level: level) else { return false }
                openLevel = nil
                i = end
                continue
            }
            if let q = shortQuote {
                i = skipShortString(line, from: i, quote: q)
                continue
            }
            let c = line[i]
            if c == UInt8(ascii: "-"), i + 1 < line.count, line[i + 1] == UInt8(ascii: "-") {
                if let (level, end) = Self.opening(line, at: i + 2) {
                    openLevel = level
                    i = end
                    continue
                }
                return false  // a line comment: the rest of the line
            }
            if c == UInt8(ascii: "["), let (level, end) = Self.opening(line, at: i) {
                openLevel = level
                i = end
                continue
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i = skipShortString(line, from: i + 1, quote: c)
                continue
            }
            i += 1
        }
        return false
    }

    /// Skips a short string's text from `i` to after its closing quote; at the end of the
    /// line, the string continues when the line ends in a backslash (an escaped newline).
    private mutating func skipShortString(_ line: [UInt8], from start: Int, quote: UInt8) -> Int {
        var i = start
        while i < line.count {
            let c = line[i]
            if c == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if c == quote {
                shortQuote = nil
                return i + 1
            }
            i += 1
        }
        shortQuote = i == line.count + 1 ? quote : nil  // ended in a backslash
        return line.count
    }

    /// `[`, `=` * level, `[` at `i`: the level and the index after it.
    private static func opening(_ line: [UInt8], at i: Int) -> (Int, Int)? {
        guard i < line.count, line[i] == UInt8(ascii: "[") else { return nil }
        var j = i + 1
        while j < line.count && line[j] == UInt8(ascii: "=") { j += 1 }
        guard j < line.count, line[j] == UInt8(ascii: "[") else { return nil }
        return (j - i - 1, j + 1)
    }

    /// The index after the first `]`, `=` * level, `]` at or after `start`, if any.
    private static func closingEnd(_ line: [UInt8], from start: Int, level: Int) -> Int? {
        var i = start
        while i < line.count {
            if line[i] == UInt8(ascii: "]") {
                var j = i + 1
                while j < line.count && line[j] == UInt8(ascii: "=") { j += 1 }
                if j - i - 1 == level, j < line.count, line[j] == UInt8(ascii: "]") { return j + 1 }
            }
            i += 1
        }
        return nil
    }
}
