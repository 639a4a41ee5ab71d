import Dispatch
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import HTTPTypes
import HummingbirdCore
import Synchronization

/// The preview's web server: the page at `/`, one WebSocket per page at `/ws` (`?view=N`:
/// a picked store; `?name=...`: the name others see, `PreviewPresence`).
/// Runs on its own threads (Hummingbird's event loop and Swift's task pool); talks to the
/// REPL's thread only through the hub. Every request is checked against `access` (own
/// origin, loopback `Host` or a token) and the server keeps to `limits`.
public final class PreviewServer: Sendable {
    public let hub: PreviewHub
    /// The address actually bound (the port filled in when 0 was asked for).
    public let address: ServeAddress
    /// Who may connect (the token the page's address carries, if any).
    public let access: PreviewAccess

    /// Starts listening at `address` and returns once it does. Throws a message when the
    /// address cannot be bound. Beyond loopback a token is required: `token`, or a new
    /// random one (`access.token`, part of `url(view:)`).
    public init(address: ServeAddress, hub: PreviewHub, token: String? = nil, limits: PreviewLimits = PreviewLimits())
        throws(PreviewServerError)
    {
        self.hub = hub
        let limits = limits.fitted()
        let token = token ?? (PreviewAccess.isLoopback(address.host) ? nil : PreviewAccess.makeToken())
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Int, PreviewServerError>?>(nil)
        // The access depends on the port bound, known once the server runs; requests
        // cannot come before.
        let bound = Mutex(PreviewAccess(address: address, token: token))
        let check: @Sendable () -> PreviewAccess = { bound.withLock { $0 } }
        var logger = Logger(label: "flowrepl.preview")
        logger.logLevel = .critical
        let sockets = Slots(limits.webSockets), connections = Slots(limits.connections)
        let app = Application(
            router: PreviewServer.pageRouter(access: check),
            server: HTTPServerBuilder { responder in
                GuardedChannel(
                    inner: GatedUpgradeChannel(inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder,
                        configuration: .init(
                            http1: .init(),
                            ws: .init(
                                maxFrameSize: PreviewLimits.maximumMessageSize, autoPing: .enabled(timePeriod: limits.pingPeriod),
                                validateUTF8: true)),
                        shouldUpgrade: { request, channel, _ in
                            PreviewServer.upgrade(request, channel, hub: hub, access: check(), sockets: sockets)
                        }), access: check),
                    requestTimeout: limits.requestTimeout, connections: connections)
            },
            configuration: .init(
                address: .hostname(address.host, port: address.port), serverName: nil,
                availableConnectionsDelegate: ConnectionLimit(limits.connections)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                bound.withLock { $0 = PreviewAccess(address: ServeAddress(host: address.host, port: port), token: token) }
                outcome.withLock { $0 = .success(port) }
                started.signal()
            },
            logger: logger)
        // Runs for the rest of the process (the REPL ends by exiting).
        Task.detached {
            do {
                try await app.run()
            } catch {
                let first = outcome.withLock { o -> Bool in
                    guard o == nil else { return false }
                    o = .failure(PreviewServerError("cannot listen on \(address): \(error)"))
                    return true
                }
                if first { started.signal() }
            }
        }
        started.wait()
        switch outcome.withLock({ $0 })! {
        case .success(let port): self.address = ServeAddress(host: address.host, port: port)
        case .failure(let e): throw e
        }
        self.access = check()
    }

    /// The page's address for `view` (nil: the plain address, whose page follows the store
    /// changed last), with the token.
    public func url(view: Int? = nil) -> String {
        let host = address.host == "0.0.0.0" || address.host == "::" ? "localhost" : address.host
        let base = "http://\(ServeAddress(host: host, port: address.port))/"
        var query: [String] = []
        if let view { query.append("view=\(view)") }
        if let token = access.token { query.append("token=\(token)") }
        return query.isEmpty ? base : base + "?" + query.joined(separator: "&")
    }

    static func pageRouter(access: @escaping @Sendable () -> PreviewAccess) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { request, _ in
            if let reason = access().refusal(
                host: request.head.authority, origin: request.headers[.origin],
                token: request.uri.queryParameters["token"].map(String.init))
            {
                return Response(
                    status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: PreviewAccess.forbidden(reason))))
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    // the address may carry the token: not to other sites, and no framing
                    .init("Referrer-Policy")!: "no-referrer", .init("X-Frame-Options")!: "DENY",
                    .contentSecurityPolicy: "frame-ancestors 'none'",
                ],
                body: .init(byteBuffer: ByteBuffer(string: PreviewPage.html)))
        }
        return router
    }

    /// Whether to make a WebSocket of `request`: the path `/ws`, a view the hub has, a
    /// request `access` allows and a free place. Accepted, the connection's frames get
    /// their masks checked (`UpgradeWatch`).
    static func upgrade(
        _ request: HTTPRequest, _ channel: any Channel, hub: PreviewHub, access: PreviewAccess, sockets: Slots
    ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let uri = URI(request.path ?? "")
        guard uri.path == "/ws", let view = viewParameter(uri), view.map(hub.hasView) ?? true,
            access.allows(host: request.authority, origin: request.headerFields[.origin], token: uri.queryParameters["token"].map(String.init)),
            (try? channel.pipeline.syncOperations.addHandler(UpgradeWatch())) != nil,
            sockets.take(for: channel)
        else { return .dontUpgrade }
        let name = uri.queryParameters["name"].map { String($0) }
        return .upgrade([:]) { inbound, outbound, _ in
            try await serve(view: view, name: name, inbound, outbound, hub: hub)
        }
    }

    /// One page's WebSocket, until it closes. Throws what ended the receiving, so that the
    /// socket closes with its code: 1009 for a message over 64 KiB, 1007 for text that is
    /// not UTF-8.
    static func serve(
        view: Int?, name: String?, _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, hub: PreviewHub
    ) async throws {
        guard let (page, doorbell) = hub.connect(view: view, name: name) else { return }  // full: closed
        defer { hub.disconnect(page) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Sending: the latest frame if the page has not had it, then the replies
                // and notices (a notice is about the picture before it).
                for await _ in doorbell {
                    let out = hub.take(for: page)
                    if let frame = out.frame { try await outbound.write(.text(frame.message)) }
                    for message in out.messages { try await outbound.write(.text(message)) }
                }
            }
            group.addTask {
                // Receiving: well-formed requests go to the REPL, the rest are refused.
                for try await message in inbound.messages(maxSize: PreviewLimits.maximumMessageSize) {
                    guard case .text(let text) = message else {
                        hub.refuse(page, PageRequestError("message: JSON text expected"))
                        continue
                    }
                    do throws(PageRequestError) {
                        let request = try PageRequest.parse(text)
                        if case .view(let view) = request {
                            try hub.pick(view, for: page)  // the hub's own business: no store involved
                            hub.reply(to: page, PreviewMessages.ok)
                        } else {
                            hub.post(request, from: page)
                        }
                    } catch {
                        hub.refuse(page, error)
                    }
                }
            }
            // The page went away, its socket failed or it broke the protocol: stop sending
            // too, and close with the receiving's error, if any.
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    /// The view a page asks for: `.some(nil)` without `view=` (it follows the store changed
    /// last), `.some(n)` for `view=n`, nil when the parameter is not a positive number.
    static func viewParameter(_ uri: URI) -> Int?? {
        guard let text = uri.queryParameters["view"] else { return .some(nil) }
        guard let n = Int(String(text)), n > 0 else { return nil }
        return .some(n)
    }
}

/// Why the server could not start.
public struct PreviewServerError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
