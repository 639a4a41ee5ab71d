import CLua
import CLuaShims
import FlowLua
import FlowSession
import FlowPreview
import Glibc

/// `flowrepl --watch script.lua`: runs the script in a fresh session whenever the file
/// changes and shows the stores it made live (docs/preview.md). A run that fails is reported on
/// stderr and on the pages; the last good picture stays, and clicks keep acting on it.
struct Watch {
    let script: String
    let progname: String
    let quiet: Bool

    /// Event lines are printed only for the pages' requests, not while the script runs.
    nonisolated(unsafe) static var printsEvents = false

    /// How often the file is looked at, in milliseconds.
    static let pollInterval: Int32 = 100

    func run() -> Bool {
        guard var stamp = Watch.stamp(script) else {
            LuaContext.writeStderrLine("\(progname): cannot open \(script)")
            return false
        }
        var host = makeHost()
        let preview: PreviewHost
        do { preview = try PreviewHost.start(host: host) } catch {
            LuaContext.writeStderrLine("\(progname): \(error.message)")
            return false
        }
        LuaContext.writeStdoutLine("preview: \(preview.server.url())")
        LuaContext.writeStdoutLine("watching \(script) (Ctrl-C to stop)")
        if let failure = runScript(host) { preview.notify(failure) }
        preview.keepStores()
        preview.refresh()
        fflush(flua_stdout())
        while true {
            var p = pollfd(fd: preview.wakeFD, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Watch.pollInterval) > 0 {
                preview.serviceRequests()
                fflush(flua_stdout())
            }
            guard let now = Watch.stamp(script), now != stamp else { continue }
            stamp = now
            let next = makeHost()
            let old = preview.rebind(next)
            if let failure = runScript(next) {
                preview.restore(old)
                next.close()
                preview.notify(failure)
                preview.refresh()
            } else {
                host.close()
                host = next
                preview.keepStores()
                preview.endRun()
                preview.clearNotice()
                preview.refresh()
                LuaContext.writeStdoutLine("ran \(script)")
            }
            fflush(flua_stdout())
        }
    }

    /// A session like flowrepl's own (the global `store`, `save`, `open`, `preview`).
    func makeHost() -> LuaHost {
        let host = LuaHost()
        if !quiet { host.eventOutput = { line in if Watch.printsEvents { LuaContext.writeStdoutLine(line) } } }
        FlowHelp.install(host.L)
        SessionGlobals.setUp(host)
        PreviewHost.install(host)
        return host
    }

    /// Runs the script; returns its error (already printed on stderr), nil on success.
    func runScript(_ host: LuaHost) -> String? {
        Watch.printsEvents = false
        defer { Watch.printsEvents = true }
        if host.run(file: script) == nil { return host.lastError ?? "error" }
        return nil
    }

    /// What tells a saved file from the one seen before: its inode, size and time.
    struct Stamp: Equatable {
        let inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    static func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Stamp(
            inode: UInt64(st.st_ino), size: Int64(st.st_size), seconds: st.st_mtim.tv_sec,
            nanoseconds: st.st_mtim.tv_nsec)
    }
}
