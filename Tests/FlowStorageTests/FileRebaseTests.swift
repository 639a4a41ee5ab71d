import FlowCore
import Foundation
import Testing
import FlowStorage

/// Two or more writers of one diagram in one file (other processes, or other Workspaces
/// on the file): a batch made behind another writer's is rebased onto theirs when it still
/// applies, as in PostgreSQL, and `sync` brings theirs into the store (#43).
@Suite("Writers of one file rebased") struct FileRebaseTests {
    /// `count` writers of diagram "d" (holding node "x") of the file at `path`.
    func writers(_ count: Int, _ path: String) throws -> [(Workspace, Store)] {
        var all = [try workspaceWithNodeX(path)]
        for _ in 1..<count {
            let ws = try Workspace(path: path)
            let s = Store()
            try ws.open("d", into: s)
            all.append((ws, s))
        }
        return all
    }

    @Test func aWriterBehindAnotherIsRebasedAndSyncBringsTheOthersBatches() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let all = try writers(2, path)
        let (one, a) = all[0], (two, b) = all[1]
        try a.addNode(node("y", 100))
        try a.moveNode("x", to: Point(5, 5))
        // behind a's two batches, touching other nodes: written after them
        try b.addNode(node("z", 200))
        try b.addEdge(FlowEdge(id: "e", sourceNodeID: "x", targetNodeID: "z"))
        #expect(try one.versions("d").map(\.name) == ["Add", "Add", "Move", "Add", "Add Edge"])
        #expect(b.node("y") == nil)
        #expect(try two.sync() == 2)  // (z took y's order number: b reloads)
        #expect(try one.sync() == 2)
        #expect(try a.export() == (try b.export()))
        #expect(a.nodes.map(\.id) == ["x", "y", "z"] && b.node("x")?.position == Point(5, 5))
        // what a new session opens, and what the history replays to
        let fresh = try Workspace(path: path), f = Store(), r = Store()
        try fresh.open("d", into: f)
        try fresh.open("d", at: 5, into: r)
        #expect(try f.export() == (try a.export()))
        #expect(try r.export() == (try a.export()))
        // after syncing, both write on as usual
        try b.moveNode("y", to: Point(7, 7))
        try a.removeNode("z")
        _ = try one.sync()
        _ = try two.sync()
        #expect(try a.export() == (try b.export()))
    }

    @Test func aConflictIsRefusedNamingTheOthersBatchAndSyncLetsTheSessionGoOn() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let all = try writers(2, path)
        let (one, a) = all[0], (two, b) = all[1]
        try a.addNode(node("y", 100))
        try b.addNode(node("z", 200))  // rebased
        try a.removeNode("x")
        let before = try b.export()
        #expect(throws: FlowError(
            .invalidState, operation: "",
            message: "the change conflicts with diagram 'd' as the file holds it: edge 'e' refers to node 'x', which batch 4 ('Remove') of another writer removed; sync (ws:sync) or reload (ws:reload) and make the change again (the change was undone)")) {
            try b.addEdge(FlowEdge(id: "e", sourceNodeID: "x", targetNodeID: "z"))
        }
        #expect(try b.export() == before)
        _ = try two.sync()
        try b.addEdge(FlowEdge(id: "e", sourceNodeID: "y", targetNodeID: "z"))
        _ = try one.sync()
        #expect(try a.export() == (try b.export()))
        #expect(try one.versions("d").count == 5)
    }

    /// Writers making random calls against versions others changed: every accepted batch
    /// is in the file, every refused one left its store as it was, and all converge.
    @Test func manyWritersOfOneFileConverge() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        let all = try writers(5, path)
        var (accepted, refused) = try sharedRandomRounds(all.map { ($0.0, $0.1) }, rounds: 30, seed: 11)
        accepted += 1  // (x's)
        let texts = try all.map { try $0.1.export() }
        #expect(Set(texts).count == 1)
        let versions = try all[0].0.versions("d")
        let written = versions.filter { $0.name != "Reopen" }.count
        #expect(written == accepted)
        let fresh = Store(), replayed = Store()
        try Workspace(path: path).open("d", into: fresh)
        try all[0].0.open("d", at: versions.count, into: replayed)
        #expect(try fresh.export() == texts[0])
        #expect(try replayed.export() == texts[0])
        #expect(refused > 0, "the random calls should have made conflicts")
        print("manyWritersOfOneFileConverge: 5 writers x 30 rounds: \(accepted) batches written, \(refused) refused as conflicts, 0 lost")
    }
}
