import FlowCore

// Pictures of a diagram: SVG text, SVG files and PNG files (through rsvg-convert).
// What is drawn, and how, is described in docs/rendering.md.
//
// Errors are reported under the operation name of the Lua API: `svg` for the SVG text,
// `save` for files.

/// Draws `store` as a standalone SVG 1.1 document. `title` gives the text shown in each
/// node. Throws `invalidValue` for invalid options or store styles (colours that are not
/// `#rrggbb`/`#rrggbbaa`, negative widths or dash lengths).
public func renderSVG<Data>(
    _ store: FlowStore<Data>, options: SVGOptions = SVGOptions(),
    title: (FlowNode<Data>) -> String
) throws(FlowError) -> String {
    let picture = try render(store, options, "svg", title)
    return String(decoding: picture.bytes, as: UTF8.self)
}

/// A drawing and its warnings: what could not be drawn as asked (an edge label that covers
/// a node or another label wherever it goes, docs/rendering.md).
public struct SVGDrawing: Sendable {
    public var svg: String
    public var warnings: [String]
}

/// Draws `store` as `renderSVG` does, with the warnings of the drawing.
public func drawSVG<Data>(
    _ store: FlowStore<Data>, options: SVGOptions = SVGOptions(),
    title: (FlowNode<Data>) -> String
) throws(FlowError) -> SVGDrawing {
    let picture = try render(store, options, "svg", title)
    return SVGDrawing(svg: String(decoding: picture.bytes, as: UTF8.self), warnings: picture.warnings)
}

/// Draws a store of JSON data, titled by `defaultNodeTitle`, with the warnings.
public func drawSVG(
    _ store: FlowStore<JSONValue>, options: SVGOptions = SVGOptions()
) throws(FlowError) -> SVGDrawing {
    try drawSVG(store, options: options, title: defaultNodeTitle)
}

/// Draws a store of JSON data, titled by `defaultNodeTitle`.
public func renderSVG(
    _ store: FlowStore<JSONValue>, options: SVGOptions = SVGOptions()
) throws(FlowError) -> String {
    try renderSVG(store, options: options, title: defaultNodeTitle)
}

/// Writes the SVG drawing of `store` to the file at `path` (created or truncated) and
/// returns the drawing's warnings. Throws `io` when the file cannot be written.
@discardableResult
public func writeSVG<Data>(
    _ store: FlowStore<Data>, options: SVGOptions = SVGOptions(), to path: String,
    title: (FlowNode<Data>) -> String
) throws(FlowError) -> [String] {
    let picture = try render(store, options, "save", title)
    try writeFile(path, picture.bytes, "save")
    return picture.warnings
}

/// Writes the SVG drawing of a store of JSON data, titled by `defaultNodeTitle`.
@discardableResult
public func writeSVG(
    _ store: FlowStore<JSONValue>, options: SVGOptions = SVGOptions(), to path: String
) throws(FlowError) -> [String] {
    try writeSVG(store, options: options, to: path, title: defaultNodeTitle)
}

/// The longest side, in pixels, of a PNG written by `renderPNG`. Larger pictures are scaled
/// down proportionally to fit.
public let maximumPNGSide = 16384

/// Rasterises the SVG drawing of `store` into a PNG file at `path` with `converter`
/// (`rsvg-convert`, searched in `PATH` unless the name contains a slash). The PNG is the
/// SVG's size (its drawing's size times `options.scale`), rounded, at least 1 pixel, and
/// scaled down to `maximumPNGSide` on its longer side. Throws `io` when the converter is
/// missing ("rsvg-convert not found (apt-get install librsvg2-bin)") or fails (its exit
/// status and error output are in the message). Returns the drawing's warnings.
@discardableResult
public func renderPNG<Data>(
    _ store: FlowStore<Data>, options: SVGOptions = SVGOptions(), to path: String,
    converter: String = "rsvg-convert", title: (FlowNode<Data>) -> String
) throws(FlowError) -> [String] {
    try convert(store, options, to: path, format: "png", converter: converter, title)
}

/// Rasterises a store of JSON data, titled by `defaultNodeTitle`.
@discardableResult
public func renderPNG(
    _ store: FlowStore<JSONValue>, options: SVGOptions = SVGOptions(), to path: String,
    converter: String = "rsvg-convert"
) throws(FlowError) -> [String] {
    try renderPNG(store, options: options, to: path, converter: converter, title: defaultNodeTitle)
}

/// Converts the SVG drawing of `store` into a PDF file at `path` with `converter`, one
/// page the size of the SVG (the same limit on its longer side as a PNG). Errors as
/// `renderPNG`. Returns the drawing's warnings.
@discardableResult
public func renderPDF<Data>(
    _ store: FlowStore<Data>, options: SVGOptions = SVGOptions(), to path: String,
    converter: String = "rsvg-convert", title: (FlowNode<Data>) -> String
) throws(FlowError) -> [String] {
    try convert(store, options, to: path, format: "pdf", converter: converter, title)
}

/// Converts a store of JSON data into a PDF, titled by `defaultNodeTitle`.
@discardableResult
public func renderPDF(
    _ store: FlowStore<JSONValue>, options: SVGOptions = SVGOptions(), to path: String,
    converter: String = "rsvg-convert"
) throws(FlowError) -> [String] {
    try renderPDF(store, options: options, to: path, converter: converter, title: defaultNodeTitle)
}

private func convert<Data>(
    _ store: FlowStore<Data>, _ options: SVGOptions, to path: String, format: String, converter: String,
    _ title: (FlowNode<Data>) -> String
) throws(FlowError) -> [String] {
    let op = "save"
    let picture = try render(store, options, op, title)
    guard let size = pngSize(width: picture.width, height: picture.height, scale: 1) else {
        throw .invalidValue(op, "the picture is too large to rasterise (its size is not finite)")
    }
    try rasterize(
        picture.bytes, width: size.width, height: size.height, format: format, to: path, converter: converter, op)
    return picture.warnings
}

/// The title of a node with JSON data: `data.label`, else `data.title` (a string or a
/// number), else the data itself when it is a string, else the node id
/// (`JSONValue.title(nodeID:)`, which the store sizes nodes by).
public func defaultNodeTitle(_ node: FlowNode<JSONValue>) -> String {
    node.data.title(nodeID: node.id)
}

func render<Data>(
    _ store: FlowStore<Data>, _ options: SVGOptions, _ op: String,
    _ title: (FlowNode<Data>) -> String
) throws(FlowError) -> RenderedSVG {
    var renderer = try SVGRenderer(store: store, options: options, op: op)
    return try renderer.render(title: title)
}

/// The pixel size of a PNG for an SVG of `width` × `height` pixels at `scale`; nil when
/// that size is not finite (coordinates near the limits of `Double`).
func pngSize(width: Double, height: Double, scale: Double) -> (width: Int, height: Int)? {
    var w = width * scale
    var h = height * scale
    guard w.isFinite, h.isFinite, w >= 0, h >= 0 else { return nil }
    let longest = max(w, h)
    let limit = Double(maximumPNGSide)
    if longest > limit {
        w *= limit / longest
        h *= limit / longest
    }
    func pixels(_ v: Double) -> Int { Int(min(max(v.rounded(), 1), limit)) }
    return (pixels(w), pixels(h))
}
