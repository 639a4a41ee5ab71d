import FlowCore
import Testing
@testable import FlowPostgres
import FlowStorage

/// A PostgreSQL workspace another program wrote: the numbers a session reads from the
/// database (a diagram's newest batch number, order numbers) may be anything its columns
/// hold, and its tables may not be the ones a workspace makes. None of it may crash the
/// process (#43).
@Suite("Hostile PostgreSQL workspaces", .enabled(if: postgresURL != nil, Comment(rawValue: noPostgres)))
struct HostilePostgresTests {
    @Test func theNewestBatchAtTheLargestNumberIsAClearErrorNotATrap() throws {
        let url = try freshPostgresURL()
        let ws = try PostgresWorkspace(url: url)
        defer { ws.close() }
        let s = Store()
        try ws.create("d", into: s)
        try s.addNode(node("a"))
        try ws.query("UPDATE flow_diagram SET head = 9223372036854775807", [], "test")
        // the open store's next write (the head moved under it): refused, not an overflow trap
        #expect(throws: FlowError(
            .invalidDocument, operation: "",
            message: "diagram 'd' has batch number 9223372036854775807: no number is left for another change (the change was undone)")) {
            try s.addNode(node("b", 50))
        }
        #expect(s.nodes.map(\.id) == ["a"])
        let other = try PostgresWorkspace(url: url)
        defer { other.close() }
        #expect(throws: FlowError(
            .invalidDocument, operation: "open",
            message: "diagram 'd' has batch number 9223372036854775807: no number is left for another change")) {
            try other.open("d", into: Store())
        }
    }

    @Test func anOrderNumberAtTheLimitIsAClearErrorWhenABatchIsRebased() throws {
        let url = try freshPostgresURL()
        let one = try PostgresWorkspace(url: url), two = try PostgresWorkspace(url: url)
        defer { one.close(); two.close() }
        let a = Store(), b = Store()
        try one.create("d", into: a)
        try two.open("d", into: b)
        try a.addNode(node("a"))
        try a.addNode(node("a2", 100))
        try one.query("UPDATE flow_node SET seq = 9223372036854775807 WHERE id = 'a2'", [], "test")
        // b adds at the order number a took: its batch is rebased past the largest one
        #expect(throws: FlowError(
            .invalidDocument, operation: "",
            message: "diagram 'd' has node order number 9223372036854775807: no number is left for another addition (the change was undone)")) {
            try b.addNode(node("b", 50))
        }
    }

    @Test func tablesOfAnotherProgramUnderAWorkspacesNamesAreRefused() throws {
        let url = try freshPostgresURL()
        let admin = try PostgresWorkspace(url: url)
        try admin.query("ALTER TABLE flow_batch ALTER COLUMN n TYPE text", [], "test")
        admin.close()
        #expect(throws: FlowError.self) { _ = try PostgresWorkspace(url: url) }
        do { _ = try PostgresWorkspace(url: url) } catch {
            #expect(error.message.hasSuffix("is not a workspace: column flow_batch.n text differs from a workspace's"), "\(error.message)")
        }
    }
}
