import CLua
import CLuaShims
import FlowLua

/// Tab completion for the REPL, computed from the live Lua state with raw access only (no
/// metamethod, getter or other Lua code runs while completing).
///
/// - `pri` → globals and keywords; `flow.ty` → `flow.type(`; `t.a.b` walks tables.
/// - `obj:mo` → methods: functions of the value's table and, through its metatable, of the
///   `__index` table (recursively) or of a bound type's `__methods`; so every method of a
///   userdata completes. After `.`, getter-backed fields (`__fields`) complete too.
/// - Inside a string literal that is an argument of a call (`store:node("a`), the
///   `idCompletion` hook supplies the candidates.
///
/// Candidates replace the word being completed: function values get a `(` appended, tables
/// a `.` (so `fl<TAB>` gives `flow.`), other values nothing.
public enum LuaCompletion {
    /// Id completion: called when the cursor is inside a string literal that is an argument
    /// of a call, e.g. `store:node("a|` or `store:connect("a", "|`. Returns the candidate
    /// ids (all of them: the REPL filters by prefix). nil: no id completion. By default the
    /// ids of the store a method is called on (`SessionGlobals.completeID`). Not
    /// thread-safe (set it at start-up).
    nonisolated(unsafe) public static var idCompletion: ((IDCompletionRequest) -> [String])? = SessionGlobals.completeID

    static let keywords = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// The characters that end a word for readline: everything that cannot be part of a
    /// `a.b:c` chain (so `.` and `:` are not word breaks), quotes included.
    public static let wordBreakCharacters = " \t\n\"\\'`@$><=;|&{(,+-*/%^~[]#)}"

    /// Candidates for the word `line[wordStart..<cursor]`. When the byte before the word is
    /// a quote, the word is inside a string literal (id completion).
    public static func candidates(_ L: OpaquePointer, line: [UInt8], wordStart: Int, cursor: Int) -> [String] {
        guard wordStart >= 0, wordStart <= cursor, cursor <= line.count else { return [] }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard lua_checkstack(L, 20) != 0 else { return [] }
        let word = String(decoding: line[wordStart..<cursor], as: UTF8.self)
        if wordStart > 0, line[wordStart - 1] == UInt8(ascii: "\"") || line[wordStart - 1] == UInt8(ascii: "'") {
            return idCandidates(L, before: Array(line[..<(wordStart - 1)]), prefix: word)
        }
        return fieldCandidates(L, word: word)
    }

    // MARK: Fields and globals

    static func fieldCandidates(_ L: OpaquePointer, word: String) -> [String] {
        let bytes = Array(word.utf8)
        guard let sep = bytes.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }) else {
            lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
            var names = keys(L, lua_gettop(L), methodsOnly: false).filter { $0.name.hasPrefix(word) }
                .map(\.completion)
            names += keywords.filter { $0.hasPrefix(word) }
            return Array(Set(names)).sorted()
        }
        let expr = String(decoding: bytes[..<sep], as: UTF8.self)
        let partial = String(decoding: bytes[(sep + 1)...], as: UTF8.self)
        let isMethod = bytes[sep] == UInt8(ascii: ":")
        guard resolve(L, expr) else { return [] }
        let sepText = isMethod ? ":" : "."
        let found = keys(L, lua_gettop(L), methodsOnly: isMethod).filter { $0.name.hasPrefix(partial) }
        return Array(Set(found.map { expr + sepText + (isMethod ? $0.name + "(" : $0.completion) })).sorted()
    }

    /// Pushes the value of a dotted chain of names (`a.b.c`) read raw from the globals.
    /// Returns false (pushing nothing) when a step is not a plain name or is missing.
    public static func resolve(_ L: OpaquePointer, _ expr: String) -> Bool {
        let parts = expr.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy(isIdentifier) else { return false }
        lua_rawgeti(L, FLUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
        for name in parts {
            guard rawIndex(L, lua_gettop(L), name, depth: 0) else {
                flua_pop(L, 1)
                return false
            }
            flua_remove(L, -2)
        }
        return true
    }

    /// Pushes `v[name]` for the value at `i`, raw, following `__index` tables and a bound
    /// type's `__methods`. Returns false (pushing nothing) when missing.
    static func rawIndex(_ L: OpaquePointer, _ i: Int32, _ name: String, depth: Int) -> Bool {
        guard depth < 8 else { return false }
        let s = LuaStack(L)
        if lua_type(L, i) == LUA_TTABLE {
            s.push(name)
            if lua_rawget(L, i) != LUA_TNIL { return true }
            flua_pop(L, 1)
        }
        guard lua_getmetatable(L, i) != 0 else { return false }
        let mt = lua_gettop(L)
        defer { flua_remove(L, mt) }
        for field in ["__methods", "__index"] {
            s.push(field)
            if lua_rawget(L, mt) == LUA_TTABLE, rawIndex(L, lua_gettop(L), name, depth: depth + 1) {
                flua_remove(L, -2)
                return true
            }
            flua_pop(L, 1)
        }
        return false
    }

    struct Key: Hashable {
        var name: String
        var isFunction: Bool
        var isTable = false

        var completion: String { name + (isFunction ? "(" : isTable ? "." : "") }
    }

    /// Identifier keys of the value at `i` and of its metatable's `__index` chain,
    /// `__methods` and `__fields`.
    static func keys(_ L: OpaquePointer, _ i: Int32, methodsOnly: Bool, depth: Int = 0) -> Set<Key> {
        var out = Set<Key>()
        guard depth < 8 else { return out }
        if lua_type(L, i) == LUA_TTABLE {
            lua_pushnil(L)
            while lua_next(L, i) != 0 {
                if lua_type(L, -2) == LUA_TSTRING, let k = LuaStack(L).string(at: -2), isIdentifier(k) {
                    let f = lua_type(L, -1) == LUA_TFUNCTION
                    if f || !methodsOnly { out.insert(Key(name: k, isFunction: f, isTable: lua_type(L, -1) == LUA_TTABLE)) }
                }
                flua_pop(L, 1)
            }
        }
        guard lua_getmetatable(L, i) != 0 else { return out }
        let mt = lua_gettop(L)
        defer { flua_remove(L, mt) }
        for field in ["__methods", "__index", "__fields"] {
            if field == "__fields" && methodsOnly { continue }
            LuaStack(L).push(field)
            if lua_rawget(L, mt) == LUA_TTABLE {
                if field == "__fields" {
                    for k in keys(L, lua_gettop(L), methodsOnly: false, depth: depth + 1) {
                        out.insert(Key(name: k.name, isFunction: false))
                    }
                } else {
                    out.formUnion(keys(L, lua_gettop(L), methodsOnly: methodsOnly, depth: depth + 1))
                }
            }
            flua_pop(L, 1)
        }
        return out
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let f = s.utf8.first, f == UInt8(ascii: "_") || isAlpha(f) else { return false }
        return s.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isAlpha($0) || ($0 >= 48 && $0 <= 57) }
            && !keywords.contains(s)
    }

    static func isAlpha(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }

    // MARK: Ids inside call arguments

    /// `before` is the line up to (not including) the opening quote of the string being
    /// completed.
    static func idCandidates(_ L: OpaquePointer, before: [UInt8], prefix: String) -> [String] {
        guard let hook = idCompletion, let call = openCall(before) else { return [] }
        let callee = String(decoding: call.callee, as: UTF8.self)
        var receiver: Int32 = 0
        var receiverExpression = ""
        var function = callee
        if let colon = callee.lastIndex(of: ":") {
            receiverExpression = String(callee[..<colon])
            function = String(callee[callee.index(after: colon)...])
            guard resolve(L, receiverExpression) else { return [] }
            receiver = lua_gettop(L)
        }
        let request = IDCompletionRequest(
            L: L, receiver: receiver, receiverExpression: receiverExpression, function: function,
            argument: call.argument, prefix: prefix)
        return hook(request).filter { $0.hasPrefix(prefix) }
    }

    /// The innermost unclosed call at the end of `text`, when the text ends (spaces aside)
    /// with its `(` or a `,` of it: the callee chain (`store:node`) and the argument number.
    static func openCall(_ text: [UInt8]) -> (callee: [UInt8], argument: Int)? {
        var stack: [(open: UInt8, position: Int, commas: Int)] = []
        var i = 0
        while i < text.count {
            let c = text[i]
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):  // skip a string literal
                i += 1
                while i < text.count && text[i] != c {
                    if text[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                stack.append((c, i, 0))
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if !stack.isEmpty { stack[stack.count - 1].commas += 1 }
            default: break
            }
            i += 1
        }
        guard let open = stack.last, open.open == UInt8(ascii: "(") else { return nil }
        let last = text.lastIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard let last, text[last] == UInt8(ascii: "(") || text[last] == UInt8(ascii: ",") else { return nil }
        // the callee: the name chain right before '('
        var start = open.position
        while start > 0 {
            let c = text[start - 1]
            if c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") || isAlpha(c) || (c >= 48 && c <= 57) {
                start -= 1
            } else {
                break
            }
        }
        guard start < open.position else { return nil }
        return (Array(text[start..<open.position]), open.commas + 1)
    }
}

/// What the REPL knows when it asks for id candidates.
public struct IDCompletionRequest {
    /// The Lua state (the REPL's main state).
    public let L: OpaquePointer
    /// Stack index of the receiver of a method call (`store` in `store:node("`), resolved
    /// with raw access only; 0 for a plain function call (`f("`).
    public let receiver: Int32
    /// The receiver expression as typed (`store`, `s.inner`); "" for a plain call.
    public let receiverExpression: String
    /// The function or method name (`node`, `moveNode`, `flow.open`).
    public let function: String
    /// Which argument the string is (1-based, not counting the receiver).
    public let argument: Int
    /// The text typed so far inside the quotes.
    public let prefix: String

    public init(L: OpaquePointer, receiver: Int32, receiverExpression: String, function: String, argument: Int, prefix: String) {
        self.L = L
        self.receiver = receiver
        self.receiverExpression = receiverExpression
        self.function = function
        self.argument = argument
        self.prefix = prefix
    }
}
