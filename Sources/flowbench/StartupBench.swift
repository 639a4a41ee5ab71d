@preconcurrency import Glibc

/// Start-up: wall time of spawning `flowrepl -e ''` and waiting for it, against
/// `lua5.4 -e ''`, interleaved, median of `budget.spawns` each.
enum StartupBench {
    static func run(flowrepl: String, budget: Budget, into report: Report) {
        var flow: [Double] = [], lua: [Double] = []
        var luaMissing = false, flowMissing = false
        for _ in 0..<budget.spawns {
            if let t = spawn(flowrepl, search: false) { flow.append(t) } else { flowMissing = true }
            if let t = spawn("lua5.4", search: true) { lua.append(t) } else { luaMissing = true }
        }
        let luaMedian = luaMissing || lua.isEmpty ? nil : median(lua) * 1e9
        report.add(
            Metric(
                name: "startup.lua5.4", size: nil, value: luaMedian, unit: "ns",
                note: luaMedian == nil ? "lua5.4 not runnable" : nil))
        let flowMedian = flowMissing || flow.isEmpty ? nil : median(flow) * 1e9
        report.add(
            Metric(
                name: "startup.flowrepl", size: nil, value: flowMedian, unit: "ns", baseline: luaMedian,
                note: flowMedian == nil ? "flowrepl not runnable" : nil))
    }

    /// Seconds from spawn to exit of `program -e ''` (stdin and stdout /dev/null), nil when
    /// it cannot be spawned or does not exit with status 0.
    private static func spawn(_ program: String, search: Bool) -> Double? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let args: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup("-e"), strdup(""), nil]
        defer { for a in args { free(a) } }
        var pid: pid_t = 0
        let t0 = now()
        let rc =
            search
            ? posix_spawnp(&pid, program, &actions, nil, args, environ)
            : posix_spawn(&pid, program, &actions, nil, args, environ)
        guard rc == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let dt = now() - t0
        return status == 0 ? dt : nil
    }

    /// `flowrepl` next to this executable (both are built into the same directory).
    static func defaultFlowrepl() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return "flowrepl" }
        let exe = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/flowrepl"
    }
}
