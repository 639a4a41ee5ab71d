@preconcurrency import Glibc

/// The diagrams section (issue #37): each diagram of the corpus (`scripts/diagrams`, a
/// `.lua` script returning a laid-out store with the same graph as `.dot` beside it) and
/// each Graphviz example graph (graphviz-doc's `examples/graphs`, opened with `flow.open`)
/// is drawn by `flowrepl` and saved as a user saves it; the defects a reader sees are
/// counted in the saved picture and document (`DiagramDefects`) and set beside dot's
/// drawing of the same graph (`DotSide`). The reference scorer counts the same figures;
/// see docs/diagrams.md.
enum DiagramBench {
    struct Row {
        var set: String
        var name: String
        var figures: DiagramDefects?
        var dot: DotSide?
        var failure: String?
        /// Seconds spent counting the figures (FlowScript's drawing; not drawing it).
        var countTime = 0.0

        /// The figures that fail: a defect seen, more crossings than dot, or ink under 0.9× dot's.
        var fails: [String] {
            guard let f = figures else { return ["drawing"] }
            var out = DiagramDefects.zeroFigures.filter { f.value($0) > 0 }
            if let d = dot {
                if f.crossings > d.crossings { out.append("crossings") }
                if f.ink < 0.9 * d.ink { out.append("ink") }
            }
            return out
        }
    }

    /// `--diagrams`: the corpus folder.
    nonisolated(unsafe) static var directory = "scripts/diagrams"
    nonisolated(unsafe) static var rows: [Row] = []

    /// The script `flowrepl` runs on each case (as the scorer's draw.lua does).
    static let drawScript = """
        local case, out = arg[1], arg[2]
        local s
        if case:match("%.lua$") then s = dofile(case) else s = assert(flow.open(case)) end
        assert(s:save(out .. ".svg", { handles = "none" }))
        assert(s:save(out .. ".json"))
        """

    static func run(flowrepl: String, into report: Report) {
        var dir = [CChar]("/tmp/flowbench-diagrams-XXXXXX".utf8CString)
        guard mkdtemp(&dir) != nil else {
            report.add(Metric(name: "diagrams", size: nil, value: nil, unit: "", note: "no temporary folder"))
            return
        }
        let tmp = String(decoding: dir.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { _ = system("rm -rf '\(tmp)'") }
        guard write(drawScript, to: "\(tmp)/draw.lua") else { return }
        let sets = [("corpus", corpusCases()), ("graphviz", graphvizExamples())]
        for (set, cases) in sets {
            if cases.isEmpty {
                report.add(Metric(name: "diagrams.\(set)", size: nil, value: nil, unit: "", note: "no cases found"))
                continue
            }
            progress("diagrams: \(set), \(cases.count) cases")
            var setRows: [Row] = []
            for path in cases {
                // dot and flow.open read plain files: a compressed example is unpacked first
                let plain = path.hasSuffix(".gz") ? unpack(path, into: tmp) : path
                setRows.append(measure(plain, set: set, flowrepl: flowrepl, tmp: tmp))
            }
            rows += setRows
            addTotals(setRows, set: set, into: report)
        }
    }

    static func measure(_ path: String, set: String, flowrepl: String, tmp: String) -> Row {
        let file = String(path.split(separator: "/").last ?? "")
        let name = String(file.prefix(upTo: file.lastIndex(of: ".") ?? file.endIndex))
        var row = Row(set: set, name: name)
        let out = "\(tmp)/o"
        unlink("\(out).svg")
        unlink("\(out).json")
        let status = system("'\(flowrepl)' --quiet '\(tmp)/draw.lua' '\(path)' '\(out)' >'\(tmp)/log' 2>&1")
        guard status == 0, let svg = readText("\(out).svg"), let json = readText("\(out).json"),
            let picture = DrawnPicture(svg: svg, document: json)
        else {
            let log = readText("\(tmp)/log") ?? ""
            row.failure = String(log.split(separator: "\n").last ?? "flowrepl failed").prefix(100).description
            return row
        }
        let t0 = now()
        row.figures = DiagramDefects(picture)
        row.countTime = now() - t0
        let dotFile = path.hasSuffix(".lua") ? String(path.dropLast(4)) + ".dot" : path
        row.dot = DotSide(dotFile: dotFile)
        return row
    }

    /// Sums per set: each figure (dot's crossings as the baseline of crossings) and the
    /// number of cases drawn without a failing figure.
    static func addTotals(_ rows: [Row], set: String, into report: Report) {
        let drawn = rows.compactMap(\.figures)
        for figure in DiagramDefects.zeroFigures {
            report.add(Metric(name: "diagrams.\(set).\(figure)", size: rows.count, value: Double(drawn.reduce(0) { $0 + $1.value(figure) }), unit: ""))
        }
        let dotCrossings = rows.compactMap(\.dot).reduce(0) { $0 + $1.crossings }
        report.add(
            Metric(name: "diagrams.\(set).crossings", size: rows.count, value: Double(drawn.reduce(0) { $0 + $1.crossings }), unit: "", baseline: Double(dotCrossings)))
        report.add(Metric(name: "diagrams.\(set).clean", size: rows.count, value: Double(rows.filter { $0.fails.isEmpty }.count), unit: ""))
        report.add(Metric(name: "diagrams.\(set).countTime", size: rows.count, value: rows.reduce(0) { $0 + $1.countTime } * 1e9, unit: "ns"))
        report.add(Metric(name: "diagrams.\(set).failed", size: rows.count, value: Double(rows.filter { $0.figures == nil }.count), unit: ""))
    }

    static func corpusCases() -> [String] {
        listing("ls '\(directory)'/*.lua 2>/dev/null")
    }

    /// graphviz-doc's example graphs: `$GRAPHVIZ_EXAMPLES/{directed,undirected}/*.gv`, else
    /// the package's files as `dpkg -L graphviz-doc` lists them.
    static func graphvizExamples() -> [String] {
        if let env = getenv("GRAPHVIZ_EXAMPLES"), case let dir = String(validatingCString: env) ?? "", !dir.isEmpty {
            return listing("ls '\(dir)'/directed/*.gv* '\(dir)'/undirected/*.gv* 2>/dev/null")
        }
        return listing("dpkg -L graphviz-doc 2>/dev/null | grep -E '/examples/graphs/(directed|undirected)/[^/]+\\.gv(\\.gz)?$' | sort")
    }

    /// `path` (`x.gv.gz`) unpacked as `tmp/x.gv`.
    static func unpack(_ path: String, into tmp: String) -> String {
        let file = String(path.split(separator: "/").last ?? "").dropLast(3)
        let out = "\(tmp)/\(file)"
        _ = system("zcat '\(path)' > '\(out)'")
        return out
    }

    /// The lines a shell command prints.
    static func listing(_ command: String) -> [String] {
        guard let p = popen(command, "r") else { return [] }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), p) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingNewline()
            if !line.isEmpty { lines.append(line) }
        }
        pclose(p)
        return lines
    }

    static func write(_ text: String, to path: String) -> Bool {
        guard let f = fopen(path, "w") else { return false }
        fputs(text, f)
        return fclose(f) == 0
    }
}

extension String {
    fileprivate func trimmingNewline() -> String {
        var s = self
        while s.last == "\n" || s.last == "\r" { s.removeLast() }
        return s
    }
}
