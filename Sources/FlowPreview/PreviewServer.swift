import Dispatch
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// The preview's web server: the page at `/`, one WebSocket per page at `/ws?view=N`.
/// Runs on its own threads (Hummingbird's event loop and Swift's task pool); talks to the
/// REPL's thread only through the hub.
public final class PreviewServer: Sendable {
    public let hub: PreviewHub
    /// The address actually bound (the port filled in when 0 was asked for).
    public let address: ServeAddress

    /// The largest message a page may send (requests are tiny).
    static let maximumRequestSize = 64 * 1024

    /// Starts listening at `address` and returns once it does. Throws a message when the
    /// address cannot be bound.
    public init(address: ServeAddress, hub: PreviewHub) throws(PreviewServerError) {
        self.hub = hub
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Int, PreviewServerError>?>(nil)
        var logger = Logger(label: "flowrepl.preview")
        logger.logLevel = .critical
        let app = Application(
            router: PreviewServer.pageRouter(),
            server: .http1WebSocketUpgrade(webSocketRouter: PreviewServer.socketRouter(hub: hub)),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { channel in
                outcome.withLock { $0 = .success(channel.localAddress?.port ?? address.port) }
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
    }

    /// The page's address for `view` (view 1 is the plain address).
    public func url(view: Int) -> String {
        let host = address.host == "0.0.0.0" || address.host == "::" ? "localhost" : address.host
        let base = "http://\(ServeAddress(host: host, port: address.port))/"
        return view == 1 ? base : base + "?view=\(view)"
    }

    static func pageRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: PreviewPage.html)))
        }
        return router
    }

    static func socketRouter(hub: PreviewHub) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws("/ws") { request, _ in
            guard let view = viewParameter(request), hub.hasView(view) else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let view = viewParameter(context.request) else { return }
            let (page, doorbell) = hub.connect(view: view)
            defer { hub.disconnect(page) }
            await withThrowingTaskGroup(of: Void.self) { group in
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
                    for try await message in inbound.messages(maxSize: maximumRequestSize) {
                        guard case .text(let text) = message else {
                            hub.refuse(page, PageRequestError("message: JSON text expected"))
                            continue
                        }
                        do throws(PageRequestError) {
                            hub.post(try PageRequest.parse(text), from: page)
                        } catch {
                            hub.refuse(page, error)
                        }
                    }
                }
                // The page went away (or its socket failed): stop sending too.
                _ = try? await group.next()
                group.cancelAll()
            }
        }
        return router
    }

    static func viewParameter(_ request: Request) -> Int? {
        guard let text = request.uri.queryParameters["view"] else { return 1 }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }
}

/// Why the server could not start.
public struct PreviewServerError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
