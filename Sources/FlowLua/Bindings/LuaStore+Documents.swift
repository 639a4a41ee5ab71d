import CLua
import CLuaShims
import FlowCore
import Glibc

// lua-api §12: documents. (`store:save` and `store:svg` are bound with FlowRender.)

extension FlowStoreBinding {
    static var documentMethods: [LuaMethod] {
        [LuaMethod("export", export), LuaMethod("load", load)]
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
            do {
                let warnings = try box.run(args.L) { try box.store.load(json: text) }
                args.push(true)
                args.push(strings: warnings)
            } catch let e as FlowError {
                args.pushNil()
                args.push(e.description)
            }
            return 2
        }
    }

    /// `flow.decode(json)` → `store, warnings` or `nil, msg`.
    static let decode: LuaFunction = { L in
        luaGuarded(L) { args in
            try decodeDocument(args, try args.string(1))
        }
    }

    static func decodeDocument(_ args: LuaArgs, _ text: String) throws -> Int32 {
        let box = LuaStoreBox(args.L, configuration: FlowConfiguration())
        do {
            let warnings = try box.store.load(json: text)
            storeClass.pushBound(args.L, box)
            args.push(strings: warnings)
        } catch {
            box.shutdown()
            args.pushNil()
            args.push(error.description)
        }
        return 2
    }

    /// `flow.open(path)` → `store, warnings` or `nil, msg` (reading or decoding failed).
    static let open: LuaFunction = { L in
        luaGuarded(L) { args in
            let path = try args.string(1)
            guard let text = readFile(path) else {
                args.pushNil()
                args.push("\(path): \(String(cString: strerror(errno)))")
                return 2
            }
            return try decodeDocument(args, text)
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
