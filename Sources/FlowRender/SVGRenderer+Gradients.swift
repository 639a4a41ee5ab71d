import FlowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Gradient fills (docs/formats.md, "Gradients"): a node or group whose data holds `gradient`
// (`FillGradient`, DOT's `fillcolor="red:blue"`) and a diagram whose look has a
// `backgroundGradient` are filled with an SVG `linearGradient` or `radialGradient`, written
// just before the shape it fills, its id made from the node's id (`gradient-page` for the
// page), as Graphviz draws them: a linear one from side to side of the shape's box along
// `angle`, a radial one from the middle (or its focus towards `angle`) out.

extension SVGRenderer {
    /// The gradient stored in node `n`'s data (`gradient`), or nil.
    func storedGradient(_ n: FlowNode<Data>) -> FillGradient? {
        guard let v = try? n.data.jsonValue() else { return nil }
        return FillGradient.stored(in: v)
    }

    /// The gradient's id for node `id`: `gradient-` and the id with every character but
    /// ASCII letters, digits and `-` written as `_` and its UTF-8 bytes in hex, so that two
    /// ids never share one and it can stand in `url(#…)`.
    static func gradientID(node id: String) -> String {
        var out = "gradient-node-"
        for b in id.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "_" + String(b, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return out
    }

    /// `g` as a gradient element of id `id` over `box` (output units): a linear one from
    /// one side of the box to the other along its angle (counter-clockwise, y up as in
    /// Graphviz), a radial one 75% of the box wide round its middle, its focus at the
    /// middle or, with an angle, on the box's edge that way. A `split` makes a hard edge
    /// between the colours there.
    func writeGradient(_ w: inout ByteWriter, _ g: FillGradient, id: String, box: Rect) {
        let turn = g.angle * .pi / 180
        let (c, s) = (cos(turn), sin(turn))
        if g.radial {
            w.raw("<radialGradient id=\"")
            w.raw(id)
            w.raw("\" cx=\"50%\" cy=\"50%\" r=\"75%\" fx=\"")
            w.number(g.angle == 0 ? 50 : 50 * (1 + c))
            w.raw("%\" fy=\"")
            w.number(g.angle == 0 ? 50 : 50 * (1 - s))
            w.raw("%\">")
        } else {
            let (dx, dy) = (box.width / 2 * c, box.height / 2 * s)
            w.raw("<linearGradient id=\"")
            w.raw(id)
            w.raw("\" gradientUnits=\"userSpaceOnUse\" x1=\"")
            w.number(box.midX - dx)
            w.raw("\" y1=\"")
            w.number(box.midY + dy)
            w.raw("\" x2=\"")
            w.number(box.midX + dx)
            w.raw("\" y2=\"")
            w.number(box.midY - dy)
            w.raw("\">")
        }
        let stops: [(Double, FlowColor)] =
            g.split.map { [(max(0, $0 - 0.001), g.from), ($0, g.to)] } ?? [(0, g.from), (1, g.to)]
        for (offset, colour) in stops {
            w.raw("<stop offset=\"")
            w.raw(formatNumber((offset * 1000).rounded() / 1000))
            w.raw("\" style=\"stop-color:#")
            w.raw(colour.hex)
            if colour.alpha < 255 {
                w.raw(";stop-opacity:")
                w.number(colour.opacity)
            }
            w.raw("\"/>")
        }
        w.raw(g.radial ? "</radialGradient>\n" : "</linearGradient>\n")
    }

    /// Node `n`'s gradient written for its frame `f`, and the fill that uses it
    /// (`url(#…)`); nil when the node has none.
    func writeNodeGradient(_ w: inout ByteWriter, _ n: FlowNode<Data>, _ f: Rect) -> String? {
        guard let g = storedGradient(n) else { return nil }
        let id = Self.gradientID(node: n.id)
        writeGradient(&w, g, id: id, box: Rect(mapX(f.x), mapY(f.y), f.width * zoom, f.height * zoom))
        return "url(#" + id + ")"
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}
