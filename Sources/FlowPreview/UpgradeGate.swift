import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's WebSocket channel with `UpgradeGate` behind its request decoder.
struct GatedUpgradeChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let access: @Sendable () -> PreviewAccess

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let access = access
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let ops = channel.pipeline.syncOperations
            let decoder = try ops.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try ops.addHandler(UpgradeGate(access: access), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Answers a WebSocket upgrade that `PreviewAccess` refuses with 403 Forbidden and the
/// reason, and closes the connection. (Hummingbird answers every refused upgrade with an
/// empty 400 Bad Request: a browser's console then shows nothing of why.) Only a
/// connection's first request can be an upgrade: the gate leaves after it.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let access: @Sendable () -> PreviewAccess
    private var refused = false

    init(access: @escaping @Sendable () -> PreviewAccess) { self.access = access }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }  // the rest of the refused request
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.headers.contains(name: "upgrade"),
            let reason = access().refusal(
                host: head.headers.first(name: "host"), origin: head.headers.first(name: "origin"),
                token: URI(head.uri).queryParameters["token"].map(String.init))
        {
            refused = true
            refuse(context, version: head.version, reason: reason)
            return
        }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ context: ChannelHandlerContext, version: HTTPVersion, reason: String) {
        let body = context.channel.allocator.buffer(string: PreviewAccess.forbidden(reason))
        let head = HTTPResponseHead(
            version: version, status: .forbidden,
            headers: [
                "Content-Type": "text/plain; charset=utf-8", "Content-Length": "\(body.readableBytes)",
                "Connection": "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
