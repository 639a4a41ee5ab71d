@preconcurrency import Glibc
import FlowCore
import FlowLayout

/// The layout section: FlowLayout's layered layout and Graphviz `dot` on the benchmark
/// graphs (`../shared/graphs` or `--graphs DIR`), in the same run: time, drawn crossings
/// counted by one function on both drawings (`DrawnCrossings`, the benchmark's definition),
/// area, total edge length and the edges drawn under other nodes; then the crossings and
/// time of one layout with `effort = thorough`. Node boxes 72×36, dot's
/// default spacing (18 within a layer, 36 between layers). The dot column is skipped, with a note, when dot is not installed.
enum LayoutBench {
    /// Where the graphs are; set by `--graphs`.
    nonisolated(unsafe) static var directory = "../shared/graphs"
    /// Graph names to measure (all when nil); set by `--graphs-only`.
    nonisolated(unsafe) static var selected: Set<String>?
    /// Also lay each graph out with dot; off with `--no-dot`.
    nonisolated(unsafe) static var withDot = true
    /// Also lay each graph out with `effort = thorough`; off with `--no-thorough`.
    nonisolated(unsafe) static var withThorough = true
    /// Writes each layout as the scorer's JSON into this folder when set (`--layout-out`).
    nonisolated(unsafe) static var outDirectory: String?

    static let families = ["dag", "layered", "tree"]
    static let sizes = [50, 200, 1000, 5000]
    static let options = LayoutOptions(direction: .TB, nodeSpacing: 18, layerSpacing: 36)
    /// The fewest drawn crossings any of nine layered layouts achieved (the graphs' README).
    static let bestPeer = [
        "dag_200": 983, "dag_1000": 35_759, "dag_5000": 901_649, "layered_1000": 5_774,
        "tree_50": 0, "tree_200": 0, "tree_1000": 0, "tree_5000": 0,
    ]

    /// The benchmark graphs to measure, by family then size: those of at least `smallest`
    /// nodes among `--graphs-only`'s (all when it is not given).
    static func graphs(from smallest: Int = 0) -> [(family: String, size: Int, name: String)] {
        families.flatMap { family in
            sizes.filter { $0 >= smallest }.map { (family: family, size: $0, name: "\(family)_\($0)") }
        }.filter { selected?.contains($0.name) ?? true }
    }

    static func run(budget: Budget, into report: Report) {
        guard access(directory, R_OK) == 0 else {
            report.add(Metric(name: "layout", size: nil, value: nil, unit: "", note: "no graphs at \(directory)"))
            return
        }
        let hasDot = withDot && system("command -v dot >/dev/null 2>&1") == 0
        for (_, n, name) in graphs() {
            guard let graph = BenchGraph(path: "\(directory)/\(name).json") else { continue }
            progress("layout \(name)")
            measure(graph, name: name, size: n, reps: n >= 5000 ? 1 : 3, dot: hasDot, into: report)
        }
        if !hasDot {
            report.add(Metric(name: "layout.dot", size: nil, value: nil, unit: "", note: "dot not installed"))
        }
    }

    private static func measure(_ g: BenchGraph, name: String, size: Int, reps: Int, dot: Bool, into report: Report) {
        var result: LayoutResult!
        var best = Double.infinity
        for _ in 0..<reps {
            let t = time { result = LayeredLayout.layout(g.layoutGraph, options: options) }
            best = min(best, t)
        }
        let drawing = g.drawing(of: result)
        if let out = outDirectory { drawing.write(to: "\(out)/\(name).layout.json") }
        var dotTime: Double?
        var dotDrawing: Drawing?
        if dot {
            dotTime = .infinity
            for _ in 0..<(size >= 5000 ? 1 : reps) {
                let t0 = now()
                guard let d = Drawing(dotFile: "\(directory)/\(name).dot") else { dotTime = nil; break }
                dotTime = min(dotTime!, now() - t0)
                dotDrawing = d
            }
        }
        let crossings = Double(drawing.crossings)
        let dotCrossings = dotDrawing.map { Double($0.crossings) }
        report.add(Metric(name: "layout.\(g.family).time", size: size, value: best * 1e9, unit: "ns", baseline: dotTime.map { $0 * 1e9 }))
        report.add(Metric(name: "layout.\(g.family).crossings", size: size, value: crossings, unit: "count", baseline: dotCrossings))
        report.add(Metric(name: "layout.\(g.family).width", size: size, value: drawing.width, unit: "px", baseline: dotDrawing?.width))
        report.add(Metric(name: "layout.\(g.family).area", size: size, value: drawing.area, unit: "px²", baseline: dotDrawing?.area))
        report.add(Metric(name: "layout.\(g.family).edgeLength", size: size, value: drawing.edgeLength, unit: "px", baseline: dotDrawing?.edgeLength))
        report.add(Metric(name: "layout.\(g.family).overlaps", size: size, value: Double(drawing.overlaps), unit: "count"))
        report.add(Metric(
            name: "layout.\(g.family).underNodes", size: size, value: Double(drawing.edgesUnderNodes), unit: "count",
            baseline: dotDrawing.map { Double($0.edgesUnderNodes) }))
        if withThorough { measureThorough(g, name: name, size: size, into: report) }
    }

    /// One layout with `effort = thorough`: its drawn crossings and time.
    private static func measureThorough(_ g: BenchGraph, name: String, size: Int, into report: Report) {
        var thoroughOptions = options
        thoroughOptions.effort = .thorough
        let start = now()
        let result = LayeredLayout.layout(g.layoutGraph, options: thoroughOptions)
        let time = now() - start
        let drawing = g.drawing(of: result)
        if let out = outDirectory { drawing.write(to: "\(out)/\(name).thorough.layout.json") }
        report.add(Metric(name: "layout.\(g.family).thorough.time", size: size, value: time * 1e9, unit: "ns"))
        report.add(Metric(
            name: "layout.\(g.family).thorough.crossings", size: size, value: Double(drawing.crossings), unit: "count"))
    }
}

/// A benchmark graph read from its JSON file.
struct BenchGraph {
    var family: String
    var ids: [String]
    var edges: [(Int, Int)]

    init?(path: String) {
        guard let text = readText(path), let json = try? JSONValue.parse(text),
            case .object(let doc) = json, case .array(let nodes)? = doc["nodes"],
            case .array(let edges)? = doc["edges"], case .string(let family)? = doc["family"]
        else { return nil }
        self.family = family
        var index: [String: Int] = [:]
        ids = []
        for case .object(let n) in nodes {
            guard case .string(let id)? = n["id"] else { return nil }
            index[id] = ids.count
            ids.append(id)
        }
        self.edges = []
        for case .object(let e) in edges {
            guard case .string(let s)? = e["source"], case .string(let t)? = e["target"],
                let a = index[s], let b = index[t]
            else { return nil }
            self.edges.append((a, b))
        }
    }

    var layoutGraph: LayoutGraph {
        LayoutGraph(
            nodes: ids.map { _ in .init(width: 72, height: 36) },
            edges: edges.map { .init(source: $0.0, target: $0.1) })
    }

    /// The layout as drawn: each edge from the bottom of its upper end through its bend
    /// points to the top of its lower end.
    func drawing(of r: LayoutResult) -> Drawing {
        let boxes = r.positions.map { Rect(origin: $0, size: Size(72, 36)) }
        var routes: [DrawnCrossings.Route] = []
        for (i, e) in edges.enumerated() {
            let a = boxes[e.0], b = boxes[e.1]
            let down = a.origin.y <= b.origin.y
            let start = Point(a.origin.x + 36, down ? a.origin.y + 36 : a.origin.y)
            let end = Point(b.origin.x + 36, down ? b.origin.y : b.origin.y + 36)
            routes.append(.init(source: e.0, target: e.1, points: [start] + r.edgePoints[i] + [end]))
        }
        return Drawing(ids: ids, boxes: boxes, routes: routes)
    }
}

/// Node boxes and edge routes, from either layout.
struct Drawing {
    var ids: [String]
    var boxes: [Rect]
    var routes: [DrawnCrossings.Route]

    var crossings: Int { DrawnCrossings.count(routes: routes, boxes: boxes) }

    /// Routes that pass under a node other than their ends (crossings there are hidden).
    var edgesUnderNodes: Int { EdgesUnderNodes.count(routes: routes, boxes: boxes) }

    /// Across the layers (the graphs are laid out top to bottom).
    var width: Double {
        guard !boxes.isEmpty else { return 0 }
        let xs = boxes.flatMap { [$0.origin.x, $0.origin.x + $0.size.width] }
        return xs.max()! - xs.min()!
    }

    var area: Double {
        guard !boxes.isEmpty else { return 0 }
        let xs = boxes.flatMap { [$0.origin.x, $0.origin.x + $0.size.width] }
        let ys = boxes.flatMap { [$0.origin.y, $0.origin.y + $0.size.height] }
        return (xs.max()! - xs.min()!) * (ys.max()! - ys.min()!)
    }

    var edgeLength: Double {
        routes.reduce(0) { sum, r in
            let pts = DrawnCrossings.clip(r.points, boxes[r.source], boxes[r.target])
            return sum + zip(pts, pts.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
        }
    }

    var overlaps: Int {
        var count = 0
        let sorted = boxes.sorted { $0.origin.x < $1.origin.x }
        for i in 0..<sorted.count {
            var j = i + 1
            while j < sorted.count && sorted[j].origin.x < sorted[i].origin.x + sorted[i].size.width - 1e-6 {
                let a = sorted[i], b = sorted[j]
                if a.origin.y < b.origin.y + b.size.height - 1e-6 && b.origin.y < a.origin.y + a.size.height - 1e-6 {
                    count += 1
                }
                j += 1
            }
        }
        return count
    }

    init(ids: [String], boxes: [Rect], routes: [DrawnCrossings.Route]) {
        self.ids = ids
        self.boxes = boxes
        self.routes = routes
    }

    /// Lays `path` out with `dot -Tjson` (or another Graphviz `command`, with its options)
    /// and reads its drawing: node boxes from `pos`, `width` and `height`, edges from `pos`
    /// with every Bézier flattened into 8 pieces.
    init?(dotFile path: String, command: String = "dot") {
        let out = "/tmp/flowbench-dot-\(getpid()).json"
        defer { unlink(out) }
        guard system("\(command) -Tjson '\(path)' -o '\(out)' 2>/dev/null") == 0,
            let text = readText(out), let json = try? JSONValue.parse(text),
            case .object(let doc) = json
        else { return nil }
        var index: [Int: Int] = [:]
        ids = []
        boxes = []
        routes = []
        if case .array(let objects)? = doc["objects"] {
            for case .object(let o) in objects where o["nodes"] == nil {
                guard case .string(let pos)? = o["pos"], case .string(let name)? = o["name"],
                    case .number(let gvid)? = o["_gvid"], let w = o["width"].flatMap(Drawing.number),
                    let h = o["height"].flatMap(Drawing.number)
                else { continue }
                let xy = pos.split(separator: ",").compactMap { Double($0) }
                guard xy.count == 2 else { continue }
                index[Int(gvid)] = ids.count
                ids.append(name)
                boxes.append(Rect(x: xy[0] - w * 36, y: xy[1] - h * 36, width: w * 72, height: h * 72))
            }
        }
        if case .array(let edges)? = doc["edges"] {
            for case .object(let e) in edges {
                guard case .number(let tail)? = e["tail"], case .number(let head)? = e["head"],
                    let s = index[Int(tail)], let t = index[Int(head)], case .string(let pos)? = e["pos"]
                else { continue }
                routes.append(.init(source: s, target: t, points: Drawing.flatten(pos)))
            }
        }
    }

    private static func number(_ v: JSONValue) -> Double? {
        switch v {
        case .number(let d): return d
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    /// dot's edge `pos`: optional `s,x,y` / `e,x,y` arrow tips and cubic Bézier control points.
    static func flatten(_ pos: String) -> [Point] {
        var control: [Point] = []
        var start: Point?, end: Point?
        for token in pos.split(separator: " ") {
            let f = token.split(separator: ",")
            if f.count == 3, let x = Double(f[1]), let y = Double(f[2]) {
                if f[0] == "s" { start = Point(x, y) } else if f[0] == "e" { end = Point(x, y) }
            } else if f.count == 2, let x = Double(f[0]), let y = Double(f[1]) {
                control.append(Point(x, y))
            }
        }
        guard let first = control.first else { return [] }
        var pts = [first]
        var i = 0
        while i + 3 < control.count {
            let p0 = control[i], p1 = control[i + 1], p2 = control[i + 2], p3 = control[i + 3]
            for k in 1...8 {
                let t = Double(k) / 8, u = 1 - t
                let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                pts.append(Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y))
            }
            i += 3
        }
        return (start.map { [$0] } ?? []) + pts + (end.map { [$0] } ?? [])
    }

    /// The scorer's JSON: `{"nodes": [{id, x, y, w, h}], "edges": [{source, target, points}]}`.
    func write(to path: String) {
        var s = "{\"nodes\":["
        for (i, b) in boxes.enumerated() {
            if i > 0 { s += "," }
            s += "{\"id\":\"\(ids[i])\",\"x\":\(b.origin.x),\"y\":\(b.origin.y),\"w\":\(b.size.width),\"h\":\(b.size.height)}"
        }
        s += "],\"edges\":["
        for (i, r) in routes.enumerated() {
            if i > 0 { s += "," }
            s += "{\"source\":\"\(ids[r.source])\",\"target\":\"\(ids[r.target])\",\"points\":["
            s += r.points.map { "[\($0.x),\($0.y)]" }.joined(separator: ",")
            s += "]}"
        }
        s += "]}\n"
        guard let f = fopen(path, "w") else { return }
        fputs(s, f)
        fclose(f)
    }
}

/// A whole file as a string, nil when it cannot be read.
func readText(_ path: String) -> String? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}
