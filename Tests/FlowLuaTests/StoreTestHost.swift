import Testing

@testable import FlowLua

/// A host for the store tests: captured print output, error sink and event lines.
final class StoreHost {
    let host: LuaHost
    var out = ""
    var errors: [String] = []
    var events: [String] = []

    init(events: Bool = false) {
        host = LuaHost(LuaHost.Options(capturePrint: true))
        host.output = { [unowned self] in self.out += $0 }
        host.errorOutput = { [unowned self] in self.errors.append($0) }
        if events { host.eventOutput = { [unowned self] in self.events.append($0) } }
    }

    /// Runs code; returns the results joined by tabs, or "error: <first line>".
    @discardableResult
    func eval(_ code: String) -> String {
        if let r = host.run(string: code, chunkName: "=chunk") { return r.joined(separator: "\t") }
        return "error: " + (host.lastError?.split(separator: "\n").first.map(String.init) ?? "?")
    }

    /// The message raised by `code` (pcall, no traceback), or "no error"; the position
    /// prefix `chunk:<line>: ` is removed (use `rawErrorOf` to see it).
    func errorOf(_ code: String) -> String {
        let e = rawErrorOf(code)
        guard e.hasPrefix("chunk:"), let colon = e.dropFirst(6).firstIndex(of: ":") else { return e }
        return String(e[e.index(colon, offsetBy: 2)...])
    }

    func rawErrorOf(_ code: String) -> String {
        eval("local ok, e = pcall(function() \(code) end) return ok and 'no error' or tostring(e)")
    }

    /// Runs code and returns what it printed (and clears the buffer).
    func printed(_ code: String) -> String {
        out = ""
        let r = eval(code)
        if r.hasPrefix("error: ") { return r }
        defer { out = "" }
        return out
    }
}
