import FlowCore

/// Node frames sorted by their left sides, with the widest frame's width: the frames a
/// horizontal stretch may meet are those whose left side lies within that width before it,
/// up to its end, found by a binary search instead of a look at every frame. Used to find
/// what a route runs under (`EdgesUnderNodes`) and what a lead must pass (`LayoutPlan`).
struct FrameIndex {
    let frames: [Rect]
    private let byLeft: [Int]
    private let lefts: [Double]
    private let widest: Double

    /// The frames of `only` (every frame when nil), by index into `frames`.
    init(_ frames: [Rect], only: [Int]? = nil) {
        self.frames = frames
        let kept = only ?? Array(frames.indices)
        byLeft = kept.sorted { (frames[$0].minX, $0) < (frames[$1].minX, $1) }
        lefts = byLeft.map { frames[$0].minX }
        widest = kept.reduce(0) { max($0, frames[$1].width) }
    }

    /// Whether `body` holds for a frame that may reach across `lo...hi` horizontally, asked
    /// of each in order of their left sides until one does.
    func contains(across lo: Double, _ hi: Double, where body: (Int) -> Bool) -> Bool {
        var low = 0, high = lefts.count
        let from = lo - widest
        while low < high {
            let mid = (low + high) / 2
            if lefts[mid] < from { low = mid + 1 } else { high = mid }
        }
        for k in low..<lefts.count {
            if lefts[k] > hi { break }
            if body(byLeft[k]) { return true }
        }
        return false
    }

    /// The frames whose insides (a unit in from their sides) meet `r`, by index.
    func meeting(_ r: Rect) -> [Int] {
        var found: [Int] = []
        _ = contains(across: r.minX, r.maxX) { j in
            if frames[j].insetBy(dx: 1, dy: 1).intersects(r) { found.append(j) }
            return false
        }
        return found
    }
}
