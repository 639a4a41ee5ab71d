/// The undo (or redo) history: named steps whose entries share one chunked log. Pushing a
/// step appends its entries, popping one truncates. Besides its entries a step costs two
/// bytes: each entry has a mark saying whether it starts a step and the index of the step's
/// name in a small table (steps mostly repeat a few names: "Move", "Add", ...). A step
/// without entries is a mark of its own.
///
/// Noncopyable: a store owns its history, which is never copied.
struct StepLog<Entry>: ~Copyable {
    private var entries = ChunkedArray<Entry>()
    /// Per entry: `stepStart | name index` (`name index` < 0x4000); and per step without
    /// entries, `stepStart | emptyStep | name index`.
    private var marks = ChunkedArray<UInt16>()
    private var names: [String] = []
    private var nameIndex: [String: Int] = [:]
    private var lastNameIndex = -1
    private(set) var count = 0

    private static var stepStart: UInt16 { 0x8000 }
    private static var emptyStep: UInt16 { 0x4000 }
    private static var nameBits: UInt16 { 0x3FFF }

    var isEmpty: Bool { count == 0 }

    /// The name of the newest step.
    var lastName: String? {
        guard let m = marks.last else { return nil }
        return names[Int(m & Self.nameBits)]
    }

    /// The mark of the first entry of a step named `name`.
    @inline(__always)
    private mutating func mark(_ name: String) -> UInt16 {
        // Look at the last name first; the table is small, and capped: a history with more
        // than 16,383 distinct step names (transactions named one by one) shares one slot
        // for the rest, which only holds the name of the newest such step.
        if lastNameIndex < 0 || names[lastNameIndex] != name {
            if let i = nameIndex[name] {
                lastNameIndex = i
            } else if names.count < Int(Self.nameBits) {
                names.append(name)
                lastNameIndex = names.count - 1
                nameIndex[name] = lastNameIndex
            } else {
                let shared = Int(Self.nameBits) - 1
                nameIndex[names[shared]] = nil
                names[shared] = name
                nameIndex[name] = shared
                lastNameIndex = shared
            }
        }
        return Self.stepStart | UInt16(lastNameIndex)
    }

    /// Pushes a step of one entry.
    @inline(__always)
    mutating func push(_ name: String, _ entry: consuming Entry) {
        marks.append(mark(name))
        entries.append(entry)
        count += 1
    }

    mutating func push(_ name: String, _ stepEntries: [Entry]) {
        guard let first = stepEntries.first else {
            marks.append(mark(name) | Self.emptyStep)
            count += 1
            return
        }
        let m = mark(name)
        marks.append(m)
        entries.append(first)
        for e in stepEntries.dropFirst() {
            marks.append(m & ~Self.stepStart)
            entries.append(e)
        }
        count += 1
    }

    /// Removes the newest step and returns its name and entries.
    mutating func popLast() -> (name: String, entries: [Entry])? {
        guard count > 0 else { return nil }
        let end = marks.count
        var start = end - 1
        while marks[start] & Self.stepStart == 0 { start -= 1 }
        let mark = marks[start]
        let name = names[Int(mark & Self.nameBits)]
        _ = marks.removeSuffix(from: start)
        count -= 1
        if mark & Self.emptyStep != 0 { return (name, []) }
        // The step's marks (from `start` to the end) are those of the log's last entries.
        return (name, entries.removeSuffix(from: entries.count - (end - start)))
    }

    mutating func removeAll() {
        entries.removeAll()
        marks.removeAll()
        names.removeAll()
        nameIndex.removeAll()
        lastNameIndex = -1
        count = 0
    }
}

/// An append-only array (with removal from the end) kept in chunks of fixed capacity that
/// it allocates itself: it grows without copying its elements, and an append is a bounds
/// check and a store (no uniqueness check, no reallocation).
///
/// Noncopyable: it owns its memory.
struct ChunkedArray<Element>: ~Copyable {
    /// Elements per chunk: 64 KiB of them, below glibc's threshold for mapping allocations
    /// of their own, so a new chunk is likely to reuse heap memory freed earlier (by Lua's
    /// collector, say) instead of faulting in fresh pages.
    static var chunkCapacity: Int { max(64, 65536 / MemoryLayout<Element>.stride) }

    private var chunks: [UnsafeMutablePointer<Element>] = []
    /// The chunk being filled and how many elements it holds.
    private var tail: UnsafeMutablePointer<Element>?
    private var tailCount = ChunkedArray.chunkCapacity
    private(set) var count = 0

    init() {}

    deinit {
        Self.free(chunks, count: count)
    }

    /// Deinitializes the first `count` elements of `chunks` and deallocates them.
    private static func free(_ chunks: [UnsafeMutablePointer<Element>], count: Int) {
        let c = chunkCapacity
        var i = 0
        for chunk in chunks {
            let n = min(c, count - i)
            if n > 0 { chunk.deinitialize(count: n) }
            chunk.deallocate()
            i += c
        }
    }

    var isEmpty: Bool { count == 0 }
    var last: Element? { count == 0 ? nil : self[count - 1] }

    subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "ChunkedArray index out of range")  // invariant
        return chunks[i / Self.chunkCapacity][i % Self.chunkCapacity]
    }

    @inline(__always)
    mutating func append(_ e: consuming Element) {
        if tailCount == Self.chunkCapacity { addChunk() }
        (tail.unsafelyUnwrapped + tailCount).initialize(to: e)
        tailCount += 1
        count += 1
    }

    private mutating func addChunk() {
        let chunk = UnsafeMutablePointer<Element>.allocate(capacity: Self.chunkCapacity)
        populate(UnsafeMutableRawPointer(chunk), bytes: Self.chunkCapacity * MemoryLayout<Element>.stride)
        chunks.append(chunk)
        tail = chunk
        tailCount = 0
    }

    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        return removeSuffix(from: count - 1).first
    }

    /// Removes the elements from index `start` on and returns them in order.
    mutating func removeSuffix(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count, "ChunkedArray index out of range")  // invariant
        let c = Self.chunkCapacity
        var out: [Element] = []
        out.reserveCapacity(count - start)
        var i = start
        while i < count {
            let chunk = chunks[i / c]
            let from = i % c
            let n = min(c - from, count - i)
            out.append(contentsOf: UnsafeBufferPointer(start: chunk + from, count: n))
            (chunk + from).deinitialize(count: n)
            i += n
        }
        let keep = (start + c - 1) / c
        while chunks.count > keep { chunks.removeLast().deallocate() }
        count = start
        if start % c == 0 {
            // The last kept chunk (if any) is full: the next append starts a new one.
            tail = chunks.last
            tailCount = c
        } else {
            tail = chunks.last
            tailCount = start % c
        }
        return out
    }

    mutating func removeAll() {
        Self.free(chunks, count: count)
        chunks = []
        tail = nil
        tailCount = Self.chunkCapacity
        count = 0
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back the whole pages of a new allocation now, in one call, instead of
/// one page fault per page as the history writes into it (a page fault costs a few
/// microseconds on virtual machines). Pages already backed are left as they are; where the
/// call is not supported (Linux before 5.14, other systems) nothing happens.
@inline(never)
private func populate(_ p: UnsafeMutableRawPointer, bytes: Int) {
    #if os(Linux)
    let page = 4096
    let start = (Int(bitPattern: p) + page - 1) & ~(page - 1)
    let end = (Int(bitPattern: p) + bytes) & ~(page - 1)
    guard end > start, let base = UnsafeMutableRawPointer(bitPattern: start) else { return }
    _ = madvise(base, end - start, 23)  // MADV_POPULATE_WRITE
    #endif
}
