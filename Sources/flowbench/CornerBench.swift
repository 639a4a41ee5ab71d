@preconcurrency import Glibc
import FlowCore

/// Corners that once went quadratic (issue #25), per item at each size: `load` of a
/// document whose nodes form one parent chain `n` deep, `undo` of a delete of `n` nodes,
/// and piped `flowrepl` reading a chunk of `n` continuation lines (a long string). Each
/// is one timed run; `Scaling` reports the growth from the smallest size, which stays near
/// 1× while they are linear.
enum CornerBench {
    static let operations = ["loadParentChain", "undoBulkDelete", "replLongChunk"]

    static func run(size n: Int, flowrepl: String, into report: Report) {
        report.add(Metric(name: "corner.loadParentChain", size: n, value: loadParentChain(n) / Double(n) * 1e9, unit: "ns"))
        report.add(Metric(name: "corner.undoBulkDelete", size: n, value: undoBulkDelete(n) / Double(n) * 1e9, unit: "ns"))
        let repl = replLongChunk(n, flowrepl: flowrepl)
        report.add(
            Metric(
                name: "corner.replLongChunk", size: n, value: repl.map { $0 / Double(n) * 1e9 }, unit: "ns",
                note: repl == nil ? "flowrepl not runnable" : nil))
    }

    /// Seconds to load a document of `n` group nodes, each the parent of the next.
    static func loadParentChain(_ n: Int) -> Double {
        var text = #"{"version": 1, "viewport": {"offset": [0, 0], "zoom": 1}, "edges": [], "nodes": ["#
        for i in 0..<n {
            if i > 0 { text += ", " }
            let parent = i > 0 ? #", "parentID": "n\#(i - 1)""# : ""
            text += #"{"id": "n\#(i)", "position": [0, 0], "size": [10, 10], "acceptsChildren": true\#(parent)}"#
        }
        text += "]}"
        let store = FlowStore<JSONValue>()
        return time { _ = try! store.load(json: text) }
    }

    /// Seconds to undo the removal of all `n` nodes of a store (one step).
    static func undoBulkDelete(_ n: Int) -> Double {
        let store = FlowStore<JSONValue>()
        store.isUndoEnabled = false
        for i in 0..<n {
            try! store.addNode(FlowNode(id: "n\(i)", position: Point(Double(i % 1000) * 20, Double(i / 1000) * 20), size: Size(10, 10), data: .null))
        }
        store.isUndoEnabled = true
        store.transaction("Delete") { for i in 0..<n { try! store.removeNode("n\(i)") } }
        return time { _ = try! store.undo() }
    }

    /// Seconds for `flowrepl` to run piped input holding one long string of `n` lines
    /// (the chunk is incomplete until its last line), minus its start-up.
    static func replLongChunk(_ n: Int, flowrepl: String) -> Double? {
        var input = "s = [[\n"
        for i in 0..<n { input += "line \(i)\n" }
        input += "]]\n"
        guard let empty = pipe("", to: flowrepl), let full = pipe(input, to: flowrepl) else { return nil }
        return max(full - empty, 0)
    }

    /// Seconds from spawning `flowrepl` with `input` on its standard input (a pipe) to its
    /// exit; nil when it cannot be run or fails.
    private static func pipe(_ input: String, to program: String) -> Double? {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let args: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        defer { for a in args { free(a) } }
        var pid: pid_t = 0
        let t0 = now()
        let rc = posix_spawn(&pid, program, &actions, nil, args, environ)
        close(fds[0])
        guard rc == 0 else {
            close(fds[1])
            return nil
        }
        let bytes = Array(input.utf8)
        var sent = 0
        while sent < bytes.count {
            let k = bytes[sent...].withUnsafeBufferPointer { write(fds[1], $0.baseAddress, $0.count) }
            if k <= 0 { break }
            sent += k
        }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let dt = now() - t0
        return status == 0 && sent == bytes.count ? dt : nil
    }
}
