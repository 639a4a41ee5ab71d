import FlowCore

// The values DOT writes in its attributes: numbers, points, boxes and drawn splines.
extension DOTReader.Builder {
    /// Rounded to 1/1000: DOT's decimal points and inches come back as the numbers written.
    func milli(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }

    func number(_ s: String) -> Double? {
        guard let v = Double(s.trimmingSpaces()), v.isFinite else { return nil }
        return v
    }

    /// `x,y` or `x,y!` in points.
    func point(_ s: String) -> Point? {
        var t = s.trimmingSpaces()
        if t.hasSuffix("!") { t.removeLast() }
        let parts = t.split(separator: ",")
        guard parts.count >= 2, let x = number(String(parts[0])), let y = number(String(parts[1])) else { return nil }
        return Point(x, y)
    }

    /// The points a drawn DOT spline (`[e,x,y] [s,x,y] p0 c c p1 c c p2 …`) passes
    /// through between its ends, flipped into the store's y-down space.
    func splinePoints(_ s: String) -> [Point]? {
        var points: [Point] = []
        for item in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }) {
            if item.hasPrefix("e,") || item.hasPrefix("s,") { continue }
            guard let p = point(String(item)) else { return nil }
            points.append(p)
        }
        guard points.count >= 4, (points.count - 1) % 3 == 0 else { return nil }
        return stride(from: 3, to: points.count - 1, by: 3).map { Point(milli(points[$0].x), milli(maxY - points[$0].y)) }
    }

    /// `llx,lly,urx,ury` in points, as a rect in DOT's y-up space.
    func box(_ s: String) -> Rect? {
        let v = s.split(separator: ",").compactMap { number(String($0)) }
        guard v.count == 4, v[2] >= v[0], v[3] >= v[1] else { return nil }
        return Rect(origin: Point(v[0], v[1]), size: Size(v[2] - v[0], v[3] - v[1]))
    }

    /// The graph's `nodesep` or `ranksep` (inches, at least 0.02 as in Graphviz) as the
    /// layout's spacing in points (to 1/1000). `ranksep`'s first number counts (dot reads
    /// no more of a list; the rest is for twopi); `equally` spaces the ranks' centres equally.
    mutating func separation(_ key: String, _ value: String) {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ":" || $0 == "\t" })
        if key == "ranksep" && words.contains(where: { $0.lowercased() == "equally" }) { equalLayerSpacing = true }
        let first = words.first { $0.lowercased() != "equally" }
        guard let first else { return }
        guard let inches = number(String(first)), inches >= 0, inches <= 1000 else {
            tally.add("graph \(key) '\(value)' is not a length in inches (0.02 to 1000)", unit: "")
            return
        }
        let points = milli(max(inches, 0.02) * 72)
        if key == "nodesep" { nodeSpacing = points } else { layerSpacing = points }
    }
}
