import Foundation
import Testing

/// `flowrepl render`: dot's command line over DOT and Mermaid.
@Suite struct RenderCommandTests {
    static let name = "flowrepl render"

    @Test func dotOnStandardInputBecomesAnSVGOnStandardOutput() throws {
        let out = try ReplProcess.run(["render", "-Tsvg"], stdin: "digraph { a -> b; b -> c }")
        #expect(out.status == 0 && out.stderr == "")
        #expect(out.stdout.hasPrefix("<?xml"))
        for id in ["node-a", "node-b", "node-c"] { #expect(out.stdout.contains("id=\"\(id)\"")) }
        // the pictures dot draws show no handle dots
        #expect(!out.stdout.contains("class=\"handle"))
    }

    @Test func mermaidIsRecognisedByItsFirstWord() throws {
        for text in ["flowchart LR\n  A[Start] --> B{Ok?}\n", "graph TD\n  A --> B\n", "%% note\nflowchart TB\nA-->B\n"] {
            let out = try ReplProcess.run(["render", "-Tsvg"], stdin: text)
            #expect(out.status == 0, "\(out)")
            #expect(out.stdout.contains("id=\"node-A\""))
        }
        // `graph` followed by a name or a brace is DOT
        let dot = try ReplProcess.run(["render", "-Tsvg"], stdin: "/* c */ graph G { x -- y }")
        #expect(dot.status == 0 && dot.stdout.contains("id=\"node-x\""), "\(dot)")
    }

    @Test func filesPNGAndPDFAndOutputsBesideTheInput() throws {
        let dir = ReplProcess.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "digraph { a -> b }".write(to: dir.appendingPathComponent("g.gv"), atomically: true, encoding: .utf8)
        try "flowchart LR\nA-->B\n".write(to: dir.appendingPathComponent("m.mmd"), atomically: true, encoding: .utf8)
        #expect(try ReplProcess.run(["render", "-Tpng", "g.gv", "-o", "g.png"], cwd: dir).status == 0)
        let png = try Data(contentsOf: dir.appendingPathComponent("g.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try ReplProcess.run(["render", "-Tpdf", "-og.pdf", "g.gv"], cwd: dir).status == 0)
        #expect(try Data(contentsOf: dir.appendingPathComponent("g.pdf")).starts(with: Array("%PDF".utf8)))
        #expect(try ReplProcess.run(["render", "-Tsvg", "-O", "g.gv", "m.mmd"], cwd: dir).status == 0)
        for name in ["g.gv.svg", "m.mmd.svg"] {
            let svg = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            #expect(svg.hasPrefix("<?xml"), "\(name)")
        }
    }

    @Test func attributesFromTheCommandLineComeBeforeTheGraphsOwn() throws {
        func xs(_ out: ReplProcess.Output) -> [String: Double] {
            var found: [String: Double] = [:]
            for line in out.stdout.split(separator: "\n") {
                guard let name = line.split(separator: "\"").dropFirst().first, let pos = line.range(of: "pos=\"") else { continue }
                let x = line[pos.upperBound...].prefix { $0 != "," }
                found[String(name)] = Double(x)
            }
            return found
        }
        let lr = try ReplProcess.run(["render", "-Grankdir=LR", "-Nshape=box", "-Ecolor=red"], stdin: "digraph { a -> b }")
        #expect(lr.status == 0, "\(lr)")
        #expect(xs(lr)["a"]! < xs(lr)["b"]!)
        #expect(lr.stdout.contains("color=\"#ff0000\""))
        // the graph's own rankdir, later in the text, wins over -G
        let own = try ReplProcess.run(["render", "-Grankdir=LR"], stdin: "digraph { rankdir=TB; a -> b }")
        #expect(xs(own)["a"] == xs(own)["b"], "\(own)")
        // a value with quotes and backslashes reaches the graph as written
        let label = try ReplProcess.run(["render", "-Tsvg", "-Glabel=say \"hi\" \\o/"], stdin: "digraph { a }")
        #expect(label.status == 0 && label.stdout.contains("say &quot;hi&quot; \\o/"), "\(label)")
        // -Gnodesep spaces the layout as the graph's own nodesep would (1 inch: 72 points
        // between b and c instead of Graphviz's default 18)
        func gap(_ args: [String], _ text: String = "digraph { a -> b; a -> c }") throws -> Double {
            let x = xs(try ReplProcess.run(["render"] + args, stdin: text))
            return abs(x["c"]! - x["b"]!)
        }
        #expect(try gap(["-Gnodesep=1"]) - gap([]) == 54)
        #expect(try gap(["-Gnodesep=1"], "digraph { nodesep=0.25; a -> b; a -> c }") == gap([]))
    }

    @Test func warningsGoToStandardErrorUnlessQuiet() throws {
        let text = "digraph { a [shape=egg]; a -> b }"
        let loud = try ReplProcess.run(["render", "-Tsvg"], stdin: text)
        #expect(loud.status == 0)
        #expect(loud.stderr == "\(Self.name): <stdin>: warning: node shape 'egg' is not mapped (1 node)\n")
        #expect(try ReplProcess.run(["render", "-Tsvg", "-q"], stdin: text).stderr == "")
    }

    @Test func badInputNamesTheInputAndWhatIsWrong() throws {
        let syntax = try ReplProcess.run(["render", "-Tsvg"], stdin: "digraph { a -> }")
        #expect(syntax.status == 1 && syntax.stdout == "")
        #expect(syntax.stderr.hasPrefix("\(Self.name): <stdin>: DOT: line 1, column 16:"), "\(syntax)")
        let missing = try ReplProcess.run(["render", "nosuch.gv"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "\(Self.name): nosuch.gv: cannot read: No such file or directory\n")
        let format = try ReplProcess.run(["render", "-Tjpg"], stdin: "digraph { a }")
        #expect(format.status == 2 && format.stderr.hasPrefix("\(Self.name): -Tjpg: unknown format (svg, png, pdf or dot)\nusage:"))
        let engine = try ReplProcess.run(["render", "-Kneato"], stdin: "digraph { a }")
        #expect(engine.status == 2 && engine.stderr.hasPrefix("\(Self.name): -Kneato: only the layered layout (dot) is drawn"))
        let mermaid = try ReplProcess.run(["render", "-Grankdir=LR"], stdin: "flowchart LR\nA-->B\n")
        #expect(mermaid.status == 1)
        #expect(mermaid.stderr == "\(Self.name): <stdin>: -G, -N and -E apply to DOT input, and this is mermaid\n")
        let name = try ReplProcess.run(["render", "-G1x=2"], stdin: "digraph { a }")
        #expect(name.status == 2 && name.stderr.hasPrefix("\(Self.name): -G1x=2: the attribute name must be letters, digits and _"))
        #expect(try ReplProcess.run(["render", "-o", "a", "-O"]).status == 2)
        #expect(try ReplProcess.run(["render", "--help"]).stdout.hasPrefix("usage: flowrepl render"))
    }
}
