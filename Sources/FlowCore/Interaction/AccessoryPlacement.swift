/// The centre of an accessory view next to its anchor, in screen coordinates
/// (store-semantics §12), and the side it ended up on.
///
/// The accessory goes on the `placement` side of the anchor, `spacing` away from it. When
/// that side would come closer than `margin` to the canvas edge it flips to the opposite
/// side, and flips back when the opposite side is clipped too. The cross axis is centred on
/// the anchor and kept `margin` inside the canvas; finally both axes are clamped into the
/// canvas (`max(lo, min(hi, v))`, so the near edge wins when the accessory is too big).
///
/// - Parameters:
///   - anchor: centre of the anchor (a node centre, or an edge label point).
///   - anchorSize: size of the anchor (zero for an edge).
///   - accessorySize: measured size of the accessory.
///   - canvasSize: size of the visible canvas.
public func accessoryCenter(
    anchor: Point, anchorSize: Size, accessorySize: Size, canvasSize: Size,
    placement: AccessoryPlacement, spacing: Double = 8, margin: Double = 8
) -> (center: Point, placement: AccessoryPlacement) {
    let half = Size(accessorySize.width / 2, accessorySize.height / 2)
    let anchorHalf = Size(anchorSize.width / 2, anchorSize.height / 2)
    let xRange = (lo: margin + half.width, hi: canvasSize.width - margin - half.width)
    let yRange = (lo: margin + half.height, hi: canvasSize.height - margin - half.height)
    let clampX = { (v: Double) in max(xRange.lo, min(xRange.hi, v)) }
    let clampY = { (v: Double) in max(yRange.lo, min(yRange.hi, v)) }

    switch placement {
    case .top, .bottom:
        let before = anchor.y - anchorHalf.height - half.height - spacing
        let after = anchor.y + anchorHalf.height + half.height + spacing
        let (y, beforeUsed) = flip(
            before: before, after: after, preferBefore: placement == .top,
            half: half.height, extent: canvasSize.height, margin: margin)
        return (Point(clampX(anchor.x), clampY(y)), beforeUsed ? .top : .bottom)
    case .leading, .trailing:
        let before = anchor.x - anchorHalf.width - half.width - spacing
        let after = anchor.x + anchorHalf.width + half.width + spacing
        let (x, beforeUsed) = flip(
            before: before, after: after, preferBefore: placement == .leading,
            half: half.width, extent: canvasSize.width, margin: margin)
        return (Point(clampX(x), clampY(anchor.y)), beforeUsed ? .leading : .trailing)
    }
}

/// Chooses between the centre `before` the anchor (above / to the left) and `after` it on
/// one axis: the preferred one, the other when the preferred one crosses the margin, and
/// the preferred one again when the other crosses the opposite margin.
private func flip(
    before: Double, after: Double, preferBefore: Bool,
    half: Double, extent: Double, margin: Double
) -> (center: Double, isBefore: Bool) {
    let clippedBefore = before - half < margin
    let clippedAfter = after + half > extent - margin
    if preferBefore {
        return clippedBefore && !clippedAfter ? (after, false) : (before, true)
    } else {
        return clippedAfter && !clippedBefore ? (before, true) : (after, false)
    }
}
