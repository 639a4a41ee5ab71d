@preconcurrency import Glibc
import FlowCore
import FlowLayout

/// One line per stable layout in `--only stability` with `FLOWBENCH_STABILITY_TRACE` set:
/// of the untouched nodes, how many stayed within a spacing, moved across the layers by
/// at least half a spacing, moved along them by at least half a spacing; and the median
/// move across and along (what tells an edit that shifts whole layers from one that
/// reorders them).
enum StabilityTrace {
    nonisolated(unsafe) static var count = 0

    static func edit(_ a: StabilityBench.Snapshot, _ b: StabilityBench.Snapshot, touched: Set<String>, options: LayoutOptions) {
        count += 1
        let horizontal = options.direction.isHorizontal
        var still = 0, total = 0, across = 0, along = 0
        var dAcross: [Double] = [], dAlong: [Double] = []
        for (id, fa) in a.frames where !touched.contains(id) {
            guard let fb = b.frames[id], a.parent[id] == b.parent[id] else { continue }
            if a.parent.values.contains(id) || b.parent.values.contains(id) { continue }
            let spacing = (horizontal ? fa.size.height : fa.size.width) + options.nodeSpacing
            let dx = (fb.origin.x - fa.origin.x) / spacing, dy = (fb.origin.y - fa.origin.y) / spacing
            let (ac, al) = horizontal ? (dx, dy) : (dy, dx)
            total += 1
            if (dx * dx + dy * dy).squareRoot() < 1 { still += 1 }
            if abs(ac) >= 0.5 { across += 1 }
            if abs(al) >= 0.5 { along += 1 }
            dAcross.append(ac)
            dAlong.append(al)
        }
        dAcross.sort()
        dAlong.sort()
        func median(_ d: [Double]) -> Double { d.isEmpty ? 0 : d[d.count / 2] }
        let line = "trace \(count) \(touched.count) touched: still \(still)/\(total), across \(across), along \(along), "
            + "median across \(median(dAcross)), along \(median(dAlong))"
        fputs(line + "\n", stderr)
    }
}
