import Testing

@testable import FlowCore

/// store-semantics §14, with its reference numbers (dt = 1/120 unless stated).
@Suite struct AnimationTests {
    private let frame = 1.0 / 120

    private func close(_ a: Double, _ b: Double, _ tolerance: Double = 5e-5) -> Bool {
        abs(a - b) <= tolerance
    }

    /// Ticks until settled; nil when still running after `limit` ticks.
    private func ticksToSettle(_ animation: inout PropertyAnimation, limit: Int = 10_000) -> Int? {
        for n in 1...limit {
            animation.tick(frame)
            if animation.settled { return n }
        }
        return nil
    }

    private func spring(_ from: Double, _ to: Double, _ animation: FlowAnimation = .default)
        -> PropertyAnimation
    {
        PropertyAnimation(from: from, to: to, animation: animation)
    }

    @Test func factories() {
        #expect(FlowAnimation.default.timing == .spring(response: 0.55, dampingFraction: 1.0))
        #expect(FlowAnimation.smooth.timing == .spring(response: 0.5, dampingFraction: 1.0))
        #expect(FlowAnimation.spring() == .default)
        #expect(
            FlowAnimation.spring(response: 0.3, dampingFraction: 0.7).timing
                == .spring(response: 0.3, dampingFraction: 0.7))
        #expect(FlowAnimation.easeInOut(duration: 0.3).timing == .easeInOut(duration: 0.3))
    }

    @Test func initialState() {
        let a = spring(3, 7)
        #expect(a.current == 3 && a.target == 7 && a.velocity == 0)
        #expect(a.easeStart == 3 && a.easeElapsed == 0 && !a.settled)
        #expect(a.timing == FlowAnimation.default.timing)
        #expect(spring(5, 5).settled)
    }

    @Test func defaultSpringFirstTicks() {
        var a = spring(0, 100)
        a.tick(frame)
        #expect(close(a.current, 0.9063))
        a.tick(frame)
        #expect(close(a.current, 2.5381))
        a.tick(frame)
        #expect(close(a.current, 4.7426))
        for _ in 4...30 { a.tick(frame) }
        #expect(close(a.current, 78.64898, 5e-6))
        #expect(close(a.velocity, 178.76491, 5e-6))
    }

    @Test(arguments: [
        (FlowAnimation.default, 0.0, 100.0, 136),
        (FlowAnimation.smooth, 0.0, 100.0, 125),
        (FlowAnimation.spring(response: 0.55, dampingFraction: 0.5), 0.0, 100.0, 149),
        (FlowAnimation.default, 1.0, 2.0, 72),
        (FlowAnimation.easeInOut(duration: 0.3), 0.0, 100.0, 36),
    ])
    func ticksUntilSettled(_ animation: FlowAnimation, _ from: Double, _ to: Double, _ ticks: Int) {
        var a = PropertyAnimation(from: from, to: to, animation: animation)
        #expect(ticksToSettle(&a) == ticks)
        #expect(a.current == to && a.velocity == 0)
    }

    @Test func underdampedSpringOvershoots() {
        var a = spring(0, 100, .spring(response: 0.55, dampingFraction: 0.5))
        var peak = -Double.infinity
        while !a.settled {
            a.tick(frame)
            peak = max(peak, a.current)
        }
        #expect(close(peak, 115.364, 5e-4))
    }

    @Test func easeInOutHalfway() {
        var a = PropertyAnimation(from: 0, to: 100, animation: .easeInOut(duration: 1.0))
        for _ in 1...60 { a.tick(frame) }
        #expect(a.current == 50.0000000000001)
        #expect(!a.settled)
    }

    /// A long frame is clamped to 1/30 s for springs.
    @Test func longSpringStepIsClamped() {
        var a = spring(1, 2, .smooth)
        a.tick(5)
        #expect(close(a.current, 1.17546, 5e-6))
        #expect(close(a.velocity, 5.26379, 5e-6))
        #expect(ticksToSettle(&a) == 60)
        var b = spring(1, 2, .smooth)
        b.tick(1.0 / 30)
        var c = spring(1, 2, .smooth)
        c.tick(1)
        #expect(b == c)
    }

    /// Eases take the whole step.
    @Test func longEaseStepFinishes() {
        var a = PropertyAnimation(from: 0, to: 100, animation: .easeInOut(duration: 0.3))
        a.tick(1)
        #expect(a.settled && a.current == 100)
    }

    @Test func settledAnimationsIgnoreTicks() {
        var a = spring(4, 4)
        let before = a
        a.tick(frame)
        #expect(a == before)
    }

    @Test func degenerateTimingsSnap() {
        for timing: FlowAnimation.Timing in [
            .spring(response: 0, dampingFraction: 1), .spring(response: -1, dampingFraction: 1),
            .easeInOut(duration: 0), .easeInOut(duration: -2),
        ] {
            var a = PropertyAnimation(from: 0, to: 10, timing: timing)
            a.tick(frame)
            #expect(a.settled && a.current == 10 && a.velocity == 0, "\(timing)")
        }
    }

    @Test func nonFiniteStateSnaps() {
        var a = spring(0, 1e308)
        a.tick(frame)
        #expect(a.settled && a.current == 1e308 && a.velocity == 0)
        var b = spring(0, 10, .spring(response: .nan, dampingFraction: 1))
        b.tick(frame)
        #expect(b.settled && b.current == 10)
    }

    @Test func negativeAndNaNStepsAreIgnored() {
        var a = spring(0, 100)
        a.tick(-1)
        a.tick(.nan)
        #expect(a == spring(0, 100))
        var e = PropertyAnimation(from: 0, to: 100, animation: .easeInOut(duration: 0.3))
        e.tick(-1)
        #expect(e.easeElapsed == 0 && e.current == 0)
    }

    @Test func retargetSpringKeepsVelocity() {
        var a = spring(0, 100)
        for _ in 1...10 { a.tick(frame) }
        let moving = a
        a.retarget(100)
        #expect(a == moving)  // same target: no-op
        a.retarget(50)
        #expect(a.target == 50 && a.velocity == moving.velocity && a.current == moving.current)
        #expect(!a.settled)
        #expect(ticksToSettle(&a) != nil)
        #expect(a.current == 50)
    }

    @Test func retargetEaseRestartsFromCurrentValue() {
        var a = PropertyAnimation(from: 0, to: 100, animation: .easeInOut(duration: 0.3))
        for _ in 1...18 { a.tick(frame) }
        let halfway = a.current
        #expect(close(halfway, 50, 1e-9))
        a.retarget(0)
        #expect(a.easeStart == halfway && a.easeElapsed == 0 && a.current == halfway)
        a.tick(frame)
        #expect(a.current < halfway && a.current > 49)
        #expect(ticksToSettle(&a) == 35)
        #expect(a.current == 0)
    }

    @Test func retargetSettledAnimationStartsAgain() {
        var a = spring(0, 0)
        a.retarget(10)
        #expect(!a.settled)
        a.tick(frame)
        #expect(a.current > 0)
    }
}
