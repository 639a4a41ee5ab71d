import CLua
import CLuaShims
import FlowCore
import FlowFormats
import Glibc

// lua-api §12: documents. (`store:save` and `store:svg` are bound with FlowRender.)

extension FlowStoreBinding {
    static var documentMethods: [LuaMethod] {
        [LuaMethod("export", export), LuaMethod("load", load), LuaMethod("dot", dot), LuaMethod("mermaid", mermaid)]
    }

    /// The `format` of `load`/`decode` options (`json` when absent). Unknown keys raise.
    static func formatOption(_ t: LuaTable?, _ op: String) throws -> DiagramFormat {
        guard let t else { return .json }
        try t.rejectUnknownKeys(["format"])
        return try t.optionalEnumValue("format", DiagramFormat.self, in: op) ?? .json
    }

    /// `store:dot()` → the diagram as DOT text.
    static let dot: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.text(.dot))
            return 1
        }
    }

    /// `store:mermaid()` → the diagram as a Mermaid flowchart.
    static let mermaid: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try storeSelf(args).store.text(.mermaid))
            return 1
        }
    }

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
            let text = try args.string(2)
            let format = try formatOption(try args.optionalTable(3), "load")
            do {
                let warnings = try box.run(args.L) { try box.store.load(text, format: format) }
                LuaStoreBox.account(args.L, bytes: box.itemBytes)
                args.push(true)
                args.push(strings: warnings)
            } catch let e as FlowError {
                return args.pushFailure(e.description)
            }
            return 2
        }
    }

    /// `flow.decode(text, {format=})` → `store, warnings` or `nil, msg`.
    static let decode: LuaFunction = { L in
        luaGuarded(L) { args in
            let text = try args.string(1)
            return try decodeDocument(args, text, format: try formatOption(try args.optionalTable(2), "decode"), op: "decode")
        }
    }

    static func decodeDocument(_ args: LuaArgs, _ text: String, format: DiagramFormat, op: String) throws -> Int32 {
        let box = LuaStoreBox(args.L, configuration: FlowConfiguration())
        do {
            let warnings = try box.store.load(text, format: format)
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

    /// `flow.open(path)` → `store, warnings` or `nil, msg` (reading or decoding failed). The
    /// extension picks the format: `.dot`/`.gv` DOT, `.mmd`/`.mermaid` Mermaid, else JSON.
    static let open: LuaFunction = { L in
        luaGuarded(L) { args in
            let path = try args.path(1)
            guard let text = readFile(path) else {
                return args.pushFailure("\(path): \(String(cString: strerror(errno)))")
            }
            return try decodeDocument(args, text, format: DiagramFormat(fileName: path) ?? .json, op: "open")
        }
    }

    static func readFile(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
            if n < buffer.count {
                if ferror(f) != 0 { return nil }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
