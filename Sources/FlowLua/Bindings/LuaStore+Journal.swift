import CLua
import CLuaShims
import FlowCore

// Actions as values (docs/workspaces.md): `store.journaling`, `store:journal()`,
// `store:replay(batches)`, `store:journalScript()`.

extension FlowStoreBinding {
    static var journalMethods: [LuaMethod] {
        [LuaMethod("journal", journal), LuaMethod("replay", replay), LuaMethod("journalScript", journalScript)]
    }

    static var journalGetters: [LuaMethod] { [LuaMethod("journaling", journaling)] }
    static var journalSetters: [LuaMethod] { [LuaMethod("journaling", setJournaling)] }

    /// `store.journaling`: whether the store keeps a journal (a store opened from a
    /// workspace always does).
    static let journaling: LuaFunction = { L in
        luaGuarded(L) { args in
            args.push(try args.object(1, storeClass).store.actionRecorder?.keepsJournal == true)
            return 1
        }
    }

    /// `store.journaling = true` starts an empty journal; `false` drops it. A store bound
    /// to a workspace keeps its journal.
    static let setJournaling: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try args.object(1, storeClass)
            let on = try args.assigned("journaling") { try args.boolean(2) }
            if let r = box.store.actionRecorder, r.sink != nil {
                guard on else { throw FlowError(.invalidState, operation: "journaling", message: "a store bound to a workspace keeps its journal") }
                return 0
            }
            if on {
                if box.store.actionRecorder == nil { box.store.actionRecorder = FlowActionRecorder() }
            } else {
                box.store.actionRecorder = nil
            }
            return 0
        }
    }

    static func recordedJournal(_ box: LuaStoreBox, _ op: String) throws(FlowError) -> [FlowBatch<JSONValue>] {
        guard let r = box.store.actionRecorder, r.keepsJournal else {
            throw FlowError(
                .invalidState, operation: op,
                message: "the store keeps no journal (set store.journaling = true, or open it from a workspace)")
        }
        return r.journal
    }

    /// `store:journal()` -> `{ {name = "Add", actions = { {op = "addNode", ...} } }, ... }`.
    static let journal: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            var list: [JSONValue] = []
            for b in try recordedJournal(box, "journal") { list.append(try b.jsonValue()) }
            args.push(JSONValue.array(list))
            return 1
        }
    }

    /// `store:replay(batches)`: applies a journal (all of it or nothing).
    static let replay: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            guard lua_type(args.L, 2) == LUA_TTABLE else { throw LuaError.type(2, expected: "table") }
            let value = try args.json(2)
            var batches: [FlowBatch<JSONValue>] = []
            switch value {
            case .array(let items):
                for (i, v) in items.enumerated() { batches.append(try FlowBatch(json: v, operation: "replay", path: "batch \(i + 1)")) }
            case .object(let o) where o.isEmpty: break
            default: throw LuaError.argument(2, "array of batches expected")
            }
            try box.run(args.L) { try box.store.replay(batches) }
            return 0
        }
    }

    /// `store:journalScript()` -> the journal as a Lua script that replays it on `store`.
    static let journalScript: LuaFunction = { L in
        luaGuarded(L) { args in
            let box = try storeSelf(args)
            var list: [JSONValue] = []
            for b in try recordedJournal(box, "journalScript") { list.append(try b.jsonValue()) }
            var out = "-- FlowScript journal: \(list.count) \(list.count == 1 ? "batch" : "batches")\nstore:replay("
            LuaLiteral.write(.array(list), indent: 0, to: &out)
            out += ")\n"
            args.push(out)
            return 1
        }
    }
}

/// Lua table constructors for JSON values (deterministic: object keys in their order).
enum LuaLiteral {
    static func write(_ v: JSONValue, indent: Int, to out: inout String) {
        switch v {
        case .null: out += "flow.null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += formatNumber(n)
        case .string(let s): quote(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "{}"; return }
            let pad = String(repeating: "  ", count: indent + 1)
            out += "{\n"
            for item in items {
                out += pad
                write(item, indent: indent + 1, to: &out)
                out += ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        case .object(let o):
            if o.isEmpty { out += "{}"; return }
            out += "{"
            var first = true
            for (k, value) in o {
                out += first ? "" : ", "
                first = false
                if isName(k) { out += k } else { out += "["; quote(k, to: &out); out += "]" }
                out += " = "
                write(value, indent: indent + 1, to: &out)
            }
            out += "}"
        }
    }

    static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    static func isName(_ s: String) -> Bool {
        guard let f = s.utf8.first, f == UInt8(ascii: "_") || (f | 0x20 >= 97 && f | 0x20 <= 122) else { return false }
        return s.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || ($0 >= 48 && $0 <= 57) }
            && !keywords.contains(s)
    }

    static func quote(_ s: String, to out: inout String) {
        out += "\""
        for c in s.unicodeScalars {
            switch c.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0..<32, 127:
                // three digits: a digit after the escape is not read as part of it
                let d = String(c.value)
                out += "\\" + String(repeating: "0", count: 3 - d.count) + d
            default: out.unicodeScalars.append(c)
            }
        }
        out += "\""
    }
}
