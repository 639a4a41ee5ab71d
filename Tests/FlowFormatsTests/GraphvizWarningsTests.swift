import FlowCore
import Glibc
import Testing

@testable import FlowFormats

/// What the DOT reader reports for each Graphviz example graph (graphviz-doc's 60, the
/// compressed ones too), checked against a golden file: a change in what is mapped or
/// dropped shows there. `RECORD_GOLDEN=1` rewrites it. Skipped without graphviz-doc.
@Suite struct GraphvizWarningsTests {
    static let golden = String(#filePath.dropLast("GraphvizWarningsTests.swift".count)) + "Golden/graphviz-warnings.txt"

    /// The example files, by their path below `examples/graphs`, with their text.
    static func examples() -> [(String, String)] {
        var out: [(String, String)] = []
        for root in GraphvizExamples.roots {
            for kind in ["directed", "undirected"] {
                var dir: [String] = []
                GraphvizExamples.walkAll(root + "/examples/graphs/" + kind, &dir)
                for p in dir.sorted() where p.hasSuffix(".gv") || p.hasSuffix(".gv.gz") {
                    let name = kind + "/" + String(p.split(separator: "/").last!)
                    let text = p.hasSuffix(".gz") ? gunzip(p) : GraphvizExamples.contents(p)
                    if let text { out.append((name, text)) }
                }
            }
            if !out.isEmpty { break }
        }
        return out
    }

    /// The text of a gzip file (through `gzip -dc`).
    static func gunzip(_ path: String) -> String? {
        guard !path.contains("'"), let p = popen("gzip -dc '\(path)'", "r") else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, p)
            bytes += buffer[0..<n]
            if n < buffer.count { break }
        }
        guard pclose(p) == 0 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `count` for a warning line: the number it ends with (`(12 nodes)`), else 1.
    static func count(_ line: String) -> Int {
        guard line.hasSuffix(")"), let open = line.lastIndex(of: "(") else { return 1 }
        let inner = line[line.index(after: open)..<line.index(before: line.endIndex)]
        return inner.split(separator: " ").first.flatMap { Int($0) } ?? 1
    }

    @Test func warningsPerExample() throws {
        let examples = Self.examples()
        guard !examples.isEmpty else {
            print("skipped: no Graphviz example files (install graphviz-doc: scripts/setup)")
            return
        }
        var text = "", lines = 0, total = 0
        for (name, dot) in examples {
            let s = FlowStore<JSONValue>()
            let warnings = try s.load(dot, format: .dot)
            let n = warnings.reduce(0) { $0 + Self.count($1) }
            lines += warnings.count
            total += n
            text += "\(name): \(n)\n" + warnings.map { "  \($0)\n" }.joined()
        }
        text = "\(examples.count) files, \(lines) warning lines, \(total) warnings (the counts summed)\n" + text
        if getenv("RECORD_GOLDEN") != nil, String(cString: getenv("RECORD_GOLDEN")) == "1" {
            guard let f = fopen(Self.golden, "wb") else { Issue.record("cannot write \(Self.golden)"); return }
            _ = Array(text.utf8).withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
            return
        }
        guard let expected = GraphvizExamples.contents(Self.golden) else {
            Issue.record("missing golden file Golden/graphviz-warnings.txt (run with RECORD_GOLDEN=1 to create it)")
            return
        }
        let a = text.split(separator: "\n", omittingEmptySubsequences: false)
        let b = expected.split(separator: "\n", omittingEmptySubsequences: false)
        if let i = a.indices.first(where: { $0 >= b.count || a[$0] != b[$0] }) ?? (a.count < b.count ? a.count : nil) {
            Issue.record("graphviz-warnings.txt differs at line \(i + 1): expected '\(i < b.count ? b[i] : "")', got '\(i < a.count ? a[i] : "")'")
        }
    }
}
