import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What one preview server allows itself (docs/preview.md, "Limits"): the process keeps
/// file descriptors for the REPL (`save`, `open`) however many connections are tried.
public struct PreviewLimits: Sendable {
    /// Open connections at most (pages, WebSockets, and ones that have not said anything
    /// yet). More wait in the kernel's queue until one closes. At least 4.
    public var connections = 192
    /// WebSockets (live pages) at most; more are refused.
    public var webSockets = 64
    /// A connection that is not a WebSocket is closed this long after it opened: a request
    /// head sent slowly, or an idle keep-alive connection, does not hold a place.
    public var requestTimeout: TimeAmount = .seconds(30)
    /// A WebSocket is pinged this often, and closed when its pong has not come by the next
    /// ping.
    public var pingPeriod: Duration = .seconds(30)
    /// The largest frame and message a page may send (requests are tiny).
    public static let maximumMessageSize = 64 * 1024

    /// File descriptors kept for the rest of the process (the REPL's `save` and `open`, the
    /// server's own listening socket and wake-ups) whatever the connections take.
    public static let reservedDescriptors = 64

    public init() {}

    /// Raises the process's soft limit of file descriptors (RLIMIT_NOFILE) to its hard
    /// limit, so that the REPL has that many whatever the server holds; flowrepl does it
    /// when the preview starts. Returns the soft limit now in force (nil when it cannot be
    /// read). The process uses poll and epoll, never select, so descriptors past 1024 are
    /// fine.
    @discardableResult
    public static func raiseDescriptorLimit() -> Int? {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var r = rlimit()
        guard getrlimit(resource, &r) == 0 else { return nil }
        if r.rlim_cur < r.rlim_max {
            var raised = r
            raised.rlim_cur = r.rlim_max
            if setrlimit(resource, &raised) == 0 { r = raised }
        }
        return r.rlim_cur == rlim_t.max ? Int.max : Int(r.rlim_cur)
    }

    /// These limits with `connections` lowered, if need be, to leave
    /// `reservedDescriptors` of the process's limit (RLIMIT_NOFILE) free.
    func fitted() -> PreviewLimits {
        var r = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &r) == 0, r.rlim_cur != rlim_t.max else { return self }
        var fitted = self
        fitted.connections = min(connections, max(Int(r.rlim_cur) - Self.reservedDescriptors, ConnectionLimit.acceptsPerRead))
        return fitted
    }
}

/// Stops accepting connections at the limit (Hummingbird then leaves the listening socket
/// unread: further connections wait in the kernel's backlog, holding no descriptor of
/// ours). One read of the listening socket accepts up to 4 connections (NIO's
/// `maxMessagesPerRead`), so reading stops 4 short of the limit. That is not exact: a read
/// asked for while NIO accepts lets the next one through unchecked (10 of 8 seen), so
/// `GuardedChannel` closes a connection past the limit at once (held a moment: 203
/// descriptors of 192 were seen once in 240 looks).
struct ConnectionLimit: AvailableConnectionsDelegate {
    static let acceptsPerRead = 4
    let maximum: Int
    var open = 0

    init(_ maximum: Int) { self.maximum = max(maximum, Self.acceptsPerRead) }

    mutating func connectionOpened() { open += 1 }
    mutating func connectionClosed() { open -= 1 }
    func isAcceptingNewConnections() -> Bool { open + Self.acceptsPerRead <= maximum }
}

/// Places for connections or WebSockets, at most `maximum` taken.
final class Slots: Sendable {
    private let count = Mutex(0)
    let maximum: Int

    init(_ maximum: Int) { self.maximum = maximum }

    /// Takes a place for `channel`, given back when it closes; false when all are taken.
    func take(for channel: any Channel) -> Bool {
        let taken = count.withLock { n -> Bool in
            guard n < maximum else { return false }
            n += 1
            return true
        }
        if taken { channel.closeFuture.whenComplete { _ in self.count.withLock { $0 -= 1 } } }
        return taken
    }
}

/// Every connection of the server: Hummingbird's HTTP/WebSocket channel with a deadline in
/// front (`RequestDeadline`), closed at once when all `connections` places are taken.
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let requestTimeout: TimeAmount
    let connections: Slots

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard connections.take(for: channel) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ChannelError.inputClosed)
        }
        do {
            try channel.pipeline.syncOperations.addHandler(RequestDeadline(requestTimeout), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Closes its connection `timeout` after it was added, unless it was removed before: when
/// the connection became a WebSocket (`UpgradeWatch`).
final class RequestDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    private let timeout: TimeAmount
    private var task: Scheduled<Void>?

    init(_ timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        task = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        task?.cancel()
        task = nil
    }
}
