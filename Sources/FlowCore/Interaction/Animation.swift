/// How an animated store call moves its values (store-semantics §14).
public struct FlowAnimation: Hashable, Sendable {
    public enum Timing: Hashable, Sendable {
        /// A damped spring; `response` is the period in seconds of the undamped spring.
        case spring(response: Double, dampingFraction: Double)
        /// A smoothstep curve `t²(3 − 2t)` over `duration` seconds.
        case easeInOut(duration: Double)
    }

    public var timing: Timing

    public init(timing: Timing) { self.timing = timing }

    /// A critically damped spring, response 0.55 s.
    public static let `default` = FlowAnimation.spring()
    /// A critically damped spring, response 0.5 s.
    public static let smooth = FlowAnimation.spring(response: 0.5, dampingFraction: 1.0)

    public static func spring(response: Double = 0.55, dampingFraction: Double = 1.0)
        -> FlowAnimation
    {
        FlowAnimation(timing: .spring(response: response, dampingFraction: dampingFraction))
    }

    public static func easeInOut(duration: Double) -> FlowAnimation {
        FlowAnimation(timing: .easeInOut(duration: duration))
    }

    /// The parameters an animation may have, so that it always settles: a spring's
    /// `response` from 0 (a jump) to 60 seconds and its `dampingFraction` from 0.01 to 100
    /// (0 would oscillate for ever, a negative one grows without bound); an ease's
    /// `duration` from 0 to 3600 seconds.
    public static let responseRange = 0.0...60.0
    public static let dampingFractionRange = 0.01...100.0
    public static let durationRange = 0.0...3600.0

    /// Throws `invalidValue` naming `operation` when a parameter is out of its range (NaN
    /// included).
    public func validate(_ operation: String) throws(FlowError) {
        func check(_ value: Double, _ name: String, _ range: ClosedRange<Double>) throws(FlowError) {
            guard range.contains(value) else {
                throw .invalidValue(
                    operation, "\(name) must be a number from \(formatNumber(range.lowerBound)) to "
                        + "\(formatNumber(range.upperBound)) (got \(formatNumber(value)))")
            }
        }
        switch timing {
        case .spring(let response, let dampingFraction):
            try check(response, "spring.response", Self.responseRange)
            try check(dampingFraction, "spring.dampingFraction", Self.dampingFractionRange)
        case .easeInOut(let duration):
            try check(duration, "easeInOut.duration", Self.durationRange)
        }
    }
}

/// One animated scalar, advanced by explicit time steps (store-semantics §14).
public struct PropertyAnimation: Hashable, Sendable {
    /// Longest step a spring takes; longer steps are shortened to this.
    public static let maximumSpringStep = 1.0 / 30
    /// A spring settles when both its distance to the target and its speed are below this
    /// (absolute, in the units of the value).
    public static let settleThreshold = 0.1
    /// Most sub-steps one spring step takes (see `stepSpring`).
    public static let maximumSubsteps = 1000

    public internal(set) var current: Double
    public internal(set) var target: Double
    public internal(set) var velocity: Double
    public let timing: FlowAnimation.Timing
    /// Where the running ease started (the value at the last retarget).
    public internal(set) var easeStart: Double
    /// Seconds since the running ease started.
    public internal(set) var easeElapsed: Double
    /// True once `current` has reached `target`; ticks then change nothing.
    public internal(set) var settled: Bool

    public init(from: Double, to: Double, timing: FlowAnimation.Timing) {
        current = from
        target = to
        velocity = 0
        self.timing = timing
        easeStart = from
        easeElapsed = 0
        settled = from == to
    }

    public init(from: Double, to: Double, animation: FlowAnimation) {
        self.init(from: from, to: to, timing: animation.timing)
    }

    /// Advances by `dt` seconds. A negative or NaN `dt` is ignored.
    public mutating func tick(_ dt: Double) {
        guard !settled, dt >= 0 else { return }
        switch timing {
        case .spring(let response, let dampingFraction):
            stepSpring(
                min(dt, Self.maximumSpringStep), response: response, damping: dampingFraction)
        case .easeInOut(let duration):
            stepEase(dt, duration: duration)
        }
    }

    /// Moves the target. A spring keeps its velocity; an ease restarts from the current
    /// value. Retargeting to the current target does nothing.
    public mutating func retarget(_ to: Double) {
        guard to != target else { return }
        target = to
        settled = false
        if case .easeInOut = timing {
            easeStart = current
            easeElapsed = 0
        }
    }

    /// Semi-implicit Euler: velocity first, then position with the new velocity, in
    /// sub-steps short enough to be stable (`omega·h` and `2·damping·omega·h` at most 1).
    /// A spring that is not damped, or would need more than `maximumSubsteps` of them
    /// (stiff enough to settle within a frame), snaps to its target.
    private mutating func stepSpring(_ dt: Double, response: Double, damping: Double) {
        guard response > 0, damping > 0, response.isFinite, damping.isFinite else { return snap() }
        let omega = 2 * Double.pi / response
        let stiffness = omega * max(1, 2 * damping) * dt
        let steps = stiffness.rounded(.up)
        guard steps <= Double(Self.maximumSubsteps) else { return snap() }
        let h = dt / max(1, steps)
        for _ in 0..<max(1, Int(steps)) {
            let acceleration = -omega * omega * (current - target) - 2 * damping * omega * velocity
            velocity += acceleration * h
            current += velocity * h
        }
        guard current.isFinite, velocity.isFinite else { return snap() }
        if abs(current - target) < Self.settleThreshold, abs(velocity) < Self.settleThreshold {
            snap()
        }
    }

    private mutating func stepEase(_ dt: Double, duration: Double) {
        guard duration > 0 else { return snap() }
        easeElapsed += dt
        let t = min(easeElapsed / duration, 1)
        let s = t * t * (3 - 2 * t)
        current = easeStart + s * (target - easeStart)
        if t >= 1 { snap() }
    }

    private mutating func snap() {
        current = target
        velocity = 0
        settled = true
    }
}
