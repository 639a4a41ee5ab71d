import CLua
import CLuaShims
import FlowCore

@testable import FlowLua

/// Counts itself in its owner while alive: proves no Swift object leaks across raised errors.
final class Tracker {
    let owner: Toy
    init(_ owner: Toy) {
        self.owner = owner
        owner.liveTrackers += 1
    }
    deinit { owner.liveTrackers -= 1 }
}

/// A small bound type exercising the runtime the way the store binding will.
final class Toy: CustomStringConvertible {
    var ids: [String] = ["a", "b"]
    var value: Double = 0
    var path: EdgePathType = .bezier
    var onChange: LuaCallback?
    var liveTrackers = 0

    var description: String { "Toy (\(ids.count) ids, value \(formatNumber(value)))" }

    func move(_ id: String, to p: Point) throws(FlowError) {
        guard ids.contains(id) else { throw .unknownNode("move", id) }
        value = p.x + p.y
    }
}

let toyClass = LuaClass<Toy>("flowtest.Toy", name: "Toy")

enum ToyBinding {
    /// Registers `Toy` and sets the global `toy` (module-like table with `new`).
    static func install(_ L: OpaquePointer) {
        toyClass.register(
            L,
            methods: [
                LuaMethod("move", move), LuaMethod("setPath", setPath), LuaMethod("echoID", echoID),
                LuaMethod("config", config), LuaMethod("fail", fail), LuaMethod("each", each),
                LuaMethod("count", count), LuaMethod("json", json), LuaMethod("resize", resize),
                LuaMethod("close", close), LuaMethod("notify", notify),
            ],
            getters: [LuaMethod("value", getValue), LuaMethod("path", getPath), LuaMethod("onChange", getOnChange)],
            setters: [LuaMethod("onChange", setOnChange)],
            readOnlyHints: ["path": "field 'path' is read-only (use toy:setPath)"])
        lua_createtable(L, 0, 2)
        luaSetFunctions(L, [LuaMethod("new", new), LuaMethod("move", move)], table: -1)
        lua_setglobal(L, "toy")
    }

    static let new: LuaFunction = { L in
        luaGuarded(L) { args in
            toyClass.pushCached(args.L, Toy())
            return 1
        }
    }

    static let move: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            let id = try args.id(2)
            let (p, _) = try args.point(3)
            try toy.move(id, to: p)
            return 0
        }
    }

    static let resize: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            let (size, next) = try args.size(2)
            let scale = try args.optionalNumber(next, default: 1)
            toy.value = size.width * size.height * scale
            args.push(toy.value)
            return 1
        }
    }

    static let setPath: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            toy.path = try args.enumValue(2, EdgePathType.self, in: "setPath")
            return 0
        }
    }

    static let echoID: LuaFunction = { L in
        luaGuarded(L) { args in
            _ = try args.object(1, toyClass)
            args.push(try args.id(2))
            args.push(integer: try args.integer(3))
            return 2
        }
    }

    static let config: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            let t = try args.table(2)
            try t.rejectUnknownKeys(["width", "label", "style", "points"])
            toy.value = try t.optionalNumber("width", default: 150)
            _ = try t.optionalString("label")
            _ = try t.optionalTable("style") { s in try s.optionalNumber("lineWidth") }
            var n = 0
            _ = try t.optionalTable("points") { p in
                try p.forEachTable { _, e in
                    _ = try e.number("x")
                    n += 1
                }
            }
            args.push(n)
            return 1
        }
    }

    /// Raises an error of the kind named by arg 2 while Swift objects are alive.
    static let fail: LuaFunction = { L in
        luaGuarded(L) { args in
            let tracker = Tracker(try args.object(1, toyClass))
            let text = String(repeating: "x", count: 64) + "\(ObjectIdentifier(tracker))"
            switch try args.string(2) {
            case "flow": throw FlowError.unknownNode("fail", text.isEmpty ? "?" : "zz")
            case "arg": throw LuaError.argument(2, "bad kind")
            case "type": _ = try args.number(2)
            default:
                args.pushTable()
                args.push("payload")
                args.setField("code")
                throw LuaError.valueOnStack
            }
            return 0
        }
    }

    /// Calls the function at arg 2 once per id; callback errors go to the sink.
    static let each: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            let fn = try args.callback(2, label: "each")
            var ok = 0
            for id in toy.ids {
                if try fn.call(args.L, arguments: { s in s.push(id); return 1 }) { ok += 1 }
            }
            args.push(ok)
            return 1
        }
    }

    static let notify: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            var result: Int32 = 0
            if let cb = toy.onChange {
                if try cb.call(args.L, results: 1, arguments: { s in s.push(toy.value); return 1 }) {
                    result = 1
                }
            }
            return result
        }
    }

    static let count: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, toyClass).ids.count)
            return 1
        }
    }

    /// Reads arg 2 as JSON and pushes it back.
    static let json: LuaFunction = { L in
        luaGuarded(L) { args in
            _ = try args.object(1, toyClass)
            let v = try args.json(2)
            args.push(v)
            return 1
        }
    }

    static let close: LuaFunction = { L in
        luaGuarded(L) { args in
            _ = try args.object(1, toyClass)
            toyClass.close(args.L, 1)
            return 0
        }
    }

    static let getValue: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, toyClass).value)
            return 1
        }
    }

    static let getPath: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, toyClass).path.rawValue)
            return 1
        }
    }

    static let getOnChange: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            if let cb = toy.onChange { cb.push(args.L) } else { args.pushNil() }
            return 1
        }
    }

    static let setOnChange: LuaFunction = { L in
        luaGuarded(L) { args in
            let toy = try args.object(1, toyClass)
            toy.onChange = try args.assigned("onChange") { try args.optionalCallback(2, label: "onChange") }
            return 0
        }
    }
}

/// A host with the toy type and captured output / errors.
final class TestHost {
    let host: LuaHost
    var out = ""
    var errors: [String] = []

    init() {
        host = LuaHost(LuaHost.Options(capturePrint: true))
        ToyBinding.install(host.L)
        host.output = { [unowned self] in self.out += $0 }
        host.errorOutput = { [unowned self] in self.errors.append($0) }
    }

    /// Runs code; returns the results joined by tabs, or "error: <first line of message>".
    @discardableResult
    func eval(_ code: String) -> String {
        if let r = host.run(string: code, chunkName: "=chunk") { return r.joined(separator: "\t") }
        return "error: " + (host.lastError?.split(separator: "\n").first.map(String.init) ?? "?")
    }

    /// The error message raised by `code`, caught with pcall (no traceback).
    func errorOf(_ code: String) -> String {
        eval("local ok, e = pcall(function() \(code) end) return ok and 'no error' or tostring(e)")
    }
}
