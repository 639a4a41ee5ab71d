/// At the prompt each line is a chunk of its own, so `local s = flow.newStore()` is gone by
/// the next line, and `s:addNode{...}` there fails on a nil global. The stock `lua` says no
/// more; this remembers the names lines declared `local` and, when an error names one of
/// them as a global, says why.
struct LocalHint {
    private var declared: Set<String> = []

    /// Notes the names that `source` (a chunk that ran) declares `local` at the start of a
    /// line: `local a, b = ...`, `local function f`.
    mutating func ran(_ source: [UInt8]) {
        for line in String(decoding: source, as: UTF8.self).split(separator: "\n") {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            guard rest.hasPrefix("local ") || rest.hasPrefix("local\t") else { continue }
            rest = rest.dropFirst(6).drop { $0 == " " || $0 == "\t" }
            if rest.hasPrefix("function ") { rest = rest.dropFirst(9) }
            let names = rest.prefix { $0 != "=" }
            for part in names.split(separator: ",") {
                let name = part.drop { $0 == " " || $0 == "\t" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty, name.first!.isLetter || name.first == "_" { declared.insert(String(name)) }
            }
        }
    }

    /// The hint for an error `message`: nil unless it names a remembered local as a global.
    func hint(for message: String) -> String? {
        for name in declared.sorted() where message.contains("global '\(name)'") {
            return "hint: '\(name)' was declared local on an earlier line; at the prompt each line is "
                + "a chunk of its own, so its locals end with it: write '\(name) = ...' instead"
        }
        return nil
    }
}
