// SplitMix64: a tiny deterministic generator shared by the randomised tests, so that a
// failure repeats exactly from its seed.

public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform-enough in `0..<n` for tests (n > 0).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// A double in `lo..<hi`.
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * (Double(next() >> 11) / 9_007_199_254_740_992.0)
    }

    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var a = items
        if a.count > 1 {
            for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, below(i + 1)) }
        }
        return a
    }
}
