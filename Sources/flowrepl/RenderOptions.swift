// `flowrepl render`: the command line, read the way dot reads its own (docs/formats.md,
// "A stand-in for dot").

/// What `flowrepl render` was asked to do.
struct RenderOptions {
    /// The output format, as `-T` names it (svg, png, pdf, dot).
    enum Output: String {
        case svg, png, pdf, dot

        /// `-Tsvg`, `-Tsvg:cairo` (the renderer part is dot's; ours has one), `-Tgv`.
        init?(flag: String) {
            let name = flag.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            switch name {
            case "svg": self = .svg
            case "png": self = .png
            case "pdf": self = .pdf
            case "dot", "gv", "canon", "xdot": self = .dot
            default: return nil
            }
        }
    }

    var output: Output = .dot
    /// `-o FILE`: every graph's output into this file (nil: standard output).
    var outputFile: String?
    /// `-O`: each input's output beside it, named after it (`a.gv` -> `a.gv.svg`).
    var outputBeside = false
    /// `-G`, `-N`, `-E`: DOT attributes given before the graph's own, which override them.
    var graphAttributes: [(String, String)] = []
    var nodeAttributes: [(String, String)] = []
    var edgeAttributes: [(String, String)] = []
    /// `-q`: no warnings on standard error.
    var quiet = false
    var help = false
    /// The input files; none: standard input.
    var inputs: [String] = []

    static let usage = """
        usage: flowrepl render [-Tformat] [-o file | -O] [-Gname=value] [-Nname=value]
                               [-Ename=value] [-Kdot] [-q] [file ...]
        Reads DOT or Mermaid (a file's extension or, on standard input, its first word says
        which), lays the graph out and writes it, as dot does:
          -Tformat  svg, png, pdf or dot (also gv, canon; default dot: the graph as DOT)
          -o file   write to file (default: standard output)
          -O        write each input's output beside it, as input.format
          -Gname=value, -Nname=value, -Ename=value
                    a graph, node or edge attribute given before the graph's own (DOT input)
          -Kdot     the layout (the only one: layered)
          -q        no warnings
        PNG and PDF need rsvg-convert (librsvg2-bin). See docs/formats.md.
        """

    /// Parses `args` (after `render`); throws a message for a bad option.
    init(_ args: [String]) throws(RenderError) {
        var rest = args[...]
        func value(_ flag: String, glued: Substring) throws(RenderError) -> String {
            if !glued.isEmpty { return String(glued) }
            guard let next = rest.popFirst() else { throw RenderError("option \(flag) needs a value") }
            return next
        }
        while let arg = rest.popFirst() {
            guard arg.hasPrefix("-"), arg != "-" else {
                inputs.append(arg)
                continue
            }
            if arg == "--" {
                inputs += rest
                break
            }
            let flag = arg.prefix(2), glued = arg.dropFirst(2)
            switch flag {
            case "-T":
                let name = try value("-T", glued: glued)
                guard let o = Output(flag: name) else {
                    throw RenderError("-T\(name): unknown format (svg, png, pdf or dot)")
                }
                output = o
            case "-o": outputFile = try value("-o", glued: glued)
            case "-O" where glued.isEmpty: outputBeside = true
            case "-q" where glued.isEmpty: quiet = true
            case "-h" where glued.isEmpty, "-?" where glued.isEmpty: help = true
            case "-K":
                let engine = try value("-K", glued: glued)
                guard engine == "dot" else {
                    throw RenderError("-K\(engine): only the layered layout (dot) is drawn")
                }
            case "-G", "-N", "-E":
                let pair = try Self.attribute(try value(String(flag), glued: glued), flag: String(flag))
                if flag == "-G" { graphAttributes.append(pair) }
                else if flag == "-N" { nodeAttributes.append(pair) }
                else { edgeAttributes.append(pair) }
            default:
                if arg == "--help" { help = true; continue }
                throw RenderError("unknown option '\(arg)'")
            }
        }
        if outputBeside && outputFile != nil { throw RenderError("give -o or -O, not both") }
    }

    /// `name=value` (or `name`, which means `name=true`, as dot reads it); the name must be
    /// a DOT identifier.
    static func attribute(_ text: String, flag: String) throws(RenderError) -> (String, String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let isIdentifier = name.utf8.first.map { !(48...57).contains($0) } ?? false
            && name.utf8.allSatisfy { $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
        guard isIdentifier else { throw RenderError("\(flag)\(text): the attribute name must be letters, digits and _") }
        return (name, parts.count > 1 ? String(parts[1]) : "true")
    }

    var hasAttributes: Bool { !(graphAttributes.isEmpty && nodeAttributes.isEmpty && edgeAttributes.isEmpty) }
}

/// A message for standard error: what went wrong, without the program's name.
struct RenderError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
