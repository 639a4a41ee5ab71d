import Foundation
import GRDB

/// Where the connections of closed workspaces go, so that closing one leaves no work
/// running on another thread.
///
/// Releasing GRDB's `DatabaseQueue` releases its Dispatch queue, and libdispatch disposes
/// of that queue's specific (GRDB's scheduling watchdog, which holds the connection's
/// `Database`) asynchronously, on a worker thread it starts for it: Swift code of this
/// library ran on that thread after `close` returned — at the end of a lua5.4 script,
/// while `lua_close` unloaded the modules and the process exited (docs/workspaces.md,
/// "Exit"). So `close` keeps the closed queue here instead, which starts nothing. Opening a
/// workspace makes room: beyond `limit` kept queues it releases the oldest and waits until
/// its disposal has run (the `Sentinel` in its configuration is freed with the
/// connection), then goes on to open its file (milliseconds, while the disposal's last
/// instructions finish), so the last thing a script does before it ends never leaves one
/// in flight.
enum RetiredConnections {
    /// How many closed connections are kept (a closed one holds about 20 KB).
    static let limit = 8
    /// How long `makeRoom` waits for the disposal of a released connection.
    static let wait = 2.0

    nonisolated(unsafe) private static var kept: [(DatabaseQueue, DispatchSemaphore)] = []
    private static let lock = NSLock()

    /// Owned by the configuration of one connection: freed (and signalling) when the last
    /// copy of that configuration is, which the connection's `Database` holds until the
    /// disposal of its queue frees it.
    final class Sentinel: Sendable {
        let released = DispatchSemaphore(value: 0)
        deinit { released.signal() }
    }

    /// Gives `configuration` a sentinel; returns the semaphore it signals when freed.
    static func watch(_ configuration: inout Configuration) -> DispatchSemaphore {
        let sentinel = Sentinel()
        configuration.prepareDatabase { _ in _ = sentinel }
        return sentinel.released
    }

    /// Keeps the closed `queue` (whose configuration `watch` gave `released`).
    static func retire(_ queue: DatabaseQueue, _ released: DispatchSemaphore) {
        lock.lock()
        kept.append((queue, released))
        lock.unlock()
    }

    /// Releases the oldest kept queues beyond `limit - 1` (a workspace is about to open),
    /// each once its disposal has run.
    static func makeRoom() {
        while true {
            lock.lock()
            var old = kept.count >= limit ? kept.removeFirst() : nil
            lock.unlock()
            guard let oldReleased = old?.1 else { return }
            old = nil  // the old queue's last reference: libdispatch disposes of it
            _ = oldReleased.wait(timeout: .now() + wait)
        }
    }
}
