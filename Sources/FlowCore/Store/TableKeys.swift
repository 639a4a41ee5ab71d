// What the slots of an `OrderedTable` carry besides the element: index data (`SlotExtra`),
// references that survive reuse (`TableRef`) and the inline id key (`IDKey`).

/// Per-slot index data kept in a table's records.
protocol SlotExtra {
    init()
}

/// No extra data.
struct NoExtra: SlotExtra {}

/// A slot and its generation: names one element of a table while it is there.
public struct TableRef: Hashable, Sendable {
    public let slot: Int32
    public let generation: UInt32

    @inline(__always)
    public init(slot: Int32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}

/// The first 15 bytes of an id and its length, in two words (byte i at bits 8i, the length
/// in the top byte): ids of up to 15 bytes (almost all of them) compare as two integers. A longer id keeps its first 15 bytes and the
/// length marker 0xFF; it matches by key and then by its full bytes.
struct IDKey: Equatable {
    var lo: UInt64
    var hi: UInt64

    /// The key of canonical (NFC) UTF-8 bytes.
    @inline(__always)
    init(canonical bytes: UnsafeRawBufferPointer) {
        var lo: UInt64 = 0, hi: UInt64 = 0
        let n = bytes.count
        if let base = bytes.baseAddress {
            let m = min(n, 15)
            if m >= 8 {
                lo = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
                var i = 8
                while i < m {
                    hi |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(i - 8))
                    i += 1
                }
            } else {
                var i = 0
                while i < m {
                    lo |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(i))
                    i += 1
                }
            }
        }
        hi |= UInt64(n <= 15 ? UInt8(n) : 0xFF) << 56
        self.lo = lo
        self.hi = hi
    }

    /// The key of ASCII bytes (their own canonical form), or nil when a byte is not ASCII.
    @inline(__always)
    init?(ascii bytes: UnsafeRawBufferPointer) {
        self.init(canonical: bytes)
        // The first 15 bytes are in the key; a longer id's rest is checked here.
        var high = (lo | (hi & 0x00FF_FFFF_FFFF_FFFF)) & 0x8080_8080_8080_8080
        if bytes.count > 15, let base = bytes.baseAddress {
            for i in 15..<bytes.count { high |= UInt64(base.load(fromByteOffset: i, as: UInt8.self) & 0x80) }
        }
        if high != 0 { return nil }
    }

    /// The key of an ASCII string, or nil when it is not ASCII.
    @inline(__always)
    init?(ascii s: String) {
        var copy = s
        guard let k = copy.withUTF8({ IDKey(ascii: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = k
    }

    /// Whether the key holds the whole id.
    @inline(__always)
    var isInline: Bool { hi >> 56 != 0xFF }
}
