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
