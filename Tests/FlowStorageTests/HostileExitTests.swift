import FlowCore
import Foundation
import GRDB
import Testing
@testable import FlowStorage

/// Closing a workspace leaves no work on another thread (#43): a lua5.4 script that used
/// `flow.workspace` crashed at exit now and then, while `lua_close` unloaded the modules
/// under a Dispatch worker that was still freeing the closed connection (GRDB's queue
/// specific, disposed of asynchronously). scripts/lua-exit-soak runs such scripts.
@Suite("Workspace exit") struct HostileExitTests {
    final class Weak: @unchecked Sendable {
        weak var value: Database?
        init(_ value: Database) { self.value = value }
    }

    @Test func closeLeavesNoWorkOnAnotherThread() throws {
        let path = temporaryPath()
        defer { cleanup(path) }
        var connections: [Weak] = []
        var freedBehind = 0
        for i in 0..<12 {  // more than RetiredConnections keeps
            let ws = try Workspace(path: path)
            try ws.create("d\(i)", into: Store())
            connections.append(Weak(try ws.database("test") { db in db }))
            ws.close()
            // before: a Dispatch worker freed the connection after close returned
            if connections.last!.value == nil { freedBehind += 1 }
        }
        #expect(freedBehind == 0)
        // the oldest were released by later closes, each of which waited for their disposal
        let deadline = Date().addingTimeInterval(2)
        while connections[0].value != nil && Date() < deadline { usleep(1000) }
        #expect(connections[0].value == nil)
    }
}
