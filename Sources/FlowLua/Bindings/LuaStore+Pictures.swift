import CLua
import CLuaShims
import FlowCore
import FlowFormats
import FlowRender
import Glibc

// lua-api §12: `store:svg(opts)` and `store:save(path, opts)`.

extension FlowStoreBinding {
    static var pictureMethods: [LuaMethod] {
        [LuaMethod("svg", svg), LuaMethod("save", save)]
    }

    /// Reads the picture options, the same for `svg` and `save`: `fit`, `padding`, `width`,
    /// `height`, `theme`, `background`, `scale`, `handles`, `title`. Unknown keys raise.
    static func pictureOptions(_ t: LuaTable?, _ op: String) throws -> SVGOptions {
        var o = SVGOptions()
        guard let t else { return o }
        try t.rejectUnknownKeys(["fit", "padding", "width", "height", "theme", "background", "scale", "handles", "title"])
        if let v = try t.optionalBoolean("fit") { o.fit = v }
        if let v = try t.optionalNumber("padding") { o.padding = v }
        if let v = try t.optionalNumber("width") { o.width = v }
        if let v = try t.optionalNumber("height") { o.height = v }
        if let v = try t.optionalEnumValue("theme", SVGTheme.self, in: op) { o.theme = v }
        if let v = try t.optionalBoolean("background") { o.background = v }
        if let v = try t.optionalNumber("scale") { o.scale = v }
        if let v = try t.optionalEnumValue("handles", HandleVisibility.self, in: op) { o.handles = v }
        if let v = try t.optionalString("title") { o.title = v }
        return o
    }

    /// `store:svg(opts)` → the SVG text, and the list of warnings when there are some.
    static let svg: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let options = try pictureOptions(try args.optionalTable(2), "svg")
            let drawing = try drawSVG(box.store, options: options)
            if let limit = SandboxStoreLimits.read(args.L)?.pictureBytes, limit > 0, drawing.svg.utf8.count > limit {
                throw LuaError.message("svg: the picture would be \(drawing.svg.utf8.count) bytes, more than the sandbox's \(limit)")
            }
            args.push(drawing.svg)
            return 1 + pushWarnings(args, drawing.warnings)
        }
    }

    /// Pushes the list of `warnings` when there are some; returns how many values it pushed.
    static func pushWarnings(_ args: LuaArgs, _ warnings: [String]) -> Int32 {
        guard !warnings.isEmpty else { return 0 }
        args.push(strings: warnings)
        return 1
    }

    /// `store:save(path, opts)`: `.json` document, `.dot`/`.gv` or `.mmd` text, `.svg` drawing, `.png` raster or `.pdf`
    /// page (both through rsvg-convert); `{format = "json"|"dot"|"mermaid"}` writes that text
    /// whatever the extension, as `flow.open(path, {format=})` reads it. An unknown extension
    /// raises; an I/O failure returns `nil, msg`. A drawing's warnings come as a second value
    /// when there are some.
    static let save: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let path = try args.path(2)
            let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
            let optionsTable = try args.optionalTable(3)
            var warnings: [String] = []
            let format = try optionsTable?.optionalEnumValue("format", DiagramFormat.self, in: "save")
            do {
                switch format == nil ? ext : "json" {
                case "json", "dot", "gv", "mmd", "mermaid":
                    if let t = optionsTable { try t.rejectUnknownKeys(["format"]) }
                    let text = try box.store.text(format ?? DiagramFormat(fileName: path) ?? .json)
                    if let problem = writeFile(path, text) { return args.pushFailure(problem) }
                case "svg":
                    warnings = try writeSVG(box.store, options: try pictureOptions(optionsTable, "save"), to: path)
                case "png":
                    warnings = try renderPNG(box.store, options: try pictureOptions(optionsTable, "save"), to: path)
                case "pdf":
                    warnings = try renderPDF(box.store, options: try pictureOptions(optionsTable, "save"), to: path)
                default:
                    throw FlowError.invalidValue(
                        "save", "unknown file extension of '\(path)' (expected .json, .dot, .gv, .mmd, .svg, .png or .pdf)")
                }
            } catch let e as FlowError where e.code == .io {
                return args.pushFailure(e.reported(as: "save").description)
            } catch let e as FlowError {
                throw e.reported(as: "save")
            }
            args.push(true)
            return 1 + pushWarnings(args, warnings)
        }
    }

    /// Writes `text` to `path`; returns a message on failure.
    static func writeFile(_ path: String, _ text: String) -> String? {
        guard let f = fopen(path, "wb") else { return "save: \(path): \(String(cString: strerror(errno)))" }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, f)
        let closed = fclose(f)
        if written != bytes.count || closed != 0 { return "save: \(path): \(String(cString: strerror(errno)))" }
        return nil
    }
}
