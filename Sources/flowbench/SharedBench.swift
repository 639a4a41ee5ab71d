@preconcurrency import Glibc
import FlowCore
import FlowPostgres
import Foundation

/// The shared-workspace section (docs/collaboration.md), against the PostgreSQL database
/// of FLOW_BENCH_POSTGRES_URL (else FLOW_TEST_POSTGRES_URL; skipped without either): batches
/// committed per second by 1 and by 20 writers (each a session with its own connection
/// and thread, moving nodes of its own on one 1,000-node diagram, syncing every 10
/// batches), and the time from a moveNode call in one session to the change being in
/// another session's store (woken by NOTIFY), p50 and p95.
enum SharedBench {
    typealias Store = FlowStore<JSONValue>

    static func run(size: Int, into report: Report) {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["FLOW_BENCH_POSTGRES_URL"] ?? env["FLOW_TEST_POSTGRES_URL"] else {
            report.add(Metric(name: "shared", size: nil, value: nil, unit: "", note: "skipped: FLOW_BENCH_POSTGRES_URL is not set (scripts/pg-cluster start)"))
            return
        }
        do {
            let name = "bench-\(getpid())"
            let first = try PostgresWorkspace(url: url)
            let s = Store()
            try s.load(WorkspaceBench.document(size, edges: false))
            try first.create(name, into: s)
            for writers in [1, 20] {
                let rate = try throughput(url, name, size: size, writers: writers, batches: writers == 1 ? 400 : 60)
                report.add(Metric(name: "shared.commits.\(writers)writers", size: size, value: rate, unit: "batches/s"))
            }
            let (p50, p95, c50, c95) = try latency(url, name, size: size, samples: 200)
            report.add(Metric(name: "shared.latency.p50", size: size, value: p50 * 1e9, unit: "ns", baseline: c50 * 1e9))
            report.add(Metric(name: "shared.latency.p95", size: size, value: p95 * 1e9, unit: "ns", baseline: c95 * 1e9))
            first.unbind(name)
            try first.delete(name)
            first.close()
        } catch {
            report.add(Metric(name: "shared", size: nil, value: nil, unit: "", note: "failed: \(error)"))
        }
    }

    /// Sessions on diagram `name`, each opened on this thread.
    static func sessions(_ url: String, _ name: String, _ count: Int) throws -> [(PostgresWorkspace, Store)] {
        try (0..<count).map { _ in
            let ws = try PostgresWorkspace(url: url)
            let s = Store()
            try ws.open(name, into: s)
            return (ws, s)
        }
    }

    /// Batches per second committed by `writers` sessions at once.
    static func throughput(_ url: String, _ name: String, size: Int, writers: Int, batches: Int) throws -> Double {
        let all = try sessions(url, name, writers)
        let group = DispatchGroup()
        let t0 = now()
        for (w, (ws, s)) in all.enumerated() {
            nonisolated(unsafe) let ws = ws, s = s
            group.enter()
            Thread.detachNewThread {
                for i in 0..<batches {
                    let id = "n\((w + i * writers) % size)"
                    _ = try? s.moveNode(id, to: Point(Double(i), Double(w)))
                    if i % 10 == 9 { _ = try? ws.sync() }
                }
                group.leave()
            }
        }
        group.wait()
        let elapsed = now() - t0
        for (ws, _) in all { ws.close() }
        return Double(writers * batches) / elapsed
    }

    /// p50 and p95 of the time from a call in one session to its change in another's store,
    /// and of the call itself (its commit: the baseline).
    static func latency(_ url: String, _ name: String, size: Int, samples: Int) throws -> (Double, Double, Double, Double) {
        let pair = try sessions(url, name, 2)
        nonisolated(unsafe) let (writer, _) = pair[0], (reader, readerStore) = pair[1]
        _ = writer
        let seen = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var arrived: [Double] = []
        let lock = NSLock()
        nonisolated(unsafe) var stop = false
        let target = "n\(size / 2)"
        Thread.detachNewThread {
            var last = readerStore.node(target)?.position.x ?? -1
            while !lock.withLock({ stop }) {
                var fds = pollfd(fd: reader.socket, events: Int16(POLLIN), revents: 0)
                guard poll(&fds, 1, 100) > 0 else { continue }
                _ = try? reader.sync()
                let x = readerStore.node(target)?.position.x ?? -1
                if x != last {
                    last = x
                    let t = now()
                    lock.withLock { arrived.append(t) }
                    seen.signal()
                }
            }
        }
        var times: [Double] = [], calls: [Double] = []
        let writerStore = pair[0].1
        for i in 0..<samples {
            let t0 = now()
            try writerStore.moveNode(target, to: Point(Double(10_000 + i), 0))
            calls.append(now() - t0)
            seen.wait()
            times.append(lock.withLock { arrived.last! } - t0)  // invariant: signalled after an append
        }
        lock.withLock { stop = true }
        usleep(200_000)
        for (ws, _) in pair { ws.close() }
        func p(_ v: [Double], _ q: Int) -> Double { v.sorted()[min(v.count - 1, v.count * q / 100)] }
        return (p(times, 50), p(times, 95), p(calls, 50), p(calls, 95))
    }
}
