import Glibc

@testable import FlowFormats

/// The DOT files the Graphviz Debian packages install (graphviz-doc's examples).
enum GraphvizExamples {
    static let roots = ["/usr/share/doc/graphviz", "/usr/share/graphviz"]

    static func files() -> [String] {
        var out: [String] = []
        for r in roots { walk(r, &out) }
        return out.sorted()
    }

    static func walk(_ dir: String, _ out: inout [String]) {
        for (path, isDirectory) in entries(dir) {
            if isDirectory {
                walk(path, &out)
            } else if path.hasSuffix(".gv") || path.hasSuffix(".dot") {
                out.append(path)
            }
        }
    }

    /// Every file below `dir`, whatever its name.
    static func walkAll(_ dir: String, _ out: inout [String]) {
        for (path, isDirectory) in entries(dir) {
            if isDirectory { walkAll(path, &out) } else { out.append(path) }
        }
    }

    /// The entries of `dir` (not `.`, `..`): their paths, and whether each is a folder.
    static func entries(_ dir: String) -> [(String, Bool)] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var out: [(String, Bool)] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            out.append((dir + "/" + name, e.pointee.d_type == UInt8(DT_DIR)))
        }
        return out
    }

    static func contents(_ path: String) -> String? {
        guard let read = FileBytes.read(path), let bytes = read else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
