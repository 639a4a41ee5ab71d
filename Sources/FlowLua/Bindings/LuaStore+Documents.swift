import CLua
import CLuaShims
import FlowCore
import FlowFormats
import Glibc

// lua-api §12: documents. (`store:save` and `store:svg` are bound with FlowRender.)
//
// Reading and writing are named in pairs, each taking `{format = "json"|"dot"|"mermaid"}`:
// `flow.decode(text)` / `store:encode()` for text, `flow.open(path)` / `store:save(path)` for
// files (`store:load(text)` reads into a store that exists). `export`, `dot` and `mermaid` are
// the deprecated spellings of `encode()`, `encode{format = "dot"}` and
// `encode{format = "mermaid"}` (docs/lua-api.md, "Deprecated names").

extension FlowStoreBinding {
    static var documentMethods: [LuaMethod] {
        [LuaMethod("encode", encode), LuaMethod("load", load),
         LuaMethod("export", export), LuaMethod("dot", dot), LuaMethod("mermaid", mermaid)]
    }

    /// `store:encode({format=})` → the diagram as text: a JSON document (the default), DOT
    /// or a Mermaid flowchart; what `flow.decode(text, {format=})` reads back.
    static let encode: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            var format = DiagramFormat.json
            if let t = try args.optionalTable(2) {
                try t.rejectUnknownKeys(["format"])
                format = try t.optionalEnumValue("format", DiagramFormat.self, in: "encode") ?? .json
            }
            args.push(try box.store.text(format))
            return 1
        }
    }

    /// The `format` (`json` when absent) and `maximumEdges` (docs/formats.md, "Limits") of
    /// `load`/`decode`/`open` options. Unknown keys raise.
    /// In a sandbox an HTML-like label's `<IMG>` files are not read.
    static func readOptions(_ L: OpaquePointer, _ t: LuaTable?, _ op: String, format: DiagramFormat = .json) throws -> (DiagramFormat, FormatLimits) {
        var limits = FormatLimits()
        limits.readsImages = SandboxStoreLimits.read(L) == nil
        guard let t else { return (format, limits) }
        try t.rejectUnknownKeys(["format", "maximumEdges"])
        if let n = try t.optionalInteger("maximumEdges") {
            guard n >= 0 else { throw t.error("maximumEdges", "expected a count of at least 0, got \(n)") }
            limits.edges = Int(n)
        }
        return (try t.optionalEnumValue("format", DiagramFormat.self, in: op) ?? format, limits)
    }

    /// The text argument `i` of `op`: invalid UTF-8 gives `nil` and the failure message.
    static func textArgument(_ args: LuaArgs, _ i: Int32, _ op: String) throws -> Result<String, FlowError> {
        let bytes = try args.bytes(i)
        do throws(FlowError) {
            return .success(try DiagramText.string(bytes, operation: op, what: "the text"))
        } catch {
            return .failure(error)
        }
    }

    /// `store:dot()` → the diagram as DOT text (deprecated: `store:encode{format = "dot"}`).
    static let dot: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.text(.dot))
            return 1
        }
    }

    /// `store:mermaid()` → the diagram as a Mermaid flowchart (deprecated: `store:encode{format
    /// = "mermaid"}`).
    static let mermaid: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.text(.mermaid))
            return 1
        }
    }

    /// `store:export()` → the JSON document (deprecated: `store:encode()`).
    static let export: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.export())
            return 1
        }
    }

    /// `true, warnings` or `nil, msg`.
    static let load: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            let text: String
            switch try textArgument(args, 2, "load") {
            case .success(let t): text = t
            case .failure(let e): return args.pushFailure(e.description)
            }
            let (format, limits) = try readOptions(args.L, try args.optionalTable(3), "load")
            do {
                let warnings = try box.run(args.L) { try box.store.load(text, format: format, limits: limits) }
                LuaStoreBox.account(args.L, bytes: box.itemBytes)
                args.push(true)
                args.push(strings: warnings)
            } catch let e as FlowError {
                return args.pushFailure(e.description)
            }
            return 2
        }
    }

    /// `flow.decode(text, {format=, maximumEdges=})` → `store, warnings` or `nil, msg`.
    static let decode: LuaFunction = { L in
        luaGuarded(L) { args in
            let text: String
            switch try textArgument(args, 1, "decode") {
            case .success(let t): text = t
            case .failure(let e): return args.pushFailure(e.description)
            }
            let (format, limits) = try readOptions(args.L, try args.optionalTable(2), "decode")
            return try decodeDocument(args, text, format: format, limits: limits, op: "decode")
        }
    }

    /// A new store holding `text`; its zoom limits take in the document's zoom, so an
    /// exported document decodes as it was saved.
    static func decodeDocument(_ args: LuaArgs, _ text: String, format: DiagramFormat, limits: FormatLimits, op: String) throws -> Int32 {
        let box = LuaStoreBox(args.L, configuration: FlowConfiguration())
        do {
            let warnings = try box.store.load(text, format: format, operation: op, limits: limits, keepingZoom: true)
            storeClass.pushBound(args.L, box)
            LuaStoreBox.account(args.L, bytes: box.itemBytes)
            args.push(strings: warnings)
        } catch {
            box.shutdown()
            // a store limit does not know the call (see LuaErrors)
            return args.pushFailure(error.operation.isEmpty ? "\(op): \(error.message)" : error.description)
        }
        return 2
    }

    /// `flow.open(path, {format=, maximumEdges=})` → `store, warnings` or `nil, msg` (reading
    /// or decoding failed). The extension picks the format unless `format` is given:
    /// `.dot`/`.gv` DOT, `.mmd`/`.mermaid` Mermaid, else JSON.
    static let open: LuaFunction = { L in
        luaGuarded(L) { args in
            let path = try args.path(1)
            let (format, limits) = try readOptions(args.L, try args.optionalTable(2), "open", format: DiagramFormat(fileName: path) ?? .json)
            guard let bytes = readFile(path) else {
                return args.pushFailure("\(path): \(String(cString: strerror(errno)))")
            }
            let text: String
            do throws(FlowError) {
                text = try DiagramText.string(bytes, operation: "open", what: path)
            } catch {
                return args.pushFailure(error.description)
            }
            return try decodeDocument(args, text, format: format, limits: limits, op: "open")
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        FileBytes.read(path) ?? nil
    }
}
