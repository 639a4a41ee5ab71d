/// Elements keyed by id, kept in insertion order.
///
/// Every element carries a sequence number that fixes its place in the order for good, so
/// an element that is removed and later restored (undo) returns to exactly its old place.
/// Lookup by id is O(1); append is O(1) amortised; removal leaves a tombstone (O(1)) and
/// the slots are compacted once tombstones outnumber live elements (O(1) amortised).
/// Restoring an element whose tombstone was compacted away costs O(n) (undo only).
struct OrderedTable<Element> {
    private struct Slot {
        var seq: Int
        var element: Element?
    }

    private var slots: [Slot] = []
    private var slotByID: [String: Int] = [:]
    private var tombstones = 0
    /// The next sequence number handed out by `append`.
    private(set) var nextSeq = 0

    var count: Int { slotByID.count }
    var isEmpty: Bool { slotByID.isEmpty }

    func contains(_ id: String) -> Bool { slotByID[id] != nil }

    subscript(id: String) -> Element? {
        guard let i = slotByID[id] else { return nil }
        return slots[i].element
    }

    /// The sequence number of `id`, if present.
    func seq(of id: String) -> Int? {
        guard let i = slotByID[id] else { return nil }
        return slots[i].seq
    }

    /// Replaces the element stored under `id` (which must be present).
    mutating func update(_ id: String, _ element: Element) {
        guard let i = slotByID[id] else { return }
        slots[i].element = element
    }

    /// Mutates the element stored under `id` in place.
    mutating func modify<R>(_ id: String, _ body: (inout Element) -> R) -> R? {
        guard let i = slotByID[id] else { return nil }
        return body(&slots[i].element!)  // invariant: a live slot holds an element
    }

    /// Appends at the end of the order and returns the sequence number used.
    @discardableResult
    mutating func append(_ id: String, _ element: Element) -> Int {
        let seq = nextSeq
        nextSeq += 1
        slotByID[id] = slots.count
        slots.append(Slot(seq: seq, element: element))
        return seq
    }

    /// Inserts with a given sequence number (restoring a removed element).
    mutating func insert(_ id: String, _ element: Element, seq: Int) {
        if seq >= nextSeq {
            nextSeq = seq + 1
            slotByID[id] = slots.count
            slots.append(Slot(seq: seq, element: element))
            return
        }
        // Binary search for the first slot with a sequence number >= seq.
        var lo = 0, hi = slots.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if slots[mid].seq < seq { lo = mid + 1 } else { hi = mid }
        }
        if lo < slots.count, slots[lo].seq == seq, slots[lo].element == nil {
            slots[lo].element = element
            tombstones -= 1
            slotByID[id] = lo
            return
        }
        slots.insert(Slot(seq: seq, element: element), at: lo)
        for j in lo..<slots.count {
            if let e = slots[j].element { slotByID[idOf(e)] = j }
        }
    }

    /// Recovers an element's id when slots are re-indexed.
    private let idOf: (Element) -> String

    init(id: @escaping (Element) -> String) { self.idOf = id }

    /// Removes `id` and returns its element and sequence number.
    @discardableResult
    mutating func remove(_ id: String) -> (element: Element, seq: Int)? {
        guard let i = slotByID.removeValue(forKey: id), let e = slots[i].element else { return nil }
        slots[i].element = nil
        tombstones += 1
        let seq = slots[i].seq
        if tombstones > 32 && tombstones > slotByID.count { compact() }
        return (e, seq)
    }

    private mutating func compact() {
        slots.removeAll { $0.element == nil }
        tombstones = 0
        slotByID.removeAll(keepingCapacity: true)
        for (j, s) in slots.enumerated() { slotByID[idOf(s.element!)] = j }  // invariant: compacted slots are live
    }

    mutating func removeAll() {
        slots.removeAll()
        slotByID.removeAll()
        tombstones = 0
    }

    /// The live elements in order.
    var elements: [Element] {
        var out: [Element] = []
        out.reserveCapacity(slotByID.count)
        for s in slots { if let e = s.element { out.append(e) } }
        return out
    }

    /// Visits the live elements in order.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for s in slots { if let e = s.element { try body(e) } }
    }

    /// Visits the live elements in order with their sequence numbers.
    func forEachWithSeq(_ body: (Element, Int) throws -> Void) rethrows {
        for s in slots { if let e = s.element { try body(e, s.seq) } }
    }

    /// Visits the live elements in reverse order until `body` returns false.
    func reverseWhile(_ body: (Element) -> Bool) {
        for s in slots.reversed() { if let e = s.element, !body(e) { return } }
    }

    /// Checks that the id map and the slots agree.
    func checkInvariants() -> String? {
        var live = 0
        var lastSeq = Int.min
        for (j, s) in slots.enumerated() {
            if s.seq <= lastSeq { return "sequence numbers out of order at slot \(j)" }
            lastSeq = s.seq
            if let e = s.element {
                live += 1
                if slotByID[idOf(e)] != j { return "id '\(idOf(e))' maps to the wrong slot" }
            }
        }
        if live != slotByID.count { return "id map has \(slotByID.count) entries for \(live) elements" }
        if slots.count - live != tombstones { return "tombstone count is off" }
        return nil
    }
}
