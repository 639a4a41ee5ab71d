@preconcurrency import Glibc
import FlowCore
import FlowStorage
import GRDB

/// The workspace section (docs/workspaces.md): a bound store's moveNode and addNode per
/// call, beside the same call unbound and a bare GRDB insert of one row in its own
/// transaction on a file with the same settings (the floor); and opening a diagram from a
/// workspace beside loading the same document from JSON.
enum WorkspaceBench {
    typealias Store = FlowStore<JSONValue>

    static func run(size: Int, openSize: Int, budget: Budget, into report: Report) {
        let dir = "/tmp/flowbench-workspace-\(getpid())"
        mkdir(dir, 0o700)
        defer { _ = system("rm -rf '\(dir)'") }
        do {
            let ws = try Workspace(path: "\(dir)/w.flowspace")
            let bound = Store(), plain = Store()
            bound.isUndoEnabled = true
            for s in [bound, plain] { try s.load(document(size, edges: false)) }
            try ws.create("bench", into: bound)
            for (name, s) in [("bound", bound), ("unbound", plain)] {
                var rng = SplitMix(state: 7)
                let move = perCall(budget, mutating: true) { k in
                    time {
                        for _ in 0..<k { _ = try? s.moveNode("n\(rng.int(size))", to: Point(rng.unit() * 1000, rng.unit() * 1000)) }
                    }
                }
                var next = 0
                let add = perCall(budget, mutating: true) { k in
                    let ids = (0..<k).map { i in "a\(next + i)" }
                    next += k
                    return time {
                        for id in ids { _ = try? s.addNode(FlowNode(id: id, position: Point(1, 2), data: .null)) }
                    }
                }
                // The floor, measured right after on a fresh file (same conditions).
                let bare = try bareInsert("\(dir)/bare-\(name).sqlite", budget)
                report.add(Metric(name: "workspace.moveNode.\(name)", size: size, value: move * 1e9, unit: "ns", baseline: bare * 1e9))
                report.add(Metric(name: "workspace.addNode.\(name)", size: size, value: add * 1e9, unit: "ns", baseline: bare * 1e9))
            }
            // Opening: the same document from the workspace and from JSON.
            let big = Store()
            try big.load(document(openSize, edges: true))
            let text = try big.export()
            try ws.create("big", into: big)
            ws.unbind("big")
            var openBest = Double.infinity, loadBest = Double.infinity
            for _ in 0..<3 {
                let s = Store()
                openBest = min(openBest, try timeThrowing { try ws.open("big", into: s) })
                ws.unbind("big")
                let t = Store()
                loadBest = min(loadBest, try timeThrowing { try t.load(json: text) })
            }
            report.add(Metric(name: "workspace.open", size: openSize, value: openBest * 1e9, unit: "ns", baseline: loadBest * 1e9))
            ws.close()
        } catch {
            report.add(Metric(name: "workspace", size: nil, value: nil, unit: "", note: "failed: \(error)"))
        }
    }

    static func timeThrowing(_ body: () throws -> Void) throws -> Double {
        let t0 = now()
        try body()
        return now() - t0
    }

    /// `n` nodes in a grid, and a chain of edges when `edges`.
    static func document(_ n: Int, edges: Bool) -> FlowDocument<JSONValue> {
        let nodes = (0..<n).map { i in
            FlowNode<JSONValue>(id: "n\(i)", position: Point(Double(i % 300) * 200, Double(i / 300) * 100), data: .string("node \(i)"))
        }
        let list = edges ? (1..<n).map { i in FlowEdge(id: "e\(i)", sourceNodeID: "n\(i - 1)", targetNodeID: "n\(i)") } : []
        return FlowDocument(nodes: nodes, edges: list)
    }

    /// Seconds per one-row insert in its own transaction (WAL, synchronous NORMAL).
    static func bareInsert(_ path: String, _ budget: Budget) throws -> Double {
        var config = Configuration()
        config.journalMode = .wal
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let q = try DatabaseQueue(path: path, configuration: config)
        try q.inDatabase { db in try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY, body TEXT NOT NULL)") }
        var next = 0
        let t = perCall(budget, mutating: true) { k in
            let first = next
            next += k
            return time {
                try? q.inDatabase { db in
                    for i in first..<(first + k) {
                        try db.inTransaction(.immediate) {
                            try db.cachedStatement(sql: "INSERT INTO t (id, body) VALUES (?, ?)").execute(arguments: ["r\(i)", "{\"x\":\(i)}"])
                            return .commit
                        }
                    }
                }
            }
        }
        try q.close()
        return t
    }
}
