import FlowCore

/// An `<IMG SRC>` of an HTML-like table cell read from its file (docs/formats.md, "Images"):
/// a PNG, JPEG or SVG image, its size in points (a pixel a point, as dot takes an image
/// without a resolution; an SVG's `width`/`height`, else its `viewBox`), and its bytes,
/// which the picture embeds (an SVG `image` with a `data:` URL), so it draws the same
/// wherever it is opened.
struct DOTImage: Equatable {
    var src: String
    /// `image/png`, `image/jpeg` or `image/svg+xml`.
    var type: String
    var width: Double, height: Double
    var bytes: [UInt8]
    /// `SCALE`: false (its own size, the default), true (as large as the cell holds, its
    /// shape kept), width, height, both (the cell's width, height, both).
    var scale: String?

    /// Why an image is not drawn.
    struct ImageError: Error { var reason: String }

    /// The largest file read.
    static let maximumBytes = 8 << 20

    /// The image in file `src` (a path as dot takes it: from the current directory), or why
    /// it cannot be drawn (in parentheses).
    static func load(_ src: String, scale: String?) -> Result<DOTImage, ImageError> {
        guard !src.isEmpty, !src.utf8.contains(0) else { return .failure(ImageError(reason: "(no file name)")) }
        guard let read = FileBytes.read(src, limit: maximumBytes) else {
            return .failure(ImageError(reason: "(no such file, or it cannot be read)"))
        }
        guard let bytes = read else { return .failure(ImageError(reason: "(larger than \(maximumBytes >> 20) MB)")) }
        guard let (type, size) = kind(bytes) else { return .failure(ImageError(reason: "(not a PNG, JPEG or SVG image)")) }
        return .success(DOTImage(src: src, type: type, width: size.width, height: size.height, bytes: bytes, scale: scale))
    }

    /// The type and size of the image `bytes` hold, nil when they are none of the three.
    static func kind(_ b: [UInt8]) -> (String, Size)? {
        if b.count >= 24, b.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) {
            // IHDR: width and height, big-endian, at 16 and 20
            func u32(_ i: Int) -> Double { Double(UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])) }
            return ("image/png", Size(u32(16), u32(20)))
        }
        if b.count >= 4, b[0] == 0xff, b[1] == 0xd8 { return jpegSize(b).map { ("image/jpeg", $0) } }
        let head = String(decoding: b.prefix(4096), as: UTF8.self)
        if Substring(head).firstRange(of: "<svg") != nil { return svgSize(head).map { ("image/svg+xml", $0) } }
        return nil
    }

    /// A JPEG's size from its first frame header (SOF0 to SOF15 but DHT, JPG and DAC).
    private static func jpegSize(_ b: [UInt8]) -> Size? {
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xff else { return nil }
            let marker = b[i + 1]
            if marker == 0xff { i += 1; continue }
            if marker == 0xd8 || marker == 0x01 || (0xd0...0xd7).contains(marker) { i += 2; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xc0...0xcf).contains(marker), marker != 0xc4, marker != 0xc8, marker != 0xcc {
                let h = Double(Int(b[i + 5]) << 8 | Int(b[i + 6])), w = Double(Int(b[i + 7]) << 8 | Int(b[i + 8]))
                return w > 0 && h > 0 ? Size(w, h) : nil
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }

    /// An SVG's size from its `svg` element: `width` and `height` (px, pt, in, cm, mm or no
    /// unit), else its `viewBox`.
    private static func svgSize(_ text: String) -> Size? {
        guard let start = Substring(text).firstRange(of: "<svg") else { return nil }
        let tag = text[start.upperBound...].prefix { $0 != ">" }
        func attribute(_ name: String) -> String? {
            for quote in ["\"", "'"] {
                if let r = tag.firstRange(of: " " + name + "=" + quote) {
                    return String(tag[r.upperBound...].prefix { String($0) != quote })
                }
            }
            return nil
        }
        func length(_ s: String?) -> Double? {
            guard var s = s?.trimmingSpaces() else { return nil }
            var factor = 1.0
            for (unit, f) in [("px", 1.0), ("pt", 1.0), ("in", 72.0), ("cm", 72 / 2.54), ("mm", 72 / 25.4)] where s.hasSuffix(unit) {
                s.removeLast(unit.count)
                factor = f
            }
            guard let v = Double(s), v.isFinite, v > 0 else { return nil }
            return v * factor
        }
        if let w = length(attribute("width")), let h = length(attribute("height")) { return Size(w, h) }
        let box = (attribute("viewBox") ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        guard box.count == 4, box[2] > 0, box[3] > 0 else { return nil }
        return Size(box[2], box[3])
    }

    /// The image as JSON: `src`, `type`, `width`, `height` (points), `scale`?, `data` (its
    /// bytes in base64).
    var json: JSONValue {
        var o = JSONObject([
            ("src", .string(src)), ("type", .string(type)),
            ("width", .number((width * 1000).rounded() / 1000)), ("height", .number((height * 1000).rounded() / 1000)),
        ])
        if let scale { o["scale"] = .string(scale) }
        o["data"] = .string(Self.base64(bytes))
        return .object(o)
    }

    /// `bytes` in base64 (RFC 4648, with padding).
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let v = UInt32(bytes[i]) << 16 | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            for k in 0..<4 {
                out.append(k <= n ? alphabet[Int(v >> UInt32(18 - 6 * k) & 63)] : UInt8(ascii: "="))
            }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
