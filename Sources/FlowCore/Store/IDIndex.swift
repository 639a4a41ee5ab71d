/// An item of the store that is found by its string id.
protocol StoreItem {
    var id: String { get }
}

extension FlowNode: StoreItem {}
extension FlowEdge: StoreItem {}

/// id → slot for an `OrderedTable`: an open-addressing hash table keyed by the UTF-8 bytes
/// of the id, so a look-up needs no `String` (the Lua binding looks ids up straight from
/// Lua's string bytes) and no SipHash.
///
/// Linear probing with backward-shift deletion (no tombstones); the load factor stays at
/// or below 1/2. Each bucket keeps the low 32 bits of the hash beside the slot: they give
/// the bucket's home position and let a probe compare bytes only when they match. The hash
/// is seeded per table at random: the bucket layout is never visible (the store iterates in
/// its own order), and ids chosen to collide cannot be computed ahead of time.
struct IDIndex {
    private struct Bucket {
        var hash: UInt32
        /// The table slot, or -1 for an empty bucket.
        var slot: Int32
    }

    private var buckets: [Bucket] = []
    private var mask = 0
    private(set) var count = 0

    // MARK: Hashing

    /// The hash seed (an instance field: a global would be read through a lazy-init check
    /// on every look-up).
    private let seed: UInt64

    init() { seed = UInt64.random(in: 1 ... .max) }

    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let p = a.multipliedFullWidth(by: b)
        return p.high ^ p.low
    }

    /// A hash of `bytes` (the 128-bit multiply-and-fold of wyhash, over 8-byte words).
    /// Used for ids longer than an inline key holds.
    func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let n = bytes.count
        var h = seed ^ (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return UInt32(truncatingIfNeeded: Self.mix(h, 0xA076_1D64_78BD_642F)) }
        var i = 0
        while i + 8 <= n {
            let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            h = Self.mix(h ^ w, 0xE703_7ED1_A0B4_28DB)
            i += 8
        }
        if i < n {
            var w: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                w |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
                shift += 8
                i += 1
            }
            h = Self.mix(h ^ w, 0x8EBC_6AF0_9C88_C6E3)
        }
        return UInt32(truncatingIfNeeded: Self.mix(h, 0x5899_65CC_7537_4CC3))
    }

    /// `hash(_:)` of a string's UTF-8 bytes.
    func hash(_ s: String) -> UInt32 {
        var copy = s
        return copy.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of an inline id key (two words holding the bytes and the length).
    @inline(__always)
    func hash(_ key: IDKey) -> UInt32 {
        UInt32(truncatingIfNeeded: Self.mix(key.lo ^ seed, key.hi ^ 0xE703_7ED1_A0B4_28DB))
    }

    /// Whether two byte strings are equal.
    @inline(__always)
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let n = a.count
        guard n == b.count else { return false }
        guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        var i = 0
        while i + 8 <= n {
            if pa.loadUnaligned(fromByteOffset: i, as: UInt64.self) != pb.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                return false
            }
            i += 8
        }
        while i < n {
            if pa.load(fromByteOffset: i, as: UInt8.self) != pb.load(fromByteOffset: i, as: UInt8.self) { return false }
            i += 1
        }
        return true
    }

    // MARK: Look-up and change

    /// The first bucket to probe for hash `h`, or -1 when the index is empty. Probing goes
    /// on with `next(_:)` until `slot(at:)` is negative (no closures: a look-up stays a
    /// plain loop in the caller).
    @inline(__always)
    func probeStart(_ h: UInt32) -> Int { count > 0 ? Int(h) & mask : -1 }

    @inline(__always)
    func next(_ i: Int) -> Int { (i + 1) & mask }

    /// The hash and slot in bucket `i` (slot -1: empty, the end of the probe).
    @inline(__always)
    func bucket(_ i: Int) -> (hash: UInt32, slot: Int32) {
        let b = buckets[i]
        return (b.hash, b.slot)
    }

    /// Adds `slot` under hash `h` (its id must not be present).
    mutating func insert(hash h: UInt32, slot: Int32) {
        if (count + 1) * 2 > buckets.count { grow() }
        place(Bucket(hash: h, slot: slot))
        count += 1
    }

    /// Removes `slot`, whose id hashes to `h`.
    mutating func remove(slot: Int32, hash h: UInt32) {
        guard count > 0 else { return }
        var i = Int(h) & mask
        while buckets[i].slot != slot {
            if buckets[i].slot < 0 { return }
            i = (i + 1) & mask
        }
        count -= 1
        // Backward-shift deletion: pull later entries of the run into the hole unless their
        // home lies cyclically in (hole, entry].
        var j = i
        while true {
            j = (j + 1) & mask
            let b = buckets[j]
            if b.slot < 0 { break }
            let home = Int(b.hash) & mask
            let staysPut = i <= j ? (home > i && home <= j) : (home > i || home <= j)
            if !staysPut {
                buckets[i] = b
                i = j
            }
        }
        buckets[i] = Bucket(hash: 0, slot: -1)
    }

    private mutating func place(_ bucket: Bucket) {
        var i = Int(bucket.hash) & mask
        while buckets[i].slot >= 0 { i = (i + 1) & mask }
        buckets[i] = bucket
    }

    /// Makes room for `extra` more entries at once (one rehash instead of one per doubling).
    mutating func reserve(_ extra: Int) {
        var capacity = max(16, buckets.count)
        while (count + extra) * 2 > capacity { capacity *= 2 }
        if capacity > buckets.count { grow(to: capacity) }
    }

    private mutating func grow(to minimum: Int = 0) {
        let old = buckets
        let capacity = max(16, buckets.count * 2, minimum)
        buckets = [Bucket](repeating: Bucket(hash: 0, slot: -1), count: capacity)
        mask = capacity - 1
        for b in old where b.slot >= 0 { place(b) }
    }

    mutating func removeAll() {
        buckets = []
        mask = 0
        count = 0
    }

    /// Checks that every bucket is reachable from its home position.
    func checkInvariants(expectedCount: Int) -> String? {
        if count != expectedCount { return "id index has \(count) entries for \(expectedCount) items" }
        for (i, b) in buckets.enumerated() where b.slot >= 0 {
            var k = Int(b.hash) & mask
            while k != i {
                if buckets[k].slot < 0 { return "id index entry of slot \(b.slot) is cut off from its home" }
                k = (k + 1) & mask
            }
        }
        return nil
    }
}
