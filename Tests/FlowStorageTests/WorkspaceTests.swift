import FlowCore
import Foundation
import GRDB
import TestSupport
import Testing
@testable import FlowStorage

typealias Store = FlowStore<JSONValue>

/// A fresh path in a directory of its own, removed by `cleanup`.
func temporaryPath(_ name: String = "w.flowspace") -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flowstorage-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

func cleanup(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
}

func node(_ id: String, _ x: Double = 0, _ y: Double = 0, parent: String? = nil, container: Bool = false) -> FlowNode<JSONValue> {
    FlowNode(id: id, position: Point(x, y), size: Size(40, 30), data: .string(id), parentID: parent, acceptsChildren: container)
}

/// A workspace at `path` with diagram "d" bound to a store holding node "x".
func workspaceWithNodeX(_ path: String) throws -> (Workspace, Store) {
    let ws = try Workspace(path: path)
    let s = Store()
    try ws.create("d", into: s)
    try s.addNode(node("x"))
    return (ws, s)
}

/// A random call on a bound store (errors are part of the game: they change nothing).
func randomCall(_ s: Store, _ rng: inout SplitMix64) {
    let ids = s.nodes.map(\.id)
    func pick() -> String { ids.isEmpty || rng.chance(10) ? "n\(rng.below(12))" : rng.pick(ids) }
    switch rng.below(9) {
    case 0, 1: _ = try? s.addNode(node(s.nextNodeID(), Double(rng.below(400)), Double(rng.below(400)), container: rng.chance(30)))
    case 2: _ = try? s.moveNode(pick(), to: Point(Double(rng.below(400)), Double(rng.below(400))))
    case 3: _ = try? s.removeNode(pick())
    case 4: _ = try? s.addEdge(FlowEdge(id: s.nextEdgeID(), sourceNodeID: pick(), targetNodeID: pick()))
    case 5: _ = try? s.setParent(pick(), to: rng.chance(50) ? nil : pick())
    case 6: _ = try? s.undo()
    case 7: _ = try? s.redo()
    default:
        _ = try? s.transaction { () throws(FlowError) in
            try s.addNode(node(s.nextNodeID(), 1, 2))
            try s.moveNode(pick(), to: Point(5, 5))
        }
    }
}

@Suite("Workspaces") struct WorkspaceTests {
    // createWriteReopen: BothBackendsTests, on a file and on PostgreSQL

    @Test(arguments: 0..<12)
    func versionsReplayToTheDocumentAfterEachBatch(seed: Int) throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        var rng = SplitMix64(seed: UInt64(seed))
        let ws = try Workspace(path: path)
        let s = Store()
        try ws.create("d", into: s)
        var texts = [try s.export()]
        for i in 0..<50 {
            randomCall(s, &rng)
            if i == 25 {
                // reopen mid-way: the history goes on where it was
                ws.unbind("d")
                try ws.open("d", into: s)
                texts = Array(texts.prefix(try ws.versions("d").count + 1))
                while texts.count < (try ws.versions("d").count) + 1 { texts.append(try s.export()) }
            }
            while texts.count < (try ws.versions("d").count) + 1 { texts.append(try s.export()) }
        }
        let versions = try ws.versions("d")
        #expect(versions.map(\.number) == Array(1...versions.count))
        for n in 0...versions.count {
            let v = Store()
            try ws.open("d", at: n, into: v)
            #expect(try v.export() == texts[n], "seed \(seed), version \(n)")
        }
        let reopened = Store()
        ws.unbind("d")
        try ws.open("d", into: reopened)
        #expect(try reopened.export() == s.export())
    }

    @Test func deleteCascadesAndForkCopiesHistory() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let ws = try Workspace(path: path)
        let s = Store()
        try ws.create("a", into: s)
        try s.addNode(node("x"))
        try s.addNode(node("y"))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "x", targetNodeID: "y"))
        let f = Store()
        try ws.fork("a", at: 2, as: "b", into: f)
        #expect(f.nodes.map(\.id) == ["x", "y"] && f.edgeCount == 0)
        try f.moveNode("x", to: Point(7, 7))
        #expect(try ws.versions("b").count == 3)
        #expect(throws: FlowError.self) { try ws.delete("a") }
        ws.unbind("a")
        try ws.delete("a")
        #expect(try ws.list() == ["b"])
        let counts = try ws.database("test") { db in
            try ["node", "edge", "batch"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0) WHERE diagram NOT IN (SELECT id FROM diagram)")! }
        }
        #expect(counts == [0, 0, 0])
        try ws.rename("b", to: "c")
        #expect(try ws.list() == ["c"])
        let old = Store()
        try ws.open("c", at: 1, into: old)
        #expect(throws: FlowError(.invalidState, operation: "", message: "diagram 'c' at version 1 is read-only (fork it to change it)")) {
            try old.addNode(node("z"))
        }
        #expect(old.nodes.map(\.id) == ["x"])
    }

    @Test func notAWorkspaceAndNewerSchema() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        try "hello, this is text".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: FlowError(.invalidDocument, operation: "workspace", message: "'\(path)' is not a workspace (not an SQLite database)")) {
            _ = try Workspace(path: path)
        }
        let other = path + ".db"
        let q = try DatabaseQueue(path: other)
        try q.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        try q.close()
        #expect(throws: FlowError(.invalidDocument, operation: "workspace", message: "'\(other)' is not a workspace (an SQLite database of another application)")) {
            _ = try Workspace(path: other)
        }
        let newer = path + ".new"
        _ = try Workspace(path: newer)
        let q2 = try DatabaseQueue(path: newer)
        try q2.inDatabase { try $0.execute(sql: "PRAGMA user_version = 9") }
        try q2.close()
        #expect(throws: FlowError(
            .invalidDocument, operation: "workspace",
            message: "'\(newer)' was written by a newer FlowScript (workspace schema 9; this version reads up to 2)")) {
            _ = try Workspace(path: newer)
        }
    }

    @Test func lockedReadOnlyAndFullLeaveEverythingAsItWas() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let ws = try Workspace(path: path, options: Workspace.Options(busyTimeout: 0.05))
        let s = Store()
        try ws.create("d", into: s)
        try s.addNode(node("a"))
        // Locked: another connection holds the write lock.
        var lockConfig = Configuration()
        lockConfig.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path, configuration: lockConfig)
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        let before = try s.export()
        #expect(throws: FlowError.self) { try s.moveNode("a", to: Point(9, 9)) }
        #expect(try s.export() == before)
        // A reader sees the committed state meanwhile.
        let reader = try Workspace(path: path, options: Workspace.Options(readOnly: true))
        #expect(try reader.versions("d").count == 1)
        #expect(throws: FlowError.self) { try reader.create("x", into: Store()) }
        try other.inDatabase { try $0.execute(sql: "ROLLBACK") }
        try other.close()
        try s.moveNode("a", to: Point(9, 9))
        #expect(try reader.versions("d").count == 2)
        try s.removeNode("a")
        try s.addNode(node("b"))
        // the rows have a gap now; a reader opens them without writing
        let seen = Store()
        try reader.open("d", into: seen)
        #expect(try seen.export() == s.export())
        #expect(throws: FlowError.self) { try seen.addNode(node("c")) }
        ws.close()

        // Full: a size limit stands for a full disk.
        let small = try Workspace(path: path, options: Workspace.Options(maxPages: 12))
        let t = Store()
        try small.open("d", into: t)
        var failure: FlowError?
        for i in 0..<2000 {
            let text = try t.export()
            let count = try small.versions("d").count
            do {
                try t.addNode(node("big\(i)", Double(i), 0))
            } catch {
                failure = error
                #expect(try t.export() == text)
                #expect(try small.versions("d").count == count)
                break
            }
        }
        #expect(failure?.message.hasPrefix("the disk (or the workspace's size limit) is full; nothing was written") == true)
        let text = try t.export()
        small.close()
        let check = try Workspace(path: path)
        let u = Store()
        try check.open("d", into: u)
        #expect(try u.export() == text)
    }

    @Test func aBatchNumberAtTheLimitIsAClearErrorAtOpen() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let ws = try Workspace(path: path)
        try ws.create("d", into: Store())
        try ws.create("e", into: Store())
        try ws.database("test") { db in
            let id = try ws.diagramID(db, "d", "test")
            try db.execute(
                sql: "INSERT INTO batch (diagram, n, time, name, summary, actions) VALUES (?, ?, 0, 'Add', '', '[]')",
                arguments: [id, Int64.max])
            let e = try ws.diagramID(db, "e", "test")
            try db.execute(
                sql: "INSERT INTO batch (diagram, n, time, name, summary, actions) VALUES (?, ?, 0, 'Add', '', '[]')",
                arguments: [e, Int64.max - 1])
        }
        ws.close()
        let again = try Workspace(path: path)
        #expect(throws: FlowError(
            .invalidDocument, operation: "open",
            message: "diagram 'd' has batch number 9223372036854775807: no number is left for another change")) {
            try again.open("d", into: Store())
        }
        // One short of the limit: it opens, and its next change finds no number left and
        // is undone.
        let s = Store()
        try again.open("e", into: s)
        #expect(throws: FlowError.self) { try s.addNode(node("a")) }
        #expect(s.nodeCount == 0)
    }

    @Test func aSecondWriterInConflictGetsAClearErrorAndGoesOnAfterReloading() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let (one, a) = try workspaceWithNodeX(path)
        let two = try Workspace(path: path)  // another writer (as another process would be)
        let b = Store()
        try two.open("d", into: b)
        try a.moveNode("x", to: Point(1, 1))
        let before = try b.export()
        var failure: FlowError?
        do { try b.moveNode("x", to: Point(2, 2)) } catch { failure = error }
        #expect(failure == FlowError(
            .invalidState, operation: "",
            message: "the change conflicts with diagram 'd' as the file holds it: batch 2 ('Move') of another writer also changed node 'x'; sync (ws:sync) or reload (ws:reload) and make the change again (the change was undone)"))
        #expect(try b.export() == before)
        // the same again: not a raw constraint failure on every later write either
        do { try b.removeNode("x"); Issue.record("the write went through") } catch {
            #expect(error.message.contains("batch 2 ('Move') of another writer also changed node 'x'"), "\(error.message)")
        }
        try two.reload("d")
        #expect(b.node("x")?.position == Point(1, 1))
        try b.moveNode("x", to: Point(2, 2))
        #expect(try two.versions("d").map(\.name) == ["Add", "Move", "Move"])
        // and now the first store is the one behind
        #expect(throws: FlowError.self) { try a.removeNode("x") }
        try one.reload("d")
        try a.removeNode("x")
        let names = try one.versions("d").map(\.name)
        #expect(names.prefix(3) == ["Add", "Move", "Move"] && names.last == "Remove", "\(names)")  // (a "Reopen" may be between)
        #expect(throws: FlowError(.invalidState, operation: "reload", message: "diagram 'q' is not open (bound to a store)")) {
            try one.reload("q")
        }
    }

    @Test func aDiagramDeletedByAnotherWriterIsSaidSoAndReloadLeavesTheStore() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let (one, a) = try workspaceWithNodeX(path)
        let two = try Workspace(path: path)
        try two.delete("d")
        #expect(throws: FlowError.self) { try a.addNode(node("y")) }
        do { try a.addNode(node("y")) } catch { #expect(error.message.hasPrefix("diagram 'd' was deleted by another writer"), "\(error.message)") }
        #expect(throws: FlowError(.invalidValue, operation: "reload", message: "no diagram named 'd' in the workspace")) {
            try one.reload("d")
        }
        #expect(a.nodes.map(\.id) == ["x"])
        #expect(one.diagramName(of: a) == "d")
    }
}
