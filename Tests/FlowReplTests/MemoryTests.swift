import Foundation
import Testing

/// Raised errors must not leak: a flowrepl process of its own makes one million calls that
/// raise (half value errors from the store, half argument errors) and reports its resident
/// memory after the first 200,000 and at the end.
@Suite("Memory") struct MemoryTests {
    /// A Lua function `rss()`: the process's resident memory in KB, from /proc.
    static let rss = """
        local function rss()
          local f = assert(io.open("/proc/self/status"))
          local kb = f:read("a"):match("VmRSS:%s*(%d+)")
          f:close()
          return tonumber(kb)
        end

        """

    @Test func oneMillionRaisedErrorsKeepMemoryFlat() throws {
        let script = Self.rss + """
            local s = flow.newStore()
            s:addNode{id = "a"}
            local function burn(n)
              local failed = 0
              for i = 1, n do
                if not pcall(s.moveNode, s, "missing", 1, 2) then failed = failed + 1 end
                if not pcall(s.moveNode, s, "a", "x", 2) then failed = failed + 1 end
              end
              collectgarbage()
              collectgarbage()
              return failed
            end
            assert(burn(100000) == 200000)
            local before = rss()
            assert(burn(400000) == 800000)
            local after = rss()
            print(after - before)
            """
        let run = try ReplProcess.run(["--quiet", "-e", script])
        #expect(run.status == 0, "\(run)")
        let growthKB = Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Int.max
        #expect(growthKB < 1024, "resident memory grew by \(growthKB) KB over 800,000 raised errors")
    }

    /// A store holds memory outside Lua's accounting; the collector is told about it
    /// (issue #25), so a loop that makes stores and drops them stays small.
    @Test func storesMadeInALoopAreCollected() throws {
        let script = Self.rss + """
            collectgarbage()
            collectgarbage()
            local before = rss()
            for i = 1, 3000 do
              local s = flow.newStore()
              s:addNode{id = "a"}
            end
            print(rss() - before)
            """
        let run = try ReplProcess.run(["--quiet", "-e", script])
        #expect(run.status == 0, "\(run)")
        let growthKB = Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Int.max
        #expect(growthKB < 32 * 1024, "resident memory grew by \(growthKB) KB over 3,000 dropped stores")
    }
}
