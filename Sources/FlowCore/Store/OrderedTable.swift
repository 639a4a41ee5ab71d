/// Elements keyed by id, kept in insertion order, each in a stable integer slot.
///
/// Storage and order are separate:
/// - **Slots.** An element lives in one slot from insertion to removal; a removed element's
///   slot is reused by a later insertion, and its generation goes up, so a `(slot,
///   generation)` pair (`TableRef`) names one element for as long as it is in the table.
///   Indexes elsewhere in the store refer to elements by slot (an `Int32`), which costs no
///   string hashing and no reference counting.
/// - **Records.** What a look-up and the change that follows read sits in one record: the
///   id's key (short ids inline), its hash, flags, the element, the generation. `Extra`
///   (per-table index data such as a node's links) is kept beside, in an array of its own,
///   so records stay small.
/// - **Order.** Every element carries a sequence number that fixes its place in the order
///   for good, so an element that is removed and later restored (undo) returns to exactly
///   its old place. `order` lists slots by sequence number; removal leaves a tombstone
///   (O(1)) and tombstones are compacted once they outnumber live elements (O(1)
///   amortised). An element restored (undo, rollback) where its tombstone was compacted
///   away is appended out of order and the order is put right once, by `settleOrder()`
///   at the end of the restoring loop: O(n + k log k) for k restored elements.
///
/// Look-up by id is one hash (of the id's UTF-8 bytes, from a `String` or straight from a
/// byte buffer); by slot, an array access. The hot readers run no opaque code, so calling
/// them on a table stored in a class does not copy the table.
struct OrderedTable<Element: StoreItem, Extra: SlotExtra> {
    /// One slot. The fields a look-up and a move touch come first, in one cache line: the
    /// key, the owner's flags and the head of the element (a node's id and position).
    struct Record {
        var key: IDKey
        var hash: UInt32
        /// Bits the owner keeps per slot (see `flags(_:)`); 0 for a new element.
        var flags: UInt8
        var element: Element?
        var generation: UInt32
        /// Index of the slot in `order` while live, -1 when free.
        var position: Int32
        var seq: Int
    }

    private(set) var records: [Record] = []
    /// Per slot: the owner's index data.
    private var extras: [Extra] = []
    /// Free slots, reused last-freed first.
    private var free: [Int32] = []
    private var index = IDIndex()
    /// Slots in sequence order; -1 is a tombstone.
    private var order: [Int32] = []
    /// The sequence number of each entry of `order` (tombstones keep theirs).
    private var orderSeq: [Int] = []
    private var tombstones = 0
    /// Where the entries appended out of sequence order begin (nil when none);
    /// `settleOrder()` sorts them in.
    private var unsortedFrom: Int?
    /// The next sequence number handed out by `append`.
    private(set) var nextSeq = 0
    /// The generation of a slot made new: above every generation handed out before
    /// `removeAll()`, so references from before it stay stale.
    private var generationFloor: UInt32 = 0
    /// The largest generation handed out so far.
    private var highestGeneration: UInt32 = 0

    init() {}

    var count: Int { index.count }
    var isEmpty: Bool { index.count == 0 }
    /// One more than the largest slot ever used: arrays indexed by slot need this size.
    var slotCapacity: Int { records.count }

    // MARK: Look-up

    func contains(_ id: String) -> Bool { slot(of: id) != nil }

    /// The slot of `id`, if present. Ids are equal when Swift's `==` says so (canonical
    /// equivalence: "é" and "e\u{301}" are one id), so keys and hashes are made from the
    /// canonical (NFC) form of the UTF-8, which for ASCII is the bytes themselves.
    @inline(__always)
    func slot(of id: String) -> Int32? {
        guard let key = IDKey(ascii: id) else { return slotOfNonASCII(id) }
        return find(key, key.isInline ? index.hash(key) : index.hash(id)) { $0 == id }
    }

    /// The slot of the element whose id has these UTF-8 bytes (decoded as `String(decoding:as:)`
    /// does, invalid sequences repaired), if present.
    @inline(__always)
    func slot(utf8 bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let key = IDKey(ascii: bytes) else { return slotOfNonASCII(String(decoding: bytes, as: UTF8.self)) }
        return find(key, key.isInline ? index.hash(key) : index.hash(bytes)) {
            $0 == String(decoding: bytes, as: UTF8.self)
        }
    }

    @inline(never)
    private func slotOfNonASCII(_ id: String) -> Int32? {
        let (key, h) = canonicalKey(id)
        return find(key, h) { $0 == id }
    }

    /// `lookup(_:)` with the key and hash of `id` already made (`keyAndHash`).
    @inline(__always)
    mutating func lookup(_ id: String, _ key: (IDKey, UInt32)) -> Int32? {
        find(key.0, key.1) { $0 == id }
    }

    /// The key and hash of the id of an element about to be added (for `lookup` and
    /// `add`), or the error of operation `op`: an empty id (`kind`, "node" or "edge", names
    /// it), or `duplicate` for an id already present.
    @inline(__always)
    mutating func newKey(
        _ id: String, _ op: String, kind: String, duplicate: (String, String) -> FlowError
    ) throws(FlowError) -> (IDKey, UInt32) {
        if id.isEmpty { throw .invalidValue(op, "\(kind) id must not be empty") }
        let key = keyAndHash(id)
        if lookup(id, key) != nil { throw duplicate(op, id) }
        return key
    }

    /// The key and hash of `id` from its canonical form. Mutating only to work on the table
    /// in place (see `lookup(_:)`).
    @inline(__always)
    mutating func keyAndHash(_ id: String) -> (IDKey, UInt32) {
        guard let key = IDKey(ascii: id) else { return canonicalKey(id) }
        return (key, key.isInline ? index.hash(key) : index.hash(id))
    }

    @inline(never)
    private func canonicalKey(_ id: String) -> (IDKey, UInt32) {
        id._nfcCodeUnits.withUnsafeBytes { b in
            let key = IDKey(canonical: b)
            return (key, key.isInline ? index.hash(key) : index.hash(b))
        }
    }

    /// Probes the index for `key` with hash `h`; a long key (see `IDKey`) also needs
    /// `isLongMatch` to accept the candidate's whole id.
    @inline(__always)
    private func find(_ key: IDKey, _ h: UInt32, _ isLongMatch: (String) -> Bool) -> Int32? {
        var i = index.probeStart(h)
        guard i >= 0 else { return nil }
        while true {
            let b = index.bucket(i)
            if b.slot < 0 { return nil }
            if b.hash == h && records[Int(b.slot)].key == key
                && (key.isInline || isLongMatch(records[Int(b.slot)].element.unsafelyUnwrapped.id))
            {
                return b.slot
            }
            i = index.next(i)
        }
    }

    /// `slot(of:)` for the hot paths. A mutating call works on the table in place, where a
    /// non-mutating one on a table stored in a class may copy it first (the compiler
    /// cannot prove that no other code changes it meanwhile).
    @inline(__always)
    mutating func lookup(_ id: String) -> Int32? { slot(of: id) }

    /// `slot(utf8:)` for the hot paths (see `lookup(_:)`).
    @inline(__always)
    mutating func lookup(utf8 bytes: UnsafeRawBufferPointer) -> Int32? { slot(utf8: bytes) }


    /// A reference to the element with `id`, if present.
    @inline(__always)
    func ref(of id: String) -> TableRef? {
        guard let s = slot(of: id) else { return nil }
        return TableRef(slot: s, generation: records[Int(s)].generation)
    }

    /// The reference of the element in a live slot.
    @inline(__always)
    func ref(slot s: Int32) -> TableRef { TableRef(slot: s, generation: records[Int(s)].generation) }

    /// Whether `ref` still names an element of the table.
    @inline(__always)
    func isLive(_ ref: TableRef) -> Bool {
        let s = Int(ref.slot)
        return s >= 0 && s < records.count && records[s].generation == ref.generation && records[s].position >= 0
    }

    subscript(id: String) -> Element? {
        guard let s = slot(of: id) else { return nil }
        return records[Int(s)].element
    }

    /// The element in a live slot.
    @inline(__always)
    subscript(slot s: Int32) -> Element {
        records[Int(s)].element.unsafelyUnwrapped
    }

    /// The id of the element in a live slot.
    @inline(__always)
    func id(slot s: Int32) -> String { records[Int(s)].element.unsafelyUnwrapped.id }

    /// Reads the element in a live slot without copying it out.
    @inline(__always)
    func withElement<R>(slot s: Int32, _ body: (Element) -> R) -> R {
        body(records[Int(s)].element.unsafelyUnwrapped)
    }

    /// The element in `slot`, or nil when the slot is free.
    @inline(__always)
    func element(at s: Int32) -> Element? { records[Int(s)].element }

    /// Whether `slot` holds an element (found without copying the element out).
    @inline(__always)
    func isOccupied(_ s: Int32) -> Bool { records[Int(s)].position >= 0 }

    /// The owner's flag bits of a slot.
    @inline(__always)
    func flags(_ s: Int32) -> UInt8 { records[Int(s)].flags }

    /// Sets (`on`) or clears the flag bits `mask` of a slot.
    @inline(__always)
    mutating func setFlags(_ s: Int32, _ mask: UInt8, _ on: Bool) {
        if on { records[Int(s)].flags |= mask } else { records[Int(s)].flags &= ~mask }
    }

    /// The per-slot index data of a slot.
    @inline(__always)
    func extra(_ s: Int32) -> Extra { extras[Int(s)] }

    /// Mutates the per-slot index data of a slot in place.
    @inline(__always)
    mutating func modifyExtra<R>(_ s: Int32, _ body: (inout Extra) -> R) -> R {
        body(&extras[Int(s)])
    }

    /// The sequence number of `id`, if present.
    func seq(of id: String) -> Int? {
        guard let s = slot(of: id) else { return nil }
        return records[Int(s)].seq
    }

    /// The sequence number of the element in a live slot.
    @inline(__always)
    func seq(slot s: Int32) -> Int { records[Int(s)].seq }

    // MARK: Change

    /// Replaces the element stored under `id` (which must be present).
    mutating func update(_ id: String, _ element: Element) {
        guard let s = slot(of: id) else { return }
        records[Int(s)].element = element
    }

    /// Replaces the element in a live slot (its id must not change).
    @inline(__always)
    mutating func update(slot s: Int32, _ element: Element) {
        records[Int(s)].element = element
    }

    /// Mutates the element stored under `id` in place.
    @discardableResult
    mutating func modify<R>(_ id: String, _ body: (inout Element) -> R) -> R? {
        guard let s = slot(of: id) else { return nil }
        return modify(slot: s, body)
    }

    /// Mutates the element in a live slot in place (its id must not change).
    @inline(__always)
    mutating func modify<R>(slot s: Int32, _ body: (inout Element) -> R) -> R {
        body(&records[Int(s)].element!)  // invariant: callers pass live slots
    }

    /// Mutates the record of a live slot in place (the element's id must not change): one
    /// access for a change that touches the element and the flags.
    @inline(__always)
    mutating func modifyRecord<R>(slot s: Int32, _ body: (inout Record) -> R) -> R {
        body(&records[Int(s)])
    }

    /// The key of the element in a live slot.
    @inline(__always)
    func key(slot s: Int32) -> IDKey { records[Int(s)].key }

    /// The slot of the element whose id has the inline key `key` (see `IDKey.isInline`).
    @inline(__always)
    mutating func lookup(inline key: IDKey) -> Int32? {
        find(key, index.hash(key)) { _ in false }
    }

    /// Takes a free slot (or a new one) for an element with sequence number `seq`, and
    /// indexes its id.
    private mutating func takeSlot(_ element: consuming Element, seq: Int, key kh: (IDKey, UInt32)) -> Int32 {
        let (key, h) = kh
        let s: Int32
        if let f = free.popLast() {
            s = f
            // Filled in place (the generation stays): no new record to build and copy over.
            // Its extra data was reset when the slot was freed.
            Self.reuse(&records[Int(s)], key: key, hash: h, element: element, seq: seq)
        } else {
            s = Int32(records.count)
            records.append(
                Record(
                    key: key, hash: h, flags: 0, element: element, generation: generationFloor, position: -1,
                    seq: seq))
            extras.append(Extra())
        }
        index.insert(hash: h, slot: s)
        return s
    }

    @inline(__always)
    private static func reuse(_ r: inout Record, key: IDKey, hash: UInt32, element: consuming Element, seq: Int) {
        r.key = key
        r.hash = hash
        r.flags = 0
        r.element = element
        r.position = -1
        r.seq = seq
    }

    /// Makes room for `extra` more elements (a batch about to be appended): the id index is
    /// sized once, the arrays grow once.
    mutating func reserve(_ extra: Int) {
        let fresh = max(0, extra - free.count)
        Self.grow(&records, by: fresh)
        Self.grow(&extras, by: fresh)
        Self.grow(&order, by: extra)
        Self.grow(&orderSeq, by: extra)
        index.reserve(extra)
    }

    /// Room for `extra` more elements, at least doubling (an exact reserve after every small
    /// batch would copy the array each time).
    private static func grow<T>(_ a: inout [T], by extra: Int) {
        if a.count + extra > a.capacity { a.reserveCapacity(max(a.count + extra, 2 * a.capacity)) }
    }

    /// Appends at the end of the order; returns the slot and the sequence number used.
    @discardableResult
    mutating func append(_ id: String, _ element: Element) -> (slot: Int32, seq: Int) {
        append(element, key: keyAndHash(element.id))
    }

    @inline(__always)
    mutating func append(_ element: consuming Element, key: (IDKey, UInt32)) -> (slot: Int32, seq: Int) {
        let seq = nextSeq
        nextSeq += 1
        let s = takeSlot(element, seq: seq, key: key)
        records[Int(s)].position = Int32(order.count)
        order.append(s)
        orderSeq.append(seq)
        return (s, seq)
    }

    /// Appends (`seq` nil) or restores with a given sequence number; returns the slot and
    /// the sequence number.
    @inline(__always)
    mutating func add(_ element: consuming Element, seq: Int?, key: (IDKey, UInt32)) -> (slot: Int32, seq: Int) {
        if let seq { return (insert(element, seq: seq, key: key), seq) }
        return append(element, key: key)
    }

    /// Inserts with a given sequence number (restoring a removed element); returns the slot.
    @discardableResult
    /// Restores one element in its place at once (the order settled: O(n)).
    mutating func insert(_ id: String, _ element: Element, seq: Int) -> Int32 {
        let s = insert(element, seq: seq, key: keyAndHash(element.id))
        settleOrder()
        return s
    }

    mutating func insert(_ element: consuming Element, seq: Int, key: (IDKey, UInt32)) -> Int32 {
        let s = takeSlot(element, seq: seq, key: key)
        if seq >= nextSeq {
            nextSeq = seq + 1
            records[Int(s)].position = Int32(order.count)
            order.append(s)
            orderSeq.append(seq)
            return s
        }
        // Binary search of the sorted part for the first entry with a sequence number >= seq.
        let sortedCount = unsortedFrom ?? order.count
        var lo = 0, hi = sortedCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if orderSeq[mid] < seq { lo = mid + 1 } else { hi = mid }
        }
        if lo < sortedCount, orderSeq[lo] == seq, order[lo] < 0 {
            order[lo] = s
            tombstones -= 1
            records[Int(s)].position = Int32(lo)
            return s
        }
        if unsortedFrom == nil { unsortedFrom = order.count }
        records[Int(s)].position = Int32(order.count)
        order.append(s)
        orderSeq.append(seq)
        return s
    }

    /// Whether entries were appended out of order and the order must be settled before it
    /// is read.
    var needsSettling: Bool { unsortedFrom != nil }

    /// Sorts the entries appended out of order into their places (dropping tombstones):
    /// the sorted part and the sorted tail are merged, O(n + k log k).
    mutating func settleOrder() {
        guard let unsortedFrom else { return }
        var tail: [(seq: Int, slot: Int32)] = []
        for j in unsortedFrom..<order.count where order[j] >= 0 { tail.append((orderSeq[j], order[j])) }
        tail.sort { $0.seq < $1.seq }
        var newOrder: [Int32] = [], newSeq: [Int] = []
        newOrder.reserveCapacity(index.count)
        newSeq.reserveCapacity(index.count)
        var t = 0
        func take(_ slot: Int32, _ seq: Int) {
            records[Int(slot)].position = Int32(newOrder.count)
            newOrder.append(slot)
            newSeq.append(seq)
        }
        for j in 0..<unsortedFrom where order[j] >= 0 {
            while t < tail.count && tail[t].seq < orderSeq[j] {
                take(tail[t].slot, tail[t].seq)
                t += 1
            }
            take(order[j], orderSeq[j])
        }
        while t < tail.count {
            take(tail[t].slot, tail[t].seq)
            t += 1
        }
        order = newOrder
        orderSeq = newSeq
        tombstones = 0
        self.unsortedFrom = nil
    }

    /// Removes `id` and returns its element, slot and sequence number. The slot's extra
    /// data is reset.
    @discardableResult
    mutating func remove(_ id: String) -> (element: Element, slot: Int32, seq: Int)? {
        guard let s = slot(of: id), let e = records[Int(s)].element else { return nil }
        let i = Int(s)
        index.remove(slot: s, hash: records[i].hash)
        let seq = records[i].seq
        order[Int(records[i].position)] = -1
        records[i].element = nil
        extras[i] = Extra()
        records[i].flags = 0
        records[i].position = -1
        records[i].generation &+= 1
        highestGeneration = max(highestGeneration, records[i].generation)
        free.append(s)
        tombstones += 1
        if tombstones > 32 && tombstones > index.count { needsSettling ? settleOrder() : compact() }
        return (e, s, seq)
    }

    private mutating func compact() {
        var k = 0
        for j in 0..<order.count where order[j] >= 0 {
            order[k] = order[j]
            orderSeq[k] = orderSeq[j]
            records[Int(order[k])].position = Int32(k)
            k += 1
        }
        order.removeSubrange(k...)
        orderSeq.removeSubrange(k...)
        tombstones = 0
        self.unsortedFrom = nil
    }

    mutating func removeAll() {
        for r in records { highestGeneration = max(highestGeneration, r.generation) }
        generationFloor = highestGeneration &+ 1
        highestGeneration = generationFloor
        records.removeAll()
        extras.removeAll()
        free.removeAll()
        index.removeAll()
        order.removeAll()
        orderSeq.removeAll()
        tombstones = 0
        unsortedFrom = nil
    }

    // MARK: Iteration

    /// The live elements in order.
    var elements: [Element] {
        var out: [Element] = []
        out.reserveCapacity(index.count)
        for s in order where s >= 0 { out.append(records[Int(s)].element.unsafelyUnwrapped) }
        return out
    }

    /// Visits the live elements in order.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for s in order where s >= 0 { try body(records[Int(s)].element.unsafelyUnwrapped) }
    }

    /// Visits the live slots in order.
    func forEachSlot(_ body: (Int32) throws -> Void) rethrows {
        for s in order where s >= 0 { try body(s) }
    }

    /// Visits the live elements in order with their sequence numbers.
    func forEachWithSeq(_ body: (Element, Int) throws -> Void) rethrows {
        for (j, s) in order.enumerated() where s >= 0 { try body(records[Int(s)].element.unsafelyUnwrapped, orderSeq[j]) }
    }

    /// Checks that the id index, the records and the order agree.
    func checkInvariants() -> String? {
        var live = 0
        var lastSeq = Int.min
        if needsSettling { return "entries appended out of order were not settled" }
        if order.count != orderSeq.count { return "order and sequence numbers differ in length" }
        for (j, s) in order.enumerated() {
            if orderSeq[j] <= lastSeq { return "sequence numbers out of order at position \(j)" }
            lastSeq = orderSeq[j]
            guard s >= 0 else { continue }
            guard Int(s) < records.count, let e = records[Int(s)].element else { return "order lists free slot \(s)" }
            live += 1
            let r = records[Int(s)]
            if r.position != Int32(j) { return "slot \(s) has the wrong order position" }
            if r.seq != orderSeq[j] { return "slot \(s) has the wrong sequence number" }
            if slot(of: e.id) != s { return "id '\(e.id)' maps to the wrong slot" }
            let (key, h) = canonicalKey(e.id)
            if key != r.key || h != r.hash { return "slot \(s) has the wrong key" }
        }
        if let p = index.checkInvariants(expectedCount: live) { return p }
        if order.count - live != tombstones { return "tombstone count is off" }
        if records.count - live != free.count { return "free list has \(free.count) slots for \(records.count - live) free ones" }
        for s in free where records[Int(s)].element != nil || records[Int(s)].position >= 0 { return "free list holds live slot \(s)" }
        return nil
    }
}
