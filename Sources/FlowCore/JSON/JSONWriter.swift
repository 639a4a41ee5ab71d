/// Writes JSON text into a byte buffer, one token at a time.
///
/// Compact mode writes no whitespace at all. Pretty mode indents by two spaces, writes
/// `"key": value`, puts every object member and array element on its own line except that
/// an array whose elements are all scalars stays on one line (`[1, 2]`), and writes empty
/// containers as `{}` and `[]`. No line ends in whitespace, and the writer never adds a
/// final newline (call `appendNewline()` for one).
///
/// Numbers are written as `formatNumber` formats them; non-finite numbers, which JSON
/// cannot express, are written as `null`. Strings escape `"`, `\` and the control
/// characters below U+0020 and keep every other character as raw UTF-8.
///
/// The caller is responsible for the order of calls (a `key` before each object member,
/// balanced `begin`/`end`). Calls out of order produce malformed text, never a crash;
/// surplus `endObject`/`endArray` calls are ignored.
///
/// A writer is a value: a copy writes into its own buffer.
public struct JSONWriter {
    /// Whether the output is indented.
    public let pretty: Bool
    /// Whether `value(_:)` writes object keys sorted by their UTF-8 bytes (otherwise in the
    /// object's own order). Keys given to `key(_:)` are always written as given.
    public let sortedKeys: Bool

    private var buffer = JSONByteBuffer(capacity: 256)

    private enum Layout { case pending, inline, multiline }

    /// An open object or array.
    private struct Container {
        var isObject: Bool
        /// Members or elements written so far.
        var count: Int
        /// Arrays in pretty mode: one line, or one element per line.
        var layout: Layout
        /// Offset of the opening bracket in the buffer.
        var start: Int
    }

    /// Number of open containers; the innermost is `top`, the others are in `outer`.
    private var depth = 0
    private var top = Container(isObject: false, count: 0, layout: .pending, start: 0)
    private var outer: [Container] = []
    private var afterKey = false

    public init(pretty: Bool = true, sortedKeys: Bool = true) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
    }

    /// Makes room for `byteCount` more bytes.
    public mutating func reserveCapacity(_ byteCount: Int) {
        makeUnique()
        buffer.reserve(max(byteCount, 0))
    }

    /// The text written so far, as UTF-8.
    public var bytes: [UInt8] { buffer.withBytes { Array($0) } }

    /// The text written so far.
    public var text: String { buffer.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Appends a line feed (for a final newline).
    public mutating func appendNewline() {
        makeUnique()
        buffer.append(ASCII.newline)
    }

    // MARK: Structure

    public mutating func beginObject() {
        makeUnique()
        beforeValue(isContainer: true)
        open(Container(isObject: true, count: 0, layout: .multiline, start: buffer.count))
        buffer.append(ASCII.openBrace)
    }

    public mutating func endObject() {
        makeUnique()
        guard let closed = close() else { return }
        if pretty && closed.count > 0 { newline() }
        buffer.append(ASCII.closeBrace)
    }

    /// Writes the key of the next object member.
    public mutating func key(_ name: String) {
        makeUnique()
        startKey()
        appendQuoted(name)
        finishKey()
    }

    public mutating func beginArray() {
        beginArray(multiline: false)
    }

    /// `multiline` puts the elements on their own lines from the start (when the caller
    /// knows a container element will follow).
    mutating func beginArray(multiline: Bool) {
        makeUnique()
        beforeValue(isContainer: true)
        open(
            Container(
                isObject: false, count: 0, layout: multiline ? .multiline : .pending,
                start: buffer.count))
        buffer.append(ASCII.openBracket)
    }

    public mutating func endArray() {
        makeUnique()
        guard let closed = close() else { return }
        if pretty && closed.count > 0 && closed.layout == .multiline { newline() }
        buffer.append(ASCII.closeBracket)
    }

    // MARK: Scalars

    public mutating func string(_ s: String) {
        makeUnique()
        beforeValue(isContainer: false)
        appendQuoted(s)
    }

    public mutating func number(_ v: Double) {
        makeUnique()
        beforeValue(isContainer: false)
        appendNumber(v)
    }

    /// Writes an integer exactly. Integers beyond ±2^53 do not all read back exactly as a
    /// `Double`.
    public mutating func number(_ v: Int) {
        makeUnique()
        beforeValue(isContainer: false)
        appendInteger(Int64(v))
    }

    public mutating func bool(_ b: Bool) {
        makeUnique()
        beforeValue(isContainer: false)
        buffer.append(b ? "true" : "false")
    }

    public mutating func null() {
        makeUnique()
        beforeValue(isContainer: false)
        buffer.append("null")
    }

    /// Writes a whole value. Nesting depth is not limited (the writer does not recurse).
    public mutating func value(_ v: JSONValue) {
        // Containers being written, innermost last, each with its position.
        enum Work {
            case array([JSONValue], Int)
            case object([(key: String, value: JSONValue)], Int)
        }
        var stack: [Work] = []
        var current = v
        while true {
            switch current {
            case .null: null()
            case .bool(let b): bool(b)
            case .number(let n): number(n)
            case .string(let s): string(s)
            case .array(let elements):
                beginArray(multiline: elements.contains { $0.isContainer })
                stack.append(.array(elements, 0))
            case .object(let object):
                beginObject()
                stack.append(.object(sortedKeys ? object.sortedPairs : object.pairs, 0))
            }
            // Find the next value to write, closing finished containers.
            var next: JSONValue?
            while next == nil, let work = stack.last {
                switch work {
                case .array(let elements, let i):
                    if i < elements.count {
                        stack[stack.count - 1] = .array(elements, i + 1)
                        next = elements[i]
                    } else {
                        stack.removeLast()
                        endArray()
                    }
                case .object(let pairs, let i):
                    if i < pairs.count {
                        stack[stack.count - 1] = .object(pairs, i + 1)
                        key(pairs[i].key)
                        next = pairs[i].value
                    } else {
                        stack.removeLast()
                        endObject()
                    }
                }
            }
            guard let next else { return }
            current = next
        }
    }

    /// Moves the text written so far to the end of `out` and empties the buffer, so a long
    /// document is built in small pieces. Does nothing while an array written on one line
    /// is open (it may still have to be rewritten).
    mutating func drain(into out: inout String) {
        if depth > 0 && !top.isObject && top.layout == .inline { return }
        makeUnique()
        out += buffer.withBytes { String(decoding: $0, as: UTF8.self) }
        buffer.truncate(to: 0)
    }

    /// Bytes written and not drained.
    var byteCount: Int { buffer.count }

    // MARK: Fragments (internal, for writers of a fixed layout)

    // These append text as it is, with no separators or indentation of their own: the
    // caller writes them (a fixed layout can be written as literal fragments). They
    // count as content of the innermost open container, so its closing bracket goes on its
    // own line. They skip the copy-on-write check: use them only on a writer that was never
    // copied.

    /// Appends `text` as it is.
    mutating func fragment(_ text: StaticString) {
        if depth > 0 && top.count == 0 { top.count = 1 }
        buffer.append(text)
    }

    /// Appends a string literal.
    mutating func fragment(quoting s: String) {
        appendQuoted(s)
    }

    /// Appends a number as `number(_:)` writes it.
    mutating func fragment(number v: Double) {
        appendNumber(v)
    }

    /// Appends an integer exactly.
    mutating func fragment(integer v: Int) {
        appendInteger(Int64(v))
    }

    /// Writes `v` as the value of a member whose key the caller has written, indented for
    /// the innermost open container.
    mutating func fragment(value v: JSONValue) {
        if depth > 0 && top.count == 0 { top.count = 1 }
        afterKey = true
        value(v)
        afterKey = false
    }

    // MARK: Known keys (internal)

    /// Writes the key `name`, which needs no escaping.
    mutating func rawKey(_ name: StaticString) {
        makeUnique()
        writeKey(name)
        afterKey = true
    }

    /// Separator, indentation, `"name"` and `: ` of the next member.
    @inline(__always)
    private mutating func writeKey(_ name: StaticString) {
        let comma = depth > 0 && top.count > 0
        if depth > 0 { top.count += 1 }
        let indent = pretty ? 2 * depth : 0
        let length = name.utf8CodeUnitCount
        let source = name.utf8Start
        let pretty = self.pretty
        // At most: comma, line feed, indent (+7 for 8-byte space stores), quoted name, ": ".
        buffer.appendTail(maximumCount: length + indent + 13) { p in
            var i = 0
            if comma {
                p[i] = ASCII.comma
                i += 1
            }
            if pretty {
                p[i] = ASCII.newline
                i += 1
                JSONByteBuffer.storeSpaces(p + i, indent)
                i += indent
            }
            p[i] = ASCII.quote
            i += 1
            JSONByteBuffer.copy(p + i, source, length)
            i += length
            p[i] = ASCII.quote
            p[i + 1] = ASCII.colon
            i += 2
            if pretty {
                p[i] = ASCII.space
                i += 1
            }
            return i
        }
    }

    // MARK: Numbers

    /// The JSON text of a number: the shortest text that reads back exactly. Integral
    /// values below 2^53 in magnitude have no fraction (`100`), `-0.0` is `-0`, other values
    /// are written as Swift prints them (`0.1`, `1e-05`, `1e+21`); NaN and infinities,
    /// which JSON cannot express, are `null`.
    public static func formatNumber(_ v: Double) -> String {
        if !v.isFinite { return "null" }
        if v == 0 { return v.sign == .minus ? "-0" : "0" }
        if v.magnitude < 9_007_199_254_740_992, v == v.rounded(.towardZero) {
            return String(Int64(v))
        }
        return v.description
    }

    private mutating func appendNumber(_ v: Double) {
        if v.isFinite, v != 0, v.magnitude < 9_007_199_254_740_992, v == v.rounded(.towardZero) {
            appendInteger(Int64(v))
        } else {
            var text = JSONWriter.formatNumber(v)
            text.withUTF8 { buffer.append($0) }
        }
    }

    private mutating func appendInteger(_ v: Int64) {
        if v < 0 { buffer.append(ASCII.minus) }
        var m = v.magnitude
        var digits = 1
        var t = m
        while t >= 10 {
            t /= 10
            digits += 1
        }
        buffer.appendDigits(digits) { p in
            var i = digits
            repeat {
                i -= 1
                p[i] = ASCII.zero + UInt8(m % 10)
                m /= 10
            } while m > 0
        }
    }

    // MARK: Internals

    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
    }

    private mutating func open(_ container: Container) {
        if depth > 0 { outer.append(top) }
        top = container
        depth += 1
    }

    /// Closes the innermost container and returns it (nil when none is open).
    private mutating func close() -> Container? {
        guard depth > 0 else { return nil }
        afterKey = false
        let closed = top
        depth -= 1
        if depth > 0, let enclosing = outer.popLast() { top = enclosing }
        return closed
    }

    /// Separator and indentation before a value.
    @inline(__always)
    private mutating func beforeValue(isContainer: Bool) {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0, !top.isObject else { return }
        let n = top.count
        top.count += 1
        guard pretty else {
            if n > 0 { buffer.append(ASCII.comma) }
            return
        }
        switch top.layout {
        case .pending:
            if isContainer {
                top.layout = .multiline
                newline()
            } else {
                top.layout = .inline
            }
        case .inline:
            if isContainer {
                breakInlineArray()
                buffer.append(ASCII.comma)
                newline()
            } else {
                buffer.append(ASCII.comma)
                buffer.append(ASCII.space)
            }
        case .multiline:
            if n > 0 { buffer.append(ASCII.comma) }
            newline()
        }
    }

    /// Rewrites the innermost array, written so far on one line, with one element per line.
    /// Its elements are scalars separated by `, ` (commas inside strings are skipped).
    private mutating func breakInlineArray() {
        let first = min(top.start + 1, buffer.count)
        let written = buffer.withBytes { Array($0[first...]) }
        buffer.truncate(to: first)
        top.layout = .multiline
        newline()
        var inString = false
        var escaped = false
        var i = 0
        while i < written.count {
            let c = written[i]
            if inString {
                if escaped {
                    escaped = false
                } else if c == ASCII.backslash {
                    escaped = true
                } else if c == ASCII.quote {
                    inString = false
                }
            } else if c == ASCII.quote {
                inString = true
            } else if c == ASCII.comma {
                buffer.append(ASCII.comma)
                newline()
                i += 2  // the comma and the space after it
                continue
            }
            buffer.append(c)
            i += 1
        }
    }

    @inline(__always)
    private mutating func startKey() {
        if depth > 0 {
            if top.count > 0 { buffer.append(ASCII.comma) }
            top.count += 1
        }
        if pretty { newline() }
    }

    @inline(__always)
    private mutating func finishKey() {
        if pretty {
            buffer.append(ASCII.colon, ASCII.space)
        } else {
            buffer.append(ASCII.colon)
        }
        afterKey = true
    }

    @inline(__always)
    private mutating func newline() {
        buffer.appendLine(indent: 2 * depth)
    }

    private mutating func appendQuoted(_ s: String) {
        let buffer = self.buffer
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { buffer.appendQuoted($0) }
        if done == nil {
            var copy = s
            copy.withUTF8 { buffer.appendQuoted($0) }
        }
    }
}

/// The growable bytes of a `JSONWriter`. Writes check capacity only; the writer copies the
/// buffer before writing when it is shared.
final class JSONByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    func copy() -> JSONByteBuffer {
        let c = JSONByteBuffer(capacity: capacity)
        c.base.initialize(from: base, count: count)
        c.count = count
        return c
    }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    func truncate(to newCount: Int) {
        count = min(max(newCount, 0), count)
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    private func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    @inline(__always)
    func append(_ a: UInt8, _ b: UInt8) {
        reserve(2)
        base[count] = a
        base[count + 1] = b
        count += 2
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        JSONByteBuffer.copy(base + count, source, bytes.count)
        count += bytes.count
    }

    /// Copies `n` bytes; short copies use a few overlapping word moves instead of a call.
    @inline(__always)
    static func copy(
        _ target: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>, _ n: Int
    ) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        switch n {
        case 17...32:
            let a = from.loadUnaligned(as: UInt64.self)
            let b = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = from.loadUnaligned(fromByteOffset: n - 16, as: UInt64.self)
            let d = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: a, as: UInt64.self)
            to.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: c, toByteOffset: n - 16, as: UInt64.self)
            to.storeBytes(of: d, toByteOffset: n - 8, as: UInt64.self)
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
        case 1..<4:
            for k in 0..<n { target[k] = source[k] }
        case ...0:
            return
        default:
            target.initialize(from: source, count: n)
        }
    }

    /// Whether `n` bytes at `a` and `b` are equal; short runs use a few overlapping word loads.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let x = UnsafeRawPointer(a)
        let y = UnsafeRawPointer(b)
        switch n {
        case 8...16:
            return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                && x.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                    == y.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        case 4..<8:
            return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
                && x.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
                    == y.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
        default:
            for k in 0..<max(n, 0) where a[k] != b[k] { return false }
            return true
        }
    }

    /// Appends UTF-8 text as a JSON string literal, quotes included.
    @inline(__always)
    func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        guard let source = utf8.baseAddress, JSONByteBuffer.isPlain(utf8) else {
            append(ASCII.quote)
            appendEscaped(utf8)
            append(ASCII.quote)
            return
        }
        reserve(n + 2)
        base[count] = ASCII.quote
        JSONByteBuffer.copy(base + count + 1, source, n)
        base[count + n + 1] = ASCII.quote
        count += n + 2
    }

    /// Whether the text needs no escaping.
    @inline(__always)
    static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = JSONParser.firstSpecialByte(in: utf8, from: 0)
        while i < utf8.count {
            let c = utf8[i]
            if c < 0x20 || c == ASCII.quote || c == ASCII.backslash { return false }
            i += 1
        }
        return true
    }

    @inline(__always)
    func append(_ s: StaticString) {
        append(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// A line feed and `indent` spaces.
    @inline(__always)
    func appendLine(indent: Int) {
        reserve(8 + indent)
        base[count] = ASCII.newline
        JSONByteBuffer.storeSpaces(base + count + 1, indent)
        count += 1 + indent
    }

    /// Writes `n` spaces at `p`, 8 at a time: up to 7 bytes after them are overwritten too
    /// (the caller reserves them).
    @inline(__always)
    static func storeSpaces(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) {
        let raw = UnsafeMutableRawPointer(p)
        var written = 0
        while written < n {
            raw.storeBytes(
                of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: written, as: UInt64.self)
            written += 8
        }
    }

    /// Lets `fill` write at most `maximumCount` bytes at the end; it returns how many it wrote.
    @inline(__always)
    func appendTail(maximumCount: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximumCount)
        count += min(max(fill(base + count), 0), maximumCount)
    }

    /// Lets `fill` write exactly `n` bytes at the end.
    @inline(__always)
    func appendDigits(_ n: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        reserve(n)
        fill(base + count)
        count += n
    }

    /// Appends UTF-8 text as the inside of a JSON string literal.
    func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let plain = JSONParser.firstSpecialByte(in: utf8, from: 0)
        if plain == utf8.count {
            append(utf8)
            return
        }
        var runStart = 0
        for i in plain..<utf8.count {
            let c = utf8[i]
            if c >= 0x20 && c != ASCII.quote && c != ASCII.backslash { continue }
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            runStart = i + 1
            switch c {
            case ASCII.quote, ASCII.backslash: append(ASCII.backslash, c)
            case 0x0A: append(ASCII.backslash, ASCII.n)
            case 0x0D: append(ASCII.backslash, ASCII.r)
            case 0x09: append(ASCII.backslash, ASCII.t)
            case 0x08: append(ASCII.backslash, ASCII.b)
            case 0x0C: append(ASCII.backslash, ASCII.f)
            default:
                let hex: StaticString = "0123456789abcdef"
                append("\\u00")
                append(hex.utf8Start[Int(c >> 4)], hex.utf8Start[Int(c & 0xF)])
            }
        }
        append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
}

extension JSONValue {
    /// The JSON text of this value, as `JSONWriter` writes it (no final newline).
    /// `sortedKeys` orders object keys by their UTF-8 bytes; otherwise objects keep their
    /// own order. Non-finite numbers are written as `null`.
    public func serialized(pretty: Bool = true, sortedKeys: Bool = true) -> String {
        var writer = JSONWriter(pretty: pretty, sortedKeys: sortedKeys)
        writer.value(self)
        return writer.text
    }

    /// True for arrays and objects.
    var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
