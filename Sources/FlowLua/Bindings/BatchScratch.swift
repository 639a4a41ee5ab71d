// The memory the batch adds of a Lua state's stores read their items into
// (LuaStore+Batch.swift), one buffer a state (not a store: a script holding many stores
// keeps one buffer, not one each outside a sandbox's memory cap), kept between calls so that a batch of up to about 1,000 items allocates nothing: a fresh
// buffer of that size was a large allocation on every call, and the first large
// allocation after a collection consolidates every small block the collector freed
// (about 150 instructions an item at 1,000 items; docs/performance.md, "Batch adds").

/// Scratch memory of the batch adds of one Lua state.
final class BatchScratch {
    /// The most bytes kept between calls (a larger batch allocates its own and frees it).
    static let keptBytes = 256 * 1024
    static let alignment = 16
    static let attachmentKey = "flow.batchScratch"

    /// The scratch memory of the state whose context is `context` (made on first use,
    /// released with the context).
    static func of(_ context: LuaContext) -> BatchScratch {
        if let s = context.attachments[attachmentKey] as? BatchScratch { return s }
        let s = BatchScratch()
        context.attachments[attachmentKey] = s
        return s
    }

    private var memory: UnsafeMutableRawPointer?
    private var bytes = 0
    /// Whether a call is using `memory` (a callback inside it may add a batch of its own).
    private var busy = false

    deinit { memory?.deallocate() }

    /// Runs `body` with `count` bytes of uninitialised memory, aligned for any item; the
    /// memory is `body`'s until it returns, and whatever it initialised there it must have
    /// deinitialised or moved out by then.
    func with<R>(bytes count: Int, _ body: (UnsafeMutableRawPointer) throws -> R) rethrows -> R {
        let count = max(count, 1)
        guard !busy, count <= Self.keptBytes else {
            let fresh = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: Self.alignment)
            defer { fresh.deallocate() }
            return try body(fresh)
        }
        if count > bytes {
            memory?.deallocate()
            memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: Self.alignment)
            bytes = count
        }
        busy = true
        defer { busy = false }
        return try body(memory.unsafelyUnwrapped)
    }
}
