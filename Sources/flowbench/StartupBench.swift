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
            if let t = spawn(flowrepl, search: false) { flow.append(t) } else { flowMissing = true }
            if let t = spawn("lua5.4", search: true) { lua.append(t) } else { luaMissing = true }
            if let env = requireEnv {
                if let t = spawn("lua5.4", search: true, code: "require 'flow'", environment: env) { require.append(t) } else { requireFailed = true }
            }
        }
        // Peak resident memory, as the process itself reports it (a spawned child's
        // ru_maxrss starts from its parent's, which shared its memory until exec).
        for _ in 0..<3 {
            if let r = peakRSS(flowrepl, search: false) { flowRSS.append(r) }
            if let r = peakRSS("lua5.4", search: true) { luaRSS.append(r) }
            if let env = requireEnv, let r = peakRSS("lua5.4", search: true, code: "require 'flow'", environment: env) {
                requireRSS.append(r)
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
                note: requireMedian == nil ? why : nil))
        report.add(
            Metric(
                name: "startup.require.rss", size: nil, value: requireFailed || requireRSS.isEmpty ? nil : median(requireRSS),
                unit: "B", baseline: luaRSSMedian, note: requireMedian == nil ? why : nil))
    }

    /// Seconds from spawn to exit of `program -e code` (stdin and stdout /dev/null); nil
    /// when it cannot be spawned or does not exit with status 0. `environment`: entries
    /// added to (or replacing) the inherited ones.
    private static func spawn(
        _ program: String, search: Bool, code: String = "", environment: [String] = []
    ) -> Double? {
        run(program, search: search, code: code, environment: environment, output: nil)
    }

    /// The peak resident size in bytes (VmHWM) of `program -e code` after `code` ran, as
    /// the process prints it.
    private static func peakRSS(
        _ program: String, search: Bool, code: String = "", environment: [String] = []
    ) -> Double? {
        let report = code + "; for l in io.lines('/proc/self/status') do local k = l:match('^VmHWM:%s+(%d+)'); if k then io.write(k) end end"
        let path = "/tmp/flowbench-rss-\(getpid())"
        defer { unlink(path) }
        guard run(program, search: search, code: report, environment: environment, output: path) != nil,
            let text = readText(path), let kb = Double(text)
        else { return nil }
        return kb * 1024
    }

    private static func run(
        _ program: String, search: Bool, code: String, environment: [String], output: String?
    ) -> Double? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", output == nil ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o600)
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
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let dt = now() - t0
        return status == 0 ? dt : nil
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
