import FlowCore

/// A long layout wrapped into parts laid side by side, so the picture comes near an aspect
/// ratio (`LayoutOptions.aspectRatio`): a top-to-bottom chain becomes columns, a
/// left-to-right pipeline becomes rows, read in the flow's direction part after part.
///
/// The parts are cut between layers, only where no group spans the cut and no edge drawn
/// against the flow crosses it; each part is filled with layers up to a length, and of the
/// lengths that make 1 to 32 parts the one whose picture (channels included) comes nearest
/// the ratio wins (one part: nothing changes). Every
/// part keeps its layout and moves as a whole, its start level with the first part's. An
/// edge from one part to a later one keeps its route inside its two parts and goes between
/// them through three channels: past the end of the parts, along the gap before its
/// target's part, and before their start. Each such edge has a lane of its own in every
/// channel (no two share a line), in an order that crosses none of the others where their
/// ends allow it.
///
/// Works in a frame turned to the flow: `m` along it (the layers' order), `c` across it
/// (the order in a layer, the way the parts are laid side by side).
struct LayoutWrap {
    /// An edge between two items (indices into the items), with its route.
    struct Edge {
        var id: String
        var source: Int
        var target: Int
        /// nil: the edge has no route of the layout's to move (another part routes it).
        var route: [Point]?
        /// Drawn against the flow: no cut may separate its ends.
        var against: Bool
        /// Drawn as a curve through its points (a bezier edge): its turns between parts get
        /// points close before and after them (`rounded`), so the curve turns there.
        var rounded: Bool = false
    }

    let direction: LayoutDirection
    /// Wanted width / height of the picture.
    let ratio: Double
    /// Free space between parts and between the parts and the channels.
    let gap: Double
    /// Distance between edges side by side in a channel.
    let lane: Double

    /// What the wrap does: how far each item moves, and the new routes.
    struct Result {
        var parts: Int
        var offsets: [Point]
        var routes: [String: [Point]]
    }

    /// The wrap nearest the ratio, or nil when one part is nearest (or nothing can be cut).
    func wrap(items: [Rect], edges: [Edge]) -> Result? {
        guard items.count > 1, ratio.isFinite, ratio > 0 else { return nil }
        let boxes = items.map(turned)
        let bands = Bands(boxes)
        var allowed = Array(repeating: true, count: max(bands.count - 1, 0))
        for e in edges {
            let s = bands.of[e.source], t = bands.of[e.target]
            guard e.against || t < s else { continue }
            for b in min(s, t)..<max(s, t) { allowed[b] = false }
        }
        let candidates = allowed.indices.filter { allowed[$0] }
        guard !candidates.isEmpty else { return nil }
        var best: (score: Double, plan: Plan)? = nil
        var tried = Set<[Int]>()
        let total = bands.end[bands.count - 1] - bands.start[0]
        for k in 1...32 {
            // a part that cannot be cut (a cycle, a group) may be longer than its share:
            // then the others may fill up to it too
            let first = bands.cuts(longest: total / Double(k), among: candidates)
            let cuts = bands.cuts(longest: bands.longestPart(first), among: candidates)
            guard tried.insert(cuts).inserted else { continue }
            let plan = Plan(wrap: self, bands: bands, boxes: boxes, cuts: cuts, edges: edges)
            let aspect = plan.aspect(self)
            let score = max(aspect / ratio, ratio / aspect)
            if best == nil || score < best!.score - 1e-9 { best = (score, plan) }
        }
        guard let plan = best?.plan, plan.parts > 1 else { return nil }
        return plan.result(edges: edges, boxes: boxes, bands: bands, wrap: self)
    }

    // MARK: The turned frame

    /// `p` in the frame turned to the flow: (c across, m along).
    func turned(_ p: Point) -> Point {
        switch direction {
        case .TB: return Point(p.x, p.y)
        case .BT: return Point(p.x, -p.y)
        case .LR: return Point(p.y, p.x)
        case .RL: return Point(p.y, -p.x)
        }
    }

    /// The inverse of `turned` (also for offsets: both are linear).
    func unturned(_ q: Point) -> Point {
        switch direction {
        case .TB: return Point(q.x, q.y)
        case .BT: return Point(q.x, -q.y)
        case .LR: return Point(q.y, q.x)
        case .RL: return Point(-q.y, q.x)
        }
    }

    /// The `corners` of a polyline from `from` to `to`, each replaced by two points on each
    /// of its legs, `r` and `2r` from it (`r`: `radius`, or a fifth of a shorter leg): a
    /// curve through the points (`SmoothCurve`) then runs straight along each leg and turns
    /// close to the corner.
    static func rounded(_ corners: [Point], from: Point, to: Point, radius: Double) -> [Point] {
        var out: [Point] = []
        let all = [from] + corners + [to]
        for i in 1..<(all.count - 1) {
            let c = all[i], a = all[i - 1], b = all[i + 1]
            let before = c.distance(to: a), after = c.distance(to: b)
            guard before > 1e-6, after > 1e-6 else {
                out.append(c)
                continue
            }
            let back = (a - c) * (1 / before), ahead = (b - c) * (1 / after)
            let r0 = min(radius, before / 5), r1 = min(radius, after / 5)
            out += [c + back * (2 * r0), c + back * r0, c + ahead * r1, c + ahead * (2 * r1)]
        }
        return out
    }

    func turned(_ r: Rect) -> Rect {
        Rect(corner: turned(Point(r.minX, r.minY)), corner: turned(Point(r.maxX, r.maxY)))
    }
}

extension LayoutWrap {
    /// Items grouped into bands along the flow: items whose extents along it overlap share a
    /// band (a layer, or a group's layers); a cut can go between two bands.
    struct Bands {
        var start: [Double] = []
        var end: [Double] = []
        /// Each item's band.
        var of: [Int]

        init(_ boxes: [Rect]) {
            of = Array(repeating: 0, count: boxes.count)
            let order = boxes.indices.sorted { (boxes[$0].minY, $0) < (boxes[$1].minY, $1) }
            for i in order {
                if let last = end.last, boxes[i].minY < last {
                    end[end.count - 1] = max(last, boxes[i].maxY)
                } else {
                    start.append(boxes[i].minY)
                    end.append(boxes[i].maxY)
                }
                of[i] = start.count - 1
            }
        }

        var count: Int { start.count }

        /// Where the cut after band `b` goes: halfway through the gap.
        func position(after b: Int) -> Double { (end[b] + start[b + 1]) / 2 }

        /// The length of the longest part between `cuts`.
        func longestPart(_ cuts: [Int]) -> Double {
            var longest = 0.0
            var from = start[0]
            for c in cuts {
                longest = max(longest, end[c] - from)
                from = start[c + 1]
            }
            return max(longest, end[count - 1] - from)
        }

        /// Cuts (band indices, from `candidates`, ascending) that fill each part with bands
        /// as far as `longest` allows: each cut the last candidate within `longest` of the
        /// part's start, or the first candidate when even that one is further.
        func cuts(longest: Double, among candidates: [Int]) -> [Int] {
            var chosen: [Int] = []
            var from = start[0]
            var k = 0
            while k < candidates.count {
                // the rest fits in this part: no more cuts
                if end[count - 1] - from <= longest + 1e-9 { break }
                var pick = k
                while pick + 1 < candidates.count && end[candidates[pick + 1]] - from <= longest + 1e-9 { pick += 1 }
                chosen.append(candidates[pick])
                from = start[candidates[pick] + 1]
                k = pick + 1
            }
            return chosen
        }
    }
}
