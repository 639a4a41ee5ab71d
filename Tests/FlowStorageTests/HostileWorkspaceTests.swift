import FlowCore
import Foundation
import GRDB
import Testing
@testable import FlowStorage

/// A file another program wrote (or damaged): SQLite keeps any value in any column (the
/// tables are not STRICT), so every number, text and order a workspace reads from its file
/// may be anything. None of it may crash the process: each call works or throws a
/// `FlowError` naming what is wrong (#43).
@Suite("Hostile workspace files") struct HostileWorkspaceTests {
    /// Changes to a good file, each as another program could make them.
    static let damages: [String] = [
        "UPDATE batch SET n = 9223372036854775807 WHERE n = (SELECT max(n) FROM batch)",
        "UPDATE batch SET n = 1e19 WHERE n = (SELECT max(n) FROM batch)",
        "UPDATE batch SET n = -9223372036854775808 WHERE n = 1",
        "UPDATE batch SET n = 'x' WHERE n = 2",
        "UPDATE batch SET n = 2.5 WHERE n = 2",
        "UPDATE batch SET time = 'noon'",
        "UPDATE batch SET name = X'FF00FE'",
        "UPDATE batch SET summary = 12",
        "UPDATE batch SET actions = X'FFFE'",
        "UPDATE node SET seq = 9223372036854775807 WHERE id = 'a'",
        "UPDATE node SET seq = -9223372036854775808 WHERE id = 'a'",
        "UPDATE node SET seq = 1e300 WHERE id = 'a'",
        "UPDATE node SET seq = 'first' WHERE id = 'a'",
        "UPDATE node SET body = X'FF' WHERE id = 'a'",
        "UPDATE edge SET seq = 'e' WHERE id = 'e1'",
        "UPDATE diagram SET classes = X'FF'",
        "UPDATE diagram SET classes = 7",
        "UPDATE diagram SET look = X'FF'",
        "UPDATE diagram SET look = '{\"fontSize\": -1}'",
        "UPDATE diagram SET created = 'then'",
        "UPDATE diagram SET name = X'FF' WHERE name = 'other'",
    ]

    /// A workspace with diagram "d" (nodes a, b, edge e1; three batches) and "other".
    static func goodFile() throws -> String {
        let path = temporaryPath()
        let ws = try Workspace(path: path)
        let s = Store()
        try ws.create("d", into: s)
        try s.addNode(node("a"))
        try s.addNode(node("b", 100))
        try s.addEdge(FlowEdge(id: "e1", sourceNodeID: "a", targetNodeID: "b"))
        try ws.create("other", into: Store())
        ws.close()
        return path
    }

    static func damage(_ path: String, _ sql: String) throws {
        let q = try DatabaseQueue(path: path)
        try q.write { db in try db.execute(sql: sql) }
        try q.close()
    }

    /// Every call of the API on the damaged file: each one works or throws a FlowError
    /// (`attempt` collects them). Returns the messages.
    static func everyCall(_ path: String) -> [String] {
        var messages: [String] = []
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch let error as FlowError { messages.append(error.description) } catch {
                messages.append("not a FlowError: \(error)")
            }
        }
        attempt {
            let ws = try Workspace(path: path)
            defer { ws.close() }
            attempt { _ = try ws.list() }
            attempt { _ = try ws.versions("d") }
            attempt { try ws.open("d", at: 1, into: Store()) }
            attempt { try ws.open("d", at: 3, into: Store()) }
            attempt { try ws.fork("d", at: nil, as: "f1", into: Store()) }
            attempt { try ws.fork("d", at: 1, as: "f2", into: Store()) }
            attempt { try ws.rename("other", to: "o2") }
            attempt {
                let s = Store()
                try ws.open("d", into: s)
                attempt { try s.addNode(node("c", 200)) }
                attempt { try s.moveNode("a", to: Point(7, 7)) }
                attempt { try ws.reload("d") }
                attempt { try s.addNode(node("c2", 300)) }
            }
            attempt { try ws.delete("other") }
        }
        return messages
    }

    @Test(arguments: damages)
    func aDamagedFileNeverCrashes(sql: String) throws {
        let path = try Self.goodFile()
        defer { cleanup(path) }
        try Self.damage(path, sql)
        let messages = Self.everyCall(path)
        // what a call says names the workspace function and the damage, not GRDB's types
        for m in messages {
            #expect(!m.contains("not a FlowError") && !m.contains("could not decode"), "\(sql): \(m)")
        }
    }

    /// The same damage done while a store is open on the diagram (another program writes
    /// the file meanwhile): its next write is refused with a clear error or works.
    @Test(arguments: damages)
    func aFileDamagedUnderAnOpenStoreNeverCrashes(sql: String) throws {
        let path = try Self.goodFile()
        defer { cleanup(path) }
        let ws = try Workspace(path: path)
        let s = Store()
        try ws.open("d", into: s)
        try Self.damage(path, sql)
        var messages: [String] = []
        for call in 0..<3 {
            do throws(FlowError) {
                try s.addNode(node("n\(call)", Double(call) * 50))
            } catch {
                messages.append(error.description)
            }
        }
        for m in messages {
            #expect(!m.contains("could not decode") && !m.contains("RowDecodingError"), "\(sql): \(m)")
        }
        ws.close()
    }

    @Test func theNewestBatchAtTheLargestNumberIsAClearErrorNamingIt() throws {
        let path = try Self.goodFile()
        defer { cleanup(path) }
        try Self.damage(path, "UPDATE batch SET n = 9223372036854775807 WHERE n = (SELECT max(n) FROM batch)")
        let ws = try Workspace(path: path)
        #expect(throws: FlowError(
            .invalidDocument, operation: "open",
            message: "diagram 'd' has batch number 9223372036854775807: no number is left for another change")) {
            try ws.open("d", into: Store())
        }
        #expect(throws: FlowError(
            .invalidDocument, operation: "open", message: "diagram 'd' is damaged: it has 3 batches, but none numbered 3")) {
            try ws.open("d", at: 3, into: Store())
        }
        try Self.damage(path, "UPDATE batch SET n = 1e19 WHERE n > 2")
        #expect(throws: FlowError(
            .invalidDocument, operation: "open", message: "diagram 'd' is damaged: its newest batch number 1e+19 is not an integer")) {
            try ws.open("d", into: Store())
        }
        #expect(throws: FlowError(
            .invalidDocument, operation: "versions", message: "diagram 'd' is damaged: its batch number 1e+19 is not an integer")) {
            try ws.versions("d")
        }
    }

    /// A second writer deletes the diagram a store is bound to and creates another, which
    /// SQLite gives the same row id: the store's next write went into the new diagram, or
    /// failed with "UNIQUE constraint failed" on every write that touched one of its ids.
    @Test func aWriterBehindADeletedAndRecreatedDiagramIsRefusedAndGoesOnAfterReloading() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let one = try Workspace(path: path)
        let a = Store()
        try one.create("d", into: a)
        try a.addNode(node("a"))
        let two = try Workspace(path: path)  // another process, as far as the file can tell
        try two.delete("d")
        let b = Store()
        try two.create("x", into: b)
        try b.addNode(node("b"))
        for id in ["b", "c"] {
            #expect(throws: FlowError(
                .invalidState, operation: "",
                message: "diagram 'd' was deleted by another writer (the change was undone)")) { try a.addNode(node(id, 50)) }
        }
        #expect(try two.versions("x").count == 1)
        #expect(b.nodes.map(\.id) == ["b"])
        // the same name created anew: refused too, and the store goes on after reloading
        try two.rename("x", to: "d")
        #expect(throws: FlowError.self) { try a.moveNode("a", to: Point(5, 5)) }
        try one.reload("d")
        #expect(a.nodes.map(\.id) == ["b"])
        try a.addNode(node("c", 50))
        #expect(try two.versions("d").map(\.name) == ["Add", "Add"])
    }

    @Test func aFileWhoseSchemaDiffersIsNotAWorkspace() throws {
        let path = try Self.goodFile()
        defer { cleanup(path) }
        try Self.damage(path, "CREATE TRIGGER t AFTER INSERT ON batch BEGIN UPDATE batch SET n = 'x'; END")
        #expect(throws: FlowError(
            .invalidDocument, operation: "workspace",
            message: "'\(path)' is not a workspace: trigger 't' differs from a workspace's")) { _ = try Workspace(path: path) }
    }
}
