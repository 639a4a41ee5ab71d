import FlowCore

extension LayoutWrap {
    /// One way to cut the bands into parts, measured in the turned frame.
    struct Plan {
        let parts: Int
        /// Positions of the cuts along the flow, ascending.
        let cutAt: [Double]
        /// Each band's part.
        let partOfBand: [Int]
        var start: [Double]
        var end: [Double]
        var low: [Double]
        var high: [Double]
        /// Edges that go from one part to a later one, by index into the edges.
        var crossing: [Int] = []
        /// How many crossing edges pass through the gap after each part.
        var through: [Int]

        init(wrap: LayoutWrap, bands: Bands, boxes: [Rect], cuts: [Int], edges: [Edge]) {
            parts = cuts.count + 1
            cutAt = cuts.map(bands.position(after:))
            partOfBand = (0..<bands.count).map { b in cuts.filter { $0 < b }.count }
            start = Array(repeating: .infinity, count: parts)
            end = Array(repeating: -.infinity, count: parts)
            low = start
            high = end
            through = Array(repeating: 0, count: parts)
            for (i, box) in boxes.enumerated() {
                let p = partOfBand[bands.of[i]]
                start[p] = min(start[p], box.minY)
                end[p] = max(end[p], box.maxY)
                low[p] = min(low[p], box.minX)
                high[p] = max(high[p], box.maxX)
            }
            for (k, e) in edges.enumerated() {
                let s = partOfBand[bands.of[e.source]], t = partOfBand[bands.of[e.target]]
                if s != t {
                    crossing.append(k)
                    through[t - 1] += 1
                }
                for p in e.route ?? [] {
                    let q = wrap.turned(p)
                    let part = s == t ? s : self.part(at: q.y)
                    guard part == s || part == t else { continue }
                    low[part] = min(low[part], q.x)
                    high[part] = max(high[part], q.x)
                }
            }
        }

        /// The part a point at `m` along the flow lies in.
        func part(at m: Double) -> Int { cutAt.filter { $0 <= m }.count }

        /// Free space in the gap after part `p`: room for its lanes.
        func gapAfter(_ p: Int, _ wrap: LayoutWrap) -> Double {
            wrap.gap + Double(max(through[p] - 1, 0)) * wrap.lane
        }

        /// The deepest lane count of the channels before the parts' start.
        var topLanes: Int { through.max() ?? 0 }

        /// Across and along the flow: the size of the picture this plan makes.
        func size(_ wrap: LayoutWrap) -> (across: Double, along: Double) {
            var across = 0.0
            for p in 0..<parts {
                across += high[p] - low[p]
                if p < parts - 1 { across += gapAfter(p, wrap) }
            }
            var along = (0..<parts).map { end[$0] - start[$0] }.max() ?? 0
            if !crossing.isEmpty {
                along += wrap.gap + Double(crossing.count - 1 + topLanes - 1) * wrap.lane
            }
            return (across, along)
        }

        /// Width / height of the picture this plan makes.
        func aspect(_ wrap: LayoutWrap) -> Double {
            let (across, along) = size(wrap)
            guard across > 0, along > 0 else { return 1 }
            switch wrap.direction {
            case .TB, .BT: return across / along
            case .LR, .RL: return along / across
            }
        }

        /// The moves and routes: each part brought level with the first and set after the
        /// one before; each crossing edge routed through its lanes.
        func result(edges: [Edge], boxes: [Rect], bands: Bands, wrap: LayoutWrap) -> Result {
            var shift: [Point] = []
            var cursor = low[0]
            for p in 0..<parts {
                shift.append(Point(cursor - low[p], start[0] - start[p]))
                cursor += high[p] - low[p] + (p < parts - 1 ? gapAfter(p, wrap) : 0)
            }
            func moved(_ q: Point, _ p: Int) -> Point { Point(q.x + shift[p].x, q.y + shift[p].y) }
            var routes: [String: [Point]] = [:]
            // inside one part: moved with it
            var ends: [Int: (drop: Double, rise: Double, head: [Point], tail: [Point])] = [:]
            for (k, e) in edges.enumerated() {
                guard let route = e.route else { continue }
                let s = partOfBand[bands.of[e.source]], t = partOfBand[bands.of[e.target]]
                if s == t {
                    routes[e.id] = route.map { wrap.unturned(moved(wrap.turned($0), s)) }
                    continue
                }
                let turnedRoute = route.map(wrap.turned)
                let head = turnedRoute.filter { part(at: $0.y) == s }.map { moved($0, s) }
                let tail = turnedRoute.filter { part(at: $0.y) == t }.map { moved($0, t) }
                let drop = head.last?.x ?? moved(boxes[e.source].center, s).x
                let rise = tail.first?.x ?? moved(boxes[e.target].center, t).x
                ends[k] = (drop, rise, head, tail)
            }
            // lanes: past the parts' end, nearer for a nearer gap and for a later start
            let routed = crossing.filter { ends[$0] != nil }
            func gapOf(_ k: Int) -> Int { partOfBand[bands.of[edges[k].target]] - 1 }
            let bottomOrder = routed.sorted {
                (gapOf($0), -ends[$0]!.drop, edges[$0].id) < (gapOf($1), -ends[$1]!.drop, edges[$1].id)
            }
            let along = (0..<parts).map { end[$0] - start[$0] }.max() ?? 0
            var bottom: [Int: Double] = [:]
            for (d, k) in bottomOrder.enumerated() { bottom[k] = start[0] + along + wrap.gap / 2 + Double(d) * wrap.lane }
            // in a gap, the earliest start outermost (nearest the target's part) and nearest the start
            var across: [Int: Double] = [:]
            var top: [Int: Double] = [:]
            for g in 0..<(parts - 1) {
                let mine = routed.filter { gapOf($0) == g }.sorted { (ends[$0]!.drop, edges[$0].id) < (ends[$1]!.drop, edges[$1].id) }
                let middle = shift[g].x + high[g] + gapAfter(g, wrap) / 2
                for (i, k) in mine.enumerated() {
                    across[k] = middle + (Double(mine.count - 1) / 2 - Double(i)) * wrap.lane
                    top[k] = start[0] - wrap.gap / 2 - Double(i) * wrap.lane
                }
            }
            for k in routed {
                let (drop, rise, head, tail) = ends[k]!
                let y0 = bottom[k]!, x = across[k]!, y1 = top[k]!
                var way = head
                let from = head.last ?? moved(boxes[edges[k].source].center, partOfBand[bands.of[edges[k].source]])
                let to = tail.first ?? moved(boxes[edges[k].target].center, partOfBand[bands.of[edges[k].target]])
                let corners = [Point(drop, y0), Point(x, y0), Point(x, y1), Point(rise, y1)]
                if edges[k].rounded {
                    way += LayoutWrap.rounded(corners, from: from, to: to, radius: wrap.lane)
                } else {
                    way += corners
                }
                routes[edges[k].id] = (way + tail).map(wrap.unturned)
            }
            let offsets = boxes.indices.map { i in wrap.unturned(shift[partOfBand[bands.of[i]]]) }
            return Result(parts: parts, offsets: offsets, routes: routes)
        }
    }
}
