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
/// "Exit"). So a closed queue is kept here instead, which starts nothing. Only beyond
/// `limit` kept queues is the oldest released, and `retire` waits until its disposal has
/// run (the `Sentinel` in its configuration is the last thing it frees).
enum RetiredConnections {
    /// How many closed connections are kept (a closed one holds a few kilobytes).
    static let limit = 8
    /// How long `retire` waits for the disposal of a released connection.
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

    /// Keeps the closed `queue` (whose configuration `watch` gave `released`); releases the
    /// oldest beyond `limit` and waits for its disposal.
    static func retire(_ queue: DatabaseQueue, _ released: DispatchSemaphore) {
        lock.lock()
        kept.append((queue, released))
        var old = kept.count > limit ? kept.removeFirst() : nil
        lock.unlock()
        guard let oldReleased = old?.1 else { return }
        old = nil  // the old queue's last reference: libdispatch disposes of it
        _ = oldReleased.wait(timeout: .now() + wait)
    }
}
