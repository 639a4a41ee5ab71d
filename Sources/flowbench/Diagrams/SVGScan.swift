@preconcurrency import Glibc

/// Reading what the diagram scorer reads from a FlowScript picture, the way it reads it:
/// edge paths, edge-label boxes and the view box, found by their exact spelling in the SVG.
enum SVGScan {
    /// `<path id="edge-ID" … d="D"`: D by ID (the attribute `d` of the same tag).
    static func edgePaths(_ svg: String) -> [String: String] {
        let b = Array(svg.utf8)
        var out: [String: String] = [:]
        let start = Array(#"<path id="edge-"#.utf8)
        var i = 0
        while let at = find(start, in: b, from: i) {
            i = at + start.count
            guard let idEnd = b[i...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            let id = String(decoding: b[i..<idEnd], as: UTF8.self)
            let tagEnd = b[idEnd...].firstIndex(of: UInt8(ascii: ">")) ?? b.count
            guard let d = find(Array(#" d=""#.utf8), in: b, from: idEnd), d < tagEnd,
                let dEnd = b[(d + 4)...].firstIndex(of: UInt8(ascii: "\""))
            else { continue }
            out[id] = String(decoding: b[(d + 4)..<dEnd], as: UTF8.self)
            i = dEnd
        }
        return out
    }

    /// `<rect class="label…" x=".." y=".." width=".." height=".."`: the boxes of edge labels.
    static func labelBoxes(_ svg: String) -> [DrawnPicture.Box] {
        let b = Array(svg.utf8)
        var out: [DrawnPicture.Box] = []
        let start = Array(#"<rect class="label"#.utf8)
        var i = 0
        while let at = find(start, in: b, from: i) {
            i = at + start.count
            guard let classEnd = b[i...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            var j = classEnd + 1
            var values: [Double] = []
            for name in [" x=\"", " y=\"", " width=\"", " height=\""] {
                let key = Array(name.utf8)
                guard j + key.count <= b.count, Array(b[j..<(j + key.count)]) == key,
                    let end = b[(j + key.count)...].firstIndex(of: UInt8(ascii: "\"")),
                    let v = Double(String(decoding: b[(j + key.count)..<end], as: UTF8.self))
                else { break }
                values.append(v)
                j = end + 1
            }
            if values.count == 4 { out.append(.init(x: values[0], y: values[1], w: values[2], h: values[3])) }
        }
        return out
    }

    /// The picture's `viewBox`.
    static func viewBox(_ svg: String) -> DrawnPicture.Box? {
        let b = Array(svg.utf8)
        guard let at = find(Array(#"viewBox=""#.utf8), in: b, from: 0),
            let end = b[(at + 9)...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        let v = String(decoding: b[(at + 9)..<end], as: UTF8.self).split(separator: " ").compactMap { Double($0) }
        return v.count == 4 ? .init(x: v[0], y: v[1], w: v[2], h: v[3]) : nil
    }

    /// A path's points: M and L points as they are, each Q and C curve sampled at t = 1/8 … 1,
    /// Z back to the first point; consecutive points closer than 1e-6 in both x and y merged.
    static func polyline(_ d: String) -> [(Double, Double)] {
        var pts: [(Double, Double)] = []
        var cmd: UInt8 = 0
        var nums: [Double] = []
        let tokens = tokenize(d)
        var i = 0
        while i < tokens.count {
            if case .command(let c) = tokens[i] {
                cmd = c
                i += 1
                if c == UInt8(ascii: "Z"), let first = pts.first { pts.append(first) }
                continue
            }
            let n = cmd == UInt8(ascii: "Q") ? 4 : cmd == UInt8(ascii: "C") ? 6 : 2
            nums = []
            while nums.count < n, i < tokens.count, case .number(let v) = tokens[i] {
                nums.append(v)
                i += 1
            }
            guard nums.count == n else { break }
            if (cmd == UInt8(ascii: "Q") || cmd == UInt8(ascii: "C")), let p0 = pts.last {
                for k in 1...8 {
                    let t = Double(k) / 8
                    if cmd == UInt8(ascii: "Q") {
                        let a = pow(1 - t, 2), b = 2 * (1 - t) * t, c = t * t
                        pts.append((a * p0.0 + b * nums[0] + c * nums[2], a * p0.1 + b * nums[1] + c * nums[3]))
                    } else {
                        let a = pow(1 - t, 3), b = 3 * pow(1 - t, 2) * t, c = 3 * (1 - t) * t * t, dd = pow(t, 3)
                        pts.append((
                            a * p0.0 + b * nums[0] + c * nums[2] + dd * nums[4],
                            a * p0.1 + b * nums[1] + c * nums[3] + dd * nums[5]
                        ))
                    }
                }
            } else {
                pts.append((nums[n - 2], nums[n - 1]))
            }
        }
        var out: [(Double, Double)] = []
        for p in pts {
            if let q = out.last, abs(p.0 - q.0) <= 1e-6, abs(p.1 - q.1) <= 1e-6 { continue }
            out.append(p)
        }
        return out
    }

    private enum Token {
        case command(UInt8)
        case number(Double)
    }

    /// The scorer's tokens: one of `MLQCZ`, or a number `-?[0-9.]+(e-?[0-9]+)?`; anything else separates.
    private static func tokenize(_ d: String) -> [Token] {
        let b = Array(d.utf8)
        var out: [Token] = []
        var i = 0
        func digitOrDot(_ j: Int) -> Bool { j < b.count && (b[j] == UInt8(ascii: ".") || (b[j] >= 48 && b[j] <= 57)) }
        func digit(_ j: Int) -> Bool { j < b.count && b[j] >= 48 && b[j] <= 57 }
        while i < b.count {
            let c = b[i]
            if "MLQCZ".utf8.contains(c) {
                out.append(.command(c))
                i += 1
            } else if digitOrDot(i) || (c == UInt8(ascii: "-") && digitOrDot(i + 1)) {
                let start = i
                if c == UInt8(ascii: "-") { i += 1 }
                while digitOrDot(i) { i += 1 }
                if i < b.count, b[i] == UInt8(ascii: "e") {
                    let sign = i + 1 < b.count && b[i + 1] == UInt8(ascii: "-") ? 1 : 0
                    if digit(i + 1 + sign) {
                        i += 1 + sign
                        while digit(i) { i += 1 }
                    }
                }
                if let v = Double(String(decoding: b[start..<i], as: UTF8.self)) { out.append(.number(v)) }
            } else {
                i += 1
            }
        }
        return out
    }

    /// The first index of `needle` in `hay` at or after `from`.
    private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var i = from
        let first = needle[0]
        while i <= hay.count - needle.count {
            if hay[i] == first && hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
