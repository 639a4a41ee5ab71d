import FlowCore
import Foundation
import GRDB
import Testing
@testable import FlowPostgres
@testable import FlowStorage

/// A document whose `"diagram"` part has every field set (title, rank sets, spacing,
/// direction, font, colours), with a style sheet: what `store:export()` writes under
/// "diagram", which a workspace keeps since schema 2 (#38).
func lookDocument(title: String = "Plan") -> FlowDocument<JSONValue> {
    let look = DiagramLook(
        title: title, titlePlace: .top, fontName: "Serif", fontSize: 18, textColor: FlowColor("#102030"),
        background: FlowColor("#fafafa"), ranks: [RankSet(.same, ["a", "b"]), RankSet(.sink, ["c"])],
        edgeRanks: [EdgeRank("e1", minLength: 2, constraint: false, weight: 3)], nodeSpacing: 30, layerSpacing: 70,
        equalLayerSpacing: true, direction: .LR)
    return FlowDocument(
        nodes: [node("a"), node("b", 60), node("c", 120)],
        edges: [FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "c")],
        classes: ["hot": FlowClass(shape: .hexagon, style: FlowStyle(fill: FlowColor("red")))], look: look)
}

@Suite("A diagram's look in a workspace") struct DiagramLookTests {
    @Test(arguments: Backend.testable)
    func theLookOfACreatedDiagramIsThereAfterReopening(backend: Backend) throws {
        let (ws, done) = try backend.make()
        defer { done() }
        let s = Store()
        try s.load(lookDocument())
        try ws.create("d", into: s)  // written as its first batch ("Create")
        try s.addNode(node("x", 200))
        let text = try s.export()
        #expect(text.contains("\"title\": \"Plan\""))
        let again = try backend.again(ws)
        ws.close()
        let t = Store()
        try again.open("d", into: t)
        #expect(try t.export() == text)
        #expect(t.diagramLook == s.diagramLook)
    }

    @Test(arguments: Backend.testable)
    func aLoadedLookIsThereAfterReopeningReloadingAndForking(backend: Backend) throws {
        let (ws, done) = try backend.make()
        defer { done() }
        let s = Store()
        try ws.create("d", into: s)
        try s.load(lookDocument())
        try s.moveNode("a", to: Point(5, 5))
        let first = try s.export()
        try s.load(lookDocument(title: "Plan, second"))  // the newest look wins
        try s.removeNode("b")
        let text = try s.export()
        let again = try backend.again(ws)
        let t = Store()
        try again.open("d", into: t)
        #expect(try t.export() == text)
        // a version: the history's batches replayed
        let old = Store()
        try again.open("d", at: 2, into: old)
        #expect(try old.export() == first)
        // a fork is a diagram of its own, with the look
        try again.fork("d", at: nil, as: "copy", into: Store())
        let third = try backend.again(ws)
        let f = Store()
        try third.open("copy", into: f)
        #expect(try f.export() == text)
        // another session's load reaches the first one at its reload
        try t.load(lookDocument(title: "Plan, third"))
        try ws.reload("d")
        #expect(try s.export() == (try t.export()))
        #expect(s.diagramLook.title == "Plan, third")
    }

    @Test func theLookReachesTheOtherLiveSessionsOfAPostgresWorkspace() throws {
        guard postgresURL != nil else { return }
        let (ws, done) = try Backend.postgres.make()
        defer { done() }
        let s = Store()
        try ws.create("d", into: s)
        let other = try Backend.postgres.again(ws)
        let t = Store()
        try other.open("d", into: t)
        try s.load(lookDocument())
        #expect(try other.sync() == 1)
        #expect(try t.export() == (try s.export()))
        try t.addNode(node("y", 300))
        _ = try ws.sync()
        #expect(try s.export() == (try t.export()))
        #expect(s.diagramLook.title == "Plan")
    }
}

/// Files and databases of schema 1 (before the look was kept): they open and are upgraded,
/// each diagram taking the look of the newest `load` in its history.
@Suite("Workspace schema 1 upgraded") struct WorkspaceUpgradeTests {
    /// The tables of schema 1, exactly as FlowScript wrote them (a copy: the file format of
    /// then, which the source's own text must not change).
    static let sqliteSchema1 = """
        CREATE TABLE diagram (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created REAL NOT NULL,
            classes TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE node (
            diagram INTEGER NOT NULL REFERENCES diagram(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (diagram, id)
        ) WITHOUT ROWID;
        CREATE TABLE edge (
            diagram INTEGER NOT NULL REFERENCES diagram(id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (diagram, id)
        ) WITHOUT ROWID;
        CREATE TABLE batch (
            diagram INTEGER NOT NULL REFERENCES diagram(id) ON DELETE CASCADE,
            n INTEGER NOT NULL,
            time REAL NOT NULL,
            name TEXT NOT NULL,
            summary TEXT NOT NULL,
            actions TEXT NOT NULL,
            PRIMARY KEY (diagram, n)
        ) WITHOUT ROWID;
        """

    /// What a session of schema 1 wrote for diagram "d" made by `store.load(lookDocument())`
    /// and a move of "a": the rows (no look) and the two batches (the look in the first).
    static func schema1Rows() throws -> (nodes: [String], edges: [String], classes: String, batches: [(String, String, String)]) {
        let s = Store()
        let recorder = FlowActionRecorder<JSONValue>()
        s.actionRecorder = recorder
        try s.load(lookDocument())
        try s.moveNode("a", to: Point(7, 7))
        return (
            try s.nodes.map(FlowDocument.nodeText), try s.edges.map(FlowDocument<JSONValue>.edgeText),
            FlowDocument<JSONValue>.classesJSON(s.classStyles).serialized(pretty: false),
            try recorder.journal.map { ($0.name, $0.summary, try $0.jsonText()) })
    }

    /// The export of `lookDocument()` with "a" moved, as schema 2 opens it.
    static func expectedExport() throws -> String {
        let s = Store()
        try s.load(lookDocument())
        try s.moveNode("a", to: Point(7, 7))
        return try s.export()
    }

    /// A workspace file of schema 1 at `path` holding diagram "d" (and "empty").
    static func makeSchema1File(_ path: String) throws {
        let rows = try schema1Rows()
        let q = try DatabaseQueue(path: path)
        try q.write { db in
            try db.execute(sql: sqliteSchema1)
            try db.execute(sql: "PRAGMA application_id = \(WorkspaceSchema.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 1")
            try db.execute(sql: "INSERT INTO diagram (id, name, created, classes) VALUES (1, 'd', 1, ?), (2, 'empty', 2, '{}')", arguments: [rows.classes])
            for (i, body) in rows.nodes.enumerated() {
                try db.execute(sql: "INSERT INTO node VALUES (1, ?, ?, ?)", arguments: [["a", "b", "c"][i], i, body])
            }
            try db.execute(sql: "INSERT INTO edge VALUES (1, 'e1', 0, ?)", arguments: [rows.edges[0]])
            for (i, b) in rows.batches.enumerated() {
                try db.execute(sql: "INSERT INTO batch VALUES (1, ?, ?, ?, ?, ?)", arguments: [i + 1, Double(i), b.0, b.1, b.2])
            }
        }
        try q.close()
    }

    static func userVersion(_ path: String) throws -> Int {
        let q = try DatabaseQueue(path: path)
        defer { try? q.close() }
        return try q.read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? -1 }
    }

    @Test func aFileOfSchema1OpensUpgradedWithTheLookOfItsHistory() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        try Self.makeSchema1File(path)
        // read-only: opened as it is (no look), not upgraded
        let reader = try Workspace(path: path, options: Workspace.Options(readOnly: true))
        let r = Store()
        try reader.open("d", into: r)
        #expect(r.nodeCount == 3 && r.diagramLook.isEmpty)
        reader.close()
        #expect(try Self.userVersion(path) == 1)

        let ws = try Workspace(path: path)
        #expect(try Self.userVersion(path) == WorkspaceSchema.version)
        let s = Store()
        try ws.open("d", into: s)
        #expect(try s.export() == (try Self.expectedExport()))
        #expect(s.diagramLook.title == "Plan")
        let e = Store()
        try ws.open("empty", into: e)
        #expect(e.diagramLook.isEmpty && e.nodeCount == 0)
        // written on as a file of the new schema, and opened again
        try s.load(lookDocument(title: "After the upgrade"))
        let text = try s.export()
        ws.close()
        let again = try Workspace(path: path)
        let t = Store()
        try again.open("d", into: t)
        #expect(try t.export() == text)
        #expect(try again.versions("d").map(\.name) == ["Load", "Move", "Load"])
    }

    @Test func aFileOfSchema1ThatIsNotExactlyAWorkspaceIsNotUpgraded() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        try Self.makeSchema1File(path)
        let q = try DatabaseQueue(path: path)
        try q.write { try $0.execute(sql: "CREATE TRIGGER t AFTER INSERT ON batch BEGIN SELECT 1; END") }
        try q.close()
        #expect(throws: FlowError(.invalidDocument, operation: "workspace", message: "'\(path)' is not a workspace: trigger 't' differs from a workspace's")) {
            _ = try Workspace(path: path)
        }
        #expect(try Self.userVersion(path) == 1)
    }

    /// The tables of a PostgreSQL workspace of schema 1, as FlowScript made them.
    static let postgresSchema1 = [
        "CREATE TABLE flow_meta (key text PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE flow_diagram (
            id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, created double precision NOT NULL,
            classes text NOT NULL DEFAULT '{}', head bigint NOT NULL DEFAULT 0)
        """,
        """
        CREATE TABLE flow_node (
            diagram bigint NOT NULL REFERENCES flow_diagram(id) ON DELETE CASCADE,
            id text NOT NULL, seq bigint NOT NULL, body text NOT NULL, PRIMARY KEY (diagram, id))
        """,
        """
        CREATE TABLE flow_edge (
            diagram bigint NOT NULL REFERENCES flow_diagram(id) ON DELETE CASCADE,
            id text NOT NULL, seq bigint NOT NULL, body text NOT NULL, PRIMARY KEY (diagram, id))
        """,
        """
        CREATE TABLE flow_batch (
            diagram bigint NOT NULL REFERENCES flow_diagram(id) ON DELETE CASCADE,
            n bigint NOT NULL, time double precision NOT NULL, name text NOT NULL, summary text NOT NULL,
            actions text NOT NULL, PRIMARY KEY (diagram, n))
        """,
        "INSERT INTO flow_meta VALUES ('schema', '1')",
    ]

    @Test(.enabled(if: postgresURL != nil, Comment(rawValue: noPostgres)))
    func aPostgresWorkspaceOfSchema1IsUpgradedWithTheLookOfItsHistory() throws {
        let base = try #require(postgresURL)
        let schema = "u\(UInt64.random(in: 1...UInt64.max))"
        let admin = try PostgresWorkspace(url: base)
        defer { admin.close() }
        try admin.query("CREATE SCHEMA \(schema)", [], "test")
        try admin.query("SET search_path TO \(schema)", [], "test")
        for sql in Self.postgresSchema1 { try admin.query(sql, [], "test") }
        let rows = try Self.schema1Rows()
        try admin.query("INSERT INTO flow_diagram (id, name, created, classes, head) VALUES (1, 'd', 1, $1, 2)", [rows.classes], "test")
        for (i, body) in rows.nodes.enumerated() {
            try admin.query("INSERT INTO flow_node VALUES (1, $1, $2, $3)", [["a", "b", "c"][i], "\(i)", body], "test")
        }
        try admin.query("INSERT INTO flow_edge VALUES (1, 'e1', 0, $1)", [rows.edges[0]], "test")
        for (i, b) in rows.batches.enumerated() {
            try admin.query("INSERT INTO flow_batch VALUES (1, $1, 0, $2, $3, $4)", ["\(i + 1)", b.0, b.1, b.2], "test")
        }
        try admin.query("SET search_path TO public", [], "test")

        let url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        let ws = try PostgresWorkspace(url: url)
        defer { ws.close() }
        #expect(try ws.query("SELECT value FROM flow_meta WHERE key = 'schema'", [], "test") == [["\(PGSchema.version)"]])
        let s = Store()
        try ws.open("d", into: s)
        #expect(try s.export() == (try Self.expectedExport()))
        try s.load(lookDocument(title: "After the upgrade"))
        let other = try PostgresWorkspace(url: url)
        defer { other.close() }
        let t = Store()
        try other.open("d", into: t)
        #expect(try t.export() == (try s.export()))
    }
}
