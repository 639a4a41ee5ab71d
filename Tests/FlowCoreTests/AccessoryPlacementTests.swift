import Testing

@testable import FlowCore

/// store-semantics §12: every worked value (canvas 800×600, accessory 200×80 unless stated).
@Suite struct AccessoryPlacementTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var anchor: Point
        var anchorSize = Size.zero
        var accessory = Size(200, 80)
        var canvas = Size(800, 600)
        var placement: AccessoryPlacement
        var spacing = 8.0
        var margin = 8.0
        var center: Point
        var used: AccessoryPlacement

        var testDescription: String { "\(placement) at \(anchor) → \(center) \(used)" }
    }

    static let workedValues: [Case] = [
        Case(anchor: Point(400, 300), placement: .top, center: Point(400, 252), used: .top),
        Case(anchor: Point(400, 20), placement: .top, center: Point(400, 68), used: .bottom),
        Case(anchor: Point(10, 10), placement: .top, center: Point(108, 58), used: .bottom),
        Case(anchor: Point(400, 580), placement: .top, center: Point(400, 532), used: .top),
        Case(anchor: Point(20, 300), placement: .top, center: Point(108, 252), used: .top),
        Case(anchor: Point(780, 300), placement: .top, center: Point(692, 252), used: .top),
        Case(
            anchor: Point(400, 300), accessory: .zero, placement: .top,
            center: Point(400, 292), used: .top),
        Case(
            anchor: Point(400, 300), placement: .top, spacing: 16, margin: 20,
            center: Point(400, 244), used: .top),
        Case(anchor: Point(400, 300), placement: .bottom, center: Point(400, 348), used: .bottom),
        Case(anchor: Point(400, 570), placement: .bottom, center: Point(400, 522), used: .top),
        Case(anchor: Point(400, 300), placement: .leading, center: Point(292, 300), used: .leading),
        Case(anchor: Point(30, 300), placement: .leading, center: Point(138, 300), used: .trailing),
        Case(
            anchor: Point(400, 300), placement: .trailing, center: Point(508, 300), used: .trailing),
        Case(
            anchor: Point(770, 300), placement: .trailing, center: Point(662, 300), used: .leading),
        Case(
            anchor: Point(400, 300), anchorSize: Size(160, 60), placement: .top,
            center: Point(400, 222), used: .top),
        Case(
            anchor: Point(400, 300), anchorSize: Size(160, 60), placement: .bottom,
            center: Point(400, 378), used: .bottom),
        Case(
            anchor: Point(400, 300), anchorSize: Size(160, 60), placement: .leading,
            center: Point(212, 300), used: .leading),
        Case(
            anchor: Point(400, 300), anchorSize: Size(160, 60), placement: .trailing,
            center: Point(588, 300), used: .trailing),
        Case(
            anchor: Point(400, 80), anchorSize: Size(160, 60), placement: .top,
            center: Point(400, 158), used: .bottom),
        // Too big for the canvas: both sides clip, so it stays on top; the lower bound wins.
        Case(
            anchor: Point(50, 50), canvas: Size(100, 100), placement: .top,
            center: Point(108, 48), used: .top),
    ]

    @Test(arguments: workedValues)
    func workedValue(_ c: Case) {
        let result = accessoryCenter(
            anchor: c.anchor, anchorSize: c.anchorSize, accessorySize: c.accessory,
            canvasSize: c.canvas, placement: c.placement, spacing: c.spacing, margin: c.margin)
        #expect(result.center == c.center)
        #expect(result.placement == c.used)
    }

    @Test func defaultsAreSpacingAndMarginOf8() {
        let result = accessoryCenter(
            anchor: Point(400, 300), anchorSize: .zero, accessorySize: Size(200, 80),
            canvasSize: Size(800, 600), placement: .top)
        #expect(result.center == Point(400, 252) && result.placement == .top)
    }

    /// Both sides clipped: the preferred side stays, then the final clamp applies.
    @Test func bothSidesClippedKeepThePreferredSide() {
        let bottom = accessoryCenter(
            anchor: Point(50, 50), anchorSize: .zero, accessorySize: Size(40, 80),
            canvasSize: Size(100, 100), placement: .bottom)
        #expect(bottom.placement == .bottom)
        #expect(bottom.center == Point(50, 52))  // 98 clamped to 100 − 8 − 40
        let leading = accessoryCenter(
            anchor: Point(50, 50), anchorSize: .zero, accessorySize: Size(80, 20),
            canvasSize: Size(100, 100), placement: .leading)
        #expect(leading.placement == .leading)
        #expect(leading.center == Point(48, 50))  // 2 clamped to 8 + 40
    }

    @Test func nonFiniteInputsDoNotTrap() {
        let result = accessoryCenter(
            anchor: Point(.nan, .infinity), anchorSize: Size(.nan, 1), accessorySize: Size(10, 10),
            canvasSize: Size(.infinity, 100), placement: .trailing)
        _ = result.center
    }
}
