import CBenchShims

/// How long and how often each measurement runs.
struct Budget {
    /// Target duration of one timed batch, in seconds.
    var batch: Double
    /// Timed batches per measurement (the median is reported).
    var reps: Int
    /// Most calls per batch for operations that change the store (keeps it near its size).
    var maxMutations: Int
    /// Process spawns per program for the start-up measurement.
    var spawns: Int

    static let normal = Budget(batch: 0.02, reps: 9, maxMutations: 2000, spawns: 40)
    static let quick = Budget(batch: 0.005, reps: 5, maxMutations: 500, spawns: 12)
}

/// Seconds on CLOCK_MONOTONIC.
func now() -> Double { Double(flowbench_nanos()) * 1e-9 }

/// Seconds taken by `body`.
func time(_ body: () -> Void) -> Double {
    let t0 = now()
    body()
    return now() - t0
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    let n = s.count
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

/// Median seconds per call. `batch(k)` makes k calls and returns the seconds they took
/// (setup and cleanup untimed). Calibration batches of 1, 4, 16, 64 calls (until one takes
/// a quarter of the budget) size k to the budget: one call alone can be far slower than the
/// next ones (a cold cache, a first page fault) and would make every batch a single call.
/// The calibration runs three times and the smallest estimate counts: a query catches up
/// with the work the store deferred (indexing 100,000 new node frames or edge paths: 60–80
/// ms each) when it first needs it, and a hit test needs the edge index only when it hits
/// no node, so the two calls that pay can come in any of the first batches; a calibration
/// that included one would size every batch to a single call, each timed cold.
func perCall(_ budget: Budget, mutating: Bool = false, _ batch: (Int) -> Double) -> Double {
    func calibrate() -> Double {
        var c = 1
        var t = batch(1)
        while t < budget.batch / 4 && c < 64 && !(mutating && c * 4 > budget.maxMutations) {
            c *= 4
            t = batch(c)
        }
        return t / Double(c)
    }
    let once = max(min(calibrate(), calibrate(), calibrate()), 1e-9)
    var k = max(1, Int(budget.batch / once))
    if mutating { k = min(k, budget.maxMutations) }
    return median((0..<budget.reps).map { _ in batch(k) / Double(k) })
}

/// A small deterministic generator (SplitMix64), so runs are comparable.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in 0..<n.
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
