import FlowCore
import Foundation
import TestSupport
import Testing
import FlowPostgres
import FlowStorage

/// The workspace API, the same for a file and a PostgreSQL database (the PostgreSQL runs
/// need FLOW_TEST_POSTGRES_URL, which scripts/test sets).
@Suite("Workspaces on both backends") struct BothBackendsTests {
    /// Says why the PostgreSQL cases are left out (Swift Testing cannot skip one argument).
    @Test(.enabled(if: postgresURL != nil, Comment(rawValue: noPostgres)))
    func thePostgresCasesRun() {
        #expect(Backend.testable.contains(.postgres))
    }

    @Test(arguments: Backend.testable)
    func createWriteReopen(backend: Backend) throws {
        let (ws, done) = try backend.make()
        defer { done() }
        let s = Store()
        try ws.create("main", into: s)
        try s.addNode(node("a", 10, 20, container: true))
        try s.addNode(node("b", 30, 40, parent: "a"))
        try s.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
        try s.setClassStyles(["hot": FlowClass(style: FlowStyle(fill: FlowColor("red")))])
        try s.moveNode("a", to: Point(100, 100))
        try s.undo()
        let text = try s.export()
        let again = try backend.again(ws)
        ws.close()
        #expect(throws: FlowError.self) { try s.addNode(node("c")) }
        #expect(try again.list() == ["main"])
        let t = Store()
        try again.open("main", into: t)
        #expect(try t.export() == text)
        #expect(t.classStyles == s.classStyles)
        #expect(try again.versions("main").map(\.name) == ["Add", "Add", "Add Edge", "Classes", "Move", "Undo Move"])
        #expect(throws: FlowError(.invalidState, operation: "open", message: "diagram 'main' is already open (bound to a store)")) {
            try again.open("main", into: Store())
        }
    }

    @Test(arguments: Backend.testable, 0..<4)
    func versionsReplayToTheDocumentAfterEachBatch(backend: Backend, seed: Int) throws {
        let (ws, done) = try backend.make()
        defer { done() }
        var rng = SplitMix64(seed: UInt64(seed))
        let s = Store()
        try ws.create("d", into: s)
        var texts = [try s.export()]
        for _ in 0..<40 {
            randomCall(s, &rng)
            while texts.count < (try ws.versions("d").count) + 1 { texts.append(try s.export()) }
        }
        let versions = try ws.versions("d")
        #expect(versions.map(\.number) == Array(1...max(1, versions.count)).prefix(versions.count).map { $0 })
        for n in 0...versions.count {
            let v = Store()
            try ws.open("d", at: n, into: v)
            #expect(try v.export() == texts[n], "seed \(seed), version \(n)")
            #expect(throws: FlowError.self) { try v.addNode(node("zz")) }
        }
        let other = try backend.again(ws)
        let reopened = Store()
        try other.open("d", into: reopened)
        #expect(try reopened.export() == s.export())
    }

    @Test(arguments: Backend.testable)
    func forkRenameDelete(backend: Backend) throws {
        let (ws, done) = try backend.make()
        defer { done() }
        let s = Store()
        try ws.create("a", into: s)
        try s.addNode(node("x"))
        try s.addNode(node("y"))
        try s.moveNode("x", to: Point(5, 5))
        let f = Store()
        try ws.fork("a", at: 2, as: "b", into: f)
        #expect(f.nodes.map(\.id) == ["x", "y"])
        #expect(f.node("x")?.position == Point(0, 0))
        try f.addNode(node("z"))
        #expect(try ws.versions("b").map(\.name) == ["Add", "Add", "Add"])
        #expect(throws: FlowError(.invalidValue, operation: "fork", message: "a diagram named 'a' exists")) {
            try ws.fork("b", at: nil, as: "a", into: Store())
        }
        try ws.rename("b", to: "c")
        #expect(try ws.list() == ["a", "c"])
        try f.addNode(node("w"))  // still bound after the rename
        #expect(throws: FlowError(.invalidState, operation: "delete", message: "diagram 'c' is open (bound to a store): close the store first")) {
            try ws.delete("c")
        }
        let other = try backend.again(ws)
        try other.delete("c")
        #expect(try other.list() == ["a"])
        #expect(throws: FlowError(.invalidValue, operation: "versions", message: "no diagram named 'c' in the workspace")) {
            try other.versions("c")
        }
        #expect(throws: FlowError(.invalidValue, operation: "open", message: "diagram 'a' has versions 0 to 3 (got 4)")) {
            try other.open("a", at: 4, into: Store())
        }
    }
}
