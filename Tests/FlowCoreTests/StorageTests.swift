import TestSupport
import Testing
@testable import FlowCore

// Tests of the store's storage internals on their own: the id index, the ordered table,
// the chunked history, and the spatial index with its cell map and bounds tree. Every
// random test is driven by a seeded generator (`SplitMix64`), so a failure repeats exactly.

// MARK: - IDIndex

@Suite("Storage: IDIndex") struct IDIndexTests {
    /// Whether a probe from the home of `h` reaches `slot` (stored under `h`) before it meets
    /// an empty bucket, which is what a look-up needs.
    static func finds(_ ix: IDIndex, _ h: UInt32, _ slot: Int32) -> Bool {
        var i = ix.probeStart(h)
        guard i >= 0 else { return false }
        for _ in 0..<(1 << 20) {
            let b = ix.bucket(i)
            if b.slot < 0 { return false }
            if b.slot == slot { return b.hash == h }
            i = ix.next(i)
        }
        return false
    }

    /// The first problem with `ix` holding exactly `live` (slot → hash), or nil.
    static func problem(_ ix: IDIndex, live: [Int32: UInt32], gone: [Int32: UInt32] = [:]) -> String? {
        if let p = ix.checkInvariants(expectedCount: live.count) { return p }
        if ix.count != live.count { return "count \(ix.count) for \(live.count)" }
        for (s, h) in live.sorted(by: { $0.key < $1.key }) where !finds(ix, h, s) {
            return "slot \(s) (hash \(h)) cannot be found"
        }
        for (s, h) in gone.sorted(by: { $0.key < $1.key }) where finds(ix, h, s) {
            return "removed slot \(s) (hash \(h)) is still found"
        }
        return nil
    }

    /// The slots in buckets `0..<n`, -1 for empty ones.
    static func layout(_ ix: IDIndex, _ n: Int) -> [Int32] { (0..<n).map { ix.bucket($0).slot } }

    @Test func emptyIndexFindsNothing() {
        var ix = IDIndex()
        #expect(ix.count == 0)
        #expect(ix.probeStart(12345) == -1)
        #expect(ix.checkInvariants(expectedCount: 0) == nil)
        ix.remove(slot: 3, hash: 12345)  // nothing to remove: no effect
        #expect(ix.count == 0)
        ix.insert(hash: 7, slot: 0)
        ix.remove(slot: 0, hash: 7)
        #expect(ix.count == 0 && ix.probeStart(7) == -1)
        #expect(!Self.finds(ix, 7, 0))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func manyEntriesGrowAndStayFindable(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var ix = IDIndex()
        var live: [Int32: UInt32] = [:]
        for s in Int32(0)..<3_000 {
            let h = UInt32(truncatingIfNeeded: rng.next())
            ix.insert(hash: h, slot: s)
            live[s] = h
            // The table grows as entry 2^k + 1 arrives (slot 2^k): check fully around each growth.
            if s < 200 || s & (s - 1) == 0 || (s + 1) & s == 0 || s % 500 == 0 {
                let p = Self.problem(ix, live: live)
                #expect(p == nil, "after inserting slot \(s)")
                if p != nil { return }
            }
        }
        #expect(ix.count == 3_000)
        #expect(Self.problem(ix, live: live) == nil)
        // A slot never inserted is not found, whatever hash is asked for.
        #expect(!Self.finds(ix, live[17]!, 5_000))
    }

    /// Random removal order, all others checked after every removal; `homes` limits where
    /// entries may start, to build long runs that wrap and interleave.
    static let removalCases: [(seed: UInt64, n: Int, homes: Int)] = [
        (11, 1_200, 0), (12, 600, 0), (13, 200, 8), (14, 200, 64), (15, 150, 3),
    ]

    @Test(arguments: 0..<5)
    func backwardShiftDeletionKeepsEveryOtherEntryFindable(caseIndex: Int) {
        let (seed, n, homes) = Self.removalCases[caseIndex]
        var rng = SplitMix64(seed: seed)
        var ix = IDIndex()
        var live: [Int32: UInt32] = [:]
        for s in Int32(0)..<Int32(n) {
            let h: UInt32
            if homes == 0 {
                h = UInt32(truncatingIfNeeded: rng.next())
            } else {
                // Few distinct homes, some at the very end of the table (all high bits set).
                let k = UInt32(rng.below(homes))
                h = rng.chance(50) ? k : ~k
            }
            ix.insert(hash: h, slot: s)
            live[s] = h
        }
        #expect(Self.problem(ix, live: live) == nil)
        var gone: [Int32: UInt32] = [:]
        for s in rng.shuffled(Array(live.keys).sorted()) {
            let h = live.removeValue(forKey: s)!
            ix.remove(slot: s, hash: h)
            gone[s] = h
            let p = Self.problem(ix, live: live, gone: gone)
            #expect(p == nil, "after removing slot \(s) (\(live.count) left)")
            if p != nil { return }
        }
        #expect(ix.count == 0)
    }

    /// Exact bucket layouts in a table of 16 (mask 15): a run that wraps from the last bucket
    /// to the first, and the two outcomes of a backward shift (moves back, stays put).
    @Test func backwardShiftMovesWrappedEntriesToTheHole() {
        var ix = IDIndex()
        ix.insert(hash: 15, slot: 0)  // home 15
        ix.insert(hash: 15, slot: 1)  // home 15, wraps to 0
        ix.insert(hash: 0, slot: 2)  // home 0, taken: goes to 1
        #expect(Self.layout(ix, 16) == [1, 2] + Array(repeating: -1, count: 13) + [0])
        ix.remove(slot: 0, hash: 15)
        // Slot 1 moves back to its home 15; slot 2 then moves to its home 0.
        #expect(Self.layout(ix, 16) == [2] + Array(repeating: -1, count: 14) + [1])
        #expect(Self.problem(ix, live: [1: 15, 2: 0], gone: [0: 15]) == nil)

        var iy = IDIndex()
        iy.insert(hash: 14, slot: 10)  // bucket 14
        iy.insert(hash: 15, slot: 11)  // bucket 15
        iy.insert(hash: 0xFFFF_FFFF, slot: 12)  // home 15 (all low bits set), wraps to 0
        iy.insert(hash: 16, slot: 13)  // home 0, goes to 1
        #expect(Self.layout(iy, 16) == [12, 13] + Array(repeating: -1, count: 12) + [10, 11])
        iy.remove(slot: 10, hash: 14)
        // Nobody's home lies at or before the hole in the run: everything stays put.
        #expect(Self.layout(iy, 16) == [12, 13] + Array(repeating: -1, count: 13) + [11])
        iy.remove(slot: 11, hash: 15)
        #expect(Self.layout(iy, 16) == [13] + Array(repeating: -1, count: 14) + [12])
        #expect(Self.problem(iy, live: [12: 0xFFFF_FFFF, 13: 16], gone: [10: 14, 11: 15]) == nil)
        iy.remove(slot: 12, hash: 0xFFFF_FFFF)
        #expect(Self.layout(iy, 16) == [13] + Array(repeating: -1, count: 15))
        iy.remove(slot: 13, hash: 16)
        #expect(iy.count == 0 && Self.layout(iy, 16) == Array(repeating: -1, count: 16))
    }

    /// Many slots under one hash form one long run; removal in any order keeps the run
    /// contiguous from the home.
    @Test(arguments: [UInt32(0), 0x1234_5678, 0xFFFF_FFFF, 0x7FFF_FFFF])
    func equalHashesRemovedInVariousOrders(hash h: UInt32) {
        let n: Int32 = 40
        let orders: [[Int32]] = {
            var rng = SplitMix64(seed: UInt64(h) &+ 99)
            let all = Array(0..<n)
            let alternating = all.filter { $0 % 2 == 0 } + all.filter { $0 % 2 == 1 }
            let middleOut = all.sorted { abs(Double($0) - 19.5) < abs(Double($1) - 19.5) }
            return [all, all.reversed(), alternating, middleOut] + (0..<4).map { _ in rng.shuffled(all) }
        }()
        for (k, order) in orders.enumerated() {
            var ix = IDIndex()
            var live: [Int32: UInt32] = [:]
            for s in 0..<n {
                ix.insert(hash: h, slot: s)
                live[s] = h
            }
            #expect(Self.problem(ix, live: live) == nil)
            var gone: [Int32: UInt32] = [:]
            for (j, s) in order.enumerated() {
                ix.remove(slot: s, hash: h)
                live[s] = nil
                gone[s] = h
                let p = Self.problem(ix, live: live, gone: gone)
                #expect(p == nil, "order \(k), removal \(j) (slot \(s))")
                if p != nil { return }
                // Half-way, put some back: a refilled run must behave the same.
                if j == Int(n) / 2 {
                    for t in order[0..<5] {
                        ix.insert(hash: h, slot: t)
                        live[t] = h
                        gone[t] = nil
                    }
                    #expect(Self.problem(ix, live: live, gone: gone) == nil, "order \(k) after refilling")
                }
            }
            for (s, _) in live { ix.remove(slot: s, hash: h) }
            #expect(ix.count == 0 && ix.checkInvariants(expectedCount: 0) == nil)
        }
    }

    /// Seven entries whose runs wrap around the end of a table of 16, removed in all 5040
    /// orders.
    @Test func wrappedRunsRemovedInEveryOrder() {
        let hashes: [UInt32] = [0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFE, 0, 0xFFFF_FFFF, 1, 0]
        var failures = 0
        func permutations(_ items: [Int32]) -> [[Int32]] {
            if items.count <= 1 { return [items] }
            var out: [[Int32]] = []
            for (i, x) in items.enumerated() {
                var rest = items
                rest.remove(at: i)
                for p in permutations(rest) { out.append([x] + p) }
            }
            return out
        }
        let orders = permutations(Array(0..<7))
        #expect(orders.count == 5_040)
        for order in orders where failures == 0 {
            var ix = IDIndex()
            var live: [Int32: UInt32] = [:]
            for (s, h) in hashes.enumerated() {
                ix.insert(hash: h, slot: Int32(s))
                live[Int32(s)] = h
            }
            var gone: [Int32: UInt32] = [:]
            for s in order {
                ix.remove(slot: s, hash: live[s]!)
                gone[s] = live.removeValue(forKey: s)
                if let p = Self.problem(ix, live: live, gone: gone) {
                    Issue.record("order \(order), after removing \(s): \(p)")
                    failures += 1
                    break
                }
            }
        }
        // The starting layout itself: three runs meeting around the end of the table.
        var ix = IDIndex()
        for (s, h) in hashes.enumerated() { ix.insert(hash: h, slot: Int32(s)) }
        #expect(Self.layout(ix, 16) == [1, 3, 4, 5, 6] + Array(repeating: -1, count: 9) + [2, 0])
    }

    /// Removing with a slot that is not in the index, or a slot under the wrong hash (a
    /// probe that ends before reaching it), changes nothing.
    @Test func removingAnAbsentSlotChangesNothing() {
        var ix = IDIndex()
        var live: [Int32: UInt32] = [:]
        for s in Int32(0)..<6 {
            ix.insert(hash: 3, slot: s)
            live[s] = 3
        }
        ix.remove(slot: 77, hash: 3)
        ix.remove(slot: 2, hash: 9)  // the probe from bucket 9 ends at an empty bucket
        #expect(Self.problem(ix, live: live) == nil)
        #expect(ix.count == 6)
    }
}

// MARK: - OrderedTable

@Suite("Storage: OrderedTable") struct OrderedTableTests {
    typealias Table = OrderedTable<FlowEdge, EdgeExtra>

    static func item(_ id: String) -> FlowEdge { FlowEdge(id: id, sourceNodeID: "s", targetNodeID: "t") }

    static func byBytes(_ t: Table, _ id: String) -> Int32? {
        Array(id.utf8).withUnsafeBytes { t.slot(utf8: $0) }
    }

    static let prefix15 = "abcdefghijklmno"  // exactly 15 UTF-8 bytes: the inline limit

    /// Ids of every length from 0 to 40 bytes, long ids that share their first 15 bytes,
    /// non-ASCII ids (also ones whose multi-byte character straddles byte 15), NUL bytes.
    static let awkwardIDs: [String] = {
        var ids = (0...40).map { String(repeating: "k", count: $0) }
        let p = prefix15
        ids += [
            p, p + "p", p + "q", p + "pq", p + "qp", p + "pp" + String(repeating: "z", count: 20),
            p + "pp" + String(repeating: "z", count: 19) + "y", p + "\u{0}", p + "ü", p + "😀",
            "ü", "üü", "😀", "日本語", "日本語のノードの識別子です", "👩‍👩‍👧‍👦 family",
            String(repeating: "a", count: 14) + "ü",  // ü is bytes 14 and 15
            String(repeating: "a", count: 14) + "üx",
            String(repeating: "a", count: 14) + "😀",
            String(repeating: "a", count: 13) + "ü",  // 15 bytes: still inline
            "\u{0}", "a\u{0}", "a\u{0}b", "\u{0}\u{0}", "ÿÿÿÿÿÿÿÿ",  // ÿ: bytes C3 BF
        ]
        return ids
    }()

    /// Ids that must not be found while `awkwardIDs` are in the table: near misses.
    static let nearMisses: [String] = {
        let present = Set(awkwardIDs.map { Array($0.utf8) })
        let p = prefix15
        let candidates = [
            String(repeating: "k", count: 41), p + "r", p + "pqp", p + "pp" + String(repeating: "z", count: 21),
            p + "pp" + String(repeating: "z", count: 19) + "x", p + "\u{1}", p + "ü!", "ü!", "日本", "日本語の",
            String(repeating: "a", count: 14) + "ö", String(repeating: "a", count: 14) + "üy",
            String(repeating: "a", count: 15), "a\u{0}c", "\u{0}\u{0}\u{0}", "b", "K", "abcdefghijklmnO",
        ]
        return candidates.filter { !present.contains(Array($0.utf8)) }
    }()

    @Test func awkwardIDsAreFoundByStringAndByBytes() throws {
        #expect(Set(Self.awkwardIDs).count == Self.awkwardIDs.count)
        #expect(Self.awkwardIDs.contains { $0.utf8.count > 15 } && Self.awkwardIDs.contains { $0.utf8.count == 15 })
        var t = Table()
        var slotOf: [String: Int32] = [:]
        for id in Self.awkwardIDs {
            let (s, seq) = t.append(id, Self.item(id))
            #expect(seq == slotOf.count)
            slotOf[id] = s
            #expect(t.checkInvariants() == nil, "after adding \(id.debugDescription)")
        }
        func checkAll(_ note: String) {
            for id in Self.awkwardIDs {
                let want = slotOf[id]
                #expect(t.slot(of: id) == want, "\(note): by string \(id.debugDescription)")
                #expect(Self.byBytes(t, id) == want, "\(note): by bytes \(id.debugDescription)")
                #expect(t[id]?.id == (want == nil ? nil : id), "\(note): element of \(id.debugDescription)")
                #expect(t.contains(id) == (want != nil))
                if let s = want { #expect(t.id(slot: s) == id) }
            }
            for id in Self.nearMisses {
                #expect(t.slot(of: id) == nil, "\(note): \(id.debugDescription) is absent")
                #expect(Self.byBytes(t, id) == nil, "\(note): \(id.debugDescription) is absent (bytes)")
            }
            #expect(t.checkInvariants() == nil, "\(note)")
            #expect(t.count == slotOf.count)
            #expect(t.elements.map(\.id) == Self.awkwardIDs.filter { slotOf[$0] != nil }, "\(note): order")
        }
        checkAll("all added")
        // Remove every other id (long and short alike), then put them back.
        let removed = Self.awkwardIDs.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        for id in removed {
            let removal = t.remove(id)
            let r = try #require(removal)
            #expect(r.element.id == id && r.slot == slotOf[id])
            slotOf[id] = nil
        }
        checkAll("half removed")
        for id in removed {
            let (s, _) = t.append(id, Self.item(id))
            slotOf[id] = s
        }
        #expect(t.checkInvariants() == nil)
        for id in Self.awkwardIDs { #expect(t.slot(of: id) == slotOf[id] && Self.byBytes(t, id) == slotOf[id]) }
        #expect(t.elements.map(\.id) == Self.awkwardIDs.filter { !removed.contains($0) } + removed)
    }

    @Test func keysOfStringsAndOfBytesAgree() {
        let ix = IDIndex()
        for id in Self.awkwardIDs + Self.nearMisses {
            let byString = IDKey(ascii: id)
            let byBytes = Array(id.utf8).withUnsafeBytes { IDKey(ascii: $0) }
            #expect(byString == byBytes, "\(id.debugDescription)")
            // Only ASCII ids have a key of their own bytes; the others are keyed by NFC.
            #expect((byString != nil) == id.utf8.allSatisfy { $0 < 0x80 }, "\(id.debugDescription)")
            if let k = byString {
                #expect(k.isInline == (id.utf8.count <= 15), "\(id.debugDescription)")
                if !k.isInline { #expect(ix.hash(id) == Array(id.utf8).withUnsafeBytes { ix.hash($0) }) }
            }
        }
        // Long ids that differ only after byte 15 share their key; their hashes tell them apart.
        let a = Self.prefix15 + "p", b = Self.prefix15 + "q"
        #expect(IDKey(ascii: a) == IDKey(ascii: b) && ix.hash(a) != ix.hash(b))
        // The length is part of the key: "a" and "a\0" differ.
        #expect(IDKey(ascii: "a") != IDKey(ascii: "a\u{0}") && IDKey(ascii: "") != IDKey(ascii: "\u{0}"))
    }

    @Test func canonicallyEquivalentIDsAreOneKey() {
        var t = Table()
        let (s, _) = t.append("\u{E9}", Self.item("\u{E9}"))
        #expect(t.slot(of: "e\u{301}") == s)
        #expect(Array("e\u{301}".utf8).withUnsafeBytes { t.slot(utf8: $0) } == s)
        // U+212A KELVIN SIGN is canonically "K": a non-ASCII id that is an ASCII one.
        let (k, _) = t.append("K", Self.item("K"))
        #expect(t.slot(of: "\u{212A}") == k)
        let long = String(repeating: "x", count: 20)
        let (l, _) = t.append("\u{212A}" + long, Self.item("\u{212A}" + long))
        #expect(t.slot(of: "K" + long) == l)
        #expect(Array(("K" + long).utf8).withUnsafeBytes { t.slot(utf8: $0) } == l)
        #expect(t.checkInvariants() == nil)
    }

    @Test func slotReuseBumpsTheGeneration() throws {
        var t = Table()
        let (sa, _) = t.append("a", Self.item("a"))
        let (sb, _) = t.append("b", Self.item("b"))
        let refA = try #require(t.ref(of: "a"))
        #expect(refA == TableRef(slot: sa, generation: 0))
        #expect(t.isLive(refA) && t.ref(slot: sb) == TableRef(slot: sb, generation: 0))
        #expect(t.remove("a")?.slot == sa)
        #expect(!t.isLive(refA) && t.ref(of: "a") == nil && t.element(at: sa) == nil)
        let (sc, _) = t.append("c", Self.item("c"))
        #expect(sc == sa)  // the freed slot is reused
        let refC = try #require(t.ref(of: "c"))
        #expect(refC == TableRef(slot: sa, generation: 1))
        #expect(t.isLive(refC) && !t.isLive(refA))
        // Removing and restoring under the same id still makes a new generation.
        let maybeC = t.remove("c")
        let removedC = try #require(maybeC)
        t.insert("c", removedC.element, seq: removedC.seq)
        #expect(t.ref(of: "c") == TableRef(slot: sa, generation: 2))
        #expect(!t.isLive(refC) && !t.isLive(refA))
        // Free slots are reused last-freed first.
        t.remove("b")
        t.remove("c")
        #expect(t.append("x", Self.item("x")).slot == sa)
        #expect(t.append("y", Self.item("y")).slot == sb)
        #expect(t.append("z", Self.item("z")).slot == 2)
        #expect(t.slotCapacity == 3)
        #expect(!t.isLive(TableRef(slot: 99, generation: 0)) && !t.isLive(TableRef(slot: -1, generation: 0)))
        #expect(t.checkInvariants() == nil)
    }

    /// Restoring with the old sequence number puts an item back in its place, both into its
    /// tombstone and after the tombstones were compacted away.
    @Test(arguments: [3, 80, 99])
    func restoreWithSequenceNumberKeepsExactOrder(removals: Int) throws {
        var rng = SplitMix64(seed: UInt64(removals))
        var t = Table()
        let ids = (0..<100).map { "item-\($0)" }
        for id in ids { t.append(id, Self.item(id)) }
        var removed: [(String, FlowEdge, Int)] = []
        for id in rng.shuffled(ids).prefix(removals) {
            let removal = t.remove(id)
            let r = try #require(removal)
            #expect(r.seq == Int(id.dropFirst(5))!)
            removed.append((id, r.element, r.seq))
            #expect(t.checkInvariants() == nil)
        }
        let gone = Set(removed.map(\.0))
        #expect(t.elements.map(\.id) == ids.filter { !gone.contains($0) })
        var back = Set<String>()
        for (id, e, seq) in rng.shuffled(removed) {
            t.insert(id, e, seq: seq)
            back.insert(id)
            #expect(t.checkInvariants() == nil, "after restoring \(id)")
            #expect(t.elements.map(\.id) == ids.filter { !gone.contains($0) || back.contains($0) })
            #expect(t.seq(of: id) == seq)
        }
        #expect(t.elements.map(\.id) == ids)
        var seqs: [Int] = []
        t.forEachWithSeq { _, s in seqs.append(s) }
        #expect(seqs == Array(0..<100))
        // A sequence number past the end appends, and moves `nextSeq` on.
        t.insert("late", Self.item("late"), seq: 500)
        #expect(t.nextSeq == 501 && t.append("next", Self.item("next")).seq == 501)
        #expect(t.elements.map(\.id).suffix(2) == ["late", "next"])
        #expect(t.checkInvariants() == nil)
    }

    /// Random appends, removals and restores against a model of the order.
    @Test(arguments: [UInt64(5), 6])
    func randomOperationsMatchAModel(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var t = Table()
        let pool = Self.awkwardIDs + (0..<60).map { "gen-\($0)" }
        var model: [(id: String, seq: Int)] = []  // in order
        var removed: [String: (FlowEdge, Int)] = [:]
        for step in 0..<1_500 {
            let r = rng.below(10)
            if r < 4 || model.isEmpty {
                let id = rng.pick(pool)
                if t.contains(id) { continue }
                if let (e, seq) = removed[id], rng.chance(70) {
                    t.insert(id, e, seq: seq)
                    removed[id] = nil
                    model.append((id, seq))
                    model.sort { $0.seq < $1.seq }
                } else {
                    let (_, seq) = t.append(id, Self.item(id))
                    removed[id] = nil
                    model.append((id, seq))
                }
            } else {
                let k = rng.below(model.count)
                let (id, seq) = model.remove(at: k)
                let removal = t.remove(id)
                let r = try #require(removal)
                #expect(r.seq == seq)
                removed[id] = (r.element, seq)
            }
            if let p = t.checkInvariants() {
                Issue.record("step \(step): \(p)")
                return
            }
            #expect(t.elements.map(\.id) == model.map(\.id), "step \(step)")
            #expect(t.count == model.count)
            if step % 25 == 0 {
                for id in pool {
                    let s = t.slot(of: id)
                    #expect(s == Self.byBytes(t, id), "step \(step): \(id.debugDescription)")
                    #expect((s != nil) == model.contains { $0.id == id })
                }
            }
        }
    }

    @Test func removeAllEmptiesTheTable() {
        var t = Table()
        for id in Self.awkwardIDs { t.append(id, Self.item(id)) }
        t.removeAll()
        #expect(t.count == 0 && t.isEmpty && t.elements.isEmpty && t.slotCapacity == 0)
        for id in Self.awkwardIDs { #expect(t.slot(of: id) == nil && Self.byBytes(t, id) == nil) }
        #expect(t.checkInvariants() == nil)
        t.append("a", Self.item("a"))
        #expect(t.slot(of: "a") == 0 && t.checkInvariants() == nil)
    }
}

// MARK: - ChunkedArray and StepLog

@Suite("Storage: ChunkedArray and StepLog") struct ChunkedHistoryTests {
    static let c = ChunkedArray<Int>.chunkCapacity

    static func filled(_ n: Int) -> ChunkedArray<Int> {
        var a = ChunkedArray<Int>()
        for i in 0..<n { a.append(i) }
        return a
    }

    @Test func chunkCapacityIs64KiB() {
        #expect(Self.c == 65_536 / MemoryLayout<Int>.stride)
        #expect(ChunkedArray<(Int, Int, Int, Int, Int)>.chunkCapacity == 65_536 / 40)
        #expect(ChunkedArray<[Int]>.chunkCapacity == 8_192)
    }

    @Test(arguments: [ChunkedHistoryTests.c * 3 + 100, ChunkedHistoryTests.c * 2, ChunkedHistoryTests.c])
    func removeSuffixAtAroundAndBetweenChunkBoundaries(n: Int) {
        let c = Self.c
        let starts = [0, 1, c - 1, c, c + 1, 2 * c - 1, 2 * c, 2 * c + 1, 3 * c - 1, 3 * c, 3 * c + 1, n - 1, n]
        for start in starts where start <= n {
            var a = Self.filled(n)
            #expect(a.count == n && a.last == n - 1)
            let tail = a.removeSuffix(from: start)
            #expect(tail == Array(start..<n), "n \(n), start \(start)")
            #expect(a.count == start && a.isEmpty == (start == 0))
            #expect(a.last == (start == 0 ? nil : start - 1), "n \(n), start \(start): last")
            // Appending after the cut fills the cut chunk and goes on across boundaries.
            for i in 0..<(c + 3) { a.append(-i) }
            #expect(a.count == start + c + 3 && a.last == -(c + 2))
            let all = a.removeSuffix(from: 0)
            #expect(all == Array(0..<start) + (0..<(c + 3)).map { -$0 }, "n \(n), start \(start): contents")
            #expect(a.count == 0 && a.last == nil)
        }
    }

    @Test func popLastDownToEmptyAcrossBoundaries() {
        let n = 2 * Self.c + 5
        var a = Self.filled(n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let v = a.popLast()
            if v != i {
                Issue.record("popLast gave \(String(describing: v)) for \(i)")
                return
            }
            #expect(a.count == i)
            if i % Self.c <= 1 { #expect(a.last == (i == 0 ? nil : i - 1)) }
        }
        #expect(a.popLast() == nil && a.isEmpty && a.last == nil)
        for i in 0..<(Self.c + 1) { a.append(i) }
        #expect(a.count == Self.c + 1 && a.last == Self.c)
        #expect(a.removeSuffix(from: 0) == Array(0...Self.c))
    }

    @Test(arguments: [UInt64(1), 2])
    func randomAppendsAndRemovalsMatchAnArray(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var a = ChunkedArray<Int>()
        var model: [Int] = []
        var next = 0
        for step in 0..<600 {
            switch rng.below(4) {
            case 0, 1:
                for _ in 0..<rng.below(3_000) {
                    a.append(next)
                    model.append(next)
                    next += 1
                }
            case 2:
                guard !model.isEmpty else { continue }
                // Mostly right at a chunk boundary or one off it.
                var start = rng.below(model.count + 1)
                if rng.chance(60) {
                    start = (start / Self.c) * Self.c + rng.pick([-1, 0, 0, 1])
                    start = max(0, min(model.count, start))
                }
                let tail = a.removeSuffix(from: start)
                #expect(tail == Array(model[start...]), "step \(step)")
                model.removeSubrange(start...)
            default:
                for _ in 0..<rng.below(20) { #expect(a.popLast() == model.popLast()) }
            }
            #expect(a.count == model.count && a.last == model.last, "step \(step)")
        }
        #expect(a.removeSuffix(from: 0) == model)
    }

    static func show(_ step: (name: String, entries: [Int])?) -> String {
        step.map { "\($0.name) \($0.entries)" } ?? "nil"
    }

    @Test func stepLogPopsStepsNewestFirst() {
        var log = StepLog<Int>()
        #expect(log.isEmpty && log.count == 0 && log.lastName == nil)
        #expect(log.popLast() == nil)
        log.push("Move", 1)
        log.push("Add", [2, 3])
        log.push("Move", [])
        log.push("Move", Array(0..<5_000))
        log.push("Remove", 7)
        #expect(log.count == 5 && log.lastName == "Remove")
        var p = log.popLast()
        #expect(p?.name == "Remove" && p?.entries == [7] && log.lastName == "Move")
        p = log.popLast()
        #expect(p?.name == "Move" && p?.entries == Array(0..<5_000) && log.lastName == "Move")
        p = log.popLast()
        #expect(p?.name == "Move" && p?.entries == [] && log.lastName == "Add")
        // Names are reused from the table, whichever was pushed last.
        log.push("Move", 4)
        log.push("Add", 5)
        log.push("Other", 6)
        log.push("Move", 8)
        #expect(Self.show(log.popLast()) == "Move [8]")
        #expect(Self.show(log.popLast()) == "Other [6]")
        #expect(Self.show(log.popLast()) == "Add [5]")
        #expect(Self.show(log.popLast()) == "Move [4]")
        #expect(Self.show(log.popLast()) == "Add [2, 3]")
        #expect(Self.show(log.popLast()) == "Move [1]")
        #expect(log.popLast() == nil && log.isEmpty && log.lastName == nil)
        log.push("X", 1)
        log.removeAll()
        #expect(log.isEmpty && log.lastName == nil && log.popLast() == nil)
        log.push("Zed", [1, 2])
        #expect(log.lastName == "Zed" && Self.show(log.popLast()) == "Zed [1, 2]")
    }

    /// More one-entry steps than a chunk of marks holds, and empty steps among them.
    @Test func stepLogPastAChunkOfMarks() {
        var log = StepLog<Int>()
        let n = ChunkedArray<UInt16>.chunkCapacity + 100
        for i in 0..<n { if i % 1_000 == 0 { log.push("Empty", []) } else { log.push(i % 2 == 0 ? "Move" : "Add", i) } }
        #expect(log.count == n && log.lastName == ((n - 1) % 2 == 0 ? "Move" : "Add"))
        for i in stride(from: n - 1, through: 0, by: -1) {
            let p = log.popLast()
            let want = i % 1_000 == 0 ? "Empty []" : "\(i % 2 == 0 ? "Move" : "Add") [\(i)]"
            if Self.show(p) != want {
                Issue.record("step \(i): \(Self.show(p)), expected \(want)")
                return
            }
        }
        #expect(log.isEmpty && log.popLast() == nil)
    }

    /// Steps of many sizes (entries and steps both past several chunk boundaries), popped
    /// and pushed at random against a model.
    @Test func stepLogMatchesAModel() {
        var rng = SplitMix64(seed: 77)
        var log = StepLog<Int>()
        var model: [(String, [Int])] = []
        let names = ["Move", "Add", "Remove", "Update", "Move", "Move", "Transaction", ""]
        var next = 0
        var maxSteps = 0, maxEntries = 0, entryCount = 0
        for step in 0..<14_000 {
            if step == 2_000 {
                log.removeAll()
                model.removeAll()
                entryCount = 0
            }
            let r = rng.below(100)
            if r < 75 {
                let name = rng.pick(names)
                let n = rng.chance(85) ? 1 : rng.below(rng.chance(10) ? 6_000 : 8)
                let entries = Array(next..<(next + n))
                next += n
                if n == 1 && rng.chance(50) { log.push(name, entries[0]) } else { log.push(name, entries) }
                model.append((name, entries))
                entryCount += n
            } else {
                let p = log.popLast()
                let m = model.popLast()
                entryCount -= m?.1.count ?? 0
                #expect(p?.name == m?.0 && p?.entries == m?.1, "step \(step)")
            }
            #expect(log.count == model.count && log.lastName == model.last?.0, "step \(step)")
            maxSteps = max(maxSteps, model.count)
            maxEntries = max(maxEntries, entryCount)
        }
        #expect(maxSteps > 1_000)
        #expect(maxEntries > 2 * Self.c)
        while let m = model.popLast() {
            let p = log.popLast()
            #expect(p?.name == m.0 && p?.entries == m.1)
        }
        #expect(log.isEmpty && log.popLast() == nil)
    }

    /// 10,000 moves (some of a group, whose steps hold several entries) fill the history
    /// past two chunk boundaries; undoing every one comes back to the first export byte for
    /// byte, and redoing every one to the last.
    @Test func tenThousandMovesUndoAndRedoExactly() throws {
        var rng = SplitMix64(seed: 2024)
        let s = Store()
        for i in 0..<8 { try s.addNode(node("n\(i)", Double(i) * 200, 0)) }
        try s.addNode(node("g", 0, 500, 600, 400, container: true))
        try s.addNode(node("c1", 20, 520, parent: "g"))
        try s.addNode(node("c2", 220, 620, parent: "g"))
        try s.addEdge(edge("e1", "n0", "n1"))
        try s.addEdge(edge("e2", "c1", "n3"))
        try s.addEdge(edge("e3", "n4", "c2"))
        s.clearHistory()
        let initialText = try s.export()
        let initial = s.nodes
        let moves = 10_000
        let ids = s.nodes.map(\.id).filter { $0 != "c1" && $0 != "c2" }
        var checkpoints: [Int: [FlowNode<JSONValue>]] = [:]
        for k in 0..<moves {
            let id = ids[rng.below(ids.count)]
            // Fractions that are not representable in few bits: exact restore is a real test.
            let p = Point(Double(k) + rng.uniform(-1e4, 1e4) / 3, -Double(k) / 7 + rng.uniform(-1, 1))
            #expect(try s.moveNode(id, to: p))
            if (k + 1) % 1_000 == 0 { checkpoints[k + 1] = s.nodes }
        }
        let finalText = try s.export()
        #expect(s.log.undoLog.count == moves && s.undoActionName == "Move" && !s.canRedo)
        #expect(s.nodes.first { $0.id == "c1" } != initial.first { $0.id == "c1" })  // the group moved
        for k in stride(from: moves, to: 0, by: -1) {
            if let want = checkpoints[k] { #expect(s.nodes == want, "before undoing move \(k)") }
            #expect(try s.undo())
        }
        #expect(!s.canUndo && s.log.redoLog.count == moves)
        #expect(s.nodes == initial)
        #expect(try s.export() == initialText)
        for k in 1...moves {
            #expect(try s.redo())
            if let want = checkpoints[k] { #expect(s.nodes == want, "after redoing move \(k)") }
        }
        #expect(!s.canRedo && s.log.undoLog.count == moves)
        #expect(try s.export() == finalText)
        #expect(s.checkInvariants().isEmpty)
    }
}

// MARK: - SpatialIndex, CellMap, BoundsTree

@Suite("Storage: SpatialIndex") struct SpatialIndexTests {
    static let cell = SpatialIndex.cellSize

    @Test func cellCoordinatesAreFlooredAndClamped() {
        let c = Self.cell
        let cases: [(Double, Int32)] = [
            (0, 0), (-0.0, 0), (c - 1e-9, 0), (c, 1), (-1e-9, -1), (-c, -1), (-c - 1e-9, -2),
            (1e12, .max), (-1e12, .min), (1e300, .max), (-1e300, .min), (.nan, 0),
            (2_147_483_646 * c, 2_147_483_646), (-2_147_483_647 * c, -2_147_483_647),
            (-2_147_483_647.5 * c, .min), (2_147_483_647 * c, .max), (-2_147_483_648 * c, .min),
            (.infinity, .max), (-.infinity, .min), (5.5 * c, 5), (-5.5 * c, -6),
        ]
        for (v, want) in cases {
            #expect(SpatialIndex.cell(v) == want, "cell(\(v))")
        }
    }

    /// Frames of every kind: ordinary, on cell borders, wide (up to 64 cells) and large
    /// (more), empty, and far away (±1e12, ±1e300).
    static func frame(_ rng: inout SplitMix64) -> Rect {
        let c = cell
        switch rng.below(12) {
        case 0..<5:
            return Rect(rng.uniform(-3_000, 3_000), rng.uniform(-3_000, 3_000), rng.uniform(0, 400), rng.uniform(0, 300))
        case 5:
            let x = Double(rng.below(41) - 20) * c + rng.pick([-1e-9, 0, 1e-9, -0.5])
            let y = Double(rng.below(41) - 20) * c + rng.pick([-1e-9, 0, 1e-9])
            return Rect(x, y, Double(rng.below(3)) * c + rng.pick([0, 1e-9, -1e-9, 1]), c)
        case 6:
            // Up to 9 x 9 cells: at most 64 cells stay in the grid, more go to `large`.
            return Rect(rng.uniform(-2_000, 2_000), rng.uniform(-2_000, 2_000), Double(rng.below(9) + 1) * c - 1,
                        Double(rng.below(9) + 1) * c - 1)
        case 7:
            return Rect(rng.uniform(-20_000, 20_000), rng.uniform(-20_000, 20_000), rng.uniform(65 * c, 300 * c),
                        rng.uniform(0, 2 * c))
        case 8:
            return Rect(rng.uniform(-3_000, 3_000), rng.uniform(-3_000, 3_000), 0, 0)
        case 9:
            let far = rng.pick([1e12, -1e12, 1e300, -1e300])
            return Rect(far + rng.uniform(0, 1_000), rng.pick([far, 0, -far]), rng.uniform(0, 500), rng.uniform(0, 500))
        case 10:
            // Spans from far negative to positive: large.
            return Rect(rng.pick([-1e12, -1e300]), rng.uniform(-500, 500), rng.pick([2e12, 1e300]), rng.uniform(0, 100))
        default:
            return Rect(rng.uniform(-300, 300), rng.uniform(-300, 300), rng.uniform(0, 2), rng.uniform(0, 2))
        }
    }

    /// A frame near `f`: a small move (often in the same cells) or one across cells.
    static func moved(_ f: Rect, _ rng: inout SplitMix64) -> Rect {
        if rng.chance(50) { return frame(&rng) }
        let d = rng.chance(50) ? 3.0 : 300.0
        return Rect(f.x + rng.uniform(-d, d), f.y + rng.uniform(-d, d), f.width, f.height)
    }

    /// The union of the frames as `bounds()` builds it, from exact minima and maxima.
    static func union(_ frames: [Int32: Rect]) -> Rect? {
        guard !frames.isEmpty else { return nil }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for f in frames.values {
            x0 = min(x0, f.minX)
            y0 = min(y0, f.minY)
            x1 = max(x1, f.maxX)
            y1 = max(y1, f.maxY)
        }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }

    /// The exact minima, and the maxima where `Rect` (origin and size) can hold them: across
    /// ±1e300 the width is rounded and `origin + width` no longer gives the maximum back.
    static func boundsProblem(_ ix: SpatialIndex, _ frames: [Int32: Rect]) -> String? {
        let want = union(frames)
        let got = ix.bounds()
        if got != want { return "bounds \(String(describing: got)), expected \(String(describing: want))" }
        guard let g = got else { return nil }
        let x0 = frames.values.map(\.minX).min()!, y0 = frames.values.map(\.minY).min()!
        let x1 = frames.values.map(\.maxX).max()!, y1 = frames.values.map(\.maxY).max()!
        if g.minX != x0 || g.minY != y0 { return "bounds minimum \(g.minX), \(g.minY) for \(x0), \(y0)" }
        if x0 + (x1 - x0) == x1 && g.maxX != x1 { return "bounds maxX \(g.maxX) for \(x1)" }
        if y0 + (y1 - y0) == y1 && g.maxY != y1 { return "bounds maxY \(g.maxY) for \(y1)" }
        return nil
    }

    static func indexProblem(_ ix: SpatialIndex, _ frames: [Int32: Rect]) -> String? {
        let list = frames.sorted { $0.key < $1.key }.map { (slot: $0.key, frame: $0.value) }
        if let p = ix.checkInvariants(list) { return p }
        if ix.count != frames.count { return "count \(ix.count) for \(frames.count)" }
        for s in Int32(0)..<400 where ix.contains(s) != (frames[s] != nil) { return "membership of slot \(s)" }
        return boundsProblem(ix, frames)
    }

    /// Points that matter for `frames`: corners and edges (half-open containment), inside,
    /// and random ones.
    static func probePoint(_ frames: [Int32: Rect], _ rng: inout SplitMix64) -> Point {
        if !frames.isEmpty, rng.chance(75) {
            let f = frames[frames.keys.sorted()[rng.below(frames.count)]]!
            switch rng.below(4) {
            case 0: return Point(f.minX, f.minY)
            case 1: return Point(f.maxX, f.maxY)
            case 2: return Point(f.minX + f.width / 2, f.minY + f.height / 3)
            default: return Point(f.maxX.nextDown, f.maxY.nextDown)
            }
        }
        return Point(rng.uniform(-4_000, 4_000), rng.uniform(-4_000, 4_000))
    }

    static func probeRect(_ frames: [Int32: Rect], _ rng: inout SplitMix64) -> Rect {
        if !frames.isEmpty, rng.chance(60) {
            let f = frames[frames.keys.sorted()[rng.below(frames.count)]]!
            switch rng.below(3) {
            case 0: return Rect(f.maxX, f.maxY, rng.uniform(0, 300), rng.uniform(0, 300))  // touches a corner
            case 1: return Rect(f.minX - 50, f.minY - 50, 0, 0)  // a point rectangle, maybe outside
            default: return Rect(f.minX + f.width / 2, f.minY, 0, f.height)  // a line through it
            }
        }
        if rng.chance(10) { return Rect(-1e301, -1e301, 2e301, 2e301) }  // everything
        return Rect(rng.uniform(-4_000, 4_000), rng.uniform(-4_000, 4_000), rng.uniform(0, 2_000), rng.uniform(0, 2_000))
    }

    static func queryProblem(_ ix: SpatialIndex, _ frames: [Int32: Rect], _ rng: inout SplitMix64) -> String? {
        for _ in 0..<15 {
            let p = probePoint(frames, &rng)
            let got = ix.candidates(at: p)
            let set = Set(got)
            if let s = got.first(where: { frames[$0] == nil }) { return "candidates(at: \(p)) lists free slot \(s)" }
            for (s, f) in frames where f.contains(p) && !set.contains(s) {
                return "candidates(at: \(p)) misses slot \(s) with frame \(f)"
            }
            var visited: [Int32] = []
            ix.forEachCandidate(at: p) { visited.append($0) }
            if visited.sorted() != got.sorted() { return "forEachCandidate(at: \(p)) differs from candidates(at:)" }

            let r = probeRect(frames, &rng)
            let inRect = ix.candidates(in: r)
            let rset = Set(inRect)
            if rset.count != inRect.count { return "candidates(in: \(r)) has duplicates" }
            if let s = inRect.first(where: { frames[$0] == nil }) { return "candidates(in: \(r)) lists free slot \(s)" }
            for (s, f) in frames where f.intersects(r) && !rset.contains(s) {
                return "candidates(in: \(r)) misses slot \(s) with frame \(f)"
            }
        }
        return nil
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomChangesMatchBruteForce(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var ix = SpatialIndex()
        var frames: [Int32: Rect] = [:]
        var largeSeen = false, farSeen = false
        for step in 0..<1_500 {
            let r = rng.below(10)
            if r < 4 || frames.count < 3 {
                // A free slot, often a low one (reuse) and sometimes far up (growth).
                var s = Int32(rng.chance(90) ? rng.below(120) : rng.below(400))
                while frames[s] != nil { s = (s + 1) % 400 }
                let f = Self.frame(&rng)
                ix.insert(s, f)
                frames[s] = f
            } else if r < 8 {
                let s = rng.pick(frames.keys.sorted())
                let f = Self.moved(frames[s]!, &rng)
                ix.move(s, from: frames[s]!, to: f)
                frames[s] = f
            } else {
                let s = rng.pick(frames.keys.sorted())
                ix.remove(s, frames[s]!)
                frames[s] = nil
            }
            largeSeen = largeSeen || frames.values.contains { $0.width > 64 * Self.cell }
            farSeen = farSeen || frames.values.contains { abs($0.minX) >= 1e12 }
            if let p = Self.indexProblem(ix, frames) {
                Issue.record("seed \(seed), step \(step): \(p)")
                return
            }
            if step % 5 == 0, let p = Self.queryProblem(ix, frames, &rng) {
                Issue.record("seed \(seed), step \(step): \(p)")
                return
            }
        }
        #expect(largeSeen && farSeen)
        // Empty it completely.
        for (s, f) in frames { ix.remove(s, f) }
        #expect(ix.count == 0 && ix.bounds() == nil)
        #expect(ix.candidates(at: .zero).isEmpty && ix.candidates(in: Rect(-1e6, -1e6, 2e6, 2e6)).isEmpty)
        #expect(ix.checkInvariants([]) == nil)
    }

    @Test func gridLimitAndLargeFrames() {
        let c = Self.cell
        var ix = SpatialIndex()
        let grid = Rect(0, 0, 8 * c - 1, 8 * c - 1)  // 8 x 8 = 64 cells: in the grid
        let wide = Rect(0, 0, 9 * c - 1, 7 * c - 1)  // 9 x 7 = 63 cells: in the grid
        let tooMany = Rect(0, 0, 9 * c - 1, 8 * c - 1)  // 9 x 8 = 72 cells: large
        let long = Rect(-100, 5, 65 * c, 1)  // 66 cells in a row: large
        ix.insert(0, grid)
        ix.insert(1, wide)
        ix.insert(2, tooMany)
        ix.insert(3, long)
        var frames: [Int32: Rect] = [0: grid, 1: wide, 2: tooMany, 3: long]
        #expect(Self.indexProblem(ix, frames) == nil)
        // Large frames are candidates everywhere, also far from them.
        #expect(Set(ix.candidates(at: Point(1e9, -1e9))) == [2, 3])
        #expect(Set(ix.candidates(at: Point(10, 10))) == [0, 1, 2, 3])
        // From the grid into `large` and back; and a large frame that grows.
        ix.move(0, from: grid, to: tooMany)
        frames[0] = tooMany
        #expect(Self.indexProblem(ix, frames) == nil)
        #expect(Set(ix.candidates(at: Point(1e9, -1e9))) == [0, 2, 3])
        ix.move(2, from: tooMany, to: Rect(500, 500, 10, 10))
        frames[2] = Rect(500, 500, 10, 10)
        ix.move(3, from: long, to: Rect(-1e300, 0, 1e300, 1))
        frames[3] = Rect(-1e300, 0, 1e300, 1)
        #expect(Self.indexProblem(ix, frames) == nil)
        #expect(Set(ix.candidates(at: Point(1e9, -1e9))) == [0, 3])
        #expect(ix.candidates(at: Point(505, 505)).contains(2))
        #expect(ix.bounds() == Rect(-1e300, 0, 9 * c - 1 + 1e300, 8 * c - 1))
        ix.remove(3, frames[3]!)
        frames[3] = nil
        #expect(Self.indexProblem(ix, frames) == nil)
        #expect(ix.bounds() == Rect(0, 0, 9 * c - 1, 8 * c - 1))
    }

    @Test func farAwayFramesAreFoundAndBounded() {
        var ix = SpatialIndex()
        let frames: [Int32: Rect] = [
            0: Rect(1e12, 1e12, 150, 60), 1: Rect(-1e12 - 150, -1e12, 150, 60), 2: Rect(1e300, -1e300, 150, 60),
            3: Rect(-1e300, 1e300, 0, 0), 4: Rect(1e12 + 1e6, 1e12, 150, 60), 5: Rect(0, 0, 10, 10),
        ]
        for (s, f) in frames { ix.insert(s, f) }
        #expect(Self.indexProblem(ix, frames) == nil)
        #expect(ix.candidates(at: Point(1e12 + 1, 1e12 + 1)).contains(0))
        #expect(ix.candidates(at: Point(-1e12 - 1, -1e12 + 1)).contains(1))
        #expect(ix.candidates(in: Rect(1e12, 1e12, 2e6, 1)).contains(4))
        #expect(ix.candidates(in: Rect(-1e300, 1e300, 0, 0)).contains(3))
        #expect(ix.candidates(in: Rect(1e300, -1e300, 1, 1)).contains(2))
        let b = ix.bounds()!
        #expect(b.minX == -1e300 && b.minY == -1e300)
        #expect(b == Rect(-1e300, -1e300, 1e300 - -1e300, 1e300 - -1e300))
        var rest = frames
        for s in Int32(0)..<4 {
            ix.remove(s, frames[s]!)
            rest[s] = nil
            #expect(Self.indexProblem(ix, rest) == nil, "after removing \(s)")
        }
        #expect(ix.bounds() == Rect(0, 0, 1e12 + 1e6 + 150, 1e12 + 60))
    }

    @Test func boundsTreeUnionMatchesBruteForce() {
        var rng = SplitMix64(seed: 9)
        var tree = BoundsTree()
        var frames: [Int32: Rect] = [:]
        #expect(tree.union == nil)
        tree.clear(5)  // beyond the leaves: nothing
        #expect(tree.union == nil)
        for step in 0..<4_000 {
            let s = Int32(rng.chance(95) ? rng.below(64) : rng.below(700))
            if rng.chance(65) {
                let f = SpatialIndexTests.frame(&rng)
                tree.set(s, f)
                frames[s] = f
            } else {
                tree.clear(s)
                frames[s] = nil
            }
            let want = Self.union(frames)
            if tree.union != want {
                Issue.record("step \(step): \(String(describing: tree.union)), expected \(String(describing: want))")
                return
            }
        }
    }

    @Test func cellMapMatchesAModel() {
        var rng = SplitMix64(seed: 31)
        var map = CellMap()
        var model: [[Int32]: [Int32]] = [:]  // [x, y] -> slots
        let xs: [Int32] = [.min, .min + 1, -2, -1, 0, 1, 2, 3, .max - 1, .max]
        for step in 0..<6_000 {
            let x = rng.chance(50) ? rng.pick(xs) : Int32(rng.below(6)) - 3
            let y = rng.chance(50) ? rng.pick(xs) : Int32(rng.below(6)) - 3
            let key = [x, y]
            if rng.chance(55) || model[key] == nil {
                let s = Int32(rng.below(50))
                if model[key]?.contains(s) == true { continue }
                map.add(s, x: x, y: y)
                model[key, default: []].append(s)
            } else {
                let s = model[key]!.randomElement(using: &rng)!
                map.remove(s, x: x, y: y)
                model[key]!.removeAll { $0 == s }
                if model[key]!.isEmpty { model[key] = nil }
            }
            if let p = map.checkInvariants() {
                Issue.record("step \(step): \(p)")
                return
            }
            #expect(map.count == model.count)
            if step % 20 == 0 {
                for k in model.keys { #expect(map.list(x: k[0], y: k[1]).sorted() == model[k]!.sorted(), "step \(step)") }
                for x in xs { for y in xs where model[[x, y]] == nil { #expect(map.list(x: x, y: y).isEmpty) } }
            }
        }
        // Removing a slot that is not listed changes nothing.
        let before = map.count
        map.remove(999, x: 0, y: 0)
        map.remove(1, x: 12345, y: 6789)
        #expect(map.count == before && map.checkInvariants() == nil)
    }
}
