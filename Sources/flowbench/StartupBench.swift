@preconcurrency import Glibc

/// Start-up: wall time of spawning `flowrepl -e ''` and waiting for it, against
/// `lua5.4 -e ''`, interleaved, median of `budget.spawns` each; and the Lua module's weight
/// (#39): `lua5.4 -e 'require "flow"'` with the module of scripts/build-module (or the
/// build's libflow.so), its wall time and the peak resident memory of the process.
enum StartupBench {
    static func run(flowrepl: String, module: String?, budget: Budget, into report: Report) {
        var flow: [Double] = [], lua: [Double] = [], require: [Double] = []
        var flowRSS: [Double] = [], luaRSS: [Double] = [], requireRSS: [Double] = []
        var luaMissing = false, flowMissing = false, requireFailed = false
        let requireEnv = module.map { ["LUA_CPATH=\($0)", "LUA_INIT="] }
        for _ in 0..<budget.spawns {
            if let r = spawn(flowrepl, search: false) { flow.append(r.seconds); flowRSS.append(r.rss) } else { flowMissing = true }
            if let r = spawn("lua5.4", search: true) { lua.append(r.seconds); luaRSS.append(r.rss) } else { luaMissing = true }
            if let env = requireEnv {
                if let r = spawn("lua5.4", search: true, code: "require 'flow'", environment: env) {
                    require.append(r.seconds)
                    requireRSS.append(r.rss)
                } else {
                    requireFailed = true
                }
            }
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
        let luaRSSMedian = luaRSS.isEmpty ? nil : median(luaRSS)
        report.add(
            Metric(
                name: "startup.flowrepl.rss", size: nil, value: flowRSS.isEmpty ? nil : median(flowRSS), unit: "B",
                baseline: luaRSSMedian))
        let requireMedian = requireFailed || require.isEmpty ? nil : median(require) * 1e9
        let why = module == nil ? "no module found (scripts/build-module)" : "require \"flow\" failed"
        report.add(
            Metric(
                name: "startup.require", size: nil, value: requireMedian, unit: "ns", baseline: luaMedian,
                note: requireMedian == nil ? why : module))
        report.add(
            Metric(
                name: "startup.require.rss", size: nil, value: requireFailed || requireRSS.isEmpty ? nil : median(requireRSS),
                unit: "B", baseline: luaRSSMedian, note: requireMedian == nil ? why : nil))
    }

    /// Seconds from spawn to exit of `program -e code` (stdin and stdout /dev/null) and its
    /// peak resident memory in bytes; nil when it cannot be spawned or does not exit with
    /// status 0. `environment`: entries added to (or replacing) the inherited ones.
    private static func spawn(
        _ program: String, search: Bool, code: String = "", environment: [String] = []
    ) -> (seconds: Double, rss: Double)? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let args: [UnsafeMutablePointer<CChar>?] = [strdup(program), strdup("-e"), strdup(code), nil]
        defer { for a in args { free(a) } }
        let replaced = Set(environment.map { $0.prefix { $0 != "=" } })
        var inherited: [String] = []
        var e = environ
        while let entry = e.pointee {
            let s = String(cString: entry)
            if !replaced.contains(s.prefix { $0 != "=" }) { inherited.append(s) }
            e += 1
        }
        let env: [UnsafeMutablePointer<CChar>?] = (inherited + environment).map { strdup($0) } + [nil]
        defer { for a in env { free(a) } }
        var pid: pid_t = 0
        let t0 = now()
        let rc =
            search
            ? posix_spawnp(&pid, program, &actions, nil, args, env)
            : posix_spawn(&pid, program, &actions, nil, args, env)
        guard rc == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let dt = now() - t0
        return status == 0 ? (dt, Double(usage.ru_maxrss) * 1024) : nil
    }

    /// `flowrepl` next to this executable (both are built into the same directory).
    static func defaultFlowrepl() -> String { executableDirectory() + "/flowrepl" }

    /// The LUA_CPATH of the Lua module: scripts/build-module's directory for this
    /// configuration (`.build/module-release` beside `.build/<triple>/release`) when it has
    /// a flow.so, else SwiftPM's libflow.so next to this executable; nil when neither is
    /// there.
    static func defaultModulePath() -> String? {
        let dir = executableDirectory()
        let config = String(dir[dir.index(after: dir.lastIndex(of: "/") ?? dir.startIndex)...])
        let built = dir + "/../../module-" + config
        if access(built + "/flow.so", R_OK) == 0 { return built + "/?.so" }
        if access(dir + "/libflow.so", R_OK) == 0 { return dir + "/lib?.so" }
        return nil
    }

    private static func executableDirectory() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return "." }
        let exe = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)])
    }
}
