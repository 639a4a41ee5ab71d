import FlowCore
import Foundation
import TestSupport
import Testing
@testable import FlowPostgres
import FlowStorage

/// Several sessions on one diagram of a PostgreSQL workspace (docs/collaboration.md):
/// each session is a `PostgresWorkspace` of its own (its own connection).
@Suite("Shared workspaces (PostgreSQL)", .enabled(if: postgresURL != nil, Comment(rawValue: noPostgres)))
struct PostgresSharingTests {
    /// `count` sessions on diagram "d" of a fresh workspace, the first one creating it.
    func sessions(_ count: Int) throws -> [(PostgresWorkspace, Store)] {
        let url = try freshPostgresURL()
        var all: [(PostgresWorkspace, Store)] = []
        for i in 0..<count {
            let ws = try PostgresWorkspace(url: url)
            ws.notice = { _ in }
            ws.reconnectInterval = 0
            let s = Store()
            if i == 0 { try ws.create("d", into: s) } else { try ws.open("d", into: s) }
            all.append((ws, s))
        }
        return all
    }

    /// What a session says (its notices), kept; the session stays offline after a drop
    /// until the test sets its `reconnectInterval`.
    final class Notices {
        var all: [String] = []
        init(_ w: PostgresWorkspace) {
            w.notice = { self.all.append($0) }
            w.reconnectInterval = 3600
        }
    }

    @Test func aBatchOfOneAppearsInTheOtherAsTheSameEvents() throws {
        let all = try sessions(2)
        let (w1, s1) = all[0], (w2, s2) = all[1]
        try s1.addNode(node("a", 1, 2))
        try s1.addNode(node("b"))
        try s1.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
        var seen: [String] = []
        s2.addObserver(nodes: { c in seen += c.map { "\($0)" } }, edges: { c in seen += c.map { "\($0)" } })
        #expect(try w2.sync() == 3)
        #expect(try s2.export() == s1.export())
        #expect(seen.count == 3)
        #expect(try w1.sync() == 0)
        #expect(try w2.sync() == 0)
    }

    @Test func movesOfDifferentNodesAndAdditionsAreRebased() throws {
        let all = try sessions(3)
        try all[0].1.addNode(node("a"))
        try all[0].1.addNode(node("b"))
        for (w, _) in all { _ = try w.sync() }
        // all three change the version they last saw, without syncing in between
        try all[0].1.moveNode("a", to: Point(10, 10))
        try all[1].1.moveNode("b", to: Point(20, 20))
        try all[2].1.addNode(node("c", 5, 5))
        try all[1].1.addNode(node("d", 6, 6))  // same order number as c: renumbered
        try all[0].1.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
        for (w, _) in all { _ = try w.sync() }
        let texts = try all.map { try $0.1.export() }
        #expect(Set(texts).count == 1)
        let fresh = Store()
        try PostgresWorkspace(url: all[0].0.url.connectionString).open("d", into: fresh)
        #expect(try fresh.export() == texts[0])
        #expect(fresh.nodes.map(\.id) == ["a", "b", "c", "d"])
        #expect(fresh.node("a")?.position == Point(10, 10) && fresh.node("b")?.position == Point(20, 20))
        #expect(try all[0].0.versions("d").count == 7)
    }

    @Test func aConflictIsRefusedAsAWholeNamingIt() throws {
        let all = try sessions(2)
        let (w1, s1) = all[0], (w2, s2) = all[1]
        try s1.addNode(node("a"))
        try s1.addNode(node("b"))
        _ = try w2.sync()
        try s1.removeNode("b")
        let before = try s2.export()
        #expect(
            throws: FlowError(
                .invalidState, operation: "",
                message: "the change conflicts with the database's version of diagram 'd': edge 'e' refers to node 'b', which batch 3 ('Remove') of another session removed; sync (ws:sync) and make the change again (the change was undone)")
        ) {
            try s2.addEdge(FlowEdge(id: "e", sourceNodeID: "a", targetNodeID: "b"))
        }
        #expect(try s2.export() == before)
        #expect(throws: FlowError.self) { try s2.moveNode("b", to: Point(1, 1)) }
        _ = try w2.sync()
        #expect(try s2.export() == s1.export())
        try s2.moveNode("a", to: Point(3, 3))
        _ = try w1.sync()
        #expect(try s1.export() == s2.export())
        #expect(try w1.versions("d").count == 4)
    }

    /// Many sessions making random calls against versions others have changed: every
    /// accepted batch is in the database (0 lost), every refused one left its store as it
    /// was, and all converge to the same export.
    /// FLOW_TEST_SHARED_ROUNDS sets the rounds (60 by default; 500 for the full run).
    @Test(arguments: [(20, Int(ProcessInfo.processInfo.environment["FLOW_TEST_SHARED_ROUNDS"] ?? "") ?? 60)])
    func manyWritersConverge(writers: Int, batches: Int) throws {
        let all = try sessions(writers)
        let (accepted, refused) = try sharedRandomRounds(all.map { ($0.0, $0.1) }, rounds: batches, seed: 7)
        let texts = try all.map { try $0.1.export() }
        #expect(Set(texts).count == 1)
        #expect(try all[0].0.versions("d").count == accepted)
        let fresh = Store()
        try PostgresWorkspace(url: all[0].0.url.connectionString).open("d", into: fresh)
        #expect(try fresh.export() == texts[0])
        let replayed = Store()
        try all[0].0.open("d", at: accepted, into: replayed)
        #expect(try replayed.export() == texts[0])
        #expect(refused > 0, "the random calls should have made conflicts")
        print("manyWritersConverge: \(writers) writers x \(batches) rounds: \(accepted) batches committed, \(refused) refused as conflicts, 0 lost")
    }

    @Test func theConnectionDropsAndComesBack() throws {
        let all = try sessions(2)
        let (w1, s1) = all[0], (w2, s2) = all[1]
        let notices = Notices(w1)
        try s1.addNode(node("a"))
        try s1.addNode(node("b"))
        _ = try w2.sync()
        // the server ends session 1's connection (as when it restarts or the network drops)
        let pid = try #require(try w1.query("SELECT pg_backend_pid()", [], "test").first?[0] ?? nil)
        try w2.query("SELECT pg_terminate_backend($1::int, 5000)", [pid], "test")
        try s1.moveNode("a", to: Point(7, 7))  // kept locally
        try s1.addNode(node("c"))
        try s2.moveNode("b", to: Point(8, 8))  // another session goes on meanwhile
        try s2.moveNode("a", to: Point(9, 9))  // and makes s1's move a conflict
        #expect(w1.isOffline || notices.all.contains { $0.contains("working locally") })
        w1.reconnectInterval = 0
        _ = try w1.sync()  // reconnects, writes what it kept
        _ = try w1.sync()
        _ = try w2.sync()
        #expect(notices.all.contains { $0.contains("working locally") })
        #expect(notices.all.contains { $0.contains("could not write 1: 'Move'") })
        #expect(try s1.export() == s2.export())
        #expect(s1.node("c") != nil && s2.node("a")?.position == Point(9, 9))
    }

    /// The connection drops after `sync` found it up and before it asks for others' batches
    /// (a server restart at that moment; the test seam `afterSyncCheck` ends the backend
    /// exactly there): sync goes offline and returns what it applied instead of raising,
    /// and the next one reconnects and takes what was committed meanwhile.
    @Test func aConnectionLostInTheMiddleOfASyncGoesOffline() throws {
        let all = try sessions(2)
        let (w1, s1) = all[0], (w2, s2) = all[1]
        let notices = Notices(w2)
        try s1.addNode(node("a"))
        _ = try w2.sync()
        try s1.moveNode("a", to: Point(5, 5))
        let pid = try #require(try w2.query("SELECT pg_backend_pid()", [], "test").first?[0] ?? nil)
        var dropped = false
        w2.afterSyncCheck = {
            // waits until the backend is gone (up to 5 s)
            dropped = (try? w1.query("SELECT pg_terminate_backend($1::int, 5000)", [pid], "test").first?[0]) == "t"
        }
        #expect(try w2.sync() == 0)
        w2.afterSyncCheck = nil
        #expect(dropped)
        #expect(w2.isOffline)
        #expect(notices.all.contains { $0.contains("the connection to the database was lost") && $0.contains("working locally") }, "\(notices.all)")
        try s2.addNode(node("b"))  // kept locally
        #expect(w2.isOffline)
        w2.reconnectInterval = 0
        #expect(try w2.sync() == 1)  // reconnects, writes b, takes the move
        _ = try w1.sync()
        #expect(!w2.isOffline)
        #expect(try s2.export() == s1.export())
        #expect(s1.nodes.map(\.id) == ["a", "b"] && s2.node("a")?.position == Point(5, 5))
    }

    /// A batch is written as one pipeline (its statements sent at once): a statement that
    /// fails throws its own error, the transaction writes nothing, and the connection
    /// stays usable; more statements than one pipeline holds are sent in several.
    @Test func aPipelineStopsAtItsFailingStatement() throws {
        let (w, _) = try sessions(1)[0]
        let insert = "INSERT INTO flow_meta VALUES ($1, '1')"
        do {
            try w.transaction("test", first: ("SELECT 1", [])) { _ throws(FlowError) -> ([PGConnection.Statement], Void) in
                ([(insert, ["x"]), (insert, ["x"]), (insert, ["y"])], ())
            }
            Issue.record("a duplicate key was written")
        } catch {
            #expect(error.message.contains("duplicate key") && error.message.contains("SQLSTATE 23505"), "\(error)")
        }
        #expect(!w.isOffline)
        #expect(try w.query("SELECT count(*) FROM flow_meta WHERE key IN ('x', 'y')", [], "test") == [["0"]])
        let many = (0..<(2 * PGConnection.pipelineLength + 7)).map { i in ("SELECT $1::int + 1", ["\(i)"]) as PGConnection.Statement }
        let rows = try w.pipeline(many, "test")
        #expect(rows.map { $0[0][0] } == (0..<many.count).map { "\($0 + 1)" })
    }

    @Test func thePasswordIsNeverShown() throws {
        let base = try #require(postgresURL)
        let secret = "s3cret-Pw"
        let url = base.replacingOccurrences(of: "://flow@", with: "://flow:\(secret)@")
        let ws = try PostgresWorkspace(url: url)
        #expect(!ws.location.contains(secret))
        #expect(ws.location.contains("flow@"))
        let bad = url.replacingOccurrences(of: "/flowtest", with: "/no_such_db") + "?password=\(secret)"
        do {
            _ = try PostgresWorkspace(url: bad)
            Issue.record("connected to a database that does not exist")
        } catch {
            #expect(!error.description.contains(secret), "\(error)")
            #expect(error.description.contains("cannot connect to"))
        }
    }
}
