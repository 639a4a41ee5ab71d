import Synchronization

/// How long a long-running computation (a layout, a decode, an export) may go on: a
/// deadline and a flag another thread may set (`cancel`). The work looks at it now and then
/// (`isStopped`, cheap between clock readings) and stops early: an improvement loop keeps
/// the best it has; a call that cannot finish fails with `stoppedError` and changes
/// nothing. Set it for the work below with `WorkLimit.$current.withValue(limit) { ... }`;
/// the Lua sandbox sets one from its time limit for every run.
public final class WorkLimit: Sendable {
    /// The limit in force for the current task or thread; nil: none.
    @TaskLocal public static var current: WorkLimit?

    /// When the work must stop; nil: no deadline (only `cancel`).
    public let deadline: ContinuousClock.Instant?
    private let stopped = Atomic<Bool>(false)
    private let onStop: (@Sendable () -> Void)?

    /// A limit `seconds` from now (nil: none). `onStop` runs once, on the thread that
    /// first finds the limit spent.
    public init(seconds: Double?, onStop: (@Sendable () -> Void)? = nil) {
        deadline = seconds.map { ContinuousClock.now + .nanoseconds(Int64(min($0, 1e9) * 1e9)) }
        self.onStop = onStop
    }

    /// Stops the work at its next look (safe from any thread).
    public func cancel() { stop() }

    /// Whether the work should stop: cancelled, or past the deadline (which reads the clock).
    public var isStopped: Bool {
        if stopped.load(ordering: .relaxed) { return true }
        guard let deadline, ContinuousClock.now >= deadline else { return false }
        stop()
        return true
    }

    private func stop() {
        if stopped.exchange(true, ordering: .relaxed) == false { onStop?() }
    }

    /// Whether the work under the current limit should stop (false without one).
    public static var shouldStop: Bool { current?.isStopped ?? false }

    /// The error of a call `operation` the limit stopped.
    public static func stoppedError(_ operation: String) -> FlowError {
        FlowError(.invalidState, operation: operation, message: "stopped: the work limit ran out; nothing was changed")
    }

    /// Throws `stoppedError(operation)` when the work under the current limit should stop.
    public static func check(_ operation: String) throws(FlowError) {
        if shouldStop { throw stoppedError(operation) }
    }
}

/// Looks at the current `WorkLimit` every `stride` calls of `next()` only, for tight loops.
public struct WorkLimitProbe {
    private let limit: WorkLimit?
    private let stride: Int
    private var count = 0

    public init(stride: Int = 1024) {
        limit = WorkLimit.current
        self.stride = stride
    }

    /// Whether the work should stop (looks at the limit on every `stride`-th call).
    @inline(__always)
    public mutating func shouldStop() -> Bool {
        guard let limit else { return false }
        count += 1
        if count < stride { return false }
        count = 0
        return limit.isStopped
    }
}
