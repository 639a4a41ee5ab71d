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
